import Foundation
import Testing

/// Characters no font has were boxes with exit code 0: `batch` said nothing
/// (a 5,000-row run was 35 % boxes), and `render`'s warning named no font.
/// U+10FFFD (private use, plane 16) is in no font anywhere.
@Suite struct MissingGlyphTests {
    static let missing = "\u{10FFFD}"

    @Test func renderNamesTheCharactersAndTheFontsTried() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let out = folder.appendingPathComponent("t.png").path
        let result = try runPinmint(["render", "price-tag", "--label", "5\(Self.missing)", "-o", out])
        #expect(result.status == 0)
        #expect(result.standardError.hasPrefix("pinmint: warning: price-tag: no font has a glyph for U+10FFFD; tried Noto Sans, "))
        #expect(result.standardError.hasSuffix(" and the system's fonts\n"))
        #expect(result.standardError.components(separatedBy: "\n").count == 2, "one line")
        #expect(FileManager.default.fileExists(atPath: out))
    }

    @Test func strictGlyphsMakesRenderFailAndWriteNothing() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let out = folder.appendingPathComponent("t.png").path
        let result = try runPinmint(["render", "price-tag", "--label", "5\(Self.missing)", "--scale", "1,2", "-o", out,
                                     "--strict-glyphs"])
        #expect(result.status == 2)
        #expect(result.standardError.hasPrefix("pinmint: render: price-tag: no font has a glyph for U+10FFFD; tried "))
        #expect(result.standardError.hasSuffix("(--strict-glyphs: nothing written)\n"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty)
        // Text every font chain covers passes.
        let fine = try runPinmint(["render", "price-tag", "--label", "5200萬", "-o", out, "--strict-glyphs"])
        #expect(fine.status == 0 && fine.standardError.isEmpty)
    }

    @Test func batchReportsEachRowCountsThemAndMarksTheIndex() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let data = folder.appendingPathComponent("d.csv")
        try Data("id,price\na,100\nb,5\(Self.missing)\nc,7\nd,\(Self.missing)☃\n".utf8).write(to: data)
        let out = folder.appendingPathComponent("out").path
        let arguments = ["batch", data.path, "-o", out, "--style", "price-tag", "--set", "label={price}", "--jobs", "2"]
        let result = try runPinmint(arguments)
        #expect(result.status == 0, "boxes are drawn and reported, not failures")
        let lines = result.standardError.split(separator: "\n").map(String.init)
        #expect(lines.count == 3)
        #expect(lines[0].hasPrefix("pinmint: warning: \(data.path):3: no font has a glyph for U+10FFFD; tried Noto Sans, "))
        #expect(lines[1].hasPrefix("pinmint: warning: \(data.path):5: no font has a glyph for U+10FFFD"))
        #expect(lines[2] == "pinmint: batch: 2 of 4 rows drew characters no font has as boxes (install a font that has them, "
                + "or add --font-dir; --strict-glyphs makes them failures)")
        let index = try String(contentsOfFile: out + "/index.json", encoding: .utf8)
        let marked = index.split(separator: "\n").filter { $0.contains("\"missingGlyphs\"") }
        #expect(marked.count == 2)
        #expect(marked.first?.contains("\"missingGlyphs\":[\"\(Self.missing)\"]") == true)
        #expect(marked.last?.contains("\"row\":5") == true)
        // ☃ is in a system font here or not; U+10FFFD is listed either way.
        #expect(marked.last?.contains("\"missingGlyphs\":[\"\(Self.missing)\"") == true)

        // A re-run skips the markers and still reports the rows, from the index.
        let again = try runPinmint(arguments)
        #expect(again.status == 0)
        #expect(again.standardError.contains("\(data.path):3: no font has a glyph for U+10FFFD (b.png is up to date from an earlier run)"))
        #expect(again.standardError.contains("2 of 4 rows drew characters no font has as boxes"))
    }

    @Test func strictGlyphsMakesBatchRowsFail() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let data = folder.appendingPathComponent("d.csv")
        try Data("id,price\na,100\nb,5\(Self.missing)\nc,7\n".utf8).write(to: data)
        let out = folder.appendingPathComponent("out").path
        let arguments = ["batch", data.path, "-o", out, "--style", "price-tag", "--set", "label={price}"]
        // Rendered with boxes first: the re-run with --strict-glyphs must not take b as up to date.
        #expect(try runPinmint(arguments).status == 0)
        let result = try runPinmint(arguments + ["--strict-glyphs"])
        #expect(result.status == 1)
        let lines = result.standardError.split(separator: "\n")
        #expect(lines.count == 1)
        #expect(lines.first?.hasPrefix("pinmint: \(data.path):3: no font has a glyph for U+10FFFD; tried Noto Sans, ") == true)
        #expect(lines.first?.hasSuffix("(--strict-glyphs)") == true)
        let index = try String(contentsOfFile: out + "/index.json", encoding: .utf8)
        #expect(!index.contains("\"missingGlyphs\""))
        #expect(index.contains("\"failed\": 1"))
    }
}
