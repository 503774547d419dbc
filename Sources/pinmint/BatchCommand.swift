import Foundation
import PinmintGeometry
import PinmintMarkers
import PinmintPNG
import PinmintSprites

let batchHelp = """
Usage: pinmint batch DATA -o DIR --style PRESET|MARKER.json [--set OPTION=TEMPLATE]... [options]

Renders one marker per row of DATA (CSV with a header row, JSON lines, or a
GeoJSON FeatureCollection, whose features' properties are the fields) into
DIR: one PNG per row and scale, and DIR/index.json with every marker's
metadata (size, anchor, hit boxes, content box, Leaflet / MapLibre / MapKit
offsets; GeoJSON points add their coordinates), one line per image.

  pinmint batch listings.csv -o out/tags --style price-tag --set label='{price}萬' --set id='{id}' --scale 1,2
  pinmint batch shops.geojson -o out/shops --style callout --set title='{name}' --sprite shops
  pinmint batch shops.geojson -o out/s --style price-tag --set label='{price:number(0)|—}' --shard 2/8
  pinmint batch --merge-index out/s [--index NAME]   (once every shard's output is in out/s)

Options:
  -o, --output DIR        the folder to write into (made if missing)
  --style PRESET|FILE     a preset (pinmint styles) or a marker description file
  --set OPTION=TEMPLATE   fill a style option from the row: {field} is a field's text,
                          {{ and }} are braces (repeatable, each OPTION once); --set
                          id=TEMPLATE names the files (default: the row's id field, else
                          row-LINE, or feature-N for GeoJSON). {field} fails a row that
                          lacks the field; {field?} is empty then, {field|text} gives
                          text (also for null or empty); filters follow colons:
                          {price:number(0)|—}, {name:upper}, {name:truncate(12)}
                          (number(D, "G", "P"), upper, lower, trim, truncate(N, "…");
                          see docs/batch.md)
  --scale LIST            pixel ratios, e.g. 1,2 (default 1; 0.25...8); ratio 1 writes
                          ID.png, ratio N ID@Nx.png, variants ID-selected@Nx.png
  --sprite NAME           write DIR/NAME.png + NAME.json (and @Nx) sprite sheets instead
                          of one PNG per marker; with --spacing PX, --max-size PX,
                          --unique, --minify and --sdf as in 'pinmint sprite'
  --format FORMAT         csv, jsonl or geojson (default: from the extension; needed for '-')
  --delimiter D           CSV field delimiter: ',' ';' '|' ':' or tab (default: the one of
                          comma, semicolon and tab found most in the header row)
  --index NAME            the index file's name in DIR (default index.json; not a name
                          ending in .png, nor one of the --sprite files)
  --jobs N                threads (default: every core)
  --png MODE              PNG compression: fast, default or small
  --force                 render every marker, even those already up to date
  --prune                 remove the .png files in DIR that the index of an earlier run
                          listed and this run did not write or keep (a sprite sheet
                          with its .json; nothing else)
  --shard K/N             render only the rows whose id hashes to shard K of N (1...N;
                          FNV-1a, the same on every machine), with the index part
                          DIR/index.shard-K-of-N.json; not with --sprite
  --merge-index DIR       join DIR's index parts into DIR/index.json, as one run writes it
  --font-dir DIR          also look for fonts in DIR (repeatable)
  --strict-glyphs         a row whose text has a character no font has fails (no file
                          written for it); without it the row is drawn with boxes,
                          reported with its line, counted, and its index lines list
                          the characters ("missingGlyphs")
  -q, --quiet             no progress bar, no warnings

A re-run renders only the markers whose recipe (style, option values, scale)
changed or whose file is missing or altered (hashes in the index). A row that
fails (a malformed CSV or GeoJSON row, text that is not UTF-8 or holds a
NUL, a number out of range, a GeoJSON Point whose coordinates are not
[longitude, latitude], a missing field, a bad value, a duplicate id, a
marker file that cannot be replaced, e.g. a folder of its name) is
reported with its line (a GeoJSON feature also with its place,
features[N]; in a GeoJSON document on one line, with that place alone)
while the other rows render. On a terminal a progress bar shows the count,
the rate and the time left, and a last line sums up: rendered, unchanged,
failed, pruned, the time and the rate of rendered markers.

Exit codes: 0 every row rendered; 1 some rows failed (the others are written,
and the index counts the failures); 2 bad input or usage (nothing rendered,
and folders made for DIR are removed again while empty; or the data broke off
mid-way, or DIR took no more files: a full disk, a read-only file system, no
permission; the finished PNGs stay, the index is not replaced); 3 an
unexpected failure; 130 or 143 interrupted by SIGINT or SIGTERM (the finished
PNGs stay, no temporary file is left, nor a folder made for DIR that holds
nothing; the index is not replaced, unless
sprite sheets were being written: they are finished first, with their index). Every file is written whole (a temporary
file, then a rename); with --sprite, the sheets and the index replace the
previous ones together or not at all. No output replaces a file the batch
reads: a marker whose id would take the data, the style or a picture or icon
its row draws fails the row; an index or sprite that would stops the batch.
"""

func runBatch(_ rawArguments: [String]) -> Never {
    do {
        finish(try batch(rawArguments))
    } catch let error as UsageError {
        fail(error.message.hasPrefix("pinmint ") ? String(error.message.dropFirst("pinmint ".count)) : error.message)
    } catch let error as SpriteError {
        fail(error.description)
    } catch let error as MarkerError {
        fail(error.description)
    } catch {
        fail("\(error)", code: 3)
    }
}

/// Runs the batch; returns the exit code (0 or 1), throws for 2.
private func batch(_ rawArguments: [String]) throws -> Int32 {
    if rawArguments.isEmpty { failWithUsage(batchHelp) }
    if rawArguments.contains("--help") || rawArguments.contains("-h") { print(batchHelp); return 0 }
    try checkArgumentsAreUTF8(command: "pinmint batch")
    let arguments = try Arguments(command: "pinmint batch", arguments: rawArguments,
                                  valueOptions: Set(BatchOptions.renderingValues + BatchOptions.common),
                                  flagOptions: Set(BatchOptions.renderingFlags + ["--quiet"]),
                                  aliases: ["-o": "--output", "-q": "--quiet"], repeatable: ["--set", "--font-dir"])
    if let folder = arguments.value("--merge-index") { return try mergeIndex(folder, arguments: arguments) }
    let data = try arguments.singlePositional("data file (CSV, JSON lines or GeoJSON)")
    guard let output = arguments.value("--output") else { throw UsageError(message: "pinmint batch: missing -o DIR") }
    guard let styleName = arguments.value("--style") else {
        throw UsageError(message: "pinmint batch: missing --style PRESET|MARKER.json (presets: \(MarkerStyle.presetNames.joined(separator: ", ")))")
    }
    let file: MarkerFile
    var styleFile: String? = nil
    if let preset = MarkerStyle.preset(named: styleName) {
        file = MarkerFile(style: preset)
    } else if styleName.hasSuffix(".json") || FileManager.default.fileExists(atPath: styleName) {
        file = try MarkerFile(contentsOfFile: styleName)
        styleFile = styleName
    } else {
        throw UsageError(message: "pinmint batch: --style '\(styleName)' is not a preset or a .json marker file "
                         + "(presets: \(MarkerStyle.presetNames.joined(separator: ", ")))")
    }
    var settings: [String: FieldTemplate] = [:]
    var idTemplate: FieldTemplate? = nil
    for setting in arguments.allValues("--set") {
        guard let equals = setting.firstIndex(of: "="), equals != setting.startIndex else {
            throw UsageError(message: "pinmint batch: --set '\(setting)' is not OPTION=TEMPLATE (e.g. label='{price}萬')")
        }
        let name = String(setting[..<equals]), text = String(setting[setting.index(after: equals)...])
        let template = try FieldTemplate(text, input: "--set \(name)")
        // Every option, the id too, takes one template: a second one is a mistake, not an override.
        guard settings[name] == nil, name != "id" || idTemplate == nil else {
            throw UsageError(message: "pinmint batch: --set \(name) given more than once")
        }
        if name == "id" { idTemplate = template } else { settings[name] = template }
    }
    let scales = try ratioList(arguments, option: "--scale", default: [1])
    var format: DataFormat? = nil
    if let text = arguments.value("--format") {
        guard let given = DataFormat(rawValue: text.lowercased()) else {
            throw UsageError(message: "pinmint batch: --format '\(text)' is not csv, jsonl or geojson")
        }
        format = given
    } else if data == "-" {
        throw UsageError(message: "pinmint batch: reading standard input needs --format csv|jsonl|geojson")
    }
    let jobs = try arguments.integer("--jobs", default: ProcessInfo.processInfo.activeProcessorCount, range: 1...256)
    let indexName = try BatchOptions.indexName(arguments)
    var configuration = try BatchConfiguration(file: file, settings: settings, idTemplate: idTemplate, scales: scales,
                                               outputFolder: output, jobs: jobs)
    configuration.indexName = indexName
    configuration.pngMode = try pngMode(arguments)
    configuration.fontFolders = try checkedFontFolders(arguments)
    configuration.force = arguments.flag("--force")
    configuration.strictGlyphs = arguments.flag("--strict-glyphs")
    configuration.styleFile = styleFile
    configuration.prune = arguments.flag("--prune")
    if let text = arguments.value("--shard") {
        do { configuration.shard = try BatchShard(parsing: text) } catch { throw UsageError(message: "pinmint batch: \(error.description)") }
        if arguments.value("--sprite") != nil {
            throw UsageError(message: "pinmint batch: --shard cannot split a --sprite (the sheets are packed from every row); "
                             + "render one PNG per marker, or the sprite in one run")
        }
    }
    var delimiter = CSVDelimiter.detect
    if let text = arguments.value("--delimiter") {
        guard let given = CSVDelimiter(option: text) else {
            throw UsageError(message: "pinmint batch: --delimiter '\(text)' is not ',' ';' '|' ':' or tab")
        }
        delimiter = given
    }
    let spriteOnly = ["--spacing", "--max-size"].filter { arguments.value($0) != nil } + ["--unique", "--minify", "--sdf"].filter { arguments.flag($0) }
    if let name = arguments.value("--sprite") {
        guard SpriteID.problem(name, allowsSlash: false) == nil else {
            throw UsageError(message: "pinmint batch: --sprite '\(name)' must be a file name (no folders)")
        }
        try refuseOtherImageFormat(spriteName: name, option: "--sprite", command: "pinmint batch")
        var sprite = BatchConfiguration.SpriteOutput(name: name)
        sprite.spacing = try arguments.integer("--spacing", default: 0, range: 0...64)
        sprite.maximumSize = try arguments.integer("--max-size", default: SpriteSheet.defaultMaximumSize, range: 64...16384)
        sprite.unique = arguments.flag("--unique")
        sprite.minified = arguments.flag("--minify")
        sprite.sdf = arguments.flag("--sdf")
        configuration.sprite = sprite
    } else if let option = spriteOnly.first {
        throw UsageError(message: "pinmint batch: \(option) applies to --sprite output only")
    }
    // Neither the index nor the sprite may replace the data or the style they are made from
    // (`--index data.csv` or `--sprite data` in the data's folder); a marker that would is a
    // failed row, and a picture under the index or the sprite stops the batch (BatchRenderer).
    var batchOutputs = [(path: PathName.appending(configuration.indexFileName, to: output), option: "--index")]
    if let sprite = configuration.sprite {
        for scale in scales {
            let base = PathName.appending(SpriteSheet.fileBase(sprite.name, pixelRatio: scale), to: output)
            batchOutputs += [(base + ".png", "--sprite"), (base + ".json", "--sprite")]
        }
    }
    // One output at a time: an index named like a sprite file has its own message (`BatchConfiguration.outputClash`).
    let inputs = [data, styleName].filter { FileManager.default.fileExists(atPath: $0) }
    for batchOutput in batchOutputs { try refuseClashingOutputs([batchOutput], inputs: inputs, command: "pinmint batch") }

    let reader = try DataRowReader(path: data, format: format, delimiter: delimiter)
    let quiet = arguments.flag("--quiet")
    Interruption.handle(quiet: quiet)
    let bar = ProgressBar(enabled: !quiet && isatty(2) == 1)
    let failures = FailureReport(kind: "failed rows", prefix: "")
    let boxes = FailureReport(kind: "rows with missing glyphs", prefix: "warning: ")
    let summary = try BatchRenderer(configuration: configuration).run(reader, progress: { bar.update($0) },
                                                                     failure: { failures.report($0) },
                                                                     missingGlyphs: { if !quiet { boxes.report($0) } },
                                                                     notice: { if !quiet { writeStandardError("pinmint: batch: \(MessageText.oneLine($0))\n") } })
    // The failed rows' lines first, the summary last: what a person reads at the end is the whole count.
    failures.finish()
    boxes.finish()
    if !quiet && summary.missingGlyphRows > 0 {
        writeStandardError("pinmint: batch: \(summary.missingGlyphRows) of \(summary.rows) rows drew characters no font has "
                           + "as boxes (install a font that has them, or add --font-dir; --strict-glyphs makes them failures)\n")
    }
    if !quiet && !summary.sheets.isEmpty {
        writeStandardError("pinmint: sprite \(MessageText.oneLine(summary.sheets.joined(separator: ", ")))\n")
    }
    if !quiet && summary.pruned > 0 && !bar.enabled {
        writeStandardError("pinmint: batch: pruned \(summary.pruned) file\(summary.pruned == 1 ? "" : "s") of an earlier run\n")
    }
    bar.finish(summary)
    return summary.failed > 0 ? 1 : 0
}

/// `pinmint batch`'s options, listed once for parsing and for what `--merge-index` refuses.
private enum BatchOptions {
    /// Options with a value that only a rendering run takes, in the order `--merge-index` names the first given.
    static let renderingValues = ["--output", "--style", "--set", "--scale", "--sprite", "--format", "--shard", "--delimiter",
                                  "--jobs", "--png", "--font-dir", "--spacing", "--max-size"]
    /// Flags that only a rendering run takes, in that order too.
    static let renderingFlags = ["--force", "--prune", "--unique", "--minify", "--sdf", "--strict-glyphs"]
    /// Options with a value that both a run and `--merge-index` take.
    static let common = ["--index", "--merge-index"]

    /// `--index NAME` (default `index.json`): a file name inside the output folder, not hidden.
    static func indexName(_ arguments: Arguments) throws -> String {
        let indexName = arguments.value("--index") ?? "index.json"
        guard !indexName.contains("/"), !indexName.isEmpty, !indexName.hasPrefix(".") else {
            throw UsageError(message: "pinmint batch: --index '\(indexName)' must be a file name inside DIR")
        }
        return indexName
    }
}

/// `pinmint batch --merge-index DIR`: joins the index parts of a sharded batch.
private func mergeIndex(_ folder: String, arguments: Arguments) throws -> Int32 {
    guard arguments.positionals.isEmpty else {
        throw UsageError(message: "pinmint batch: --merge-index DIR takes no data file (it joins DIR's index parts)")
    }
    let others = BatchOptions.renderingValues.filter { arguments.value($0) != nil } + BatchOptions.renderingFlags.filter { arguments.flag($0) }
    if let option = others.first { throw UsageError(message: "pinmint batch: \(option) does not apply to --merge-index") }
    let indexName = try BatchOptions.indexName(arguments)
    let result = try BatchIndexMerge.merge(folder: folder, indexName: indexName)
    if !arguments.flag("--quiet") {
        writeStandardError("pinmint: batch: joined \(result.parts) index parts into \(result.path): "
                           + "\(result.markers) markers, \(result.failed) failed rows\n")
    }
    return 0
}

/// SIGINT and SIGTERM end a batch without leaving half-written files: the
/// temporary files this process is writing are removed (`TemporaryFiles`),
/// a line says so (unless quiet), and the exit code is 128 + the signal
/// (130, 143). The markers already written stay; the index is not replaced
/// unless sprite sheets were being written with it (`withoutInterruption`).
private enum Interruption {
    nonisolated(unsafe) private static var sources: [DispatchSourceSignal] = []

    static func handle(quiet: Bool) {
        for (number, name) in [(SIGINT, "SIGINT"), (SIGTERM, "SIGTERM")] {
            // A signal the shell had us ignore (`batch … &` in a script) stays ignored.
            var previous = sigaction()
            guard sigaction(number, nil, &previous) == 0,
                  unsafeBitCast(previous.__sigaction_handler.sa_handler, to: Int.self) != unsafeBitCast(SIG_IGN, to: Int.self) else { continue }
            // Delivered to the source's own queue (a thread of its own, whatever the workers hold), not to a handler.
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: DispatchQueue(label: "pinmint.batch.\(name)"))
            source.setEventHandler {
                TemporaryFiles.removeAll()
                if !quiet {
                    ProgressBar.clearLine()
                    writeStandardError("pinmint: batch: interrupted (\(name)); the finished markers stay, no temporary file is left\n")
                }
                _exit(128 + number)
            }
            source.resume()
            sources.append(source)
        }
    }
}

/// Failed rows (or rows drawn with missing glyphs) on standard error: the
/// first 100, then a count. Each is one line (`MessageText.oneLine`): a row's id or
/// value may hold a newline or an escape sequence, shown as `\n`,
/// `\u{1B}`, never sent to the terminal as is.
private final class FailureReport: @unchecked Sendable {
    static let limit = 100
    private let kind: String, prefix: String
    private var count = 0
    /// - Parameters: kind: what the closing count counts ("failed rows"); prefix: before each line ("warning: ").
    init(kind: String, prefix: String) {
        self.kind = kind
        self.prefix = prefix
    }
    func report(_ error: SpriteError) {
        count += 1
        if count <= Self.limit {
            ProgressBar.clearLine()
            writeStandardError("pinmint: \(prefix)\(MessageText.oneLine(error.description))\n")
        }
    }
    func finish() {
        if count > Self.limit {
            ProgressBar.clearLine()
            writeStandardError("pinmint: … and \(count - Self.limit) more \(kind) (\(count) in all)\n")
        }
    }
}

/// `[##########----------] 1234 rows  5678 images/s  0:12 left` on a terminal, redrawn at most ten times a second.
private final class ProgressBar: @unchecked Sendable {
    let enabled: Bool
    private let start = DispatchTime.now().uptimeNanoseconds
    private var lastDraw: UInt64 = 0
    nonisolated(unsafe) static var drawn = false

    init(enabled: Bool) { self.enabled = enabled }

    private var elapsed: Double { Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9 }

    func update(_ progress: BatchProgress) {
        guard enabled else { return }
        let now = DispatchTime.now().uptimeNanoseconds
        guard now - lastDraw > 100_000_000 else { return }
        lastDraw = now
        let seconds = max(elapsed, 1e-3)
        var line = ""
        if let fraction = progress.fraction {
            let width = 24, filled = Int((fraction * Double(width)).rounded(.down))
            line += "[" + String(repeating: "#", count: filled) + String(repeating: "-", count: width - filled) + "] "
        }
        line += "\(progress.rows) rows  \(Int(Double(progress.rendered) / seconds)) rendered/s"
        if let fraction = progress.fraction, fraction > 0.01 {
            let left = Int((seconds / fraction - seconds).rounded())
            line += String(format: "  %d:%02d left", left / 60, left % 60)
        }
        if progress.failed > 0 { line += "  \(progress.failed) failed" }
        writeStandardError(("\r\u{1B}[K" + line))
        Self.drawn = true
    }

    func finish(_ summary: BatchProgress) {
        guard enabled else { return }
        Self.clearLine()
        writeStandardError("pinmint: batch: " + summary.summaryLine(seconds: elapsed) + "\n")
    }

    static func clearLine() {
        if drawn { writeStandardError("\r\u{1B}[K"); drawn = false }
    }
}
