import Foundation
import PinmintPNG
import PinmintSprites
import Testing

/// What `SpriteInputs` gathers from folders, files and sidecars, and what it refuses.
struct SpriteInputsTests {
    /// A fresh folder for one test; the caller removes it.
    static func makeFolder() throws -> String {
        let folder = NSTemporaryDirectory() + "pinmint-inputs-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        return folder
    }

    /// An opaque `width` × `height` PNG at `path`.
    static func writePNG(_ path: String, width: Int, height: Int) throws {
        let pixels = [UInt8](repeating: 255, count: width * height * 4)
        try PNGEncoder.writeAtomically(try PNGEncoder.encode(straightRGBA8: pixels, width: width, height: height), to: path)
    }

    /// A folder's file names became ids unchecked: "new\nline" went into the
    /// index (and split warnings across lines), where a list's "id" with the
    /// same text is refused.
    @Test(arguments: ["new\nline", "esc\u{1B}[31m", "-dash", "a#b"])
    func aFileNameThatMakesNoIdIsRefusedNamingTheFile(_ name: String) throws {
        let folder = try Self.makeFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try Self.writePNG(folder + "/good.png", width: 2, height: 2)
        try Self.writePNG(folder + "/" + name + ".png", width: 2, height: 2)
        for paths in [[folder], [folder + "/" + name + ".png"]] {
            #expect(throws: SpriteError(input: folder + "/" + name + ".png", problem: SpriteID.problem(name)!)) {
                try SpriteInputs(paths: paths)
            }
        }
        // The same rule as a marker list's "id".
        let list = folder + "/list.json"
        try Data(#"[{"id": \#(String(decoding: try JSONEncoder().encode(name), as: UTF8.self)), "preset": "pin"}]"#.utf8)
            .write(to: URL(fileURLWithPath: list))
        #expect(throws: SpriteError(input: list + "[0]", problem: "id: " + SpriteID.problem(name)!)) {
            try SpriteInputs(paths: [list])
        }
    }

    /// Regression: the rule looked at each code point alone, so words whose
    /// letters carry combining marks or joiners (a decomposed "café", Hindi's
    /// virama, Thai tone marks, Persian's zero-width non-joiner, Catalan's
    /// l·l, Japanese ・) were refused as ids, from file names too.
    @Test(arguments: ["cafe\u{301}", "मस्जिद", "ร้าน", "می\u{200C}خانه", "col·legi", "カフェ・バー"])
    func lettersWithTheirMarksAndJoinersAreIds(_ name: String) throws {
        #expect(SpriteID.problem(name) == nil)
        // Emoji are symbols, not letters: still refused, joined or not.
        #expect(SpriteID.problem("👨\u{200D}👩") != nil)
        let folder = try Self.makeFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try Self.writePNG(folder + "/" + name + ".png", width: 2, height: 2)
        #expect(try SpriteInputs(paths: [folder]).sources.map(\.id) == [name])
    }

    /// NAME@Sx.png must be S times NAME.png (within a pixel when S times the
    /// size is not whole): a 4096² a@2x.png beside a 20² a.png made a 4096²
    /// @2x sheet.
    @Test(arguments: [(20, 2.0, 4096, false), (20, 2.0, 41, false), (20, 2.0, 39, false), (20, 2.0, 40, true),
                      (15, 1.5, 22, true), (15, 1.5, 23, true), (15, 1.5, 24, false), (15, 3.0, 45, true)])
    func aRetinaFileMustBeItsRatioTimesTheBaseFile(_ side: Int, _ ratio: Double, _ retinaSide: Int, _ accepted: Bool) throws {
        let folder = try Self.makeFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let ratioText = ratio == ratio.rounded() ? String(Int(ratio)) : String(ratio)
        let retina = folder + "/a@\(ratioText)x.png"
        try Self.writePNG(folder + "/a.png", width: side, height: side)
        try Self.writePNG(retina, width: retinaSide, height: retinaSide)
        let inputs = try SpriteInputs(paths: [folder])
        if accepted {
            #expect(try inputs.render(ratio: ratio).map(\.width) == [retinaSide])
        } else {
            do {
                let images = try inputs.render(ratio: ratio)
                Issue.record("a \(retinaSide)x\(retinaSide) a@\(ratioText)x.png was taken as \(images.map { "\($0.width)x\($0.height)" })")
            } catch {
                #expect(error.input == retina)
                #expect(error.problem.hasPrefix("is \(retinaSide)x\(retinaSide) pixels; an @\(ratioText)x file must be \(ratioText) times "
                                                + "the \(side)x\(side) of a.png"), "\(error)")
            }
        }
        #expect(try inputs.render(ratio: 1).map(\.width) == [side])
    }

    /// Two sidecars with metadata for one id: the later one's keys silently
    /// replaced the earlier one's.
    @Test func anIdInTwoSidecarsIsRefusedNamingBoth() throws {
        let folder = try Self.makeFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try Self.writePNG(folder + "/pin.png", width: 8, height: 8)
        try Self.writePNG(folder + "/dot.png", width: 8, height: 8)
        let first = folder + "/first.json", second = folder + "/second.json", other = folder + "/other.json"
        try Data(#"{"icons": {"pin": {"sdf": true}}}"#.utf8).write(to: URL(fileURLWithPath: first))
        try Data(#"{"icons": {"pin": {"content": [1, 1, 5, 5]}}}"#.utf8).write(to: URL(fileURLWithPath: second))
        try Data(#"{"icons": {"dot": {"content": [1, 1, 5, 5]}}}"#.utf8).write(to: URL(fileURLWithPath: other))
        #expect(throws: SpriteError(input: second, problem: "icons.pin: \(first) gives metadata for 'pin' too; "
                                    + "give each id's metadata in one sidecar")) {
            try SpriteInputs(paths: [folder + "/pin.png", first, second])
        }
        // Different ids in different sidecars are fine.
        let inputs = try SpriteInputs(paths: [folder + "/pin.png", folder + "/dot.png", first, other])
        let images = try inputs.render(ratio: 1)
        #expect(images.first { $0.id == "pin" }?.metadata.sdf == true)
        #expect(images.first { $0.id == "dot" }?.metadata.content == [1, 1, 5, 5])
    }
}
