import Foundation
import PinmintGeometry
import PinmintMarkers
import PinmintPNG
import PinmintRaster
import PinmintSVG
import PinmintSprites

/// `pinmint`: thin command layer. Parse, call the libraries, report.
/// Exit codes: 0 success, 2 bad input or usage, 1 an unexpected failure.

let version = "0.1.0"

let topLevelHelp = """
pinmint \(version): map-marker bitmaps drawn by Pinmint's own rasterizer.

Usage:
  pinmint render PRESET -o OUT.png [--OPTION V]... render a marker preset (see 'pinmint styles')
  pinmint render MARKER.json -o OUT.png [--meta M]  render a marker description
  pinmint render ICON.svg -o OUT.png [--scale N]    render an SVG icon to PNG
  pinmint styles [NAME] [--show] [--json]           list the presets and their options
  pinmint sprite INPUT... -o OUT/NAME [--ratio 1,2] pack icons and markers into a MapLibre sprite
  pinmint batch DATA -o DIR --style S --set O=T...  render one marker per CSV / JSON lines / GeoJSON row
  pinmint png info FILE [--json]                    describe a PNG
  pinmint png convert IN -o OUT [--png MODE]        decode and re-encode a PNG
  pinmint fonts [--font-dir DIR]... [--json]        list the fonts and the scripts they cover
  pinmint diff EXPECTED.png ACTUAL.png [--diff OUT.png] ...
                                                    count differing pixels as pixelmatch does
  pinmint golden DIR [--update missing|failed|all] [--report OUT.html] [--jobs N]
                                                    check a folder of golden images
  pinmint --version                                 print the version
  pinmint COMMAND --help                            help for one command

Exit codes: 0 success, 2 bad input (one line on standard error says why);
diff, golden and batch have their own (see their --help).
"""

func fail(_ message: String, code: Int32 = 2) -> Never {
    writeStandardError("pinmint: \(MessageText.oneLine(message))\n")
    exit(code)
}

/// A command given no arguments: one line on standard error, as any bad
/// input, with its usage and where its help is, then exit `code` (2; diff
/// and golden use their bad-input code, 3). `help` is the command's --help
/// text, which starts with `Usage: pinmint COMMAND …` or with `Usage:` and
/// one indented line per form (`  pinmint png info FILE   describe …`).
func failWithUsage(_ help: String, code: Int32 = 2) -> Never {
    let lines = help.split(separator: "\n").map(String.init)
    var forms: [String] = []
    if let first = lines.first, first.hasPrefix("Usage:") {
        var synopsis = first.dropFirst("Usage:".count).trimmingCharacters(in: .whitespaces)
        if !synopsis.isEmpty {
            // A synopsis wrapped over indented lines (diff's) continues on them.
            for line in lines.dropFirst() {
                let part = line.trimmingCharacters(in: .whitespaces)
                guard line.hasPrefix(" "), !part.isEmpty else { break }
                synopsis += " " + part
            }
            forms = [synopsis]
        } else {
            // Each form up to the two spaces before its description.
            for line in lines.dropFirst() {
                guard line.hasPrefix("  ") else { break }
                let form = line.trimmingCharacters(in: .whitespaces)
                forms.append(form.range(of: "  ").map { String(form[..<$0.lowerBound]) } ?? form)
            }
        }
    }
    let command = forms.first?.split(separator: " ").prefix(2).joined(separator: " ") ?? "pinmint"
    fail("\(command.dropFirst("pinmint ".count)): missing arguments (usage: \(forms.joined(separator: " | ")); "
         + "see '\(command) --help')", code: code)
}

/// Ends the program with `code` once what `print` buffered is written: a
/// write that fails there (a full disk, a closed descriptor) is one line on
/// standard error and `outputFailureCode` instead (diff, golden and batch,
/// whose codes 1 and 2 mean other things, use 3).
func finish(_ code: Int32, outputFailureCode: Int32 = 3) -> Never {
    if fflush(nil) != 0 {
        writeStandardError("pinmint: standard output: \(String(cString: strerror(errno)))\n")
        exit(outputFailureCode)
    }
    exit(code)
}

/// Writes `text` to standard error. A closed or full standard error is
/// ignored (there is nowhere left to say so); FileHandle's `write` would
/// trap instead.
func writeStandardError(_ text: String) {
    _ = PNGEncoder.writeAll(Array(text.utf8), to: STDERR_FILENO)
}

// A closed standard output (`>&-`) would let the next file opened take
// descriptor 1, and print into it: hold it with /dev/null opened read-only,
// so writes to standard output fail (EBADF) and are reported.
if fcntl(STDOUT_FILENO, F_GETFD) == -1 {
    let placeholder = open("/dev/null", O_RDONLY)
    if placeholder >= 0 && placeholder != STDOUT_FILENO { dup2(placeholder, STDOUT_FILENO); close(placeholder) }
}

let commandLine = Array(CommandLine.arguments.dropFirst())
do {
    switch commandLine.first {
    case nil:
        // The program's overview: its commands, on standard error.
        writeStandardError(topLevelHelp + "\n")
        exit(2)
    case "--help", "-h", "help":
        print(topLevelHelp)
    case "--version":
        print("pinmint \(version)")
    case "render":
        try runRender(Array(commandLine.dropFirst()))
    case "styles":
        try runStyles(Array(commandLine.dropFirst()))
    case "sprite":
        try runSprite(Array(commandLine.dropFirst()))
    case "batch":
        runBatch(Array(commandLine.dropFirst()))
    case "fonts":
        try runFonts(Array(commandLine.dropFirst()))
    case "png":
        try runPNG(Array(commandLine.dropFirst()))
    case "diff":
        runDiff(Array(commandLine.dropFirst()))
    case "golden":
        runGolden(Array(commandLine.dropFirst()))
    case let other?:
        throw UsageError(message: "unknown command '\(other)' (commands: render, styles, sprite, batch, diff, golden, png, fonts; see 'pinmint --help')")
    }
} catch let error as UsageError {
    fail(error.message.hasPrefix("pinmint ") ? String(error.message.dropFirst("pinmint ".count)) : error.message)
} catch let error as SVGError {
    fail(error.description)
} catch let error as RasterError {
    fail(error.description)
} catch let error as MarkerError {
    fail(error.description)
} catch let error as PNGError {
    fail(error.description)
} catch let error as SpriteError {
    fail(error.description)
} catch {
    fail("\(error)", code: 1)
}
// What `print` buffered is written at exit; a write that fails there (a full
// disk, a closed descriptor) is bad output, not success.
if fflush(nil) != 0 {
    fail("standard output: \(String(cString: strerror(errno)))")
}
