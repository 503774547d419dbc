import Foundation
import PinmintPNG
import Testing

/// `pinmint batch` when rows, outputs or the process itself misbehave:
/// messages stay one line each, a row's failure stays the row's, and an
/// interrupted or failed batch leaves nothing of its own behind.
@Suite struct BatchRobustnessTests {
    /// An id or a value with a newline or an escape sequence printed the raw
    /// characters: one message over three lines, colours on the terminal.
    @Test func failedRowMessagesAreOneLineWithControlCharactersEscaped() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let csv = folder.appendingPathComponent("nl.csv"), jsonl = folder.appendingPathComponent("nl.jsonl")
        try Data("id,c\n\"a\nb\",x\n\"c\u{1B}[31mRED\",y\nr1,\"re\nd\"\n".utf8).write(to: csv)
        try Data(#"{"id":"a\nb"}"#.utf8 + Data("\n".utf8)).write(to: jsonl)
        let rows = try runPinmint(["batch", csv.path, "-o", folder.appendingPathComponent("o").path, "--style", "pin",
                                   "--set", "fill={c}"])
        #expect(rows.status == 1)
        let allowed = "(allowed: letters, digits and -_.+,=()@ and spaces)"
        #expect(rows.standardError == "pinmint: \(csv.path):2: the id 'a\\nb' holds '\\n' \(allowed)\n"
                + "pinmint: \(csv.path):4: the id 'c\\u{1B}[31mRED' holds '\\u{1B}' \(allowed)\n"
                + "pinmint: \(csv.path):5: fill 're\\nd': colour 're\\nd': not a colour "
                + "(expected #RGB, #RRGGBB, rgb(), rgba() or a CSS colour name)\n")
        let lines = try runPinmint(["batch", jsonl.path, "-o", folder.appendingPathComponent("o2").path, "--style", "pin"])
        #expect(lines.status == 1)
        #expect(lines.standardError == "pinmint: \(jsonl.path):1: the id 'a\\nb' holds '\\n' \(allowed)\n")
    }
}

extension BatchRobustnessTests {
    /// `--set id=a --set id=b` used b while a repeated `--set label` was refused.
    @Test(arguments: ["id", "label"])
    func aRepeatedSetIsRefused(_ name: String) throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let data = folder.appendingPathComponent("d.csv")
        try Data("id,n\na,1\n".utf8).write(to: data)
        let out = folder.appendingPathComponent("out").path
        let result = try runPinmint(["batch", data.path, "-o", out, "--style", "pin", "--set", "\(name)={n}", "--set", "\(name)=x{n}"])
        #expect(result.status == 2)
        #expect(result.standardError == "pinmint: batch: --set \(name) given more than once\n")
        #expect(!FileManager.default.fileExists(atPath: out))
    }
}

extension BatchRobustnessTests {
    /// A folder where one marker's file goes stopped the whole batch with
    /// code 2 mid-way ("cannot move the finished file into place"), without
    /// the row's line and without an index.
    @Test func aBlockedMarkerFileFailsItsRowOnly() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let data = try writeIDs(count: 300, to: folder.appendingPathComponent("mid.csv"))
        let out = folder.appendingPathComponent("r7").path
        try FileManager.default.createDirectory(atPath: out + "/r150.png", withIntermediateDirectories: true)
        let result = try runPinmint(["batch", data.path, "-o", out, "--style", "pin", "--jobs", "2"])
        #expect(result.status == 1)
        #expect(result.standardError == "pinmint: \(data.path):152: \(out)/r150.png: cannot move the finished file into place: "
                + "Is a directory\n")
        let index = try jsonObject(out + "/index.json")
        #expect(index["failed"] as? Int == 1)
        let markers = try #require(index["markers"] as? [[String: Any]])
        #expect(markers.count == 299 && !markers.contains { $0["id"] as? String == "r150" })
        let files = try FileManager.default.contentsOfDirectory(atPath: out)
        #expect(files.count == 301 && !files.contains { $0.hasPrefix(".") }, "\(files.filter { $0.hasPrefix(".") })")
    }
}

extension BatchRobustnessTests {
    /// SIGINT or SIGTERM mid-batch left the index's temporary file
    /// (`.index.json.PID.N.tmp`, half the JSON) in the output folder for good.
    @Test(arguments: [(SIGINT, Int32(130), "SIGINT"), (SIGTERM, Int32(143), "SIGTERM")])
    func anInterruptedBatchLeavesNoTemporaryFile(_ signal: Int32, _ status: Int32, _ name: String) throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let data = try writeIDs(count: 300_000, to: folder.appendingPathComponent("many.csv"))
        let out = folder.appendingPathComponent("out").path
        let process = Process()
        process.executableURL = pinmintBinary
        process.arguments = ["batch", data.path, "-o", out, "--style", "pin", "--jobs", "2"]
        let error = Pipe()
        process.standardError = error
        try process.run()
        // Until the index's temporary file and some markers are there.
        let deadline = Date().addingTimeInterval(60)
        while Date() < deadline {
            let files = (try? FileManager.default.contentsOfDirectory(atPath: out)) ?? []
            if files.contains(where: { $0.hasPrefix(".index.json.") }) && files.filter({ $0.hasSuffix(".png") }).count >= 20 { break }
            usleep(20_000)
        }
        kill(process.processIdentifier, signal)
        let message = String(decoding: error.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationReason == .exit && process.terminationStatus == status, "\(message)")
        #expect(message == "pinmint: batch: interrupted (\(name)); the finished markers stay, no temporary file is left\n")
        let files = try FileManager.default.contentsOfDirectory(atPath: out)
        #expect(!files.contains { $0.hasPrefix(".") }, "\(files.filter { $0.hasPrefix(".") })")
        #expect(!files.contains("index.json") && files.count >= 20)
    }
}

extension BatchRobustnessTests {
    /// An interrupted batch left the output folder it had made, empty when
    /// no marker was finished yet (its index's temporary file removed):
    /// whenever it is interrupted, the folder is gone or holds markers.
    @Test func anInterruptedBatchLeavesNoEmptyFolderOfItsOwn() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let data = try writeIDs(count: 1000, to: folder.appendingPathComponent("many.csv"))
        for attempt in 0..<3 {
            let out = folder.appendingPathComponent("new\(attempt)/out").path
            let process = Process()
            process.executableURL = pinmintBinary
            process.arguments = ["batch", data.path, "-o", out, "--style", "pin", "--jobs", "1", "-q"]
            try process.run()
            // As soon as the folder is there, before (most often) any marker is.
            let deadline = Date().addingTimeInterval(30)
            while Date() < deadline && !FileManager.default.fileExists(atPath: out) { usleep(200) }
            kill(process.processIdentifier, SIGTERM)
            process.waitUntilExit()
            #expect(process.terminationReason == .exit && process.terminationStatus == 143)
            let files = try? FileManager.default.contentsOfDirectory(atPath: out)
            #expect(files.map { $0.contains { $0.hasSuffix(".png") } } ?? true, "\(files ?? [])")
            if files == nil { #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("new\(attempt)").path)) }
        }
    }

    /// A batch that stopped with code 2 before writing anything left the
    /// (empty) output folders it had made.
    @Test func aStoppedBatchRemovesTheEmptyFoldersItMade() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let data = folder.appendingPathComponent("bad.geojson")
        try Data(#"{"type": "Feature", "properties": {}}"#.utf8).write(to: data)
        let made = folder.appendingPathComponent("new").path
        let result = try runPinmint(["batch", data.path, "-o", made + "/deep/out", "--style", "pin"])
        #expect(result.status == 2)
        #expect(result.standardError == "pinmint: \(data.path):1: a GeoJSON Feature, not a FeatureCollection\n")
        #expect(!FileManager.default.fileExists(atPath: made))
        // A folder that was there stays.
        let existing = folder.appendingPathComponent("existing").path
        try FileManager.default.createDirectory(atPath: existing, withIntermediateDirectories: true)
        #expect(try runPinmint(["batch", data.path, "-o", existing + "/out", "--style", "pin"]).status == 2)
        #expect(try FileManager.default.contentsOfDirectory(atPath: existing).isEmpty)
        // Regression: through `..`, a folder that was there counted as made and was removed.
        #expect(try runPinmint(["batch", data.path, "-o", made + "/../existing", "--style", "pin"]).status == 2)
        #expect(FileManager.default.fileExists(atPath: existing))
        #expect(!FileManager.default.fileExists(atPath: made))
    }
}

/// A CSV of one `id` column holding r0, r1, … (`count` rows), written to `file`.
func writeIDs(count: Int, to file: URL) throws -> URL {
    try Data(("id\n" + (0..<count).map { "r\($0)\n" }.joined()).utf8).write(to: file)
    return file
}
