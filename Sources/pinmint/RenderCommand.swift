import Foundation
import PinmintGeometry
import PinmintMarkers
import PinmintPNG
import PinmintSVG
import PinmintText

let renderHelp = """
Usage: pinmint render PRESET|MARKER.json|ICON.svg -o OUT.png [options] [--OPTION VALUE]...

Renders a built-in marker preset (price-tag, callout, avatar, pin), a marker
description file (JSON; see docs/markers.md) or an SVG icon to PNG.

  pinmint render price-tag --label 5200萬 --badge 成 --fill '#3598DB' --scale 2 -o tag.png
  pinmint render marker.json -o out.png --scale 1,2,3 --meta out.json
  pinmint render icon.svg -o icon.png --scale 2

Options:
  -o, --output FILE   the PNG to write, a name ending in .png (only PNG is written:
                      x.webp, x.svg or x is refused); '-' writes to standard output
                      (one image only)
  --scale LIST        pixel ratios, e.g. 2 or 1,2,3 (default 1; markers 0.25...8).
                      With several, scale 1 writes OUT.png and scale N writes
                      OUT@Nx.png; with one, OUT.png is written as named.
                      OUT is used exactly as given; derived names put @Nx
                      (and -VARIANT) before a .png extension, or at the end
  --meta FILE         write the metadata (size, anchor, hit boxes, content box,
                      Leaflet / MapLibre / MapKit offsets) as JSON; '-' for
                      standard output (not with -o -). One image: an object;
                      several: an array
  --id ID             the marker's id in the metadata (default: OUT's name)
  --png MODE          PNG compression: fast, default or small (all lossless)
  --font-dir DIR      also look for fonts in DIR (repeatable)
  -q, --quiet         do not print warnings (missing glyphs, unsupported SVG)
  --strict-glyphs     a character no font has is an error (exit code 2, nothing
                      written), not a warning and a .notdef box
  -h, --help          this help; 'pinmint render PRESET --help' lists its options

A style with variants (avatar: unselected and selected) writes one image per
variant: OUT.png and OUT-selected.png. Files are written atomically, and only
after every image rendered: bad input writes nothing (exit code 2), and a
failed write leaves none of the call's files. Two outputs of one call that
name the same file, or an output that is the input or a picture or icon the
marker draws, are refused.
"""

/// Options `render` takes itself; everything else is the style's.
private let renderValueOptions: Set<String> = ["--output", "--scale", "--png", "--meta", "--id", "--font-dir"]
private let renderFlagOptions: Set<String> = ["--quiet", "--help", "--strict-glyphs"]
private let renderAliases = ["-o": "--output", "-q": "--quiet", "-h": "--help"]

func runRender(_ rawArguments: [String]) throws {
    // A label or file name with bytes that are not UTF-8 would arrive with U+FFFD in their place.
    try checkArgumentsAreUTF8(command: "pinmint render")
    guard let input = renderInput(rawArguments) else {
        if rawArguments.isEmpty { failWithUsage(renderHelp) }
        if rawArguments.contains("--help") || rawArguments.contains("-h") { print(renderHelp); return }
        throw UsageError(message: "pinmint render: missing the preset, marker file or SVG to render (see 'pinmint render --help')")
    }
    if input.lowercased().hasSuffix(".svg") {
        if rawArguments.contains("--help") || rawArguments.contains("-h") { print(renderHelp); return }
        try renderSVG(rawArguments, input: input)
        return
    }
    guard let loaded = try markerFile(named: input) else {
        let hint = closestPreset(to: input).map { " (did you mean '\($0)'?)" } ?? ""
        throw UsageError(message: "pinmint render: '\(input)' is not a preset\(hint), a .json marker file or an .svg "
                         + "(presets: \(MarkerStyle.presetNames.joined(separator: ", ")))")
    }
    let file = loaded.file, inputFile = loaded.path, style = file.style
    if rawArguments.contains("--help") || rawArguments.contains("-h") { print(styleHelp(style)); return }

    // The style's options become flags: text, colours, numbers and files
    // take a value; a flag option is `--NAME` (true) or `--no-NAME`.
    var valueOptions = renderValueOptions, flagOptions = renderFlagOptions
    for option in style.options {
        if case .flag = option.kind {
            flagOptions.insert("--\(option.name)"); flagOptions.insert("--no-\(option.name)")
        } else {
            valueOptions.insert("--\(option.name)")
        }
    }
    let arguments = try Arguments(command: "pinmint render", arguments: rawArguments, valueOptions: valueOptions,
                                  flagOptions: flagOptions, aliases: renderAliases, repeatable: ["--font-dir"])
    _ = try arguments.singlePositional("preset, marker file or SVG")
    guard let output = arguments.value("--output") else { throw UsageError(message: "pinmint render: missing -o OUT.png") }
    let meta = arguments.value("--meta")
    try checkOutputPath(output, option: "-o", command: "pinmint render")
    if let meta {
        try checkOutputPath(meta, option: "--meta", command: "pinmint render")
        if output == "-" && meta == "-" {
            throw UsageError(message: "pinmint render: -o - and --meta - cannot both go to standard output; write one to a file")
        }
    }
    let scales = try scaleList(arguments, range: 0.25...8)
    let mode = try pngMode(arguments)
    var options: [String: String] = [:]
    for option in style.options {
        if case .flag = option.kind {
            if arguments.flag("--\(option.name)") && arguments.flag("--no-\(option.name)") {
                throw UsageError(message: "pinmint render: give either --\(option.name) or --no-\(option.name), not both")
            }
            if arguments.flag("--\(option.name)") { options[option.name] = "true" }
            if arguments.flag("--no-\(option.name)") { options[option.name] = "false" }
        } else if let value = arguments.value("--\(option.name)") {
            options[option.name] = value
        }
    }
    let fontFolders = try checkedFontFolders(arguments)

    // Fill in the options (file values first, flags over them), then render everything before writing anything.
    var values = file.values
    for (name, text) in options {
        values[name] = try style.options.first { $0.name == name }!.parse(text, input: "--\(name)")
    }
    let id = arguments.value("--id") ?? markerID(fromOutput: output)
    var images: [(path: String, bytes: [UInt8], metadata: [String: Any])] = []
    var warnings: [String] = []
    var pictures: [String] = []
    let strictGlyphs = arguments.flag("--strict-glyphs")
    try renderMarkers(style, values: values, scales: scales, fontFolders: fontFolders) { description, scale, marker in
        if scale == scales[0] { pictures += description.inputFiles }
        if strictGlyphs && !marker.missingCharacters.isEmpty {
            let glyphWarnings = marker.warnings.filter { $0.hasPrefix(TextLayout.missingGlyphsPrefix) }
            throw UsageError(message: "pinmint render: \(input): \(glyphWarnings.joined(separator: "; ")) (--strict-glyphs: nothing written)")
        }
        let path = outputPath(output, variant: description.variant, scale: scale, single: scales.count == 1)
        let markerID = description.variant == "default" ? id : "\(id)-\(description.variant)"
        images.append((path, try marker.pngData(mode: mode),
                       marker.metadata.json(id: markerID, file: path == "-" ? nil : PathName.lastComponent(of: path))))
        for warning in marker.warnings where !warnings.contains(warning) { warnings.append(warning) }
    }
    if output == "-" && images.count > 1 {
        throw UsageError(message: "pinmint render: -o - writes one image, but this call makes \(images.count) "
                         + "(\(style.variantNames.count) variant(s) × \(scales.count) scale(s)); write to a file instead")
    }
    if !arguments.flag("--quiet") {
        for warning in warnings { writeStandardError("pinmint: warning: \(input): \(warning)\n") }
    }
    var files = images.map { (bytes: $0.bytes, path: $0.path, option: "-o") }
    if let meta {
        let json = MarkerMetadata.jsonText(images.count == 1 ? images[0].metadata as Any : images.map(\.metadata) as Any)
        files.append((Array(json.utf8), meta, "--meta"))
    }
    // Every picture and icon the marker draws is an input too, whether a flag, the
    // description's options or its parts name it: never written over.
    try refuseClashingOutputs(files.map { ($0.path, $0.option) }, inputs: [inputFile].compactMap { $0 }, drawn: pictures,
                              command: "pinmint render")
    // After the clash checks: "is the input file" says more than "only PNG is written".
    try refuseNonPNGName(output, option: "-o", command: "pinmint render")
    try PNGEncoder.writeAtomically(files.map { ($0.bytes, $0.path) })
}

/// A preset, or a marker description file (a name ending in `.json`, or
/// any file that exists) with its path; nil when `input` is neither. What
/// `render` and `styles` read a PRESET|MARKER.json argument as: one lookup,
/// so that both give the same error for the same file.
func markerFile(named input: String) throws(MarkerError) -> (file: MarkerFile, path: String?)? {
    if let preset = MarkerStyle.preset(named: input) { return (MarkerFile(style: preset), nil) }
    guard input.lowercased().hasSuffix(".json") || FileManager.default.fileExists(atPath: input) else { return nil }
    return (try MarkerFile(contentsOfFile: input), input)
}

/// Renders every variant of `style` with `values` (typed option values;
/// the style's defaults fill the rest) at each scale, handing each image
/// to `body` in variant, then scale order. `render` writes them; `styles
/// --show` renders at scale 1 and drops them, so that it refuses exactly
/// what `render` refuses (a bad part, a missing picture, a size over the
/// limits), with the same error.
func renderMarkers(_ style: MarkerStyle, values: [String: JSONValue], scales: [Double], fontFolders: [String],
                   _ body: (MarkerDescription, Double, RenderedMarker) throws -> Void) throws {
    let descriptions = try style.resolve(values: values)
    let renderer = try MarkerRenderer(fontFolders: fontFolders)
    for description in descriptions {
        for scale in scales { try body(description, scale, try renderer.render(description, scale: scale)) }
    }
}

/// The first argument that names what to render: an existing file or a
/// preset, else the first word that is not an option or an option's value.
private func renderInput(_ arguments: [String]) -> String? {
    var candidates: [String] = []
    var index = 0
    while index < arguments.count {
        let argument = arguments[index]
        index += 1
        if argument == "--" { candidates += arguments[index...]; break }
        if argument.hasPrefix("-") && argument != "-" {
            let name = renderAliases[argument] ?? argument
            if renderValueOptions.contains(name) { index += 1 }
            continue
        }
        candidates.append(argument)
    }
    // A file is looked for first: naming a preset reads every preset's description (a few milliseconds).
    return candidates.first { FileManager.default.fileExists(atPath: $0) || MarkerStyle.preset(named: $0) != nil }
        ?? candidates.first
}

private func renderSVG(_ rawArguments: [String], input: String) throws {
    let arguments = try Arguments(command: "pinmint render", arguments: rawArguments,
                                  valueOptions: ["--output", "--scale", "--png"], flagOptions: ["--quiet"],
                                  aliases: ["-o": "--output", "-q": "--quiet"])
    _ = try arguments.singlePositional("input file (an .svg)")
    guard let output = arguments.value("--output") else { throw UsageError(message: "pinmint render: missing -o OUT.png") }
    try checkOutputPath(output, option: "-o", command: "pinmint render")
    let scales = try scaleList(arguments, range: 0.01...64)
    let mode = try pngMode(arguments)
    let document = try SVGDocument(contentsOfFile: input)
    if !arguments.flag("--quiet") {
        for warning in document.warnings {
            writeStandardError("pinmint: warning: \(input): \(warning)\n")
        }
    }
    if output == "-" && scales.count > 1 { throw UsageError(message: "pinmint render: -o - writes one image; give one scale") }
    var images: [(bytes: [UInt8], path: String)] = []
    for scale in scales {
        let canvas = try document.render(scale: scale)
        images.append((try PNGEncoder.encode(canvas, pixelRatio: scale, mode: mode),
                       outputPath(output, variant: "default", scale: scale, single: scales.count == 1)))
    }
    try refuseClashingOutputs(images.map { ($0.path, "-o") }, inputs: [input], command: "pinmint render")
    try refuseNonPNGName(output, option: "-o", command: "pinmint render")
    try PNGEncoder.writeAtomically(images)
}

/// `--scale 2` or `--scale 1,2,3`: distinct ratios in `range`.
func scaleList(_ arguments: Arguments, range: ClosedRange<Double>) throws(UsageError) -> [Double] {
    guard let text = arguments.value("--scale") else { return [1] }
    var scales: [Double] = []
    for piece in text.split(separator: ",", omittingEmptySubsequences: false) {
        // "2x" is read as 2; the rest must be a plain decimal ("0x2" is not 2).
        var trimmed = piece.trimmingCharacters(in: .whitespaces)
        if trimmed.hasSuffix("x") { trimmed.removeLast() }
        guard let scale = Arguments.decimal(trimmed), scale.isFinite else {
            throw UsageError(message: "\(arguments.command): --scale '\(text)': '\(piece)' is not a number")
        }
        guard range.contains(scale) else {
            throw UsageError(message: "\(arguments.command): --scale \(piece) is out of range "
                                     + "(\(range.plainDescription))")
        }
        if !scales.contains(scale) { scales.append(scale) }
    }
    guard scales.count <= 8 else { throw UsageError(message: "\(arguments.command): --scale lists more than 8 ratios") }
    return scales
}

/// The file for one image of `-o OUTPUT`. The default variant at scale 1
/// (or at the only scale, `single`) is `output` exactly as given; other
/// images insert `-VARIANT` and `@Nx` before a `.png` extension (any case),
/// or append them to a name without one: `tag.png` → `tag.png`,
/// `tag@2x.png`, `tag-selected@2x.png`; `tag` → `tag`, `tag@2x`.
func outputPath(_ output: String, variant: String, scale: Double, single: Bool) -> String {
    if output == "-" { return output }
    var insertion = variant == "default" ? "" : "-\(variant)"
    if !single && scale != 1 {
        let ratio = scale == scale.rounded() ? String(Int(scale)) : String(scale)
        insertion += "@\(ratio)x"
    }
    let name = output[(output.lastIndex(of: "/").map(output.index(after:)) ?? output.startIndex)...]
    let stem = name.lowercased().hasSuffix(".png") ? output.dropLast(4) : Substring(output)
    return stem + insertion + output.dropFirst(stem.count)
}

func markerID(fromOutput output: String) -> String {
    if output == "-" { return "marker" }
    var name = PathName.deletingExtension(PathName.lastComponent(of: output))
    if let at = name.range(of: "@", options: .backwards), name[at.upperBound...].hasSuffix("x") { name = String(name[..<at.lowerBound]) }
    return name
}

/// Writes text atomically ('-' prints it).
func writeTextAtomically(_ text: String, to path: String) throws {
    if path == "-" { try writeStandardOutput(text); return }
    do {
        try PNGEncoder.writeAtomically(Array(text.utf8), to: path)
    } catch {
        throw UsageError(message: "\(path): \(error.problem)")
    }
}

private func closestPreset(to name: String) -> String? {
    MarkerStyle.presetNames.first { $0.hasPrefix(name.prefix(3)) }
}
