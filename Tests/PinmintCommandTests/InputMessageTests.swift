import Foundation
import Testing

/// Bad input gets one line that names it (the file, the line, the place in
/// the JSON) and says what is wrong; each test here is a message that was
/// vague or wrong before.
@Suite struct InputMessageTests {
    /// A malformed JSON line or GeoJSON feature said "not valid JSON (The
    /// given data was not valid JSON)", with no reason and no place.
    @Test func batchNamesTheMalformedRowAndWhy() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let rows = folder.appendingPathComponent("rows.jsonl"), places = folder.appendingPathComponent("places.geojson")
        try Data("{\"id\": \"a\", \"price\": 1}\n{\"id\": \"b\", \"price\": 2\n{\"id\": \"c\", \"price\": 3}\n".utf8).write(to: rows)
        try Data("""
        {"type": "FeatureCollection", "features": [
          {"type": "Feature", "properties": {"id": "a", "price": 1}},
          {"type": "Feature", "properties": {"id": "b", "price": 2}},
          {"type": "Feature", "properties": ["c", 3]}]}
        """.utf8).write(to: places)
        let out = folder.appendingPathComponent("out").path
        let fromLines = try runPinmint(["batch", rows.path, "-o", out, "--style", "price-tag", "--set", "label={price}"])
        #expect(fromLines.status == 1)
        #expect(fromLines.standardError == "pinmint: \(rows.path):2: not valid JSON: unexpected end of file during JSON parse\n")
        let fromFeatures = try runPinmint(["batch", places.path, "-o", out + "2", "--style", "price-tag", "--set", "label={price}"])
        #expect(fromFeatures.status == 1)
        #expect(fromFeatures.standardError == "pinmint: \(places.path):4: features[2].properties: expected an object, found an array\n")
    }
}
