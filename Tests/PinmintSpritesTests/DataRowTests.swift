import Foundation
import PinmintSprites
import Testing

func writeTemporary(_ text: String, name: String) throws -> String {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("pinmint-rows-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let path = folder.appendingPathComponent(name).path
    try Data(text.utf8).write(to: URL(fileURLWithPath: path))
    return path
}

/// Every row (or problem) of a file, as text: "LINE field=value …" or "LINE ! problem".
func readAll(_ text: String, name: String) throws -> [String] {
    let reader = try DataRowReader(path: try writeTemporary(text, name: name), format: nil)
    var rows: [String] = []
    while let result = try reader.next() {
        switch result {
        case .row(let row):
            rows.append("\(row.line) " + row.fields.keys.sorted().map { "\($0)=\(row.fields[$0]!)" }.joined(separator: " ")
                        + (row.coordinates.map { " @\($0)" } ?? ""))
        case .malformed(let line, let problem): rows.append("\(line) ! \(problem)")
        }
    }
    return rows
}

struct CSVTests {
    static let cases: [(name: String, text: String, rows: [String])] = [
        ("plain", "id,price\na,1\nb,2\n", ["2 id=a price=1", "3 id=b price=2"]),
        ("CRLF and no final newline", "id,price\r\na,1\r\nb,2", ["2 id=a price=1", "3 id=b price=2"]),
        ("quoted comma and quote", "id,name\na,\"Smith, \"\"J\"\"\"\n", ["2 id=a name=Smith, \"J\""]),
        ("line break inside quotes", "id,name\na,\"two\nlines\"\nb,x\n", ["2 id=a name=two\nlines", "4 id=b name=x"]),
        ("blank lines skipped, empty quoted field kept", "id\n\na\n\"\"\n", ["3 id=a", "4 id="]),
        ("byte-order mark", "\u{FEFF}id,price\na,1\n", ["2 id=a price=1"]),
        ("UTF-8", "id,label\nx,5200萬\n", ["2 id=x label=5200萬"]),
        ("too few fields", "id,price\na\nb,2\n", ["2 ! 1 field(s), the header has 2", "3 id=b price=2"]),
        ("text after a closing quote", "id,name\na,\"x\"y\nb,z\n",
         ["2 ! text after a closing quote (a quote inside a quoted field is written \"\")", "3 id=b name=z"]),
        ("bare quote", "id,name\na,5\"\nb,z\n",
         ["2 ! a quote inside an unquoted field (quote the whole field and double the quote)", "3 id=b name=z"]),
        ("unclosed quote", "id,name\na,\"never\nb,z\n", ["2 ! a quoted field opened on line 2 is never closed"]),
    ]

    @Test(arguments: cases.indices)
    func rfc4180(_ index: Int) throws {
        let test = Self.cases[index]
        #expect(try readAll(test.text, name: "data.csv") == test.rows, "\(test.name)")
    }

    @Test func headerProblemsStopTheFile() throws {
        for (text, problem) in [("id,id\na,b\n", "column 'id' appears twice"), ("id,,x\n", "column 2 has no name"), ("", "no header row")] {
            do {
                _ = try readAll(text, name: "h.csv")
                Issue.record("accepted \(text)")
            } catch let error as SpriteError {
                #expect(error.problem.contains(problem), "\(error)")
            }
        }
    }

    @Test func longFieldsAreMalformedRowsNotMemory() throws {
        let long = String(repeating: "x", count: DataLimits.maximumFieldBytes + 10)
        #expect(try readAll("id,t\na,\(long)\nb,ok\n", name: "l.csv") == ["2 ! a field longer than 65536 bytes", "3 id=b t=ok"])
    }

    /// Fields of 1–2 MB parsed at 4–5 MB/s: the message for a field past the
    /// limit was built again for each of its bytes. Quoted, multi-line and
    /// doubled-quote fields of a megabyte and more are refused as one problem
    /// each, and the lines after them are still counted right.
    @Test func megabyteFieldsAreReadInOnePassWithTheirLines() throws {
        let megabyte = String(repeating: "x", count: 1 << 20)
        let text = "id,t\n"
            + "a,\"\(megabyte)\n\(megabyte)\"\n"            // lines 2-3
            + "b,\"\(megabyte)\"\"\(megabyte)\"\n"          // line 4
            + "c,\(megabyte)\(megabyte)\n"                 // line 5
            + "d,\"two\nlines, \"\"quoted\"\"\"\r\n"         // lines 6-7
            + "e,ok\n"                                      // line 8
        #expect(try readAll(text, name: "big.csv") == [
            "2 ! a field longer than 65536 bytes",
            "4 ! a field longer than 65536 bytes",
            "5 ! a field longer than 65536 bytes",
            "6 id=d t=two\nlines, \"quoted\"",
            "8 id=e t=ok",
        ])
    }
}

struct JSONRowTests {
    @Test func jsonLines() throws {
        let text = "{\"id\": \"a\", \"price\": 5200, \"ok\": true, \"n\": null, \"f\": 1.5}\n\n[1]\n{bad\n{\"id\": \"b\", \"tags\": [1, 2]}\n"
        #expect(try readAll(text, name: "d.jsonl") == [
            "1 f=1.5 id=a n= ok=true price=5200",
            "3 ! the line is an array, not a JSON object",
            "4 ! not valid JSON: expected a key (a string in quotes) at character 2, found 'b'",
            "5 id=b tags=[1,2]",
        ])
    }

    @Test func geoJSONFeaturesStream() throws {
        let text = """
        {"type": "FeatureCollection", "name": "shops",
         "features": [
          {"type": "Feature", "id": 7, "geometry": {"type": "Point", "coordinates": [121.5, 25.03]},
           "properties": {"name": "Café \\"A\\"", "price": 5200}},
          {"type": "Feature", "geometry": null, "properties": {"id": "b", "name": "x, ] }"}},
          {"type": "Feature", "properties": {"price": tru}},
          {"type": "Point", "coordinates": [0, 0]},
          42
         ]}
        """
        let rows = try readAll(text, name: "d.geojson")
        #expect(rows.count == 5)
        #expect(rows[0] == "3 id=7 name=Café \"A\" price=5200 @[121.5, 25.03]")
        #expect(rows[1] == "5 id=b name=x, ] }")
        #expect(rows[2].hasPrefix("6 ! features[2]: not valid JSON: "), "\(rows[2])")
        #expect(Array(rows.dropFirst(3)) == ["7 ! features[3].type: expected \"Feature\", found \"Point\"",
                                             "8 ! features[4]: expected a Feature object, found a number"])
    }

    /// A malformed JSON line said only "The given data was not valid JSON":
    /// each now gets the reason the marker description parser gives.
    @Test(arguments: [
        (#"{"id": "c""#, "not valid JSON: unexpected end of the text: the object at character 1 is not closed"),
        (#"{"id": "d", "price": }"#, "not valid JSON: expected a value at character 22, found '}'"),
        (#""just text""#, "the line is a string, not a JSON object"),
        // Foundation's decoder accepts trailing commas; JSON does not.
        (#"{"id": "e", "tags": [1, 2 ,] }"#, "not valid JSON: a comma before the closing ] at character 27"),
        (#"{"id": "f", "n": "a,}",}"#, "not valid JSON: a comma before the closing } at character 23"),
        // Foundation's decoder keeps one of two members of one name.
        (#"{"id": "g", "price": 1, "price": 2}"#, "price: given twice in one object (only one would be used)"),
        // 50 KB nested 510 deep took 38 s to decode before this was said.
        (#"{"id": "h", "a": "# + String(repeating: "[", count: 510) + String(repeating: "]", count: 510) + "}",
         "nested deeper than 64 levels (at character 81)"),
    ])
    func malformedJSONLineSaysWhy(_ line: String, _ problem: String) throws {
        #expect(try readAll("{\"id\": \"a\"}\n\(line)\n{\"id\": \"b\"}\n", name: "rows.jsonl") == ["1 id=a", "2 ! \(problem)", "3 id=b"])
    }

    /// A malformed GeoJSON feature was "the feature is not valid JSON (The
    /// given data was not valid JSON)": each problem now leads with the
    /// feature's place in the document.
    @Test(arguments: [
        (#"{"type": "Feature", "properties": {"id": x}}"#, "features[1]: not valid JSON: expected a value at character 42, found 'x'"),
        (#"{"type": "Feature", "properties": "x"}"#, "features[1].properties: expected an object, found a string"),
        (#"{"properties": {}}"#, "features[1].type: missing (a feature's type is \"Feature\")"),
        (#"{"type": "Feature", "properties": {"id": "\u0000"}}"#, "features[1].properties: field 'id' holds a NUL character (\\u0000)"),
        (#"[1, 2]"#, "features[1]: expected a Feature object, found an array"),
        (#"{"type": "Feature", "properties": {"id": "c",}}"#, "features[1]: not valid JSON: a comma before the closing } at character 45"),
        (#"{"type": "Feature", "properties": {"id": "c", "id": "d"}}"#,
         "features[1].properties.id: given twice in one object (only one would be used)"),
    ])
    func malformedFeatureNamesItsPlace(_ feature: String, _ problem: String) throws {
        let text = """
        {"type": "FeatureCollection", "features": [
        {"type": "Feature", "properties": {"id": "a"}},
        \(feature),
        {"type": "Feature", "properties": {"id": "b"}}]}
        """
        let rows = try readAll(text, name: "places.geojson")
        #expect(rows.count == 3 && rows[0] == "2 id=a" && rows[2] == "4 id=b", "\(rows)")
        #expect(rows.count == 3 && rows[1].hasPrefix("3 ! \(problem)"), "\(rows)")
    }

    /// A Point whose coordinates were not [longitude, latitude] (`["a", 2]`,
    /// `[1]`, out of range) rendered with no coordinates in the index and no word.
    @Test(arguments: [
        (#"["a", 2]"#, #"expected [longitude, latitude] numbers, found ["a",2]"#),
        ("[1]", "expected [longitude, latitude], found [1]"),
        (#""1,2""#, "expected [longitude, latitude], found a string"),
        ("null", "expected [longitude, latitude], found null"),
        ("[200, 10]", "longitude 200 is outside -180...180 (a position is [longitude, latitude])"),
        ("[25.03, 121.5]", "latitude 121.5 is outside -90...90 (a position is [longitude, latitude])"),
        ("[-180, -90.5, 3]", "latitude -90.5 is outside -90...90"),
    ])
    func badPointCoordinatesFailTheRow(_ coordinates: String, _ problem: String) throws {
        let text = """
        {"type": "FeatureCollection", "features": [
        {"type": "Feature", "geometry": {"type": "Point", "coordinates": \(coordinates)}, "properties": {"id": "a"}},
        {"type": "Feature", "geometry": {"type": "Point", "coordinates": [-180, 90, 12]}, "properties": {"id": "b"}},
        {"type": "Feature", "geometry": {"type": "Point", "coordinates": []}, "properties": {"id": "c"}},
        {"type": "Feature", "geometry": {"type": "LineString", "coordinates": [[1, 2], [3, 4]]}, "properties": {"id": "d"}}]}
        """
        let rows = try readAll(text, name: "places.geojson")
        #expect(rows.count == 4 && rows[0].hasPrefix("2 ! features[0].geometry.coordinates: \(problem)"), "\(rows)")
        #expect(Array(rows.dropFirst()) == ["3 id=b @[-180.0, 90.0]", "4 id=c", "5 id=d"])
    }

    @Test func notAFeatureCollection() throws {
        for (text, problem) in [("[1, 2]", "not a GeoJSON object"), ("{\"type\": \"Feature\", \"properties\": {}}", "a GeoJSON Feature"),
                                ("{\"type\": \"FeatureCollection\"}", "no \"features\" array"),
                                ("{\"type\": \"FeatureCollection\", \"features\": [{\"type\": \"Feature\"", "ends inside the feature"),
                                // The features array's own commas: exactly one between elements.
                                ("{\"type\": \"FeatureCollection\", \"features\": [,{\"type\": \"Feature\"}]}", "a comma before the first feature"),
                                ("{\"type\": \"FeatureCollection\", \"features\": [{\"type\": \"Feature\"},,{}]}", "two commas after features[0]"),
                                ("{\"type\": \"FeatureCollection\", \"features\": [{\"type\": \"Feature\"}, ]}", "a comma before the closing ]")] {
            do {
                _ = try readAll(text, name: "x.geojson")
                Issue.record("accepted \(text)")
            } catch let error as SpriteError {
                #expect(error.problem.contains(problem), "\(error)")
            }
        }
    }
}

struct FieldTemplateTests {
    @Test(arguments: [("{price}萬", "5200萬"), ("{{literal}} {id}", "{literal} a"), ("no fields", "no fields"), ("{id}{price}", "a5200")])
    func fills(_ template: String, _ expected: String) throws {
        #expect(try FieldTemplate(template, input: "--set x").fill(["id": "a", "price": "5200"]).get() == expected)
    }

    @Test(arguments: ["{price", "price}", "{}", "{a{b}}"])
    func rejects(_ template: String) {
        #expect(throws: SpriteError.self) { try FieldTemplate(template, input: "--set x") }
    }

    @Test func namesTheMissingField() throws {
        let template = try FieldTemplate("{name} {price}", input: "--set label")
        guard case .failure(let missing) = template.fill(["name": "x"]) else { Issue.record("filled"); return }
        #expect(missing.name == "price" && template.fieldNames == ["name", "price"])
    }
}

/// Rows whose bytes are not text, and numbers a double cannot hold: each is
/// a malformed row naming its line, and the rows around it still read.
struct RowBytesTests {
    /// Every row (or problem) of a file of raw `bytes`, as `readAll` gives them.
    func readAll(bytes: [UInt8], name: String) throws -> [String] {
        let path = try writeTemporary("", name: name)
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        let reader = try DataRowReader(path: path, format: nil)
        var rows: [String] = []
        while let result = try reader.next() {
            switch result {
            case .row(let row): rows.append("\(row.line) " + row.fields.keys.sorted().map { "\($0)=\(row.fields[$0]!)" }.joined(separator: " "))
            case .malformed(let line, let problem): rows.append("\(line) ! \(problem)")
            }
        }
        return rows
    }

    static let cases: [(name: String, file: String, bytes: [UInt8], rows: [String])] = [
        ("CSV, invalid UTF-8", "d.csv", Array("id,label\na,x".utf8) + [0xFF] + Array("y\nb,ok\n".utf8),
         ["2 ! field 2 is not valid UTF-8 (byte 2 is 0xFF)", "3 id=b label=ok"]),
        ("CSV, a NUL byte", "d.csv", Array("id,label\na,x\u{0}y\nb,ok\n".utf8), ["2 ! field 2 holds a NUL byte (byte 2)", "3 id=b label=ok"]),
        ("CSV, a surrogate", "d.csv", Array("id\n".utf8) + [0xED, 0xA0, 0x80] + Array("\nb\n".utf8),
         ["2 ! field 1 is not valid UTF-8 (byte 1 is 0xED)", "3 id=b"]),
        ("CSV, a truncated sequence in quotes", "d.csv", Array("id,label\na,\"".utf8) + [0xE8, 0x90] + Array("\"\nb,萬\n".utf8),
         ["2 ! field 2 is not valid UTF-8 (byte 1 is 0xE8)", "3 id=b label=萬"]),
        ("JSON lines, invalid UTF-8", "d.jsonl", Array("{\"id\": \"a\", \"label\": \"".utf8) + [0xC0, 0xAF] + Array("\"}\n{\"id\": \"b\"}\n".utf8),
         ["1 ! the line is not valid UTF-8 (byte 23 is 0xC0)", "2 id=b"]),
        ("JSON lines, a raw NUL", "d.jsonl", Array("{\"id\": \"a\u{0}\"}\n{\"id\": \"b\"}\n".utf8),
         ["1 ! the line holds a NUL byte (byte 10)", "2 id=b"]),
        ("JSON lines, an escaped NUL", "d.jsonl", Array("{\"id\": \"a\\u0000\"}\n{\"id\": \"b\"}\n".utf8),
         ["1 ! field 'id' holds a NUL character (\\u0000)", "2 id=b"]),
        ("JSON lines, a number out of range", "d.jsonl", Array("{\"id\": \"a\"}\n{\"id\": \"b\", \"price\": 1e400}\n{\"id\": \"c\", \"n\": \"1e400\"}\n".utf8),
         ["1 id=a", "2 ! the number 1e400 is out of range (a field's number must be within ±1.7976931348623157e+308)", "3 id=c n=1e400"]),
        ("JSON lines, a negative number out of range", "d.jsonl", Array("{\"price\": -2E+999}\n".utf8),
         ["1 ! the number -2E+999 is out of range (a field's number must be within ±1.7976931348623157e+308)"]),
        ("JSON lines, a number too close to 0", "d.jsonl", Array("{\"id\": \"z\", \"price\": 0.0e-999}\n{\"price\": 1.5e-400}\n".utf8),
         ["1 id=z price=0", "2 ! the number 1.5e-400 is out of range (too close to 0: the smallest a field's number can be is ±5e-324)"]),
        ("GeoJSON, a number out of range and invalid UTF-8", "d.geojson",
         Array("{\"type\": \"FeatureCollection\", \"features\": [\n{\"type\": \"Feature\", \"properties\": {\"p\": 1e309}},\n{\"type\": \"Feature\", \"properties\": {\"p\": \"".utf8)
            + [0xFF] + Array("\"}},\n{\"type\": \"Feature\", \"properties\": {\"id\": \"c\"}}]}\n".utf8),
         ["2 ! features[0]: the number 1e309 is out of range (a field's number must be within ±1.7976931348623157e+308)",
          "3 ! features[1]: the feature is not valid UTF-8 (byte 42 is 0xFF)", "4 id=c"]),
    ]

    @Test(arguments: cases.indices)
    func badRowBytes(_ index: Int) throws {
        let test = Self.cases[index]
        #expect(try readAll(bytes: test.bytes, name: test.file) == test.rows, "\(test.name)")
    }

    @Test(arguments: [
        (Array("plain 萬".utf8), nil, "plain 萬"),
        ([0x61, 0xFF, 0x62], "is not valid UTF-8 (byte 2 is 0xFF)", "a\\xFFb"),
        ([0xF4, 0x90, 0x80, 0x80], "is not valid UTF-8 (byte 1 is 0xF4)", "\\xF4\\x90\\x80\\x80"),   // above U+10FFFF
        ([0xC1, 0xBF], "is not valid UTF-8 (byte 1 is 0xC1)", "\\xC1\\xBF"),                       // overlong
        ([0x78, 0x00], "holds a NUL byte (byte 2)", "x\\x0"),
    ] as [([UInt8], String?, String)])
    func textBytes(_ bytes: [UInt8], _ problem: String?, _ shown: String) {
        #expect(TextBytes.problem(bytes) == problem)
        #expect(TextBytes.shown(bytes) == shown)
    }
}

/// A row too long to find its end in reasonable time stops the reading.
@Suite struct AbandonedRowTests {
    @Test(arguments: [("csv", "id,price\na,1\n"), ("jsonl", "{\"id\": \"a\"}\n")])
    func anEndlessRowStopsTheInput(format: String, start: String) throws {
        var bytes = Array(start.utf8)
        bytes += [UInt8](repeating: UInt8(ascii: "x"), count: DataLimits.abandonedRowBytes + 10)
        bytes += Array("\nb,2\n".utf8)
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("endless-\(format)-\(getpid()).\(format)").path
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let reader = try DataRowReader(path: path, format: nil)
        var rows = 0
        var stop: SpriteError? = nil
        do { while try reader.next() != nil { rows += 1 } } catch { stop = error }
        #expect(rows == 1)
        #expect(stop?.description.contains(":\(format == "csv" ? 3 : 2): a row longer than") == true, "\(String(describing: stop))")
    }
}
