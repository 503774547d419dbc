import Foundation
import PinmintText

let fontsHelp = """
Usage: pinmint fonts [--font-dir DIR]... [--no-system] [--json]

Lists the font families Pinmint can use, with their styles and the scripts
they cover, after a first line saying where Pinmint's own fonts were found.
Folders are searched in this order: each --font-dir, Pinmint's own fonts
($PINMINT_FONTS, which must name a folder; else ../share/pinmint/fonts beside
the binary, where `make install` puts them; else the Fonts/ folder of the
checkout it was built from), then the system's fonts (fontconfig). Text
falls back from the Latin family (Noto Sans) to the CJK family (Noto Sans
CJK SC); every script is shaped (HarfBuzz) and ordered (FriBidi) when a
font covers it.

Options:
  --font-dir DIR   also search DIR (repeatable; must exist)
  --no-system      skip the system font folders
  --json           print JSON: [{"family", "scripts", "faces": [{"style",
                   "weight", "italic", "file", "index"}]}]
  -h, --help       this help
"""

/// One family as `pinmint fonts --json` prints it.
private struct FamilyListing: Encodable {
    struct Face: Encodable {
        let style: String
        let weight: Int
        let italic: Bool
        let file: String
        let index: Int
    }
    let family: String
    let scripts: [String]
    let faces: [Face]
}

func runFonts(_ rawArguments: [String]) throws {
    if rawArguments.contains("--help") || rawArguments.contains("-h") { print(fontsHelp); return }
    try checkArgumentsAreUTF8(command: "pinmint fonts")
    let arguments = try Arguments(command: "pinmint fonts", arguments: rawArguments, valueOptions: ["--font-dir"],
                                  flagOptions: ["--json", "--no-system"], aliases: ["--no-system-fonts": "--no-system"], repeatable: ["--font-dir"])
    guard arguments.positionals.isEmpty else {
        throw UsageError(message: "pinmint fonts: unexpected argument '\(arguments.positionals[0])'")
    }
    let userFolders = try checkedFontFolders(arguments)
    let library: FontLibrary
    do {
        library = try FontLibrary.standard(userFolders: userFolders, includeSystem: !arguments.flag("--no-system"))
    } catch {
        throw UsageError(message: error.description)
    }
    for problem in library.problems {
        writeStandardError("pinmint: warning: \(problem)\n")
    }
    var listings: [FamilyListing] = []
    for family in library.families {
        let faces = library.descriptors.filter { $0.family.caseInsensitiveCompare(family) == .orderedSame }
        let covered = Set(faces.flatMap { library.scripts(of: $0) })
        listings.append(FamilyListing(
            family: family,
            scripts: Script.allCases.filter(covered.contains).map(\.rawValue),
            faces: faces.map { .init(style: $0.style, weight: $0.weight, italic: $0.isItalic, file: $0.file, index: $0.index) }))
    }
    if arguments.flag("--json") {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        try writeStandardOutput(String(decoding: try encoder.encode(listings), as: UTF8.self) + "\n")
        return
    }
    if listings.isEmpty {
        try writeStandardOutput("no fonts found in: \(library.folders.joined(separator: ", "))\n")
        return
    }
    var text = "Pinmint's fonts: \(ShippedFonts.current)\n"
    for listing in listings {
        let styles = listing.faces.map { "\($0.style) (\($0.weight))" }
        text += listing.family + "\n"
        text += "  styles:  \(styles.joined(separator: ", "))\n"
        text += "  scripts: \(listing.scripts.isEmpty ? "none of the listed scripts" : listing.scripts.joined(separator: ", "))\n"
        text += "  files:   \(Set(listing.faces.map(\.file)).sorted().joined(separator: ", "))\n"
    }
    try writeStandardOutput(text)
}
