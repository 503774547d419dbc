import Foundation
import PinmintGeometry
import PinmintMarkers
import PinmintDiff
import PinmintSVG

/// `pinmint golden`: run a folder of golden images (see Golden/README.md).

let goldenHelp = """
Usage: pinmint golden DIR [--update missing|failed|all] [--report OUT.html] [--jobs N]
                          [--junit OUT.xml] [--json OUT.json|-] [--artifacts DIR]
                          [--font-dir DIR]... [--no-system-fonts]

Renders every case of the suite in DIR and compares it with its expected
images as `pinmint diff` does. A case is an input (an SVG icon NAME.svg
or a marker description NAME.json) with expected images NAME@Sx.png
(S = 1, 2, 3, ...; NAME.png is @1x) beside it; NAME@Sx.LABEL.png are
accepted alternatives. DIR/golden.conf (optional) sets the inputs folder,
the cases, the scales and the tolerance, for all cases and per case.

Options:
  --update MODE      write expected images: 'missing' (cases without one),
                     'failed' (missing and failing cases, and an expected
                     image that cannot be read), 'all' (every case);
                     without --update nothing is written
  --report OUT.html  write one self-contained HTML report: a summary, then
                     expected | actual | diff for every case that did not pass
                     (checked before the run: not a folder, its folder exists);
                     each failing case can be wiped or faded from expected to
                     actual, and shows the command that accepts its change
  --junit OUT.xml    write JUnit XML for CI test reports (GitLab, Jenkins,
                     GitHub): one testcase per case, a <failure> for one that
                     differs, has another size or no expected image, an
                     <error> for an error
  --json OUT.json    write the run as JSON (fields in docs/golden.md); '-'
                     writes it to standard output, and the per-case lines and
                     the summary go to standard error instead
  --artifacts DIR    write NAME@Sx.expected.png, .actual.png and .diff.png for
                     every case that did not pass (those that exist) into DIR,
                     created if needed (not the suite folder: its PNGs are cases)
  --jobs N           cases rendered at once (default: the number of cores)
  --font-dir DIR     also look for fonts in DIR (repeatable), before Pinmint's own
  --no-system-fonts  only --font-dir and Pinmint's fonts: the same images on every
                     machine, whatever fonts it has installed
  -h, --help         this help

Standard output: one line per case that did not pass (or was written), then
a summary (on standard error with --json -). A problem that stops the run is
one line on standard error. Report files are written after the run, each
atomically; every path is checked before the run.

Exit codes: 0 every case passed (or was written by --update), 1 some case
differs, has another size or has no expected image, 3 bad input (an
unreadable suite, a malformed golden.conf, an input that cannot be rendered
or an unreadable expected image that no --update rewrote; one line names it).
"""

/// The renderers `pinmint golden` knows, one line per input format.
func goldenRenderers(fontFolders: [String] = [], includeSystemFonts: Bool = true) -> GoldenRenderers {
    var renderers = GoldenRenderers()
    renderers.register(fileExtension: "svg") { path, scale in try SVGDocument(contentsOfFile: path).render(scale: scale) }
    // Marker descriptions: NAME.json is the default variant, NAME-selected the
    // `selected` one. One renderer per thread (renderers are not thread-safe).
    renderers.register(fileExtension: "json", variants: { path in
        try MarkerFile(contentsOfFile: path).style.variantNames.filter { $0 != "default" }
    }) { path, scale, variant in
        let file = try MarkerFile(contentsOfFile: path)
        let descriptions = try file.style.resolve(values: file.values)
        guard let description = descriptions.first(where: { $0.variant == (variant ?? "default") }) else {
            throw MarkerError(input: path, problem: "no variant '\(variant ?? "default")'")
        }
        return try MarkerRenderer.forCurrentThread(fontFolders: fontFolders, includeSystemFonts: includeSystemFonts)
            .render(description, scale: scale).canvas
    }
    return renderers
}

/// Runs `pinmint golden` and exits with its code.
func runGolden(_ rawArguments: [String]) -> Never {
    if rawArguments.contains("--help") || rawArguments.contains("-h") {
        print(goldenHelp)
        finish(0)
    }
    let badInput: Int32 = 3
    if rawArguments.isEmpty { failWithUsage(goldenHelp, code: badInput) }
    do {
        try checkArgumentsAreUTF8(command: "pinmint golden")
        let arguments = try Arguments(command: "pinmint golden", arguments: rawArguments,
                                      valueOptions: ["--update", "--report", "--jobs", "--font-dir", "--junit", "--json",
                                                     "--artifacts"],
                                      flagOptions: ["--no-system-fonts"], repeatable: ["--font-dir"])
        let folder = try arguments.singlePositional("suite folder")
        var update = GoldenSuite.UpdateMode.none
        if let text = arguments.value("--update") {
            guard let mode = GoldenSuite.UpdateMode(rawValue: text), mode != .none else {
                throw UsageError(message: "pinmint golden: --update '\(text)' is not missing, failed or all")
            }
            update = mode
        }
        let jobs = try arguments.integer("--jobs", default: ProcessInfo.processInfo.activeProcessorCount, range: 1...256)
        let report = arguments.value("--report")
        if let report { try checkReportPath(report) }
        let junit = arguments.value("--junit")
        if let junit { try checkOutputFilePath(junit, option: "--junit", extensions: ["xml"], what: "an .xml file path") }
        let json = arguments.value("--json")
        if let json, json != "-" { try checkOutputFilePath(json, option: "--json", extensions: [], what: "a file path or '-'") }
        let artifactsFolder = arguments.value("--artifacts")
        if let artifactsFolder { try checkArtifactsFolder(artifactsFolder, suite: folder) }
        let fontFolders = try checkedFontFolders(arguments)
        let renderers = goldenRenderers(fontFolders: fontFolders, includeSystemFonts: !arguments.flag("--no-system-fonts"))
        let suite = try GoldenSuite(folder: folder, renderers: renderers)
        let run = suite.run(renderers: renderers, update: update, jobs: jobs)
        // With the JSON on standard output, the lines for people go to standard error.
        let say: (String) -> Void = json == "-" ? { line in FileHandle.standardError.write(Data((line + "\n").utf8)) }
            : { line in print(line) }
        for result in run.results where !result.status.passes || result.updatedPath != nil {
            say(goldenLine(result))
        }
        say(run.summary)
        let exitCode = run.hasErrors ? badInput : run.allSettled ? 0 : 1
        var artifacts: [String: GoldenArtifacts.Paths] = [:]
        if let artifactsFolder {
            do {
                artifacts = try GoldenArtifacts.write(run, to: artifactsFolder)
            } catch {
                throw UsageError(message: "pinmint golden: --artifacts \(artifactsFolder): cannot write the images (\(systemReason(error)))")
            }
        }
        if let report {
            do {
                try GoldenReport.write(run, to: report, artifacts: artifacts)
            } catch {
                throw UsageError(message: "pinmint golden: \(report): cannot write the report (\(systemReason(error)))")
            }
        }
        if let junit {
            do {
                try Data(GoldenReport.junitXML(for: run, artifacts: artifacts).utf8).write(to: URL(fileURLWithPath: junit), options: .atomic)
            } catch {
                throw UsageError(message: "pinmint golden: \(junit): cannot write the JUnit report (\(systemReason(error)))")
            }
        }
        if let json {
            let text = GoldenReport.json(for: run, exitCode: exitCode, artifacts: artifacts)
            do {
                if json == "-" {
                    try writeStandardOutput(text)
                } else {
                    try Data(text.utf8).write(to: URL(fileURLWithPath: json), options: .atomic)
                }
            } catch {
                throw UsageError(message: "pinmint golden: \(json == "-" ? "standard output" : json): cannot write the JSON report "
                                 + "(\(systemReason(error)))")
            }
        }
        finish(exitCode)
    } catch let error as UsageError {
        fail(error.message.hasPrefix("pinmint ") ? String(error.message.dropFirst("pinmint ".count)) : error.message,
             code: badInput)
    } catch {
        fail("golden: \(error)", code: badInput)
    }
}

/// Refuses a `--report` path that cannot be written, before any case runs (so a
/// typo does not cost a whole run): a folder, or a file in a folder that does not exist.
func checkReportPath(_ path: String) throws(UsageError) {
    guard !path.isEmpty else { throw UsageError(message: "pinmint golden: --report: empty path, expected an .html file path") }
    var isFolder: ObjCBool = false
    if path.hasSuffix("/")
        || (FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) && isFolder.boolValue) {
        throw UsageError(message: "pinmint golden: \(path): is a directory, expected an .html file path")
    }
    // An HTML file by name, so that a slip (`--report suite/case.png`) cannot replace an image or an input.
    guard PathName.pathExtension(of: path).lowercased() == "html" || PathName.pathExtension(of: path).lowercased() == "htm" else {
        throw UsageError(message: "pinmint golden: --report \(path): expected an .html file path")
    }
    let parent = URL(fileURLWithPath: path).deletingLastPathComponent().path
    guard FileManager.default.fileExists(atPath: parent, isDirectory: &isFolder), isFolder.boolValue else {
        throw UsageError(message: "pinmint golden: \(path): the report's folder \(parent) does not exist")
    }
}

/// Refuses an output file path that cannot be written, before any case runs:
/// empty, a folder, another extension than `extensions` (when any are given),
/// or in a folder that does not exist.
func checkOutputFilePath(_ path: String, option: String, extensions: [String], what: String) throws(UsageError) {
    guard !path.isEmpty else { throw UsageError(message: "pinmint golden: \(option): empty path, expected \(what)") }
    var isFolder: ObjCBool = false
    if path.hasSuffix("/") || (FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) && isFolder.boolValue) {
        throw UsageError(message: "pinmint golden: \(option) \(path): is a directory, expected \(what)")
    }
    // By name, so that a slip (`--junit suite/case.png`) cannot replace an image or an input.
    if !extensions.isEmpty, !extensions.contains(PathName.pathExtension(of: path).lowercased()) {
        throw UsageError(message: "pinmint golden: \(option) \(path): expected \(what)")
    }
    if PathName.pathExtension(of: path).lowercased() == "png" {
        throw UsageError(message: "pinmint golden: \(option) \(path): a .png path would replace an image; expected \(what)")
    }
    let parent = URL(fileURLWithPath: path).deletingLastPathComponent().path
    guard FileManager.default.fileExists(atPath: parent, isDirectory: &isFolder), isFolder.boolValue else {
        throw UsageError(message: "pinmint golden: \(option) \(path): its folder \(parent) does not exist")
    }
}

/// Refuses an `--artifacts` folder before the run: empty, an existing file,
/// in a folder that does not exist, or the suite folder itself (its
/// `NAME@Sx.actual.png` would be read as accepted alternatives of the cases).
func checkArtifactsFolder(_ path: String, suite: String) throws(UsageError) {
    guard !path.isEmpty else { throw UsageError(message: "pinmint golden: --artifacts: empty path, expected a folder") }
    var isFolder: ObjCBool = false
    if FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) {
        guard isFolder.boolValue else {
            throw UsageError(message: "pinmint golden: --artifacts \(path): is a file, expected a folder")
        }
        let resolved = URL(fileURLWithPath: path).resolvingSymlinksInPath().standardizedFileURL.path
        let suiteResolved = URL(fileURLWithPath: suite).resolvingSymlinksInPath().standardizedFileURL.path
        if resolved == suiteResolved {
            throw UsageError(message: "pinmint golden: --artifacts \(path): is the suite folder; its NAME@Sx.actual.png "
                             + "would count as accepted images, choose another folder")
        }
    } else {
        let parent = URL(fileURLWithPath: path).deletingLastPathComponent().path
        guard FileManager.default.fileExists(atPath: parent, isDirectory: &isFolder), isFolder.boolValue else {
            throw UsageError(message: "pinmint golden: --artifacts \(path): its folder \(parent) does not exist")
        }
    }
}

/// The operating system's words for a failed write ("Permission denied"), not Foundation's error number.
private func systemReason(_ error: Error) -> String {
    let nsError = error as NSError
    if let underlying = nsError.userInfo[NSUnderlyingErrorKey] as? NSError, underlying.domain == NSPOSIXErrorDomain {
        return String(cString: strerror(Int32(underlying.code)))
    }
    return nsError.localizedDescription
}

/// One line about a case that did not pass (or was written).
func goldenLine(_ result: GoldenCaseResult) -> String {
    var line: String
    switch result.status {
    case .passed: line = "passed \(result.identifier)"
    case .failed:
        line = "FAILED \(result.identifier): \(pixels(result.diffPixels ?? 0)) differ "
            + "(\(formatPercent(result.diffPercent ?? 0))%), tolerance \(result.tolerance ?? .exact)"
        if let path = result.expectedPath { line += " (closest: \(PathName.lastComponent(of: path)))" }
    case let .sizeMismatch(expectedWidth, expectedHeight, actualWidth, actualHeight):
        line = "SIZE \(result.identifier): expected \(expectedWidth)x\(expectedHeight), rendered \(actualWidth)x\(actualHeight)"
    case .missing: line = "MISSING \(result.identifier): no expected image"
    case .error(let message): line = "ERROR \(result.identifier): \(message)"
    }
    if let updated = result.updatedPath { line += "; wrote \(updated)" }
    return line
}

/// "1 pixel", "12 pixels".
func pixels(_ count: Int) -> String { count == 1 ? "1 pixel" : "\(count) pixels" }
