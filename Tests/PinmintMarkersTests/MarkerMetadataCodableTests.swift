import Foundation
import PinmintGeometry
@testable import PinmintMarkers
import Testing

/// Issue 25: `MarkerMetadata` encodes to the JSON `pinmint render` writes
/// (byte for byte, with `MarkerMetadata.encoder`) and decodes back.
@Suite struct MarkerMetadataCodableTests {
    /// Markers with and without a content box, with stretch metadata (no
    /// text), with two variants, at a fractional pixel ratio.
    static let metadataCases: [(name: String, options: [String: String], scale: Double)] = [
        ("price-tag", ["label": "5200萬", "badge": "成"], 2),
        ("price-tag", ["label": ""], 1),
        ("price-tag", ["label": "", "pointer": "left", "shadow": "true"], 3),
        ("callout", ["title": "Title", "subtitle": "Subtitle"], 1.5),
        ("avatar", ["name": "Ada", "phone": "0123"], 2),
        ("pin", ["label": "7"], 2.25),
    ]

    @Test(arguments: 0..<metadataCases.count)
    func metadataEncodesAsTheCommandWritesItAndDecodesBack(index: Int) throws {
        let (name, options, scale) = Self.metadataCases[index]
        let markers = try makeRenderer().render(style: try #require(MarkerStyle.preset(named: name)), options: options, scale: scale)
        for marker in markers {
            let metadata = marker.metadata
            let encoded = try MarkerMetadata.encoder.encode(metadata)
            #expect(String(decoding: encoded, as: UTF8.self) + "\n" == MarkerMetadata.jsonText(metadata.json()))
            let record = MarkerRecord(id: "m-1", file: "m-1@2x.png", metadata: metadata)
            let recordData = try MarkerMetadata.encoder.encode(record)
            #expect(String(decoding: recordData, as: UTF8.self) + "\n"
                    == MarkerMetadata.jsonText(metadata.json(id: "m-1", file: "m-1@2x.png")))

            let decoded = try JSONDecoder().decode(MarkerMetadata.self, from: encoded)
            #expect(try MarkerMetadata.encoder.encode(decoded) == encoded)
            #expect(decoded.width == metadata.width && decoded.height == metadata.height)
            #expect(decoded.hitBoxes == metadata.hitBoxes && decoded.contentBox == metadata.contentBox)
            #expect(decoded.variant == metadata.variant && decoded.pixelRatio == metadata.pixelRatio)
            #expect((decoded.stretch == nil) == (metadata.stretch == nil))
            #expect(decoded.stretch?.stretchX == metadata.stretch?.stretchX)
            let decodedRecord = try JSONDecoder().decode(MarkerRecord.self, from: recordData)
            #expect(decodedRecord.id == "m-1" && decodedRecord.file == "m-1@2x.png" && decodedRecord.metadata == decoded)
            // The command's text (JSONSerialization) reads back the same way.
            let commandText = Data(MarkerMetadata.jsonText(metadata.json()).utf8)
            #expect(try JSONDecoder().decode(MarkerMetadata.self, from: commandText) == decoded)
        }
        if name == "price-tag", options["label"] == "" {
            #expect(markers[0].metadata.stretch != nil, "the text-less tag is the stretch case")
        }
    }

    @Test func metadataOnTheThousandthsGridDecodesToItself() throws {
        let metadata = MarkerMetadata(width: 60, height: 40, pixelRatio: 2, anchor: Point(30, 39.5),
                                      hitBoxes: [PixelBox(x: 0, y: 0, width: 60, height: 30)],
                                      contentBox: PixelBox(x: 4, y: 4, width: 52, height: 22), variant: "selected")
        let data = try MarkerMetadata.encoder.encode(metadata)
        #expect(try JSONDecoder().decode(MarkerMetadata.self, from: data) == metadata)
    }

    /// A stretch with a run, content box, padding or offset of the wrong
    /// length would trap when encoded again: decoding refuses it.
    @Test(arguments: [("[[3, 8], [32]]", "[2, 3, 36, 28]", "[0, 0, 0, 0]", "[0, -2]"),
                      ("[[3, 8]]", "[2, 3, 36]", "[0, 0, 0, 0]", "[0, -2]"),
                      ("[[3, 8]]", "[2, 3, 36, 28]", "[0, 0]", "[0, -2]"),
                      ("[[3, 8]]", "[2, 3, 36, 28]", "[0, 0, 0, 0]", "[0]")])
    func aStretchOfTheWrongShapeIsADecodingError(runs: String, content: String, padding: String, offset: String) throws {
        func json(_ runs: String, _ content: String, _ padding: String, _ offset: String) -> Data {
            Data("""
            {"width": 40, "height": 38, "pixelRatio": 1, "anchor": {"x": 20, "y": 38}, "hitBoxes": [], "variant": "default",
             "stretch": {"content": \(content), "stretchX": \(runs), "stretchY": []},
             "maplibre": {"icon-text-fit": {"text-size": 12, "icon-text-fit-padding": \(padding), "offset": \(offset)}}}
            """.utf8)
        }
        let good = try JSONDecoder().decode(MarkerMetadata.self, from: json("[[3, 8]]", "[2, 3, 36, 28]", "[0, 0, 0, 0]", "[0, -2]"))
        #expect(good.stretch?.offset == Point(0, -2))
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(MarkerMetadata.self, from: json(runs, content, padding, offset)) }
    }

    @Test func metadataWithoutARequiredFieldIsADecodingError() throws {
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode(MarkerMetadata.self, from: Data(#"{"width": 1, "height": 1, "variant": "default"}"#.utf8))
        }
    }
}
