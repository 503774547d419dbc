import Foundation
import PinmintPNG

/// `pinmint png info|convert`: inspect a PNG, or decode and re-encode it.

let pngHelp = """
Usage:
  pinmint png info FILE [--json]              size, colour type, bit depth, interlace, chunks
  pinmint png convert IN -o OUT [--png MODE]  decode and re-encode (lossless)

Options:
  -o, --output FILE   the PNG to write; '-' writes to standard output
  --png MODE          fast, default or small (default: default)
  --json              info as one JSON object
  -h, --help          this help

FILE or IN may be '-' for standard input. Output is written atomically, to
OUT exactly as named; OUT may be IN (re-encoded in place: IN is read whole
first, and replaced only once the new file is complete).
A file that is not a PNG, is truncated or corrupt, or is over the size
limits (16384 pixels a side, 16777216 pixels) is an error (exit code 2).
Gamma: sRGB and iCCP files are taken as sRGB (profiles are not applied);
a gAMA chunk alone is corrected for a 2.2 display, as browsers do, so
convert writes the corrected pixels without gAMA. convert writes 8 bits
per channel (16-bit sources rounded to nearest) and keeps the pHYs ratio.
"""

/// Reads `--png MODE` (default `.default`).
func pngMode(_ arguments: Arguments) throws(UsageError) -> PNGEncoder.Mode {
    guard let text = arguments.value("--png") else { return .default }
    guard let mode = PNGEncoder.Mode(rawValue: text) else {
        let names = PNGEncoder.Mode.allCases.map(\.rawValue).joined(separator: ", ")
        throw UsageError(message: "\(arguments.command): --png '\(text)' is not a mode (\(names))")
    }
    return mode
}

func runPNG(_ rawArguments: [String]) throws {
    guard let subcommand = rawArguments.first else { failWithUsage(pngHelp) }
    if subcommand == "--help" || subcommand == "-h" { print(pngHelp); return }
    let rest = Array(rawArguments.dropFirst())
    if rest.contains("--help") || rest.contains("-h") { print(pngHelp); return }
    try checkArgumentsAreUTF8(command: "pinmint png")
    switch subcommand {
    case "info":
        let arguments = try Arguments(command: "pinmint png info", arguments: rest, valueOptions: [], flagOptions: ["--json"])
        let input = try arguments.singlePositional("PNG file")
        let info = try PNGInfo(try PNGDecoder.readFile(input), name: input)
        try writeStandardOutput((arguments.flag("--json") ? infoJSON(info) : infoText(info)) + "\n")
    case "convert":
        let arguments = try Arguments(command: "pinmint png convert", arguments: rest,
                                      valueOptions: ["--output", "--png"], aliases: ["-o": "--output"])
        let input = try arguments.singlePositional("input PNG")
        guard let output = arguments.value("--output") else {
            throw UsageError(message: "pinmint png convert: missing -o OUT.png")
        }
        try checkOutputPath(output, option: "-o", command: "pinmint png convert")
        try refuseNonPNGName(output, option: "-o", command: "pinmint png convert")
        // In place is safe: the input is read whole before the atomic write replaces it.
        try refuseClashingOutputs([(output, "-o")], inputs: [], command: "pinmint png convert")
        let mode = try pngMode(arguments)
        let bytes = try PNGDecoder.readFile(input)
        let decoded = try PNGDecoder.decode(bytes, name: input)
        let ratio = pixelRatio(ofPNG: bytes)
        let png = try PNGEncoder.encode(straightRGBA8: decoded.straightRGBA8, width: decoded.width,
                                        height: decoded.height, pixelRatio: ratio, mode: mode)
        try PNGEncoder.writeAtomically(png, to: output)
    default:
        throw UsageError(message: "png: unknown subcommand '\(subcommand)' (info, convert; see 'pinmint png --help')")
    }
}

/// The pixel ratio a pHYs chunk records (pixels per metre / 72 dpi), or 1.
func pixelRatio(ofPNG bytes: [UInt8]) -> Double {
    var offset = 8
    while offset + 12 <= bytes.count {
        let length = bytes[offset..<(offset + 4)].reduce(0) { $0 << 8 | Int($1) }
        if bytes[(offset + 4)..<(offset + 8)].elementsEqual("pHYs".utf8), length == 9, offset + 17 <= bytes.count,
           bytes[offset + 16] == 1 {
            let perMeter = bytes[(offset + 8)..<(offset + 12)].reduce(0) { $0 << 8 | Int($1) }
            return perMeter > 0 ? Double(perMeter) * 0.0254 / 72 : 1
        }
        offset += 12 + length
    }
    return 1
}

func infoText(_ info: PNGInfo) -> String {
    let chunks = info.chunks.map { "\($0.type) (\($0.length) bytes)" }.joined(separator: ", ")
    return """
    size: \(info.width)x\(info.height)
    colour type: \(info.colorTypeName) (\(info.colorType))
    bit depth: \(info.bitDepth)
    interlace: \(info.interlaced ? "Adam7" : "none")
    chunks: \(chunks)
    """
}

func infoJSON(_ info: PNGInfo) -> String {
    // libpng refuses chunk names that are not four ASCII letters, so they need no escaping.
    let chunks = info.chunks.map { "{\"type\":\"\($0.type)\",\"length\":\($0.length)}" }
    return "{\"width\":\(info.width),\"height\":\(info.height),\"colorType\":\(info.colorType),"
        + "\"colorTypeName\":\"\(info.colorTypeName)\",\"bitDepth\":\(info.bitDepth),"
        + "\"interlace\":\"\(info.interlaced ? "adam7" : "none")\",\"chunks\":[\(chunks.joined(separator: ","))]}"
}
