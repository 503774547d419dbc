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
}
