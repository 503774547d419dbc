import Foundation
import Testing

/// Presets take `--font FAMILY[,FAMILY…]`; `golden` takes `--font-dir` and
/// `--no-system-fonts` as `render` and `fonts` do.
@Suite struct FontOptionTests {
    @Test func aPresetsFontOptionPicksTheFamily() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let plain = folder.appendingPathComponent("plain.png"), cjk = folder.appendingPathComponent("cjk.png")
        #expect(try runPinmint(["render", "price-tag", "--label", "AVATAR", "-o", plain.path]).status == 0)
        // Noto Sans CJK SC has its own Latin letters; the badge 成 takes them too.
        let listed = try runPinmint(["render", "price-tag", "--label", "AVATAR", "--font", "Noto Sans CJK SC, Noto Sans", "-o", cjk.path])
        #expect(listed.status == 0 && listed.standardError.isEmpty)
        #expect(try Data(contentsOf: plain) != Data(contentsOf: cjk))

        let unknown = try runPinmint(["render", "price-tag", "--font", "Nope Sans", "-o", folder.appendingPathComponent("x.png").path])
        #expect(unknown.status == 2)
        #expect(unknown.standardError.contains("none of the families Nope Sans is installed; available: Noto Sans,"))
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("x.png").path))
    }

    @Test func goldenTakesFontFoldersAndCanLeaveSystemFontsOut() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let golden = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Golden/markers")
        for name in ["price-tag-cjk.json", "price-tag-cjk@1x.png", "price-tag-cjk@2x.png", "price-tag-cjk@3x.png"] {
            try FileManager.default.copyItem(at: golden.appendingPathComponent(name), to: folder.appendingPathComponent(name))
        }
        let fonts = folder.appendingPathComponent("fonts")
        try FileManager.default.createDirectory(at: fonts, withIntermediateDirectories: true)
        let run = try runPinmint(["golden", folder.path, "--no-system-fonts", "--font-dir", fonts.path])
        let output = String(decoding: run.standardOutput, as: UTF8.self)
        #expect(run.status == 0, "\(output) \(run.standardError)")
        #expect(output.hasPrefix("3 cases: 3 passed"), "one description at @1x, @2x and @3x")
        let missing = try runPinmint(["golden", folder.path, "--font-dir", folder.appendingPathComponent("nope").path])
        #expect(missing.status == 3)
        #expect(missing.standardError == "pinmint: golden: --font-dir '\(folder.appendingPathComponent("nope").path)' is not a folder\n")
    }
}
