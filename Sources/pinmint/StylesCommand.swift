import Foundation
import PinmintMarkers

let stylesHelp = """
Usage: pinmint styles [PRESET|STYLE.json] [--show] [--json] [--font-dir DIR]...

Lists the built-in marker presets and their options (each option is a flag
of 'pinmint render PRESET'). With a name, lists that style's options.

Options:
  --show           print the style's description (JSON) to copy and edit:
                   presets are written in the same format as marker files.
                   The style is first rendered as 'pinmint render STYLE' would
                   (scale 1, its own option values): a file render refuses is
                   refused with the same line (exit code 2)
  --json           print the styles and options as JSON: [{"name", "description",
                   "variants", "options": [{"name", "type", "default", "help"}]}]
  --font-dir DIR   with --show: also look for fonts in DIR, as render does (repeatable)
  -h, --help       this help
"""

func runStyles(_ rawArguments: [String]) throws {
    if rawArguments.contains("--help") || rawArguments.contains("-h") { print(stylesHelp); return }
    try checkArgumentsAreUTF8(command: "pinmint styles")
    let arguments = try Arguments(command: "pinmint styles", arguments: rawArguments, valueOptions: ["--font-dir"],
                                  flagOptions: ["--show", "--json"], repeatable: ["--font-dir"])
    guard arguments.positionals.count <= 1 else {
        throw UsageError(message: "pinmint styles: expected at most one style, got \(arguments.positionals.count)")
    }
    let fontFolders = try checkedFontFolders(arguments)
    if !fontFolders.isEmpty && !arguments.flag("--show") {
        throw UsageError(message: "pinmint styles: --font-dir applies to --show only")
    }
    var styles = MarkerStyle.presets
    var file: MarkerFile? = nil
    if let name = arguments.positionals.first {
        if name.lowercased().hasSuffix(".svg") {
            guard FileManager.default.fileExists(atPath: name) else {
                throw UsageError(message: "pinmint styles: \(name): no such file")
            }
            throw UsageError(message: "pinmint styles: '\(name)' is an SVG icon, not a marker style ('pinmint render \(name) -o OUT.png' draws it)")
        }
        // The same lookup as render's: a preset, a .json name, or any file that exists.
        guard let loaded = try markerFile(named: name) else {
            throw UsageError(message: "pinmint styles: '\(name)' is not a preset (\(MarkerStyle.presetNames.joined(separator: ", "))) or a style file")
        }
        file = loaded.file
        styles = [loaded.file.style]
    }
    if arguments.flag("--show") {
        guard let file else { throw UsageError(message: "pinmint styles: --show needs a style name") }
        // What render would refuse is refused here, with render's line: a copy shown must be a copy that renders.
        try renderMarkers(file.style, values: file.values, scales: [1], fontFolders: fontFolders) { _, _, _ in }
        try writeStandardOutput(file.style.source.trimmingCharacters(in: .newlines) + "\n")
        return
    }
    if arguments.flag("--json") {
        let list: [[String: Any]] = styles.map { style in
            ["name": style.name, "description": style.summary, "variants": style.variantNames,
             "options": style.options.map { option -> [String: Any] in
                 var entry: [String: Any] = ["name": option.name, "type": option.kindName, "help": option.help]
                 entry["default"] = jsonObject(option.defaultValue)
                 return entry
             }]
        }
        try writeStandardOutput(MarkerMetadata.jsonText(list))
        return
    }
    try writeStandardOutput(styles.map(styleHelp).joined(separator: "\n") + "\n")
}

/// A style's name, description and options as people read them.
func styleHelp(_ style: MarkerStyle) -> String {
    var lines = ["\(style.name): \(style.summary)"]
    if style.variantNames.count > 1 {
        lines.append("  variants: " + style.variantNames.map { $0 == "default" ? "default (OUT.png)" : "\($0) (OUT-\($0).png)" }
            .joined(separator: ", "))
    }
    let width = min(28, (style.options.map { $0.name.count + $0.kindName.count + 5 }.max() ?? 0))
    for option in style.options {
        var head = "  --\(option.name) \(option.kindName)"
        if case .flag = option.kind { head = "  --\(option.name), --no-\(option.name)" }
        let padded = head.count < width + 2 ? head.padding(toLength: width + 2, withPad: " ", startingAt: 0) : head + "  "
        var help = option.help
        switch option.defaultValue {
        case .null: break
        case .string(let text): help += text.isEmpty ? "" : " (default \(text))"
        default: help += " (default \(option.defaultValue))"
        }
        lines.append(padded + help)
    }
    return lines.joined(separator: "\n")
}

private func jsonObject(_ value: JSONValue) -> Any {
    switch value {
    case .null: return NSNull()
    case .bool(let flag): return flag
    case .number(let number): return number == number.rounded() ? Int(number) as Any : number as Any
    case .string(let text): return text
    case .array(let items): return items.map(jsonObject)
    case .object(let members): return members.mapValues(jsonObject)
    }
}
