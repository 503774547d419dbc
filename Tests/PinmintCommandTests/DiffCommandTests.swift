import Foundation
import PinmintPNG
import Testing

/// `pinmint diff` and `pinmint golden`: exit codes, JSON, files written.
struct DiffCommandTests {
    static let pairs = repositoryRoot.appendingPathComponent("Tests/PinmintDiffTests/Resources/pairs")
    func pair(_ name: String) -> [String] {
        [DiffCommandTests.pairs.appendingPathComponent("\(name).expected.png").path,
         DiffCommandTests.pairs.appendingPathComponent("\(name).actual.png").path]
    }

    func json(_ result: CommandResult) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: result.standardOutput) as? [String: Any])
    }

    @Test func identicalImagesExitZero() throws {
        let result = try runPinmint(["diff"] + pair("identical") + ["--json"])
        #expect(result.status == 0)
        let object = try json(result)
        #expect(object["match"] as? Bool == true && object["diffPixels"] as? Int == 0 && object["totalPixels"] as? Int == 256)
        #expect(Set(object.keys) == ["match", "diffPixels", "totalPixels", "diffPercent"])
    }

    /// Counts as pixelmatch (Resources/pixelmatch-counts.tsv: flat-edits, 102 at the defaults, 32 for brighter-and-darker).
    @Test func differingPixelsExitOneWithPixelmatchsCount() throws {
        let result = try runPinmint(["diff"] + pair("flat-edits") + ["--json"])
        #expect(result.status == 1)
        let object = try json(result)
        #expect(object["match"] as? Bool == false && object["diffPixels"] as? Int == 102 && object["totalPixels"] as? Int == 3500)
        #expect(abs((object["diffPercent"] as? Double ?? 0) - 100 * 102.0 / 3500) < 1e-9)
        let line = try runPinmint(["diff"] + pair("flat-edits"))
        #expect(line.status == 1)
        let text = String(decoding: line.standardOutput, as: UTF8.self)
        #expect(text.split(separator: "\n").count == 1 && text.contains("102 of 3500 pixels differ (2.9143%") && text.contains(" ms"))
    }

    static let tolerances: [(options: [String], status: Int32)] = [
        (["--max-diff-pixels", "102"], 0), (["--max-diff-pixels", "101"], 1),
        (["--max-diff-percent", "2.92"], 0), (["--max-diff-percent", "2.9"], 1),
        (["--threshold", "0.9"], 0), (["--include-aa", "--threshold", "0"], 1),
    ]

    @Test(arguments: tolerances.indices)
    func toleranceDecidesTheExitCode(_ index: Int) throws {
        let (options, status) = DiffCommandTests.tolerances[index]
        #expect(try runPinmint(["diff"] + pair("flat-edits") + options).status == status, "\(options)")
    }

    @Test func sizesDifferExitTwoWithBothSizes() throws {
        let result = try runPinmint(["diff", pair("flat-edits")[0], pair("identical")[0], "--json"])
        #expect(result.status == 2)
        let object = try json(result)
        #expect(object["match"] as? Bool == false)
        #expect((object["expectedSize"] as? [String: Int]) == ["width": 70, "height": 50])
        #expect((object["actualSize"] as? [String: Int]) == ["width": 16, "height": 16])
        let line = try runPinmint(["diff", pair("flat-edits")[0], pair("identical")[0]])
        #expect(line.status == 2 && String(decoding: line.standardOutput, as: UTF8.self).contains("70x50"))
    }

    @Test func diffImageIsWrittenAndIsPixelmatchs() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let output = folder.appendingPathComponent("diff.png").path
        let result = try runPinmint(["diff"] + pair("brighter-and-darker")
            + ["--diff", output, "--diff-color-alt", "00a000", "--aa-color", "#0080ff", "--alpha", "0.5"])
        #expect(result.status == 1)
        let image = try PNGDecoder.decode(contentsOfFile: output)
        #expect(image.width == 16 && image.height == 16)
        // Both colours appear: the brighter block red, the darker one green.
        let pixels = image.straightRGBA8
        let colours = Set(stride(from: 0, to: pixels.count, by: 4).map { [pixels[$0], pixels[$0 + 1], pixels[$0 + 2]] })
        #expect(colours.contains([255, 0, 0]) && colours.contains([0, 160, 0]))
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["diff.png"])
    }

    @Test func ignoredRegionsAndMasksAreNotCounted() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect(try runPinmint(["diff"] + pair("flat-edits") + ["--ignore", "0,0,70,50"]).status == 0)
        #expect(try runPinmint(["diff"] + pair("flat-edits") + ["--ignore", "0,0,70,25", "--ignore", "0,25,70,25"]).status == 0)
        #expect(try runPinmint(["diff"] + pair("flat-edits") + ["--ignore", "0,0,70,12"]).status == 1)
        let mask = folder.appendingPathComponent("mask.png").path
        try PNGEncoder.writeAtomically(try PNGEncoder.encode(straightRGBA8: [UInt8](repeating: 255, count: 70 * 50 * 4),
                                                             width: 70, height: 50), to: mask)
        #expect(try runPinmint(["diff"] + pair("flat-edits") + ["--ignore-mask", mask]).status == 0)
    }

    static let badInputs: [(arguments: [String], message: String)] = [
        (["missing-a.png", "missing-b.png"], "missing-a.png"),
        (["ONLY-ONE"], "EXPECTED.png and ACTUAL.png"),
        (["--threshold", "1.5"], "--threshold 1.5"),
        (["--threshold", "nan"], "--threshold"),
        (["--alpha", "-1"], "--alpha"),
        (["--diff-color", "zz"], "--diff-color 'zz'"),
        (["--aa-color", "#12345"], "--aa-color '#12345' is not a colour: expected 3, 4, 6 or 8 hexadecimal digits"),
        // Regression: the problem was said twice ("is not a colour (not a colour (expected …); e.g. …)").
        (["--aa-color", "zzzzzz"], "--aa-color 'zzzzzz' is not a colour (expected #RGB"),
        (["--diff-color-alt", "zzzzzz"], "--diff-color-alt 'zzzzzz' is not a colour (expected #RGB"),
        (["--ignore", "1,2,3"], "--ignore"),
        (["--ignore", "500,0,10,10"], "500,0,10,10"),
        (["--max-diff-pixels", "1", "--max-diff-percent", "1"], "not both"),
        (["--max-diff-pixels", "-3"], "--max-diff-pixels '-3'"),
        (["--max-diff-percent", "101"], "--max-diff-percent"),
        (["--pixelmatch", "6"], "--pixelmatch '6'"),
        (["--frobnicate"], "--frobnicate"),
        (["--ignore-mask", "no-such-mask.png"], "no-such-mask.png"),
    ]

    /// Said only "pinmint: : …", without the flag.
    @Test func anEmptyDiffPathNamesTheFlag() throws {
        let result = try runPinmint(["diff"] + pair("flat-edits") + ["--diff", ""])
        #expect(result.status == 3 && result.standardError.contains("--diff '': expected a .png file path or '-'"),
                "\(result.standardError)")
    }

    @Test(arguments: badInputs.indices)
    func badInputExitsThreeWithOneLine(_ index: Int) throws {
        let bad = DiffCommandTests.badInputs[index]
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let files = bad.arguments.first?.hasSuffix(".png") == true || bad.arguments.first == "ONLY-ONE"
            ? [] : pair("flat-edits")
        let output = folder.appendingPathComponent("diff.png").path
        let result = try runPinmint(["diff"] + files + bad.arguments + ["--diff", output])
        #expect(result.status == 3, "\(bad.arguments): \(result.status)")
        #expect(result.standardError.split(separator: "\n").count == 1, "\(bad.arguments): \(result.standardError)")
        #expect(result.standardError.contains(bad.message), "\(bad.arguments): \(result.standardError)")
        #expect(!FileManager.default.fileExists(atPath: output))
    }

    /// Regression: `--ignore 1,0,9223372036854775807,1` overflowed x + w and crashed; such
    /// regions are clipped to the image like any other that reaches past its edge.
    static let hugeRegions: [(region: String, status: Int32)] = [
        ("1,0,9223372036854775807,1", 1), ("0,1,1,9223372036854775807", 1),
        ("0,0,9223372036854775807,9223372036854775807", 0),
    ]

    @Test(arguments: hugeRegions.indices)
    func hugeIgnoredRegionsAreClipped(_ index: Int) throws {
        let (region, status) = DiffCommandTests.hugeRegions[index]
        let result = try runPinmint(["diff"] + pair("flat-edits") + ["--ignore", region])
        #expect(result.status == status, "\(region): \(result.status) \(result.standardError)")
        #expect(result.standardError.isEmpty)
    }

    /// Regression: `--diff EXPECTED.png` overwrote the expected image. The same file by another
    /// path (relative, through a symbolic or a hard link) is refused too.
    @Test(arguments: ["expected", "actual", "mask", "relative", "symbolic link", "hard link"])
    func diffOutputThatIsAnInputIsRefused(_ how: String) throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let expected = folder.appendingPathComponent("expected.png"), actual = folder.appendingPathComponent("actual.png")
        try FileManager.default.copyItem(atPath: pair("flat-edits")[0], toPath: expected.path)
        try FileManager.default.copyItem(atPath: pair("flat-edits")[1], toPath: actual.path)
        let link = folder.appendingPathComponent("link.png")
        var extra: [String] = []
        let output: String
        switch how {
        case "actual": output = actual.path
        case "mask":
            let mask = folder.appendingPathComponent("mask.png")
            try PNGEncoder.writeAtomically(try PNGEncoder.encode(straightRGBA8: [UInt8](repeating: 0, count: 70 * 50 * 4),
                                                                 width: 70, height: 50), to: mask.path)
            extra = ["--ignore-mask", mask.path]
            output = mask.path
        case "relative": output = folder.appendingPathComponent("sub/../expected.png").path
        case "symbolic link":
            try FileManager.default.createSymbolicLink(at: link, withDestinationURL: expected)
            output = link.path
        case "hard link":
            try FileManager.default.linkItem(at: expected, to: link)
            output = link.path
        default: output = expected.path
        }
        if how == "relative" {
            try FileManager.default.createDirectory(at: folder.appendingPathComponent("sub"), withIntermediateDirectories: true)
        }
        let before = try Data(contentsOf: URL(fileURLWithPath: output))
        let result = try runPinmint(["diff", expected.path, actual.path, "--diff", output] + extra)
        #expect(result.status == 3, "\(how): \(result.status)")
        #expect(result.standardError.split(separator: "\n").count == 1 && result.standardError.contains("same file"),
                "\(how): \(result.standardError)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: output)) == before)
    }

    /// Regression: with `--diff -` the summary line (or the JSON) followed the PNG on standard output.
    @Test func diffToStandardOutputCarriesThePNGAlone() throws {
        let result = try runPinmint(["diff"] + pair("flat-edits") + ["--diff", "-"])
        #expect(result.status == 1)
        let image = try PNGDecoder.decode(Array(result.standardOutput))
        #expect(image.width == 70 && image.height == 50)
        #expect(result.standardError.contains("102 of 3500 pixels differ") && result.standardError.split(separator: "\n").count == 1)
        let json = try runPinmint(["diff"] + pair("flat-edits") + ["--diff", "-", "--json"])
        #expect(json.status == 3 && json.standardOutput.isEmpty)
        #expect(json.standardError.split(separator: "\n").count == 1 && json.standardError.contains("--json"))
    }

    /// Regression: `pinmint diff - -` read standard input twice ("-: not a PNG file (only 0 bytes)").
    @Test(arguments: [["-", "-"], ["-", "B", "--ignore-mask", "-"]])
    func standardInputForTwoImagesIsRefused(_ arguments: [String]) throws {
        let files = arguments.map { $0 == "B" ? pair("identical")[1] : $0 }
        let result = try runPinmintWithoutStandardInput(["diff"] + files)
        #expect(result.status == 3)
        #expect(result.standardError.split(separator: "\n").count == 1 && result.standardError.contains("standard input"),
                "\(result.standardError)")
    }

    @Test func notAPNGIsBadInput() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let text = folder.appendingPathComponent("text.png").path
        try "not a png".write(toFile: text, atomically: true, encoding: .utf8)
        let result = try runPinmint(["diff", text, pair("identical")[0]])
        #expect(result.status == 3 && result.standardError.contains("text.png"))
    }

    @Test func help() throws {
        let result = try runPinmint(["diff", "--help"])
        #expect(result.status == 0 && String(decoding: result.standardOutput, as: UTF8.self).contains("--diff-color-alt"))
        #expect(try runPinmint(["golden", "--help"]).status == 0)
    }
}

struct GoldenCommandTests {
    func suite() throws -> URL {
        let folder = try temporaryFolder()
        for name in ["pin", "star-evenodd"] {
            try FileManager.default.copyItem(at: repositoryRoot.appendingPathComponent("Golden/scenes/\(name).svg"),
                                             to: folder.appendingPathComponent("\(name).svg"))
        }
        try "scales = 1 2\n".write(to: folder.appendingPathComponent("golden.conf"), atomically: true, encoding: .utf8)
        return folder
    }

    @Test func missingThenUpdatedThenPassing() throws {
        let folder = try suite()
        defer { try? FileManager.default.removeItem(at: folder) }
        let missing = try runPinmint(["golden", folder.path])
        #expect(missing.status == 1)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".png") }.isEmpty)
        let update = try runPinmint(["golden", folder.path, "--update", "missing", "--jobs", "2"])
        #expect(update.status == 0, "\(String(decoding: update.standardOutput, as: UTF8.self))")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".png") }.sorted()
            == ["pin@1x.png", "pin@2x.png", "star-evenodd@1x.png", "star-evenodd@2x.png"])
        let pass = try runPinmint(["golden", folder.path])
        #expect(pass.status == 0)
        #expect(String(decoding: pass.standardOutput, as: UTF8.self).contains("4 cases: 4 passed"))
    }

    @Test func failureExitsOneAndTheReportShowsIt() throws {
        let folder = try suite()
        defer { try? FileManager.default.removeItem(at: folder) }
        _ = try runPinmint(["golden", folder.path, "--update", "missing"])
        let svg = folder.appendingPathComponent("star-evenodd.svg")
        try (try String(contentsOf: svg, encoding: .utf8)).replacingOccurrences(of: "#8E44AD", with: "#2E7D32")
            .write(to: svg, atomically: true, encoding: .utf8)
        let report = folder.appendingPathComponent("report.html").path
        let result = try runPinmint(["golden", folder.path, "--report", report])
        #expect(result.status == 1)
        let lines = String(decoding: result.standardOutput, as: UTF8.self).split(separator: "\n")
        #expect(lines.filter { $0.hasPrefix("FAILED star-evenodd@") }.count == 2)
        let html = try String(contentsOfFile: report, encoding: .utf8)
        #expect(html.contains("data-case=\"star-evenodd@2x\" data-status=\"failed\""))
        #expect(html.contains("<span data-status=\"failed\">2 failed</span>"))
    }

    @Test func malformedMarkerDescriptionIsBadInput() throws {
        let folder = try suite()
        defer { try? FileManager.default.removeItem(at: folder) }
        try "{}".write(to: folder.appendingPathComponent("marker.json"), atomically: true, encoding: .utf8)
        let result = try runPinmint(["golden", folder.path, "--update", "missing"])
        #expect(result.status == 3)
        #expect(String(decoding: result.standardOutput, as: UTF8.self)
            .contains("marker.json: marker: missing: a style needs 'marker' (a part) or 'variants'"))
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("marker@1x.png").path))
    }

    @Test func markerVariantsAreCasesOfTheirOwn() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try #"{"preset": "avatar", "options": {"name": "Ada"}}"#
            .write(to: folder.appendingPathComponent("ada.json"), atomically: true, encoding: .utf8)
        let written = try runPinmint(["golden", folder.path, "--update", "missing"])
        #expect(written.status == 0, "\(String(decoding: written.standardOutput, as: UTF8.self))")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
            == ["ada-selected@1x.png", "ada.json", "ada@1x.png"])
        let checked = try runPinmint(["golden", folder.path])
        #expect(checked.status == 0)
    }

    /// A truncated expected image stopped `--update all` ("'all' (every case)"):
    /// exit 3, nothing written. An update that rewrites failing cases now
    /// rewrites it and says so; without one it is still bad input.
    @Test(arguments: ["failed", "all"])
    func updateRewritesAnUnreadableExpectedImage(_ mode: String) throws {
        let folder = try suite()
        defer { try? FileManager.default.removeItem(at: folder) }
        _ = try runPinmint(["golden", folder.path, "--update", "missing"])
        let image = folder.appendingPathComponent("pin@1x.png")
        try Data(try Data(contentsOf: image).prefix(100)).write(to: image)
        let unchanged = try runPinmint(["golden", folder.path])
        #expect(unchanged.status == 3)
        let result = try runPinmint(["golden", folder.path, "--update", mode])
        let lines = String(decoding: result.standardOutput, as: UTF8.self).split(separator: "\n")
        #expect(result.status == 0, "\(lines)")
        #expect(lines.contains { $0.hasPrefix("ERROR pin@1x: \(image.path): ") && $0.contains("truncated")
            && $0.hasSuffix("; wrote \(image.path)") }, "\(lines)")
        #expect(try runPinmint(["golden", folder.path]).status == 0)
    }

    static let badInputs: [(arguments: [String], config: String?, message: String)] = [
        (["--update", "sometimes"], nil, "--update 'sometimes'"),
        (["--jobs", "0"], nil, "--jobs"),
        ([], "threshold = 7\n", "golden.conf:1"),
        (["--frobnicate"], nil, "--frobnicate"),
    ]

    @Test(arguments: badInputs.indices)
    func badInputExitsThreeWithOneLine(_ index: Int) throws {
        let bad = GoldenCommandTests.badInputs[index]
        let folder = try suite()
        defer { try? FileManager.default.removeItem(at: folder) }
        if let config = bad.config {
            try config.write(to: folder.appendingPathComponent("golden.conf"), atomically: true, encoding: .utf8)
        }
        let result = try runPinmint(["golden", folder.path] + bad.arguments)
        #expect(result.status == 3)
        #expect(result.standardError.split(separator: "\n").count == 1 && result.standardError.contains(bad.message),
                "\(result.standardError)")
    }

    /// Regression: an input whose variants cannot be listed was reported twice ("ERROR suite"
    /// and "ERROR marker@1x") and counted as an extra case.
    @Test func malformedMarkerDescriptionIsReportedOncePerCase() throws {
        let folder = try suite()
        defer { try? FileManager.default.removeItem(at: folder) }
        try "{}".write(to: folder.appendingPathComponent("marker.json"), atomically: true, encoding: .utf8)
        let result = try runPinmint(["golden", folder.path])
        #expect(result.status == 3)
        let lines = String(decoding: result.standardOutput, as: UTF8.self).split(separator: "\n")
        #expect(lines.filter { $0.hasPrefix("ERROR") }.map { $0.prefix(16) } == ["ERROR marker@1x:", "ERROR marker@2x:"])
        #expect(lines.last?.hasPrefix("6 cases: 0 passed, 4 missing, 2 errors") == true, "\(lines)")
    }

    /// Regression: `--report DIR` failed after the whole run with "(NSCocoaErrorDomain error 512.)".
    @Test(arguments: ["folder", "folder/", "no-such-folder/report.html", "star-evenodd.svg"])
    func unwritableReportPathIsRefusedBeforeTheRun(_ path: String) throws {
        let folder = try suite()
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("folder"), withIntermediateDirectories: true)
        let report = folder.path + "/" + path
        let result = try runPinmint(["golden", folder.path, "--report", report])
        #expect(result.status == 3)
        #expect(result.standardOutput.isEmpty)
        #expect(result.standardError.split(separator: "\n").count == 1 && result.standardError.contains(report)
            && !result.standardError.contains("NSCocoaErrorDomain"), "\(result.standardError)")
        #expect(path.hasPrefix("no-such") || result.standardError.contains("expected an .html file path"))
        // An input of the suite is never replaced by the report.
        if path.hasSuffix(".svg") {
            #expect(try Data(contentsOf: folder.appendingPathComponent(path)).starts(with: Array("<".utf8)))
        }
    }

    @Test func missingFolderIsBadInput() throws {
        let result = try runPinmint(["golden", "/no/such/suite"])
        #expect(result.status == 3 && result.standardError.contains("/no/such/suite"))
    }

    /// The project's own suites through the built command (Golden/README.md).
    @Test(arguments: ["Golden/samples", "Golden/reference", "Golden/markers"])
    func projectSuitesPass(_ path: String) throws {
        let result = try runPinmint(["golden", repositoryRoot.appendingPathComponent(path).path])
        #expect(result.status == 0, "\(String(decoding: result.standardOutput, as: UTF8.self))")
    }
}

/// `runPinmint` with standard input empty (the null device), so a command reading it never waits.
func runPinmintWithoutStandardInput(_ arguments: [String]) throws -> CommandResult {
    let process = Process()
    process.executableURL = pinmintBinary
    process.arguments = arguments
    process.standardInput = FileHandle.nullDevice
    return try runToEnd(process)
}
