import Foundation
import Testing

/// Issue 24, a batch on real data: absent fields, minified GeoJSON,
/// semicolon CSV, stale files, an honest summary, and shards.
@Suite struct BatchRealDataTests {
    /// 265 of 5,000 rows failed for an absent `price`; now `{price|—}`
    /// renders them all. A minified document, as most tools write it.
    @Test func fiveThousandFeaturesWithAbsentFieldsRenderWithADefault() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        var features: [String] = []
        for index in 0..<5000 {
            // Every 19th lacks its price; every 38th has it null.
            let price = index % 38 == 0 ? ",\"price\":null" : index % 19 == 0 ? "" : ",\"price\":\(1000 + index * 7)"
            features.append("{\"type\":\"Feature\",\"geometry\":{\"type\":\"Point\",\"coordinates\":[121.5,25]},"
                            + "\"properties\":{\"id\":\"p\(index)\"\(price)}}")
        }
        let data = folder.appendingPathComponent("places.geojson")
        try Data(("{\"type\":\"FeatureCollection\",\"features\":[" + features.joined(separator: ",") + "]}").utf8).write(to: data)
        let out = folder.appendingPathComponent("out").path
        let result = try runPinmint(["batch", data.path, "-o", out, "--style", "price-tag", "--set", "label={price|—}", "--png", "fast"])
        #expect(result.status == 0 && result.standardError.isEmpty, "\(result.standardError)")
        let index = try jsonObject(out + "/index.json")
        let markers = try #require(index["markers"] as? [[String: Any]])
        #expect(index["failed"] as? Int == 0 && markers.count == 5000)
        #expect(markers.enumerated().allSatisfy { $1["feature"] as? Int == $0 && $1["row"] as? Int == 1 })
        // The absent, the null and a present price: the first two are the same tag (—), the third is not.
        let absent = try Data(contentsOf: URL(fileURLWithPath: out + "/p19.png"))
        let null = try Data(contentsOf: URL(fileURLWithPath: out + "/p38.png"))
        let present = try Data(contentsOf: URL(fileURLWithPath: out + "/p20.png"))
        #expect(absent == null && absent != present)
        // `{price}` fails exactly the rows without a price (a null one is empty), each named by its feature;
        // checked on the first 400 features (11 without a price: 19, 57, …, 399), to keep the test short.
        try Data(("{\"type\":\"FeatureCollection\",\"features\":[" + features.prefix(400).joined(separator: ",") + "]}").utf8).write(to: data)
        let strict = try runPinmint(["batch", data.path, "-o", out + "-strict", "--style", "price-tag", "--set", "label={price}", "--png", "fast"])
        #expect(strict.status == 1)
        let failures = strict.standardError.split(separator: "\n")
        #expect(failures.count == 11 && failures.allSatisfy { $0.hasSuffix(": --set label '{price}': no field 'price' (fields: id; "
                                                                          + "write {price?} or {price|…} when rows may lack it)") })
        #expect(failures.first?.hasPrefix("pinmint: \(data.path): features[19]: ") == true, "\(failures)")
        #expect(failures.last?.hasPrefix("pinmint: \(data.path): features[399]: ") == true, "\(failures)")
    }

    /// A semicolon CSV failed with "fields: id;price" and no hint.
    @Test func aSemicolonCSVIsReadAndAPipeCSVGetsAHint() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let semicolons = folder.appendingPathComponent("eu.csv"), pipes = folder.appendingPathComponent("p.csv")
        try Data("id;price\na;1234,5\nb;99\n".utf8).write(to: semicolons)
        try Data("id|price\na|1\n".utf8).write(to: pipes)
        let out = folder.appendingPathComponent("out").path
        let read = try runPinmint(["batch", semicolons.path, "-o", out, "--style", "price-tag", "--set", "label={price}"])
        #expect(read.status == 0 && read.standardError.isEmpty, "\(read.standardError)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: out).sorted() == ["a.png", "b.png", "index.json"])
        let hinted = try runPinmint(["batch", pipes.path, "-o", out + "2", "--style", "price-tag", "--set", "label={price}"])
        #expect(hinted.status == 2)
        #expect(hinted.standardError == "pinmint: --set label: no field 'price' in \(pipes.path) for '{price}' (fields: id|price); "
                + "the header is one column, 'id|price': if '|' separates the fields, give --delimiter '|'\n")
        let given = try runPinmint(["batch", pipes.path, "-o", out + "2", "--style", "price-tag", "--set", "label={price}", "--delimiter", "|"])
        #expect(given.status == 0, "\(given.standardError)")
        // A template that needs no field renders, with the hint as a notice.
        let optional = try runPinmint(["batch", pipes.path, "-o", out + "4", "--style", "price-tag", "--set", "label={price?}"])
        #expect(optional.status == 0 && optional.standardError == "pinmint: batch: \(pipes.path): the header is one column, 'id|price': "
                + "if '|' separates the fields, give --delimiter '|'\n")
        let bad = try runPinmint(["batch", pipes.path, "-o", out + "3", "--style", "price-tag", "--delimiter", "ab"])
        #expect(bad.status == 2 && bad.standardError == "pinmint: batch: --delimiter 'ab' is not ',' ';' '|' ':' or tab\n")
    }

    /// In minified GeoJSON every error and index `row` said line 1; a
    /// skipped (up-to-date) marker's line keeps the feature's new index.
    @Test func oneLineGeoJSONNamesFeaturesInMessagesAndTheIndex() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let data = folder.appendingPathComponent("min.geojson")
        func write(_ features: [String]) throws {
            try Data(("{\"type\":\"FeatureCollection\",\"features\":[" + features.joined(separator: ",") + "]}").utf8).write(to: data)
        }
        let a = #"{"type":"Feature","properties":{"id":"a","price":1}}"#, b = #"{"type":"Feature","properties":{"id":"b"}}"#
        let bad = #"{"type":"Feature","properties":[1]}"#, anonymous = #"{"type":"Feature","properties":{"price":5}}"#
        try write([a, b, bad, anonymous])
        let out = folder.appendingPathComponent("out").path
        let first = try runPinmint(["batch", data.path, "-o", out, "--style", "price-tag", "--set", "label={price}"])
        #expect(first.status == 1)
        #expect(first.standardError == "pinmint: \(data.path): features[1]: --set label '{price}': no field 'price' (fields: id; "
                + "write {price?} or {price|…} when rows may lack it)\n"
                + "pinmint: \(data.path): features[2].properties: expected an object, found an array\n")
        // A feature without an id is named by its index: in one line, row-1 would name every one.
        var markers = try #require(try jsonObject(out + "/index.json")["markers"] as? [[String: Any]])
        #expect(markers.map { $0["id"] as? String } == ["a", "feature-3"])
        #expect(markers.map { $0["feature"] as? Int } == [0, 3])
        // Features moved: the up-to-date marker of `a` is kept, with its new place.
        try write([bad, anonymous, a])
        let second = try runPinmint(["batch", data.path, "-o", out, "--style", "price-tag", "--set", "label={price}"])
        #expect(second.status == 1)
        markers = try #require(try jsonObject(out + "/index.json")["markers"] as? [[String: Any]])
        #expect(markers.map { $0["id"] as? String } == ["feature-1", "a"])
        #expect(markers.map { $0["feature"] as? Int } == [1, 2])
    }
}

extension BatchRealDataTests {
    /// After re-running a 100-row subset into the same folder, 9,289 stale
    /// files remained. `--prune` removes what the earlier index listed and
    /// this run did not write or keep, and nothing else.
    @Test func pruneRemovesOnlyTheEarlierRunsFilesThisRunDidNotWrite() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let all = try writeIDs(count: 40, to: folder.appendingPathComponent("all.csv"))
        let subset = try writeIDs(count: 10, to: folder.appendingPathComponent("some.csv"))
        let out = folder.appendingPathComponent("out").path
        #expect(try runPinmint(["batch", all.path, "-o", out, "--style", "pin", "--scale", "1,2"]).status == 0)
        // Not ours: a PNG the index never listed, another file, and a listed name that is now a folder.
        try Data("x".utf8).write(to: URL(fileURLWithPath: out + "/mine.png"))
        try Data("x".utf8).write(to: URL(fileURLWithPath: out + "/notes.txt"))
        try FileManager.default.removeItem(atPath: out + "/r39@2x.png")
        try FileManager.default.createDirectory(atPath: out + "/r39@2x.png", withIntermediateDirectories: false)
        // Without --prune the stale files stay; the index lists this run's files only.
        #expect(try runPinmint(["batch", subset.path, "-o", out, "--style", "pin", "--scale", "1,2"]).status == 0)
        #expect(try FileManager.default.contentsOfDirectory(atPath: out).filter { $0.hasSuffix(".png") }.count == 81)
        var markers = try #require(try jsonObject(out + "/index.json")["markers"] as? [[String: Any]])
        #expect(markers.count == 20)
        // The earlier index (the subset's) lists 20 files: re-run everything, then prune back to the subset.
        #expect(try runPinmint(["batch", all.path, "-o", out, "--style", "pin", "--scale", "1,2", "-q"]).status == 1)   // r39@2x: a folder
        let pruned = try runPinmint(["batch", subset.path, "-o", out, "--style", "pin", "--scale", "1,2", "--prune"])
        #expect(pruned.status == 0)
        // r10...r38 at both ratios; r39.png was written by a row that then failed, so no index listed it: it stays.
        #expect(pruned.standardError == "pinmint: batch: pruned 58 files of an earlier run\n")
        let left = try FileManager.default.contentsOfDirectory(atPath: out).sorted()
        let expected = (0..<10).flatMap { ["r\($0).png", "r\($0)@2x.png"] } + ["index.json", "mine.png", "notes.txt", "r39.png", "r39@2x.png"]
        #expect(left == expected.sorted())
        markers = try #require(try jsonObject(out + "/index.json")["markers"] as? [[String: Any]])
        #expect(markers.count == 20)
        // Nothing more to prune.
        let again = try runPinmint(["batch", subset.path, "-o", out, "--style", "pin", "--scale", "1,2", "--prune"])
        #expect(again.status == 0 && again.standardError.isEmpty)
    }

    /// A sprite renamed: the earlier sheets go, each with its JSON.
    @Test func pruneRemovesAnEarlierSpriteWithItsJSON() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let data = try writeIDs(count: 3, to: folder.appendingPathComponent("ids.csv"))
        let out = folder.appendingPathComponent("out").path
        #expect(try runPinmint(["batch", data.path, "-o", out, "--style", "pin", "--sprite", "old", "--scale", "1,2", "-q"]).status == 0)
        let pruned = try runPinmint(["batch", data.path, "-o", out, "--style", "pin", "--sprite", "new", "--scale", "1,2", "--prune", "-q"])
        #expect(pruned.status == 0)
        #expect(try FileManager.default.contentsOfDirectory(atPath: out).sorted()
                == ["index.json", "new.json", "new.png", "new@2x.json", "new@2x.png"])
    }

    /// The summary was printed before "… and 165 more failed rows", and a
    /// re-run that rendered 2 images reported thousands of images a second.
    /// On a terminal (`script` gives the batch one) the failures come first,
    /// then one line with every count.
    @Test func theSummaryComesAfterTheFailuresAndRatesRenderedMarkersOnly() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let data = folder.appendingPathComponent("d.csv")
        // 150 rows whose price is not a number among 200.
        try Data(("id,price\n" + (0..<200).map { "r\($0),\($0 < 150 ? "n/a" : "\($0)")\n" }.joined()).utf8).write(to: data)
        let out = folder.appendingPathComponent("out").path
        func onTerminal(_ arguments: [String]) throws -> [String] {
            let command = ([pinmintBinary.path] + arguments).map { "'" + $0 + "'" }.joined(separator: " ") + " 2>&1"
            let result = try runToEnd({
                let process = Process()
                process.executableURL = URL(fileURLWithPath: "/usr/bin/script")
                process.arguments = ["-qec", command, "/dev/null"]
                return process
            }())
            let text = String(decoding: result.standardOutput, as: UTF8.self)
            // The progress bar's redraws end in "\r\u{1B}[K"; keep what each line finally says.
            return text.replacingOccurrences(of: "\r\n", with: "\n").split(separator: "\n").map { line in
                String(line.components(separatedBy: "\r\u{1B}[K").last!)
            }.filter { !$0.isEmpty }
        }
        let first = try onTerminal(["batch", data.path, "-o", out, "--style", "price-tag", "--set", "label={price:number}萬", "--jobs", "2"])
        #expect(first.count == 102, "\(first)")
        #expect(first[0] == "pinmint: \(data.path):2: --set label '{price:number}萬': {price:number}: 'n/a' is not a number", "\(first)")
        #expect(first[100] == "pinmint: … and 50 more failed rows (150 in all)")
        let summary = try #require(first.last)
        #expect(summary.hasPrefix("pinmint: batch: 200 rows: 50 rendered, 0 unchanged, 150 failed, 0 pruned in "), "\(summary)")
        #expect(summary.hasSuffix(" rendered/s)"), "\(summary)")
        // A re-run with 2 rows changed: 2 rendered, and the rate is theirs.
        try Data(("id,price\n" + (0..<200).map { "r\($0),\($0 < 150 ? "1" : "\($0 < 152 ? $0 * 2 : $0)")\n" }.joined()).utf8).write(to: data)
        let second = try onTerminal(["batch", data.path, "-o", out, "--style", "price-tag", "--set", "label={price:number}萬",
                                     "--prune"])
        let line = try #require(second.last)
        #expect(second.count == 1, "\(second)")
        #expect(line.hasPrefix("pinmint: batch: 200 rows: 152 rendered, 48 unchanged, 0 failed, 0 pruned in "), "\(line)")
        let rate = try #require(Double(line.split(separator: "(").last!.split(separator: " ").first!))
        let seconds = try #require(Double(line.components(separatedBy: " in ").last!.split(separator: " ").first!))
        #expect(rate <= 152 / max(seconds - 0.05, 0.001) + 1, "\(line)")
    }
}

extension BatchRealDataTests {
    /// Three shards, run one after another into one folder and joined,
    /// give the single run's index and PNGs byte for byte: rows in order,
    /// failures counted once.
    @Test(arguments: ["csv", "geojson"])
    func threeShardsJoinedEqualOneRun(_ format: String) throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let data = folder.appendingPathComponent("d.\(format)")
        // 60 rows; every 7th lacks its price, one is malformed, one repeats an id.
        var rows: [String] = []
        for index in 0..<60 {
            let price = index % 7 == 3 ? nil : "\(100 + index * 13)"
            let id = index == 41 ? "r40" : "r\(index)"
            if format == "csv" {
                rows.append(index == 50 ? "r50\n" : "\(id),\(price ?? "")\n")
            } else {
                rows.append(index == 50 ? #"{"type":"Feature","properties":"x"}"#
                            : "{\"type\":\"Feature\",\"geometry\":{\"type\":\"Point\",\"coordinates\":[\(index),1]},\"properties\":{\"id\":\"\(id)\""
                            + (price.map { ",\"price\":\($0)" } ?? "") + "}}")
            }
        }
        let text = format == "csv" ? "id,price\n" + rows.joined() : "{\"type\":\"FeatureCollection\",\"features\":[" + rows.joined(separator: ",") + "]}"
        try Data(text.utf8).write(to: data)
        let style = ["--style", "price-tag", "--set", "label={price}萬", "--scale", "1,2", "-q"]
        let single = folder.appendingPathComponent("single").path, sharded = folder.appendingPathComponent("sharded").path
        let one = try runPinmint(["batch", data.path, "-o", single] + style)
        #expect(one.status == 1)
        var statuses: [Int32] = []
        for shard in 1...3 {
            statuses.append(try runPinmint(["batch", data.path, "-o", sharded, "--shard", "\(shard)/3"] + style).status)
        }
        #expect(statuses.contains(1) && statuses.allSatisfy { $0 == 0 || $0 == 1 })
        // Each part has some of the markers and none twice.
        var partCounts: [Int] = []
        for shard in 1...3 {
            let part = try jsonObject(sharded + "/index.shard-\(shard)-of-3.json")
            partCounts.append(try #require(part["markers"] as? [[String: Any]]).count)
            #expect(part["shard"] as? String == "\(shard)/3")
        }
        #expect(partCounts.allSatisfy { $0 > 0 })
        let merge = try runPinmint(["batch", "--merge-index", sharded])
        #expect(merge.status == 0)
        #expect(merge.standardError == "pinmint: batch: joined 3 index parts into \(sharded)/index.json: \(partCounts.reduce(0, +)) markers, "
                + "\(try jsonObject(single + "/index.json")["failed"] as! Int) failed rows\n")
        #expect(try Data(contentsOf: URL(fileURLWithPath: sharded + "/index.json")) == Data(contentsOf: URL(fileURLWithPath: single + "/index.json")))
        let singleFiles = try FileManager.default.contentsOfDirectory(atPath: single).sorted()
        let shardedFiles = try FileManager.default.contentsOfDirectory(atPath: sharded).filter { !$0.contains(".shard-") }.sorted()
        #expect(singleFiles == shardedFiles && singleFiles.count == partCounts.reduce(0, +) + 1)
        for name in singleFiles where name.hasSuffix(".png") {
            #expect(try Data(contentsOf: URL(fileURLWithPath: single + "/" + name)) == Data(contentsOf: URL(fileURLWithPath: sharded + "/" + name)), "\(name)")
        }
    }

    @Test func mergeRefusesMissingAndMixedParts() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let data = try writeIDs(count: 30, to: folder.appendingPathComponent("ids.csv"))
        let out = folder.appendingPathComponent("out").path
        let none = try runPinmint(["batch", "--merge-index", folder.path])
        #expect(none.status == 2 && none.standardError == "pinmint: \(folder.path): no index parts (index.shard-K-of-N.json): "
                + "run pinmint batch with --shard K/N first\n")
        for shard in [1, 3] { #expect(try runPinmint(["batch", data.path, "-o", out, "--style", "pin", "--shard", "\(shard)/3"]).status == 0) }
        let missing = try runPinmint(["batch", "--merge-index", out])
        #expect(missing.status == 2 && missing.standardError == "pinmint: \(out): shard 2 of 3 missing (index.shard-K-of-3.json): "
                + "run them, or copy their output here\n")
        #expect(!FileManager.default.fileExists(atPath: out + "/index.json"))
        // A part cut short (a copy that broke off): nothing written, no temporary file left.
        #expect(try runPinmint(["batch", data.path, "-o", out, "--style", "pin", "--shard", "2/3"]).status == 0)
        let part = out + "/index.shard-2-of-3.json"
        let whole = try Data(contentsOf: URL(fileURLWithPath: part))
        try whole.prefix(whole.count - 20).write(to: URL(fileURLWithPath: part))
        let cut = try runPinmint(["batch", "--merge-index", out])
        #expect(cut.status == 2 && cut.standardError.hasPrefix("pinmint: \(part): not a finished index part ("), "\(cut.standardError)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: out).allSatisfy { $0 != "index.json" && !$0.hasPrefix(".") })
        try FileManager.default.removeItem(atPath: part)
        #expect(try runPinmint(["batch", data.path, "-o", out, "--style", "pin", "--shard", "1/2"]).status == 0)
        let mixed = try runPinmint(["batch", "--merge-index", out])
        #expect(mixed.status == 2 && mixed.standardError.contains("index parts of different shard counts (2, 3)"))
        let usage = try runPinmint(["batch", data.path, "--merge-index", out])
        #expect(usage.status == 2 && usage.standardError == "pinmint: batch: --merge-index DIR takes no data file (it joins DIR's index parts)\n")
        let sprite = try runPinmint(["batch", data.path, "-o", out, "--style", "pin", "--shard", "1/2", "--sprite", "s"])
        #expect(sprite.status == 2 && sprite.standardError.contains("--shard cannot split a --sprite"))
        let zero = try runPinmint(["batch", data.path, "-o", out, "--style", "pin", "--shard", "0/2"])
        #expect(zero.status == 2 && zero.standardError.contains("a 0-based index, such as JOB_COMPLETION_INDEX, needs 1 added"))
    }
}
