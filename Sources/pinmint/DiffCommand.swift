import Dispatch
import Foundation
import PinmintDiff
import PinmintPNG
import PinmintRaster

/// `pinmint diff`: pixelmatch's comparison of two PNGs, with its own exit codes.

let diffHelp = """
Usage: pinmint diff EXPECTED.png ACTUAL.png [--diff OUT.png] [--threshold 0.1] [--include-aa]
                    [--alpha 0.1] [--aa-color HEX] [--diff-color HEX] [--diff-color-alt HEX]
                    [--diff-mask] [--ignore X,Y,W,H]... [--ignore-mask MASK.png]
                    [--max-diff-pixels N | --max-diff-percent P] [--json]

Counts the pixels that differ as pixelmatch (mapbox/pixelmatch 7) counts
them: YIQ colour distance over 35215 x threshold^2, anti-aliased pixels
not counted unless --include-aa.

Options:
  --diff OUT.png           write the diff image: EXPECTED in grey, differences red,
                           anti-aliasing yellow, ignored pixels tinted blue; OUT.png
                           must end in .png (only PNG is written) and must not be
                           EXPECTED, ACTUAL or MASK. '--diff -' writes it
                           to standard output: the summary line then goes to standard
                           error, and --json is refused
  --threshold T            0...1 (default 0.1); smaller is more sensitive
  --include-aa             count anti-aliased pixels too
  --alpha A                opacity of EXPECTED in the diff image, 0...1 (default 0.1)
  --aa-color HEX           anti-aliased pixels in the diff image (default ffff00)
  --diff-color HEX         differing pixels (default ff0000)
  --diff-color-alt HEX     differing pixels where ACTUAL is darker (default: --diff-color)
  --diff-mask              draw only the differences, on a transparent background
  --ignore X,Y,W,H         never count pixels in this rectangle (repeatable)
  --ignore-mask MASK.png   never count pixels where MASK is light and opaque
  --max-diff-pixels N      tolerance: at most N differing pixels (default 0)
  --max-diff-percent P     tolerance: at most P percent of all pixels
  --pixelmatch 5|7         follow pixelmatch 5's arithmetic for semi-transparent
                           pixels (PyPI pixelmatch) instead of 7's (default 7)
  --json                   print {"match", "diffPixels", "totalPixels", "diffPercent"}
                           (and both sizes when they differ) instead of a line
  -h, --help               this help

EXPECTED, ACTUAL or MASK may be '-' (standard input), only one of them.

Exit codes: 0 within tolerance, 1 pixels differ, 2 sizes differ, 3 bad input
(one line on standard error names the input and the problem).
"""

enum DiffExitCode {
    static let match: Int32 = 0
    static let pixelsDiffer: Int32 = 1
    static let sizesDiffer: Int32 = 2
    static let badInput: Int32 = 3
}

/// Runs `pinmint diff` and exits with its contract's code; bad input of any kind is code 3.
func runDiff(_ rawArguments: [String]) -> Never {
    if rawArguments.contains("--help") || rawArguments.contains("-h") {
        print(diffHelp)
        finish(DiffExitCode.match)
    }
    if rawArguments.isEmpty { failWithUsage(diffHelp, code: DiffExitCode.badInput) }
    do {
        finish(try diff(rawArguments))
    } catch let error as UsageError {
        fail(error.message.hasPrefix("pinmint ") ? String(error.message.dropFirst("pinmint ".count)) : error.message,
             code: DiffExitCode.badInput)
    } catch let error as PNGError {
        fail(error.description, code: DiffExitCode.badInput)
    } catch {
        fail("diff: \(error)", code: DiffExitCode.badInput)
    }
}

/// Reads the two PNGs (on two threads), compares them, prints the result; returns the exit code.
private func diff(_ rawArguments: [String]) throws -> Int32 {
    let command = "pinmint diff"
    try checkArgumentsAreUTF8(command: command)
    let arguments = try Arguments(
        command: command, arguments: rawArguments,
        valueOptions: ["--diff", "--threshold", "--alpha", "--aa-color", "--diff-color", "--diff-color-alt", "--ignore",
                       "--ignore-mask", "--max-diff-pixels", "--max-diff-percent", "--pixelmatch"],
        flagOptions: ["--include-aa", "--diff-mask", "--json"], repeatable: ["--ignore"])
    guard arguments.positionals.count == 2 else {
        throw UsageError(message: "\(command): expected EXPECTED.png and ACTUAL.png, got \(arguments.positionals.count) file(s)")
    }
    let expectedPath = arguments.positionals[0], actualPath = arguments.positionals[1]
    var options = try diffOptions(arguments, command: command)
    let tolerance = try diffTolerance(arguments, command: command)
    try checkStreams(arguments, expectedPath: expectedPath, actualPath: actualPath, command: command)
    // With `--diff -` standard output carries the PNG alone: the summary goes to standard error.
    let writesDiffToStandardOutput = arguments.value("--diff") == "-"
    func report(_ line: String) {
        if writesDiffToStandardOutput {
            writeStandardError((line + "\n"))
        } else {
            print(line)
        }
    }

    if let maskPath = arguments.value("--ignore-mask") {
        options.ignoreMask = try RGBA8Image(contentsOfFile: maskPath)
    }
    let start = DispatchTime.now().uptimeNanoseconds
    let (expected, actual) = try readBoth(expectedPath, actualPath)
    let decoded = DispatchTime.now().uptimeNanoseconds
    guard expected.width == actual.width, expected.height == actual.height else {
        if arguments.flag("--json") {
            print("{\"match\":false,\"diffPixels\":null,\"totalPixels\":null,\"diffPercent\":null,"
                + "\"expectedSize\":{\"width\":\(expected.width),\"height\":\(expected.height)},"
                + "\"actualSize\":{\"width\":\(actual.width),\"height\":\(actual.height)}}")
        } else {
            report("sizes differ: \(expectedPath) is \(expected.width)x\(expected.height), "
                + "\(actualPath) is \(actual.width)x\(actual.height)")
        }
        return DiffExitCode.sizesDiffer
    }
    let result: DiffResult
    do {
        result = try PixelDiff.compare(expected: expected, actual: actual, options: options,
                                       makesDiffImage: arguments.value("--diff") != nil)
    } catch {
        // Sizes are equal here: what is left is an option that does not fit these images.
        let culprit = error.description.hasPrefix("ignore mask") ? "\(arguments.value("--ignore-mask") ?? "--ignore-mask"): " : ""
        throw UsageError(message: "\(command): \(culprit)\(error)")
    }
    let compared = DispatchTime.now().uptimeNanoseconds
    if let diffPath = arguments.value("--diff"), let image = result.diffImage {
        try PNGEncoder.writeAtomically(try image.pngData(), to: diffPath)
    }
    let match = result.isWithin(tolerance)
    if arguments.flag("--json") {
        print("{\"match\":\(match),\"diffPixels\":\(result.diffPixels),\"totalPixels\":\(result.totalPixels),"
            + "\"diffPercent\":\(result.diffPercent)}")
    } else {
        let milliseconds = { (nanoseconds: UInt64) in String(format: "%.1f", Double(nanoseconds) / 1e6) }
        var details = ["\(result.antiAliasedPixels) anti-aliased"]
        if result.ignoredPixels > 0 { details.append("\(result.ignoredPixels) ignored") }
        report("\(result.diffPixels) of \(result.totalPixels) pixels differ (\(formatPercent(result.diffPercent))%; "
            + "\(details.joined(separator: ", "))): \(match ? "within" : "over") the tolerance (\(tolerance)); "
            + "\(milliseconds(compared - decoded)) ms to compare, \(milliseconds(decoded - start)) ms to decode")
    }
    return match ? DiffExitCode.match : DiffExitCode.pixelsDiffer
}

/// Refuses file arguments that would clash: standard input ('-') named for more
/// than one image, a `--diff` output that is a folder or one of the images read (it
/// would be overwritten), and `--json` with `--diff -` (both would go to standard output).
private func checkStreams(_ arguments: Arguments, expectedPath: String, actualPath: String, command: String)
    throws(UsageError) {
    var inputs = [("EXPECTED.png", expectedPath), ("ACTUAL.png", actualPath)]
    if let maskPath = arguments.value("--ignore-mask") { inputs.append(("--ignore-mask", maskPath)) }
    let fromStandardInput = inputs.filter { $0.1 == "-" }.map(\.0)
    if fromStandardInput.count > 1 {
        throw UsageError(message: "\(command): -: standard input can be read for one image only, not for "
            + fromStandardInput.joined(separator: " and "))
    }
    guard let diffPath = arguments.value("--diff") else { return }
    if diffPath.isEmpty { throw UsageError(message: "\(command): --diff '': expected a .png file path or '-'") }
    if diffPath == "-" {
        if arguments.flag("--json") {
            throw UsageError(message: "\(command): --json: cannot be used with '--diff -' "
                + "(standard output carries the diff PNG; the summary line goes to standard error)")
        }
        return
    }
    try refuseNonPNGName(diffPath, option: "--diff", command: command)
    var isFolder: ObjCBool = false
    if FileManager.default.fileExists(atPath: diffPath, isDirectory: &isFolder), isFolder.boolValue {
        throw UsageError(message: "\(command): --diff \(diffPath): is a directory, expected a .png file path")
    }
    for (role, path) in inputs where path != "-" && isSameFile(diffPath, path) {
        throw UsageError(message: "\(command): --diff \(diffPath): is the same file as \(role) \(path); "
            + "writing the diff image would overwrite it")
    }
}

/// True when both paths name one file: the same device and inode when both
/// exist (hard links, symbolic links), else the same path once resolved.
private func isSameFile(_ first: String, _ second: String) -> Bool {
    var firstStatus = stat(), secondStatus = stat()
    if stat(first, &firstStatus) == 0, stat(second, &secondStatus) == 0 {
        return firstStatus.st_dev == secondStatus.st_dev && firstStatus.st_ino == secondStatus.st_ino
    }
    func resolved(_ path: String) -> String {
        URL(fileURLWithPath: path).standardizedFileURL.resolvingSymlinksInPath().path
    }
    return resolved(first) == resolved(second)
}

/// Both PNGs decoded at once on two threads; the first error (expected's first) is thrown.
private func readBoth(_ expectedPath: String, _ actualPath: String) throws(PNGError) -> (RGBA8Image, RGBA8Image) {
    let paths = [expectedPath, actualPath]
    /// Each thread stores its result under the lock (two threads assigning into one array would race).
    final class Slots: @unchecked Sendable {
        private(set) var results: [Result<RGBA8Image, PNGError>?] = [nil, nil]
        private let lock = NSLock()
        func store(_ result: Result<RGBA8Image, PNGError>, at index: Int) { lock.withLock { results[index] = result } }
    }
    let slots = Slots()
    DispatchQueue.concurrentPerform(iterations: 2) { index in
        slots.store(Result { () throws(PNGError) -> RGBA8Image in try RGBA8Image(contentsOfFile: paths[index]) }, at: index)
    }
    return (try slots.results[0]!.get(), try slots.results[1]!.get())
}

/// The comparison options from the command line, each checked with its value in the error.
func diffOptions(_ arguments: Arguments, command: String) throws -> DiffOptions {
    var options = DiffOptions()
    options.threshold = try arguments.number("--threshold", default: 0.1, range: 0...1)
    options.alpha = try arguments.number("--alpha", default: 0.1, range: 0...1)
    options.includeAntiAliasing = arguments.flag("--include-aa")
    options.diffMask = arguments.flag("--diff-mask")
    func color(_ name: String) throws -> RGB8? {
        guard let text = arguments.value(name) else { return nil }
        do {
            return try RGB8(parsing: text)
        } catch {
            // ColorError's problem either is "not a colour (expected …)" or says which part is wrong.
            let problem = error.problem.hasPrefix("not a colour") ? error.problem : "not a colour: \(error.problem)"
            throw UsageError(message: "\(command): \(name) '\(text)' is \(problem)")
        }
    }
    options.antiAliasingColor = try color("--aa-color") ?? .yellow
    options.diffColor = try color("--diff-color") ?? .red
    options.alternateDiffColor = try color("--diff-color-alt")
    if let text = arguments.value("--pixelmatch") {
        guard let semantics = DiffOptions.Semantics(rawValue: text) else {
            throw UsageError(message: "\(command): --pixelmatch '\(text)' is not 5 or 7")
        }
        options.semantics = semantics
    }
    for text in arguments.allValues("--ignore") {
        do {
            options.ignoredRegions.append(try PixelRegion(parsing: text))
        } catch {
            throw UsageError(message: "\(command): --ignore: \(error)")
        }
    }
    return options
}

/// `--max-diff-pixels N` or `--max-diff-percent P` (not both); default: no differing pixel.
func diffTolerance(_ arguments: Arguments, command: String) throws -> DiffTolerance {
    let pixels = arguments.value("--max-diff-pixels"), percent = arguments.value("--max-diff-percent")
    if pixels != nil && percent != nil {
        throw UsageError(message: "\(command): give --max-diff-pixels or --max-diff-percent, not both")
    }
    if let pixels {
        guard let count = Int(pixels), count >= 0 else {
            throw UsageError(message: "\(command): --max-diff-pixels '\(pixels)' is not a whole number ≥ 0")
        }
        return .pixels(count)
    }
    if percent != nil { return .percent(try arguments.number("--max-diff-percent", default: 0, range: 0...100)) }
    return .exact
}
