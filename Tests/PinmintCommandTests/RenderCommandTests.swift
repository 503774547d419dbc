import Foundation
import PinmintPNG
import Testing

/// The `pinmint` binary next to the test bundle in the build folder.
let pinmintBinary: URL = {
    var folder = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
    for _ in 0..<4 where !FileManager.default.fileExists(atPath: folder.appendingPathComponent("pinmint").path) {
        folder = folder.deletingLastPathComponent()
    }
    return folder.appendingPathComponent("pinmint")
}()

let repositoryRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()

struct CommandResult {
    var status: Int32
    var standardOutput: Data
    var standardError: String
}

/// Where a command's standard output goes.
enum StandardOutput: Sendable, CustomStringConvertible {
    /// A pipe the test reads.
    case pipe
    /// /dev/full: every write fails with "No space left on device".
    case full
    /// Closed (`>&-`): every write fails with "Bad file descriptor".
    case closed

    var description: String { switch self { case .pipe: "pipe"; case .full: "/dev/full"; case .closed: "closed" } }
}

func runPinmint(_ arguments: [String], standardOutput: StandardOutput = .pipe) throws -> CommandResult {
    let process = Process()
    process.executableURL = pinmintBinary
    process.arguments = arguments
    switch standardOutput {
    case .pipe: break
    case .full: process.standardOutput = FileHandle(forWritingAtPath: "/dev/full")
    case .closed:
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", "exec \"$0\" \"$@\" >&-", pinmintBinary.path] + arguments
    }
    return try runToEnd(process, capturingOutput: standardOutput == .pipe)
}

/// Runs `process` with its standard error (and, when `capturingOutput`, its
/// standard output) in pipes, read to their ends, and waits for it.
func runToEnd(_ process: Process, capturingOutput: Bool = true) throws -> CommandResult {
    let output = Pipe(), error = Pipe()
    if capturingOutput { process.standardOutput = output }
    process.standardError = error
    try process.run()
    let outputData = capturingOutput ? output.fileHandleForReading.readDataToEndOfFile() : Data()
    let errorData = error.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return CommandResult(status: process.terminationStatus, standardOutput: outputData,
                         standardError: String(decoding: errorData, as: UTF8.self))
}

/// Runs `script` with /bin/sh in `folder`, `$0` being the pinmint binary and
/// `$1`... `arguments`: for pipes and file names Swift's strings cannot make.
func runPinmintInShell(_ script: String, arguments: [String] = [], in folder: URL? = nil) throws -> CommandResult {
    let process = Process()
    if let folder { process.currentDirectoryURL = folder }
    process.executableURL = URL(fileURLWithPath: "/bin/sh")
    process.arguments = ["-c", script, pinmintBinary.path] + arguments
    return try runToEnd(process)
}

func temporaryFolder() throws -> URL {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("pinmint-cli-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    return folder
}

struct RenderCommandTests {
    let pin = repositoryRoot.appendingPathComponent("Golden/scenes/pin.svg").path

    @Test(arguments: [1, 2, 3])
    func rendersAtTheScale(_ scale: Int) throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let output = folder.appendingPathComponent("pin.png").path
        let result = try runPinmint(["render", pin, "-o", output, "--scale", "\(scale)"])
        #expect(result.status == 0, "\(result.standardError)")
        let decoded = try PNGDecoder.decode(contentsOfFile: output)
        let svg = try String(contentsOfFile: pin, encoding: .utf8)
        let width = Int(svg.firstMatch(of: /width="(\d+)"/)!.1)!
        #expect(decoded.width == width * scale)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["pin.png"])
    }

    @Test func sameInputGivesIdenticalBytes() throws {
        let first = try runPinmint(["render", pin, "-o", "-", "--scale", "2"])
        let second = try runPinmint(["render", pin, "-o", "-", "--scale", "2"])
        #expect(first.status == 0 && first.standardOutput == second.standardOutput)
        #expect(first.standardOutput.prefix(8) == Data([137, 80, 78, 71, 13, 10, 26, 10]))
    }

    static let badInputs: [(name: String, svg: String?, arguments: [String], message: String)] = [
        ("malformed path data", "<svg width='10' height='10'><path d='M 0 0 L 5'/></svg>", [], "offset"),
        ("broken XML", "<svg width='10' height='10'><path d='M0 0'></svg>", [], "input.svg"),
        ("not an SVG", "<html/>", [], "input.svg"),
        ("NaN size", "<svg width='NaN' height='10'/>", [], "input.svg"),
        ("absurd size", "<svg width='100000' height='100000'/>", [], "input.svg"),
        ("bad colour", "<svg width='10' height='10'><rect width='5' height='5' fill='#12345'/></svg>", [], "input.svg"),
        ("absurd scale", "<svg width='10' height='10'/>", ["--scale", "1e9"], "--scale"),
        ("NaN scale", "<svg width='10' height='10'/>", ["--scale", "nan"], "--scale"),
        ("unknown option", "<svg width='10' height='10'/>", ["--frobnicate"], "--frobnicate"),
        ("missing file", nil, [], "missing.svg"),
        ("coordinates overflowing once scaled (a crash before)",
         "<svg width='40' height='40'><path transform='rotate(45 20 20)' d='M 0 0 L 1e308 1e308 L -1e308 1e308 Z'/></svg>",
         ["--scale", "3"], "1e12"),
        ("a curve with huge control points",
         "<svg width='40' height='40'><path d='M 0 0 C 1e308 -1e308 -1e308 1e308 30 30 Z'/></svg>", [], "1e12"),
    ]

    @Test(arguments: badInputs.indices)
    func badInputGivesOneLineAndExitCodeTwo(_ index: Int) throws {
        let bad = RenderCommandTests.badInputs[index]
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        var input = folder.appendingPathComponent("missing.svg").path
        if let svg = bad.svg {
            input = folder.appendingPathComponent("input.svg").path
            try svg.write(toFile: input, atomically: true, encoding: .utf8)
        }
        let output = folder.appendingPathComponent("out.png").path
        let result = try runPinmint(["render", input, "-o", output] + bad.arguments)
        #expect(result.status == 2, "\(bad.name): status \(result.status)")
        let lines = result.standardError.split(separator: "\n")
        #expect(lines.count == 1, "\(bad.name): \(result.standardError)")
        #expect(result.standardError.contains(bad.message), "\(bad.name): \(result.standardError)")
        #expect(!FileManager.default.fileExists(atPath: output), "\(bad.name) left an output file")
    }

    @Test func unsupportedFeaturesWarnOnceEach() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let input = folder.appendingPathComponent("icon.svg").path
        try "<svg width='10' height='10'><text>a</text><text>b</text><rect width='5' height='5' marker-end='x'/></svg>"
            .write(toFile: input, atomically: true, encoding: .utf8)
        let result = try runPinmint(["render", input, "-o", folder.appendingPathComponent("icon.png").path])
        #expect(result.status == 0)
        let warnings = result.standardError.split(separator: "\n")
        #expect(warnings.count == 2, "\(result.standardError)")
        #expect(warnings.allSatisfy { $0.contains("warning") && $0.contains("icon.svg") })
    }

    /// `render -o - >/dev/full` stopped on a `try!` in FileHandle.write (SIGILL);
    /// `png info`, `fonts` and `styles --json` exited 0 with nothing written.
    @Test(arguments: [
        ["render", "price-tag", "-o", "-"],
        ["render", "Golden/scenes/pin.svg", "-o", "-"],
        ["render", "price-tag", "-o", "FOLDER/tag.png", "--meta", "-"],
        ["png", "convert", "Golden/reference/pin@1x.png", "-o", "-"],
        ["png", "info", "Golden/reference/pin@1x.png"],
        ["fonts", "--no-system", "--json"],
        ["fonts", "--no-system"],
        ["styles", "--json"],
        ["styles"],
        ["--help"],
    ], [StandardOutput.full, .closed])
    func aFailedWriteToStandardOutputIsOneLineAndExitCodeTwo(_ arguments: [String], _ standardOutput: StandardOutput) throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let resolved = arguments.map { argument in
            argument.hasPrefix("Golden/") ? repositoryRoot.appendingPathComponent(argument).path
                : argument.replacingOccurrences(of: "FOLDER", with: folder.path)
        }
        let result = try runPinmint(resolved, standardOutput: standardOutput)
        let problem = standardOutput == .full ? "No space left on device" : "Bad file descriptor"
        #expect(result.status == 2, "\(arguments) \(standardOutput): \(result.standardError)")
        #expect(result.standardError == "pinmint: standard output: \(problem)\n", "\(arguments) \(standardOutput)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty, "the metadata went nowhere: no PNG either")
    }

    /// `render ICON.SVG` was read as a marker description ("not valid JSON").
    @Test(arguments: ["ICON.SVG", "Icon.Svg"])
    func svgExtensionInAnyCase(_ name: String) throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let input = folder.appendingPathComponent(name).path
        try FileManager.default.copyItem(atPath: pin, toPath: input)
        let output = folder.appendingPathComponent("icon.png").path
        let result = try runPinmint(["render", input, "-o", output])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(try PNGDecoder.decode(contentsOfFile: output).width > 0)
    }

    /// `render ICON.svg -o ICON.svg` replaced the icon with its PNG; several scales wrote `OUT@Nx` beside `OUT`.
    @Test func svgOutputsAreExactAndNeverTheInput() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let input = folder.appendingPathComponent("pin.svg").path
        try FileManager.default.copyItem(atPath: pin, toPath: input)
        let overwrite = try runPinmint(["render", input, "-o", input])
        #expect(overwrite.status == 2 && overwrite.standardError.contains("is the input file"), "\(overwrite.standardError)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: input)) == Data(contentsOf: URL(fileURLWithPath: pin)))
        let scaled = try runPinmint(["render", input, "-o", folder.appendingPathComponent("icon.PNG").path, "--scale", "1,2"])
        #expect(scaled.status == 0, "\(scaled.standardError)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() == ["icon.PNG", "icon@2x.PNG", "pin.svg"])
    }

    /// `pinmint` alone exited 0: its overview goes to standard error with exit code 2.
    @Test func pinmintAloneIsItsOverviewAndExitCodeTwo() throws {
        let result = try runPinmint([])
        #expect(result.status == 2)
        #expect(result.standardOutput.isEmpty && result.standardError.contains("Usage:"))
    }

    /// A command with no arguments is one line on standard error, its usage
    /// and where its help is: render, sprite, batch and png printed their
    /// whole help there, diff and golden one line without the usage.
    @Test(arguments: [
        ("render", Int32(2), "pinmint render PRESET|MARKER.json|ICON.svg -o OUT.png [options] [--OPTION VALUE]..."),
        ("sprite", 2, "pinmint sprite INPUT... -o OUT/NAME [options]"),
        ("batch", 2, "pinmint batch DATA -o DIR --style PRESET|MARKER.json [--set OPTION=TEMPLATE]... [options]"),
        ("png", 2, "pinmint png info FILE [--json] | pinmint png convert IN -o OUT [--png MODE]"),
        ("diff", 3, "pinmint diff EXPECTED.png ACTUAL.png [--diff OUT.png] [--threshold 0.1] [--include-aa]"
            + " [--alpha 0.1] [--aa-color HEX] [--diff-color HEX] [--diff-color-alt HEX]"
            + " [--diff-mask] [--ignore X,Y,W,H]... [--ignore-mask MASK.png]"
            + " [--max-diff-pixels N | --max-diff-percent P] [--json]"),
        ("golden", 3, "pinmint golden DIR [--update missing|failed|all] [--report OUT.html] [--jobs N] [--junit OUT.xml] [--json OUT.json|-] [--artifacts DIR] [--font-dir DIR]... [--no-system-fonts]"),
    ])
    func aCommandWithNoArgumentsIsOneUsageLine(_ command: String, _ status: Int32, _ usage: String) throws {
        let result = try runPinmint([command])
        #expect(result.status == status)
        #expect(result.standardOutput.isEmpty)
        #expect(result.standardError == "pinmint: \(command): missing arguments (usage: \(usage); see 'pinmint \(command) --help')\n")
    }

    @Test func helpAndVersion() throws {
        #expect(try runPinmint(["--help"]).status == 0)
        #expect(try runPinmint(["render", "--help"]).status == 0)
        #expect(try runPinmint(["--version"]).status == 0)
        #expect(try runPinmint(["unknown-command"]).status == 2)
    }
}
