import Foundation
import PinmintSprites
import Testing

/// Issue 25: the sprite index entries are `Codable`, encode to the bytes
/// `indexJSON(minified: true)` writes and decode back from either form.
struct SpriteIndexCodableTests {
    /// Images with every optional field, none, an SDF, odd ids, at ratios 1.5 and 2.
    static func sheet(ratio: Double) throws -> SpriteSheet {
        var stretched = solidImage("tags/price-tag", width: 40, height: 38, color: 10, ratio: ratio)
        stretched.metadata = SpriteMetadata(content: [3, 2, 37, 28], stretchX: [[3, 8], [32, 37]], stretchY: [[4, 24]],
                                            textFitWidth: .stretchOnly, textFitHeight: .proportional)
        var sdf = solidImage("icons/cafe", width: 24, height: 24, color: 20, ratio: ratio)
        sdf.metadata = SpriteMetadata(sdf: true)
        let plain = solidImage("plain \"quoted\" é", width: 10, height: 12, color: 30, ratio: ratio)
        return try SpriteSheet.pack([stretched, sdf, plain], spacing: 2)
    }

    @Test(arguments: [1.5, 2])
    func entriesEncodeAsTheIndexAndDecodeBack(ratio: Double) throws {
        let sheet = try Self.sheet(ratio: ratio)
        let byID = Dictionary(uniqueKeysWithValues: sheet.entries.map { ($0.id, $0) })
        let encoded = try SpriteSheet.indexEncoder.encode(byID)
        #expect(String(decoding: encoded, as: UTF8.self) == sheet.indexJSON(minified: true))

        #expect(try SpriteSheet.decodeIndex(encoded) == sheet.entries)
        #expect(try SpriteSheet.decodeIndex(Data(sheet.indexJSON().utf8)) == sheet.entries)
        #expect(try SpriteSheet.decodeIndex(Data(sheet.indexJSON(minified: true).utf8)) == sheet.entries)
        let decoded = try SpriteSheet.decodeIndex(encoded)
        #expect(decoded.first { $0.id == "icons/cafe" }?.metadata.sdf == true)
        #expect(decoded.first { $0.id == "tags/price-tag" }?.metadata.textFitHeight == .proportional)
    }

    @Test func anEntryOutsideAnIndexOrOfTheWrongShapeIsADecodingError() throws {
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode(SpriteSheet.Entry.self, from: Data(#"{"x": 0, "y": 0, "width": 1, "height": 1, "pixelRatio": 1}"#.utf8))
        }
        #expect(throws: DecodingError.self) {
            try SpriteSheet.decodeIndex(Data(#"{"a": {"x": 0, "y": 0, "width": 1, "height": 1, "pixelRatio": 1, "textFitWidth": "squash"}}"#.utf8))
        }
        #expect(throws: DecodingError.self) {
            try SpriteSheet.decodeIndex(Data(#"{"a": {"x": 0, "y": 0, "width": 1, "pixelRatio": 1}}"#.utf8))
        }
        // Shapes that would trap later (indexJSON and offsetBy index runs and boxes).
        for field in [#""content": [1, 2, 3]"#, #""stretchX": [[1]]"#, #""stretchY": [[1, 2, 3]]"#] {
            #expect(throws: DecodingError.self, "\(field)") {
                try SpriteSheet.decodeIndex(Data(#"{"a": {"x": 0, "y": 0, "width": 1, "height": 1, "pixelRatio": 1, \#(field)}}"#.utf8))
            }
        }
    }
}
