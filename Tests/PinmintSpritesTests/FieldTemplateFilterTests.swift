import Foundation
import PinmintSprites
import Testing

/// Issue 24: 265 of 5,000 rows failed for an absent `price`, and templates
/// had no default and no formatting.
@Suite struct FieldTemplateFilterTests {
    static let row = ["id": "a", "price": "1234567.5", "empty": "", "name": "Ada Lovelace", "city": "  Zürich ",
                      "addr:city": "Taipei", "name:en": "Taipei 101", "flag": "🇯🇵🇯🇵🇯🇵", "word": "e\u{301}te\u{301}"]

    @Test(arguments: [
        // Absence: missing, empty.
        ("{missing?}", ""), ("[{missing?}]", "[]"), ("{missing|—}", "—"), ("{empty|—}", "—"), ("{empty}", ""), ("{empty?}", ""),
        ("{missing|n/a: x|y}", "n/a: x|y"), ("{price|—}", "1234567.5"), ("{missing|}", ""),
        // Numbers.
        ("{price:number}", "1,234,567.5"), ("{price:number(0)}", "1,234,568"), ("{price:number(2)}", "1,234,567.50"),
        ("{price:number(2, \" \", \",\")}", "1 234 567,50"), ("{price:number(0, \"\")}", "1234568"),
        ("{price:number(0, \"'\")}", "1'234'568"),
        // Case and spaces.
        ("{name:upper}", "ADA LOVELACE"), ("{name:lower}", "ada lovelace"), ("{city:trim}", "Zürich"), ("{city:trim:upper}", "ZÜRICH"),
        // Truncation by grapheme cluster.
        ("{name:truncate(5)}", "Ada…"), ("{name:truncate(12)}", "Ada Lovelace"), ("{name:truncate(8, \"...\")}", "Ada L..."),
        ("{flag:truncate(2)}", "🇯🇵…"), ("{word:truncate(3)}", "e\u{301}te\u{301}"), ("{word:truncate(2)}", "e\u{301}…"),
        // Names with colons (OpenStreetMap tags).
        ("{addr:city}", "Taipei"), ("{name:en:upper}", "TAIPEI 101"), ("{addr:city:lower|—}", "taipei"),
        // Filters never touch a default.
        ("{missing:upper|small}", "small"),
    ])
    func fills(_ template: String, _ expected: String) throws {
        #expect(try FieldTemplate(template, input: "--set label").fill(Self.row).get() == expected)
    }

    @Test(arguments: [
        ("1234.5", nil, "1,234.5"), ("-1234", 0, "-1,234"), ("0.125", 2, "0.13"), ("-0.125", 2, "-0.13"), ("0.004", 2, "0.00"),
        ("-0.004", 2, "0.00"), ("999.995", 2, "1,000.00"), ("9.5", 0, "10"), ("1e3", nil, "1,000"), ("1.5E-3", 4, "0.0015"),
        ("+42", nil, "42"), ("007", nil, "7"), (".5", 1, "0.5"), ("12345678901234567890123", 0, "12,345,678,901,234,567,890,123"),
        ("100", 3, "100.000"), ("5.", nil, "5"),
    ] as [(String, Int?, String)])
    func numbersAreFormattedOnTheirDigits(_ text: String, _ decimals: Int?, _ expected: String) throws {
        let template = try FieldTemplate(decimals.map { "{n:number(\($0))}" } ?? "{n:number}", input: "--set label")
        #expect(try template.fill(["n": text]).get() == expected)
    }

    @Test(arguments: ["abc", "1,234", "1e", "--1", "1e101", "1.2.3", "0x10", "NaN", "Infinity"])
    func notANumberFailsWithTheTemplateAndTheField(_ text: String) throws {
        let template = try FieldTemplate("{price:number(2)|—}", input: "--set label")
        guard case .failure(let problem) = template.fill(["price": text]) else { Issue.record("\(text) formatted"); return }
        #expect(problem.name == "price" && problem.kind == .notANumber(text))
        #expect(template.message(problem, fields: ["price"]) == "--set label '{price:number(2)|—}': {price:number(2)|—}: '\(text)' is not a number")
    }

    @Test func aMissingFieldNamesTheTemplateTheFieldAndTheWayOut() throws {
        let template = try FieldTemplate("{price}萬", input: "--set label")
        guard case .failure(let problem) = template.fill(["name": "x", "id": "a"]) else { Issue.record("filled"); return }
        #expect(template.message(problem, fields: ["name", "id"])
                == "--set label '{price}萬': no field 'price' (fields: id, name; write {price?} or {price|…} when rows may lack it)")
        let misspelt = try FieldTemplate("{price:numbr}", input: "--set label")
        guard case .failure(let typo) = misspelt.fill(["price": "1"]) else { Issue.record("filled"); return }
        #expect(misspelt.message(typo, fields: ["price"]).hasSuffix("no field 'price:numbr' (fields: price; 'numbr' is not a filter "
                                                                    + "(filters: number, upper, lower, trim, truncate))"))
    }

    @Test func onlyPlainPlaceholdersAreRequired() throws {
        let template = try FieldTemplate("{a} {b?} {c|x} {d:upper} {a}", input: "--set label")
        #expect(template.fieldNames == ["a", "b", "c", "d"])
        #expect(template.requiredFieldNames == ["a", "d"])
    }

    @Test(arguments: [
        ("{price:numbr(2)}", "unknown filter 'numbr'"), ("{price:number(21)}", "number: '21' is not a whole number in 0...20"),
        ("{price:number(x)}", "'x' is not a whole number"), ("{price:number(2, x)}", "'x' is not text in double quotes"),
        ("{price:number(1, \",\", \".\", \"-\")}", "number takes 0 to 3 arguments, not 4"), ("{name:truncate}", "truncate takes 1 to 2 arguments, not 0"),
        ("{name:truncate(0)}", "is not a whole number in 1...10000"), ("{name:upper(1)}", "upper takes 0 arguments, not 1"),
        ("{price?|x}", "give either '?'"), ("{?}", "no field name"), ("{|x}", "no field name"),
        ("{name:truncate(3, \"…)}", "a '\"' is never closed"), ("{price:number(2}", "expected ')' at its end"),
    ])
    func badPlaceholdersAreRefusedNamingTheTemplate(_ template: String, _ problem: String) {
        do {
            _ = try FieldTemplate(template, input: "--set label")
            Issue.record("accepted \(template)")
        } catch {
            #expect(error.input == "--set label" && error.problem.hasPrefix("'\(template)': "), "\(error)")
            #expect(error.problem.contains(problem), "\(error)")
        }
    }
}

/// Issue 24: a semicolon CSV (Excel in much of Europe) failed with "fields:
/// id;price" and no hint.
@Suite struct CSVDelimiterTests {
    @Test(arguments: [
        ("id;price\na;1,5\nb;\"x;y\"\n", ["2 id=a price=1,5", "3 id=b price=x;y"]),
        ("id\tprice\na\t1\n", ["2 id=a price=1"]),
        ("id,price\na,1;2\n", ["2 id=a price=1;2"]),
        ("\"a;b\",c\nx,y\n", ["2 a;b=x c=y"]),                          // a quoted semicolon is not a delimiter
        ("id;name,city;price\na;b,c;1\n", ["2 id=a name,city=b,c price=1"]),  // the most frequent wins
        ("id\na\n", ["2 id=a"]),
    ])
    func theDelimiterIsFoundInTheHeader(_ text: String, _ rows: [String]) throws {
        #expect(try readAll(text, name: "d.csv") == rows)
    }

    @Test func aGivenDelimiterIsUsedAndAOneColumnHeaderGetsAHint() throws {
        let path = try writeTemporary("id|price\na|1\n", name: "p.csv")
        let detected = try DataRowReader(path: path, format: nil)
        #expect(detected.fieldNames == ["id|price"])
        #expect(detected.delimiterHint == "the header is one column, 'id|price': if '|' separates the fields, give --delimiter '|'")
        let given = try DataRowReader(path: path, format: nil, delimiter: .given(UInt8(ascii: "|")))
        #expect(given.fieldNames == ["id", "price"] && given.delimiterHint == nil)
        guard case .row(let row)? = try given.next() else { Issue.record("no row"); return }
        #expect(row.fields == ["id": "a", "price": "1"])
        let semicolons = try DataRowReader(path: try writeTemporary("id;price\na;1\n", name: "s.csv"), format: nil,
                                           delimiter: .given(UInt8(ascii: ",")))
        #expect(semicolons.delimiterHint?.contains("if ';' separates the fields, give --delimiter ';'") == true)
    }

    @Test(arguments: [(",", UInt8(ascii: ",")), (";", UInt8(ascii: ";")), ("tab", 9), ("\\t", 9), ("\t", 9), ("|", UInt8(ascii: "|"))]
          as [(String, UInt8)])
    func delimiterOption(_ text: String, _ byte: UInt8) {
        #expect(CSVDelimiter(option: text) == .given(byte))
    }

    @Test(arguments: ["", "ab", "\"", "\n", "x"])
    func badDelimiterOption(_ text: String) {
        #expect(CSVDelimiter(option: text) == nil)
    }
}

/// Issue 24: in minified GeoJSON every error and every index `row` said line 1.
@Suite struct GeoJSONPlaceTests {
    @Test func aOneLineDocumentGivesFeatureIndexesNotLines() throws {
        let text = #"{"type":"FeatureCollection","features":[{"type":"Feature","properties":{"id":"a"}},{"type":"Feature","properties":[1]},"#
            + #"{"type":"Feature","properties":{"id":"c"}}]}"# + "\n"
        let reader = try DataRowReader(path: try writeTemporary(text, name: "one.geojson"), format: nil)
        var places: [String] = []
        while let result = try reader.next() {
            switch result {
            case .row(let row): places.append("\(row.place) \(row.fields["id"]!) \(row.error("x").description)")
            case .malformed(let line, let problem): places.append("\(line) ! \(problem)")
            }
        }
        #expect(places == ["features[0] a : features[0]: x", "0 ! features[1].properties: expected an object, found an array",
                           "features[2] c : features[2]: x"])
    }

    @Test func aDocumentOfSeveralLinesGivesBoth() throws {
        let text = "{\"type\": \"FeatureCollection\", \"features\": [\n{\"type\": \"Feature\", \"properties\": {\"id\": \"a\"}},\n"
            + "{\"type\": \"Feature\", \"properties\": {\"id\": \"b\"}}]}\n"
        let reader = try DataRowReader(path: try writeTemporary(text, name: "two.geojson"), format: nil)
        var places: [String] = []
        while case .row(let row)? = try reader.next() { places.append("\(row.place) \(row.error("x", input: "f").description)") }
        #expect(places == ["2: features[0] f:2: features[0]: x", "3: features[1] f:3: features[1]: x"])
    }

    @Test func csvAndJSONLinesKeepTheirLines() throws {
        let reader = try DataRowReader(path: try writeTemporary("{\"id\": 1}\n\n{\"id\": 2}\n", name: "l.jsonl"), format: nil)
        var places: [String] = []
        while case .row(let row)? = try reader.next() { places.append(row.error("x", input: "l").description) }
        #expect(places == ["l:1: x", "l:3: x"])
    }
}

/// The summary's rate counts rendered markers only (a re-run that rendered
/// 2 images reported "6677 images/s").
@Suite struct BatchSummaryLineTests {
    @Test func theRateIsOfRenderedMarkersOnly() {
        var summary = BatchProgress()
        summary.rows = 5000; summary.rendered = 2; summary.skipped = 4998; summary.failed = 1; summary.pruned = 3
        #expect(summary.summaryLine(seconds: 0.75) == "5000 rows: 2 rendered, 4998 unchanged, 1 failed, 3 pruned in 0.8 s (3 rendered/s)")
        summary.rendered = 0
        #expect(summary.summaryLine(seconds: 2) == "5000 rows: 0 rendered, 4998 unchanged, 1 failed, 3 pruned in 2.0 s")
    }

    @Test(arguments: [("a", 3), ("b", 3), ("row-7", 3), ("日本", 8)])
    func shardsAreFNV1aOfTheUTF8Id(_ id: String, _ count: Int) throws {
        // FNV-1a (64 bit) written out here, as the specification gives it.
        var hash: UInt64 = 14_695_981_039_346_656_037
        for byte in Array(id.utf8) { hash ^= UInt64(byte); hash = hash &* 1_099_511_628_211 }
        let expected = Int(hash % UInt64(count)) + 1
        #expect(BatchShard.shard(of: id, count: count) == expected)
        for index in 1...count { #expect(try BatchShard(index: index, count: count).contains(id) == (index == expected)) }
    }

    @Test func knownShards() {
        // Fixed values (computed apart, in Python): a change of hash would move every marker to another machine.
        #expect(["a", "b", "c", "d", "e", "f"].map { BatchShard.shard(of: $0, count: 3) } == [2, 2, 1, 2, 1, 1])   // as Python computes them
    }

    @Test(arguments: [("0/3", "shard 0 of 3"), ("4/3", "shard 4 of 3"), ("1/0", "0 shards"), ("a/3", "is not K/N"), ("1", "is not K/N"),
                      ("1/2/3", "is not K/N")])
    func badShards(_ text: String, _ problem: String) {
        do {
            _ = try BatchShard(parsing: text)
            Issue.record("accepted \(text)")
        } catch {
            #expect(error.problem.contains(problem), "\(error)")
        }
    }
}
