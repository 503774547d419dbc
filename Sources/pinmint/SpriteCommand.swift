import Foundation
import PinmintGeometry
import PinmintMarkers
import PinmintPNG
import PinmintSprites

let spriteHelp = """
Usage: pinmint sprite INPUT... -o OUT/NAME [options]

Packs icons and markers into a MapLibre / Mapbox GL sprite: NAME.png and
NAME.json at @1x, NAME@2x.png and NAME@2x.json at @2x, and so on.

Inputs (any mix):
  FOLDER          every .svg and .png below it; ids are paths without the
                  extension, so sub-folders become prefixes (food/cafe)
  ICON.svg        drawn at each ratio as 'pinmint render ICON.svg --scale R'
  ICON.png        ICON@2x.png beside it (twice its size) is used at @2x (else ICON.png
                  is resampled)
  MARKER.json     a marker description (a preset with options or a style) or a
                  list of them, each with an optional "id" and "sprite" object;
                  a marker drawn without text (an empty label) is stretchable
                  and gets content, stretchX and stretchY
  SIDECAR.json    {"icons": {"ID": {"content": [...], "stretchX": [[...]], "stretchY": [[...]],
                  "textFitWidth": "...", "textFitHeight": "...", "sdf": true}}} in @1x pixels

  pinmint sprite icons/ markers.json -o out/sprite --ratio 1,2
  pinmint sprite icons/ -o out/sdf --sdf --unique --minify

Options:
  -o, --output OUT/NAME  where to write (NAME.png, NAME.json, NAME@2x.png ...); only PNG
                         is written, so a NAME ending in .webp, .svg, .jpg ... is refused
  --ratio LIST           pixel ratios, e.g. 1,2 (default 1,2; 0.25...8)
  --unique               store identical images once (their ids share one rectangle)
  --spacing PX           transparent pixels between images (default 0; 0...64)
  --sdf                  signed distance fields (alpha ≥ 192 inside; radius 8 × ratio,
                         buffer 3 × ratio) for icons the map recolours
  --minify               compact JSON (no spaces or newlines)
  --max-size PX          the largest sheet side (default 4096; 64...16384)
  --split                when the images do not fit one sheet per ratio, share them out
                         over sheets NAME-1, NAME-2 … (at most 16; each id in the same
                         sheet at every ratio) and write NAME.style.json: the style's
                         "sprite" list for MapLibre's multiple sprites and each id's
                         icon-image name (NAME-2:cafe). Without it, such a sprite is refused
  --jobs N               threads (default: every core)
  --png MODE             PNG compression: fast, default or small
  --font-dir DIR         also look for fonts in DIR (repeatable)
  -q, --quiet            no warnings and no summary line

Every sheet is rendered and packed before any file is written: bad input
(a missing file, a duplicate id, an image larger than --max-size, images
that do not fit, a name that is not UTF-8) writes nothing and exits with
code 2 after one line naming the input and the problem. The files replace
the previous sprite's together: if one cannot be written (a folder in its
place), none is, and the previous files stay as they were. The summary
line on standard error gives each sheet's size and packing efficiency
(image pixels / sheet pixels).
"""

func runSprite(_ rawArguments: [String]) throws {
    if rawArguments.isEmpty { failWithUsage(spriteHelp) }
    if rawArguments.contains("--help") || rawArguments.contains("-h") { print(spriteHelp); return }
    try checkArgumentsAreUTF8(command: "pinmint sprite")
    let arguments = try Arguments(command: "pinmint sprite", arguments: rawArguments,
                                  valueOptions: ["--output", "--ratio", "--spacing", "--max-size", "--jobs", "--png", "--font-dir"],
                                  flagOptions: ["--unique", "--sdf", "--minify", "--quiet", "--split"],
                                  aliases: ["-o": "--output", "-q": "--quiet"], repeatable: ["--font-dir"])
    guard !arguments.positionals.isEmpty else { throw UsageError(message: "pinmint sprite: missing the inputs (folders, .svg, .png, .json)") }
    guard let output = arguments.value("--output") else { throw UsageError(message: "pinmint sprite: missing -o OUT/NAME") }
    guard !output.hasSuffix("/"), !PathName.lastComponent(of: output).isEmpty else {
        throw UsageError(message: "pinmint sprite: -o '\(output)' needs a sprite name after the folder (OUT/NAME)")
    }
    try refuseOtherImageFormat(spriteName: output, option: "-o", command: "pinmint sprite")
    let base = output.lowercased().hasSuffix(".png") || output.lowercased().hasSuffix(".json")
        ? PathName.deletingExtension(output) : output
    let ratios = try ratioList(arguments, option: "--ratio", default: [1, 2])
    let spacing = try arguments.integer("--spacing", default: 0, range: 0...64)
    let maximumSize = try arguments.integer("--max-size", default: SpriteSheet.defaultMaximumSize, range: 64...16384)
    let jobs = try arguments.integer("--jobs", default: ProcessInfo.processInfo.activeProcessorCount, range: 1...256)
    let mode = try pngMode(arguments)
    let quiet = arguments.flag("--quiet")
    let fontFolders = try checkedFontFolders(arguments)

    let inputs = try SpriteInputs(paths: arguments.positionals)
    let warnings = WarningList()
    var files: [(path: String, bytes: [UInt8])] = []
    var summaries: [String] = []
    var imageCount = 0
    let unique = arguments.flag("--unique"), allDistanceFields = arguments.flag("--sdf")
    let split = arguments.flag("--split")
    func render(_ ratio: Double) throws -> [SpriteImage] {
        // Counted as they are made: images that cannot fit stop the rendering, not the packing after it.
        let capacity = SpriteSheetCapacity(maximumSize: maximumSize, spacing: spacing, unique: unique, name: output,
                                           sheets: split ? SpriteSheet.maximumSheetCount : 1)
        return try inputs.render(ratio: ratio, jobs: jobs, fontFolders: fontFolders, capacity: capacity,
                                 // --sdf turns every image into a distance field; a sidecar's "sdf": true turns one.
                                 prepare: { allDistanceFields || $0.metadata.sdf ? SignedDistanceField.make(from: $0) : $0 },
                                 warn: { warnings.add($0) })
    }
    func add(_ sheet: SpriteSheet, fileBase: String) throws {
        files.append((fileBase + ".png", try sheet.pngData(mode: mode)))
        files.append((fileBase + ".json", Array(sheet.indexJSON(minified: arguments.flag("--minify")).utf8)))
    }
    var sheetCount = 1
    if split {
        // The split is decided at the largest ratio and kept at every other: an id stays in its sheet.
        var imagesAt: [Double: [SpriteImage]] = [:]
        for ratio in ratios.sorted(by: >) { imagesAt[ratio] = try render(ratio) }
        let packed = try SpriteSheet.packSplit(imagesAt, spacing: spacing, maximumSize: maximumSize, unique: unique, name: output)
        sheetCount = packed.ids.count
        for ratio in ratios {
            for (index, sheet) in packed.sheets[ratio]!.enumerated() {
                try add(sheet, fileBase: SpriteSheet.fileBase(SpriteSheet.splitBase(base, sheet: index), pixelRatio: ratio))
            }
            imageCount = imagesAt[ratio]!.count
            summaries.append("@\(formatRatio(ratio))x " + packed.sheets[ratio]!.map(\.packingSummary).joined(separator: " + "))
        }
        files.append((base + ".style.json",
                      Array(SpriteSheet.styleSnippet(name: PathName.lastComponent(of: base), sheets: packed.ids).utf8)))
    } else {
        for ratio in ratios {
            let images = try render(ratio)
            let sheet = try SpriteSheet.pack(images, spacing: spacing, maximumSize: maximumSize, unique: unique, name: output)
            try add(sheet, fileBase: SpriteSheet.fileBase(base, pixelRatio: ratio))
            imageCount = images.count
            summaries.append("@\(formatRatio(ratio))x " + sheet.packingSummary)
        }
    }
    if !quiet { for warning in warnings.all { writeStandardError("pinmint: warning: \(MessageText.oneLine(warning))\n") } }
    // The folders made for the sprite are removed again if it is not written (a name too long, a clash).
    let madeFolders = try OutputFolders.make(PathName.folder(of: base))
    let set = FileSet(folderProblem: SpriteSheet.folderProblem)
    do {
        // No sprite file may replace one of the inputs (`-o icons/pin` beside icons/pin.png).
        try refuseClashingOutputs(files.map { ($0.path, "-o") }, inputs: inputs.inputFiles, command: "pinmint sprite")
        // Every file of the sprite, or none: a file that cannot be written leaves the old sprite as it was.
        for file in files { try set.stage(file.bytes, for: file.path) }
        try set.commit()
    } catch {
        set.discard()
        OutputFolders.removeEmpty(madeFolders)
        throw error
    }
    if !quiet {
        let inSheets = split ? " in \(sheetCount) sheet\(sheetCount == 1 ? "" : "s") (\(base).style.json)" : ""
        writeStandardError("pinmint: sprite \(base): \(imageCount) images\(inSheets); \(summaries.joined(separator: ", "))\n")
    }
}

/// `--ratio 1,2`: distinct pixel ratios in 0.25...8.
func ratioList(_ arguments: Arguments, option: String, default defaultRatios: [Double]) throws(UsageError) -> [Double] {
    guard let text = arguments.value(option) else { return defaultRatios }
    var ratios: [Double] = []
    for piece in text.split(separator: ",", omittingEmptySubsequences: false) {
        // "2x" is read as 2; the rest must be a plain decimal ("0x2" is not 2).
        var trimmed = piece.trimmingCharacters(in: .whitespaces)
        if trimmed.hasSuffix("x") { trimmed.removeLast() }
        guard let ratio = Arguments.decimal(trimmed), ratio.isFinite else {
            throw UsageError(message: "\(arguments.command): \(option) '\(text)': '\(piece)' is not a number")
        }
        guard (0.25...8).contains(ratio) else { throw UsageError(message: "\(arguments.command): \(option) \(piece) is out of range (0.25...8)") }
        if !ratios.contains(ratio) { ratios.append(ratio) }
    }
    guard ratios.count <= 8 else { throw UsageError(message: "\(arguments.command): \(option) lists more than 8 ratios") }
    return ratios
}

func formatRatio(_ ratio: Double) -> String { ratio == ratio.rounded() ? String(Int(ratio)) : String(ratio) }

func checkedFontFolders(_ arguments: Arguments) throws(UsageError) -> [String] {
    let folders = arguments.allValues("--font-dir")
    for folder in folders {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder, isDirectory: &isFolder), isFolder.boolValue else {
            throw UsageError(message: "\(arguments.command): --font-dir '\(folder)' is not a folder")
        }
    }
    return folders
}

/// Warnings from worker threads, each kept once, in the order first seen.
final class WarningList: @unchecked Sendable {
    private let lock = NSLock()
    private var items: [String] = []
    func add(_ warning: String) {
        lock.lock(); defer { lock.unlock() }
        if !items.contains(warning) { items.append(warning) }
    }
    var all: [String] { lock.lock(); defer { lock.unlock() }; return items }
}
