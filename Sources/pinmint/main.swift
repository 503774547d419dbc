import Foundation
import PinmintGeometry
import PinmintPNG
import PinmintRaster
import PinmintSVG

/// `pinmint`: thin command layer. Parse, call the libraries, report.
/// Exit codes: 0 success, 2 bad input or usage, 1 an unexpected failure.

let version = "0.1.0"

let topLevelHelp = """
pinmint \(version): map-marker bitmaps drawn by Pinmint's own rasterizer.

Usage:
  pinmint render ICON.svg -o OUT.png [--scale N]   render an SVG icon to PNG
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
diff and golden have their own (see their --help).
"""

let renderHelp = """
Usage: pinmint render ICON.svg -o OUT.png [--scale N] [--png MODE]

Renders a simple SVG (svg, g, path, rect, circle, ellipse, line, polyline,
polygon; fills, strokes, dashes, gradients, clip paths, drop shadows,
transforms, opacity) to a PNG of the SVG's width and height times the scale.

Options:
  -o, --output FILE   the PNG to write; '-' writes to standard output
  --scale N           pixel ratio, 0.01...64 (default 1): 2 renders @2x
  --png MODE          PNG compression: fast, default or small (all lossless)
  -q, --quiet         do not print warnings about unsupported SVG features
  -h, --help          this help

The file is written atomically (a temporary file, then a rename). Each
unsupported element or attribute is reported once as a warning; a malformed
file is an error (exit code 2) and writes nothing.
"""

func fail(_ message: String, code: Int32 = 2) -> Never {
    FileHandle.standardError.write(Data("pinmint: \(message)\n".utf8))
    exit(code)
}

func runRender(_ rawArguments: [String]) throws {
    if rawArguments.contains("--help") || rawArguments.contains("-h") { print(renderHelp); return }
    let arguments = try Arguments(command: "pinmint render", arguments: rawArguments,
                                  valueOptions: ["--output", "--scale", "--png"], flagOptions: ["--quiet"],
                                  aliases: ["-o": "--output", "-q": "--quiet"])
    let input = try arguments.singlePositional("input file (an .svg)")
    guard let output = arguments.value("--output") else {
        throw UsageError(message: "pinmint render: missing -o OUT.png")
    }
    let scale = try arguments.number("--scale", default: 1, range: 0.01...64)
    let mode = try pngMode(arguments)
    let document = try SVGDocument(contentsOfFile: input)
    if !arguments.flag("--quiet") {
        for warning in document.warnings {
            FileHandle.standardError.write(Data("pinmint: warning: \(input): \(warning)\n".utf8))
        }
    }
    let canvas = try document.render(scale: scale)
    let png = try PNGEncoder.encode(canvas, pixelRatio: scale, mode: mode)
    try PNGEncoder.writeAtomically(png, to: output)
}

let commandLine = Array(CommandLine.arguments.dropFirst())
do {
    switch commandLine.first {
    case nil, "--help", "-h", "help":
        print(topLevelHelp)
    case "--version":
        print("pinmint \(version)")
    case "render":
        try runRender(Array(commandLine.dropFirst()))
    case "fonts":
        try runFonts(Array(commandLine.dropFirst()))
    case "png":
        try runPNG(Array(commandLine.dropFirst()))
    case "diff":
        runDiff(Array(commandLine.dropFirst()))
    case "golden":
        runGolden(Array(commandLine.dropFirst()))
    case let other?:
        throw UsageError(message: "unknown command '\(other)' (commands: render, png, fonts; see 'pinmint --help')")
    }
} catch let error as UsageError {
    fail(error.message.hasPrefix("pinmint ") ? String(error.message.dropFirst("pinmint ".count)) : error.message)
} catch let error as SVGError {
    fail(error.description)
} catch let error as RasterError {
    fail(error.description)
} catch let error as PNGError {
    fail(error.description)
} catch {
    fail("\(error)", code: 1)
}
