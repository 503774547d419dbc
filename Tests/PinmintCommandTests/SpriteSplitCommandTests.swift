import Foundation
import PinmintPNG
import Testing

/// `pinmint sprite --split`: a sprite over one sheet becomes NAME-1, NAME-2 …
/// at every ratio, with NAME.style.json beside them (issue 23).
struct SpriteSplitCommandTests {
    /// Twelve 40-point boxes of distinct colours: at @2x (80 px) at most two
    /// rows of two fit a 200-pixel sheet.
    func boxes(in folder: URL) throws -> URL {
        let boxes = (0..<12).map { index in
            ##"{"id": "box-\##(String(format: "%02d", index))", "marker": {"type": "box", "fill": "#\##(String(format: "%02x", index * 20))4080", "width": 40, "height": 40}}"##
        }
        let list = folder.appendingPathComponent("boxes.json")
        try Data(("[" + boxes.joined(separator: ",") + "]").utf8).write(to: list)
        return list
    }

    @Test func aSpriteOverOneSheetIsSplitWithTheSameIDsInEachSheetAtEveryRatio() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let list = try boxes(in: folder)
        let out = folder.appendingPathComponent("out/boxes").path
        let refused = try runPinmint(["sprite", list.path, "-o", out, "--ratio", "1,2", "--max-size", "200"])
        #expect(refused.status == 2)
        #expect(refused.standardError.contains("use --unique or --split to write several sheets"), "\(refused.standardError)")

        let result = try runPinmint(["sprite", list.path, "-o", out, "--ratio", "1,2", "--max-size", "200", "--split"])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardError.contains("12 images in 3 sheets (\(out).style.json)"), "\(result.standardError)")
        let snippet = try jsonObject(out + ".style.json")
        let sprites = try #require(snippet["sprite"] as? [[String: String]])
        #expect(sprites.map { $0["id"] } == ["boxes-1", "boxes-2", "boxes-3"])
        #expect(sprites.map { $0["url"] } == ["boxes-1", "boxes-2", "boxes-3"])
        let names = try #require(snippet["icon-image"] as? [String: String])
        #expect(names.count == 12)
        for (index, sprite) in sprites.enumerated() {
            let base = folder.appendingPathComponent("out/" + sprite["id"]!).path
            let atOne = try jsonObject(base + ".json"), atTwo = try jsonObject(base + "@2x.json")
            #expect(Set(atOne.keys) == Set(atTwo.keys), "sheet \(index + 1) holds other ids at @2x")
            for id in atOne.keys { #expect(names[id] == "\(sprite["id"]!):\(id)") }
            for (index, ratio) in [(atOne, 1), (atTwo, 2)] {
                let png = try PNGDecoder.decode(try PNGDecoder.readFile(base + (ratio == 1 ? ".png" : "@2x.png")), name: base)
                #expect(png.width <= 200 && png.height <= 200)
                for case let entry as [String: Any] in index.values {
                    #expect(entry["width"] as? Int == 40 * ratio)
                }
            }
        }
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.appendingPathComponent("out").path).sorted()
        #expect(files == ["boxes-1.json", "boxes-1.png", "boxes-1@2x.json", "boxes-1@2x.png", "boxes-2.json", "boxes-2.png",
                          "boxes-2@2x.json", "boxes-2@2x.png", "boxes-3.json", "boxes-3.png", "boxes-3@2x.json", "boxes-3@2x.png",
                          "boxes.style.json"])
    }

    @Test func aSplitBeyondSixteenSheetsIsRefusedAndWritesNothing() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        // 70 boxes of 40 pt, four to a 100-pixel sheet at @1x: 18 sheets.
        let boxes = (0..<70).map { ##"{"id": "b\##($0)", "marker": {"type": "box", "fill": "#\##(String(format: "%02x", $0 * 3))0000", "width": 40, "height": 40}}"## }
        let list = folder.appendingPathComponent("many.json")
        try Data(("[" + boxes.joined(separator: ",") + "]").utf8).write(to: list)
        let out = folder.appendingPathComponent("out/many").path
        let result = try runPinmint(["sprite", list.path, "-o", out, "--ratio", "1", "--max-size", "100", "--split"])
        #expect(result.status == 2)
        #expect(result.standardError.split(separator: "\n").count == 1)
        #expect(result.standardError.contains("do not fit in 16 sheets of 100x100 at @1x"), "\(result.standardError)")
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("out").path))
    }
}
