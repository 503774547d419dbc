import Foundation
import PinmintGeometry
import PinmintMarkers
import PinmintPNG
import PinmintText

/// What `pinmint batch` renders: one marker per data row, with the style's
/// options filled from the row's fields.
public struct BatchConfiguration: Sendable {
    /// The style and the option values its file sets.
    public var file: MarkerFile
    /// Option name → template (`label` ← `{price}萬`), checked against the style's options.
    public var settings: [String: FieldTemplate]
    /// The marker id (a file name): `--set id=…`; nil uses the row's `id`
    /// field, else `row-LINE` (CSV, JSON lines) or `feature-N` (GeoJSON, N
    /// its index in the features array: a document on one line has one line).
    public var idTemplate: FieldTemplate?
    /// Pixel ratios; ratio 1 writes `ID.png`, ratio N `ID@Nx.png`.
    public var scales: [Double]
    /// Where marker PNGs (or the sprite) and the index go; made, with its
    /// parents, when missing. Locked for the run (`.pinmint.lock`): a
    /// second batch into the same folder at once fails.
    public var outputFolder: String
    /// The index file's name inside `outputFolder`.
    public var indexName = "index.json"
    /// How hard the PNG encoder works (`--png`), for marker files and
    /// sprite sheets alike; part of every recipe, so changing it renders
    /// everything again.
    public var pngMode: PNGEncoder.Mode = .default
    /// Worker threads (one `MarkerRenderer` each).
    public var jobs: Int
    /// Font folders searched before Pinmint's own fonts and the system's
    /// (`--font-dir`), as `MarkerRenderer(fontFolders:)` takes them.
    public var fontFolders: [String] = []
    /// Render every marker even when its file is up to date.
    public var force = false
    /// A row whose text has characters no font has fails (nothing written
    /// for it) instead of drawing .notdef boxes and being reported.
    public var strictGlyphs = false
    /// Pack the markers into sprite sheets instead of one PNG each.
    public var sprite: SpriteOutput?
    /// The marker description file the style comes from; nil for a preset.
    /// No marker is written over it (nor over the data file, nor over a
    /// picture or icon a row draws).
    public var styleFile: String?
    /// Render only the rows of this shard (`--shard K/N`), into an index part of its own.
    public var shard: BatchShard?
    /// Remove the marker files an earlier run's index listed that this run did not write or keep (`--prune`).
    public var prune = false

    /// The index file's name: `indexName`, or with a shard its part,
    /// `index.shard-2-of-3.json` (`BatchShard.partName(of:)`).
    public var indexFileName: String { shard.map { $0.partName(of: indexName) } ?? indexName }

    /// Sprite output: `NAME.png` + `NAME.json` per ratio in the output folder.
    public struct SpriteOutput: Sendable {
        /// The sheet's base name: `NAME.png`, `NAME@2x.png` … in the output folder.
        public var name: String
        /// Transparent pixels between neighbouring images (0...64, default 0).
        public var spacing = 0
        /// The largest sheet side, pixels (default 4096); a batch whose
        /// images cannot fit stops with `SpriteError`.
        public var maximumSize = SpriteSheet.defaultMaximumSize
        /// Store images with identical pixels once, their ids sharing one rectangle.
        public var unique = false
        /// Write the index JSON without spaces or newlines.
        public var minified = false
        /// Turn each marker into a signed distance field (`SignedDistanceField`)
        /// before packing, for recolouring with `icon-color`.
        public var sdf = false
        /// A sheet called `name`, unpadded, at most 4096 pixels a side, every image stored.
        public init(name: String) { self.name = name }
    }

    /// - Throws: `SpriteError` when a `settings` key is not one of the style's options.
    public init(file: MarkerFile, settings: [String: FieldTemplate], idTemplate: FieldTemplate?, scales: [Double],
                outputFolder: String, jobs: Int) throws(SpriteError) {
        for name in settings.keys.sorted() where !file.style.options.contains(where: { $0.name == name }) {
            let names = file.style.options.map(\.name)
            let hint = JSONValue.closest(to: name, in: names).map { " (did you mean '\($0)'?)" } ?? ""
            throw SpriteError(input: "--set \(name)", problem: "\(file.style.name) has no option '\(name)'\(hint); "
                              + "its options: \(names.joined(separator: ", ")), and id")
        }
        self.file = file
        self.settings = settings
        self.idTemplate = idTemplate
        self.scales = scales
        self.outputFolder = outputFolder
        self.jobs = max(1, jobs)
    }
}

extension BatchConfiguration {
    /// Why the index would replace a file the batch writes, or nil. Checked
    /// before anything is written: the index beside the sprite sheets must
    /// not take one of their names, and beside one PNG per marker it must not
    /// end in `.png`, a name some row's id could give a marker
    /// (`--index a.png` and a row with id `a`).
    public var outputClash: SpriteError? {
        let option = "--index \(indexName)"
        if shard != nil && sprite != nil {
            return SpriteError(input: "--shard", problem: "sprite sheets cannot be split into shards; render one PNG per marker "
                               + "(leave out --sprite), or the whole sprite in one run")
        }
        if let sprite {
            for scale in scales {
                let base = SpriteSheet.fileBase(sprite.name, pixelRatio: scale)
                for file in [base + ".png", base + ".json"] where file == indexName {
                    return SpriteError(input: option, problem: "--sprite \(sprite.name) writes \(file) too; "
                                       + "give the index or the sprite another name")
                }
            }
            // The index is JSON: under a .png name it would pass for an image (`--sprite S --index a.png` wrote JSON into a.png).
            guard !indexName.lowercased().hasSuffix(".png") else {
                return SpriteError(input: option, problem: "the index is JSON, not a PNG image; give it a name that does not end in .png")
            }
            return nil
        }
        guard indexName.lowercased().hasSuffix(".png") else { return nil }
        return SpriteError(input: option, problem: "a row's marker file could have this name (each marker is written as "
                           + "ID.png, ID@2x.png, ID-VARIANT.png), and the index would replace it; give the index a name "
                           + "that does not end in .png")
    }
}

/// Counts while a batch runs and when it ends.
public struct BatchProgress: Sendable {
    /// Rows finished (rendered, skipped or failed), in row order.
    public var rows = 0
    /// Images written (PNG files, or sprite images).
    public var rendered = 0
    /// Images whose file was already up to date.
    public var skipped = 0
    /// Rows that failed.
    public var failed = 0
    /// Files removed by `prune`: an earlier run's index listed them, this run did not write or keep them.
    public var pruned = 0
    /// Rows drawn with characters no font has (.notdef boxes), whether
    /// rendered now or up to date from an earlier run; with
    /// `strictGlyphs` they fail instead and are counted in `failed`.
    public var missingGlyphRows = 0
    /// How far through the data file (0...1), from bytes read; nil when unknown (standard input).
    public var fraction: Double?
    /// With sprite output, when the batch ends: one line per sheet, e.g.
    /// `tags@2x.png 1024x980 (91.2% packed)`.
    public var sheets: [String] = []
    /// All counts zero, before a batch starts.
    public init() {}
}

extension BatchProgress {
    /// `5000 rows: 4998 rendered, 0 unchanged, 2 failed, 0 pruned in 3.1 s (1612 rendered/s)`:
    /// the rate counts rendered markers only (a re-run that rendered 2 in a
    /// second is 2 a second, not the thousands it skipped); none rendered, no rate.
    public func summaryLine(seconds: Double) -> String {
        let seconds = max(seconds, 1e-3)
        let rate = rendered > 0 ? " (\(Int((Double(rendered) / seconds).rounded())) rendered/s)" : ""
        return "\(rows) rows: \(rendered) rendered, \(skipped) unchanged, \(failed) failed, \(pruned) pruned"
            + (missingGlyphRows > 0 ? ", \(missingGlyphRows) with missing glyphs" : "")
            + " in \(String(format: "%.1f", seconds)) s\(rate)"
    }
}

/// Renders a data file's rows on every core.
///
/// Rows stream from the reader through a bounded window: at most
/// `windowPerJob × jobs` rows are in flight or waiting for their turn, each
/// PNG is written when it is done, and index lines are written in row order
/// as rows complete, so memory does not grow with the number of markers
/// (except a table of ids and file names, about 100 bytes a marker, to
/// report duplicates; and, with `sprite`, the images of the sheet).
///
/// Skipping: each index line records a hash of the recipe (style source,
/// option values, ratio, variant, PNG mode, fonts, Pinmint's version) and of
/// the PNG's bytes. A re-run renders a marker again only when its recipe
/// changed or its file is missing or not the bytes the index recorded.
public final class BatchRenderer: @unchecked Sendable {
    /// What this renderer renders; fixed for its life.
    public let configuration: BatchConfiguration
    static let windowPerJob = 32
    /// Bumped when a change in Pinmint may change pixels: part of every recipe.
    public static let recipeVersion = "pinmint-batch-1"
    /// How to make a batch's sprite fit when it does not (`--sprite` writes one sheet per ratio).
    static let spriteOverflowAdvice = "split the rows into several batches, each with its own --sprite "
        + "(or render PNG files and pack them with 'pinmint sprite --split')"

    /// A renderer for `configuration`; nothing is read, checked or made
    /// until `run` (fonts load on the first row).
    public init(configuration: BatchConfiguration) {
        self.configuration = configuration
    }

    /// Renders every row of `reader`.
    /// - Parameters:
    ///   - progress: called (on some thread, one call at a time) after each row completes, in row order.
    ///   - failure: called for each failed row, in row order (the row's line and the problem).
    ///   - missingGlyphs: called for each row drawn with characters no font
    ///     has, in row order (the row's line, the characters and the fonts tried).
    /// - Returns: the final counts.
    /// - Throws: `SpriteError` for input that stops the whole batch: a template
    ///   field missing from a CSV header, a data file that is not what its
    ///   format says, an output folder that cannot be made or takes no more
    ///   files (a full disk, a read-only file system, no permission), a
    ///   sprite that does not fit. Markers already written stay; the index is
    ///   not replaced. A marker file of one row that cannot be replaced (a
    ///   folder in its place) fails that row only.
    ///   - notice: called with a line worth telling before the rows start
    ///     (temporary files of killed runs removed from the output folder; a
    ///     CSV header of one column that holds a likely delimiter).
    public func run(_ reader: DataRowReader, progress: @escaping (BatchProgress) -> Void = { _ in },
                    failure: @escaping (SpriteError) -> Void = { _ in },
                    missingGlyphs: @escaping (SpriteError) -> Void = { _ in },
                    notice: (String) -> Void = { _ in }) throws(SpriteError) -> BatchProgress {
        let configuration = self.configuration
        if let clash = configuration.outputClash { throw clash }
        if let names = reader.fieldNames {
            // Every row has the header's fields: a required one missing from it would fail every row.
            let templates = configuration.settings.sorted(by: { $0.key < $1.key }).map { ("--set \($0.key)", $0.value) }
                + (configuration.idTemplate.map { [("--set id", $0)] } ?? [])
            for (option, template) in templates {
                for field in template.requiredFieldNames where !names.contains(field) {
                    let hint = reader.delimiterHint.map { "; \($0)" } ?? ""
                    throw SpriteError(input: option, problem: "no field '\(field)' in \(reader.input) for '\(template.source)' "
                                      + "(fields: \(names.joined(separator: ", ")))\(hint)")
                }
            }
        }
        // The first worker's renderer is made before anything is written, so
        // that fonts which cannot load ($PINMINT_FONTS naming no folder)
        // stop the batch without leaving an empty output folder behind. Only
        // worker 0 uses it once the workers start (not Sendable, not shared).
        nonisolated(unsafe) let firstRenderer = LazyRenderer(fontFolders: configuration.fontFolders)
        _ = try firstRenderer.get()
        // A batch that stops (throws) removes the folders it made when it wrote nothing into them.
        guard !configuration.outputFolder.isEmpty else { throw SpriteError(input: "-o ''", problem: "expected a folder") }
        // An interrupted batch removes them too, when still empty (`TemporaryFiles.removeAll`); an
        // interruption between making them and saying so waits, or an empty folder was left.
        let madeFolders = try TemporaryFiles.withoutInterruption { () throws(SpriteError) in
            let made = try OutputFolders.make(configuration.outputFolder)
            TemporaryFiles.removeWhenEmpty(made)
            return made
        }
        var finished = false
        defer { if !finished { OutputFolders.removeEmpty(madeFolders) } }
        // One batch at a time in the folder; released (its file removed) before the folders above.
        let lock = try OutputFolderLock(folder: configuration.outputFolder)
        defer { lock.release() }
        // A template that needs no field of it renders every row; the hint still says what the header looks like.
        if let hint = reader.delimiterHint { notice("\(reader.input): \(hint)") }
        let stale = StaleTemporaries.remove(in: configuration.outputFolder)
        if !stale.isEmpty {
            let shown = stale.prefix(3).joined(separator: ", ") + (stale.count > 3 ? ", …" : "")
            notice("removed \(stale.count) temporary file\(stale.count == 1 ? "" : "s") that killed runs left in "
                   + "\(configuration.outputFolder.isEmpty ? "." : configuration.outputFolder) (\(shown))")
        }
        let indexPath = PathName.appending(configuration.indexFileName, to: configuration.outputFolder)
        let previous = configuration.force || configuration.sprite != nil ? nil : PreviousIndex(path: indexPath)
        // Read before this run's index replaces it.
        let earlier = configuration.prune ? EarlierIndex.files(path: indexPath) : (files: [], sheets: false)
        let readFiles = readFiles(dataFile: reader.input), batchFiles = batchFiles(indexPath: indexPath)
        let index = try IndexWriter(path: indexPath, header: indexHeader())

        let state = PipelineState(reader: reader, window: Self.windowPerJob * configuration.jobs, progress: progress, failure: failure,
                                  missingGlyphs: missingGlyphs, index: index, collectsFiles: configuration.prune)
        let recipeBase = recipeBase(), dataName = reader.input
        // Sprite images are counted as rows make them: a sprite that cannot fit stops the batch then, not after every row.
        let capacity = configuration.sprite.map {
            SpriteSheetCapacity(maximumSize: $0.maximumSize, spacing: $0.spacing, unique: $0.unique, name: $0.name,
                                overflowAdvice: Self.spriteOverflowAdvice)
        }
        DispatchQueue.concurrentPerform(iterations: configuration.jobs) { worker in
            let renderer = worker == 0 ? firstRenderer : LazyRenderer(fontFolders: configuration.fontFolders)
            while let job = state.nextJob(configuration: configuration) {
                let outcome: RowOutcome
                switch job.work {
                case .failed(let error): outcome = .failed(error)
                case .render(let row, let id):
                    outcome = self.render(row, id: id, dataName: dataName, renderer: renderer, recipeBase: recipeBase, previous: previous,
                                          readFiles: readFiles, batchFiles: batchFiles, capacity: capacity)
                }
                state.complete(job.sequence, outcome)
            }
        }
        if let error = state.fatalError {
            index.discard()
            throw error
        }
        var summary = state.summary
        if let sprite = configuration.sprite {
            // The sheets and the index are one set: all of them replace the previous run's, or none.
            // An interruption (SIGINT, SIGTERM) while they are written takes effect once they are:
            // the set's temporary files are not among those `TemporaryFiles` knows.
            let set = FileSet(folderProblem: SpriteSheet.folderProblem)
            let images = state.spriteImages, failed = summary.failed
            (summary.rendered, summary.sheets) = try TemporaryFiles.withoutInterruption { () throws(SpriteError) in
                do throws(SpriteError) {
                    let staged = try stageSprites(sprite, images: images, into: set)
                    try index.finish(footer: "\"failed\": \(failed)", into: set)
                    do throws(PNGError) { try set.commit() } catch { throw SpriteError(input: error.file, problem: error.problem) }
                    return staged
                } catch {
                    set.discard()
                    index.discard()
                    throw error
                }
            }
        } else {
            try index.finish(footer: "\"failed\": \(summary.failed)")
        }
        finished = true
        if configuration.prune {
            summary.pruned = prune(earlier.files.subtracting(state.writtenFiles), sheets: earlier.sheets, readFiles: readFiles)
        }
        return summary
    }

    /// Removes `names` from the output folder: each a plain file name ending
    /// in `.png` (an earlier run's index lists nothing else, but it is only
    /// read, so this is checked), a regular file, not the index, not a file
    /// the batch reads. With `sheets` (the names are sprite sheets), each
    /// sheet's `NAME.json` goes with it. Returns how many files were removed.
    private func prune(_ names: Set<String>, sheets: Bool, readFiles: [FileIdentity: String]) -> Int {
        var removed = 0
        func remove(_ name: String) -> Bool {
            guard !name.isEmpty, !name.contains("/"), !name.hasPrefix("."), name != configuration.indexFileName else { return false }
            let path = PathName.appending(name, to: configuration.outputFolder)
            var status = stat()
            guard lstat(path, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG else { return false }
            if let identity = FileIdentity(path: path), readFiles[identity] != nil { return false }
            guard unlink(path) == 0 else { return false }
            removed += 1
            return true
        }
        for name in names.sorted() where name.lowercased().hasSuffix(".png") {
            if remove(name) && sheets { _ = remove(String(name.dropLast(4)) + ".json") }
        }
        return removed
    }

    // MARK: One row

    /// - Parameters:
    ///   - readFiles: the data and style files, with what each is ("the data file a.csv").
    ///   - batchFiles: the index and sprite files, with the option that names each.
    ///   - capacity: with sprite output, what the sheets hold; an image that does not fit stops the batch.
    private func render(_ row: DataRow, id: String, dataName: String, renderer: LazyRenderer, recipeBase: FNV1a, previous: PreviousIndex?,
                        readFiles: [FileIdentity: String], batchFiles: [FileIdentity: String],
                        capacity: SpriteSheetCapacity?) -> RowOutcome {
        let configuration = self.configuration
        if let overflow = capacity?.overflow { return .fatal(overflow) }
        let style = configuration.file.style
        let input = "\(dataName):\(row.place)"
        func fail(_ problem: String) -> RowOutcome { .failed(row.error(problem)) }
        var values = configuration.file.values
        for (name, template) in configuration.settings {
            switch template.fill(row.fields) {
            case .failure(let problem):
                return fail(template.message(problem, fields: Array(row.fields.keys)))
            case .success(let text):
                do { values[name] = try style.options.first { $0.name == name }!.parse(text, input: "--set \(name)") } catch {
                    return fail("\(name) '\(text)': \(error.problem)")
                }
            }
        }
        var recipe = recipeBase
        for name in values.keys.sorted() { recipe.add("\(name)=\(values[name]!)") }
        let markerRenderer: MarkerRenderer
        let descriptions: [MarkerDescription]
        do { markerRenderer = try renderer.get() } catch { return .fatal(error) }
        do { descriptions = try style.resolve(values: values) } catch { return fail(Self.problem(error, style: style)) }
        // No file this row writes may be one it reads: checked before any is written.
        var drawn: [FileIdentity: String] = [:]
        for file in descriptions.flatMap(\.inputFiles) {
            guard let identity = FileIdentity(path: file) else { continue }
            if let option = batchFiles[identity] {
                return .fatal(SpriteError(input: option, problem: "would replace \(file), which \(row.feature.map { "features[\($0)]" } ?? "line \(row.line)") draws; "
                                          + "give the output another name"))
            }
            drawn[identity] = "\(file), which the marker draws"
        }
        if configuration.sprite == nil {
            for description in descriptions {
                for scale in configuration.scales {
                    let name = Self.fileName(id: id, variant: description.variant, scale: scale)
                    guard let identity = FileIdentity(path: PathName.appending(name, to: configuration.outputFolder)),
                          let read = readFiles[identity] ?? drawn[identity] else { continue }
                    return fail("id '\(id)' would write \(name) over \(read); give the row another id")
                }
            }
        }

        var lines: [String] = [], images: [SpriteImage] = []
        var rendered = 0, skipped = 0
        // The first warning about missing characters, and whether an up-to-date line had some.
        var glyphWarning: String? = nil
        for description in descriptions {
            let markerID = description.variant == "default" ? id : "\(id)-\(description.variant)"
            for scale in configuration.scales {
                let name = configuration.sprite.map { SpriteSheet.fileBase($0.name, pixelRatio: scale) + ".png" }
                    ?? Self.fileName(id: id, variant: description.variant, scale: scale)
                var imageRecipe = recipe
                imageRecipe.add("\(description.variant)@\(scale)")
                let path = PathName.appending(name, to: configuration.outputFolder)
                // A line that drew boxes is never up to date under --strict-glyphs: rendered again, it fails the row.
                if let previous, let line = previous.upToDate(file: name, recipe: imageRecipe.hex, path: path),
                   !(configuration.strictGlyphs && IndexLine.hasMissingGlyphs(line)) {
                    if glyphWarning == nil, let missing = IndexLine.missingGlyphs(in: line) {
                        glyphWarning = TextLayout.missingGlyphsPrefix + TextLayout.characterList(missing) + " (\(name) is up to date from an earlier run)"
                    }
                    lines.append(IndexLine.update(line, row: row))
                    skipped += 1
                    continue
                }
                do {
                    let marker = try markerRenderer.render(description, scale: scale)
                    if !marker.missingCharacters.isEmpty {
                        let text = marker.warnings.filter { $0.hasPrefix(TextLayout.missingGlyphsPrefix) }.joined(separator: "; ")
                        if configuration.strictGlyphs { return fail("\(text) (--strict-glyphs)") }
                        if glyphWarning == nil { glyphWarning = text }
                    }
                    var recipeText: String? = nil, pngText: String? = nil
                    if let sprite = configuration.sprite {
                        var image = SpriteImage(marker: marker, id: markerID, source: input)
                        if sprite.sdf { image = SignedDistanceField.make(from: image) }
                        images.append(image)
                    } else {
                        let bytes = try marker.pngData(mode: configuration.pngMode)
                        var hash = FNV1a()
                        hash.add(bytes)
                        do { try AtomicFile.writeFile(bytes, to: path) } catch {
                            // A folder or disk that takes no more files stops the batch; a
                            // file of this row's that cannot be replaced fails the row.
                            if error.stopsTheFolder { return .fatal(error.error) }
                            return fail(error.error.description)
                        }
                        recipeText = imageRecipe.hex
                        pngText = hash.hex
                    }
                    lines.append(IndexLine.line(marker.metadata, id: markerID, file: name, row: row.line, feature: row.feature,
                                                coordinates: row.coordinates, recipe: recipeText, png: pngText,
                                                missingGlyphs: marker.missingCharacters))
                    rendered += 1
                } catch let error as MarkerError {
                    return fail(Self.problem(error, style: style))
                } catch let error as PNGError {
                    return fail(error.description)
                } catch {
                    return fail("\(error)")
                }
            }
        }
        // Counted once the row has succeeded: a failed row's images take no room.
        for image in images {
            do { try capacity?.add(image) } catch { return .fatal(error) }
        }
        let glyphs = glyphWarning.map { row.error($0) }
        return .done(lines: lines, images: images, rendered: rendered, skipped: skipped, missingGlyphs: glyphs)
    }

    /// A marker error as a row's problem: the style's own name left out.
    static func problem(_ error: MarkerError, style: MarkerStyle) -> String {
        guard error.input == style.input || error.input.hasPrefix("preset ") else { return error.description }
        return error.path.isEmpty ? error.problem : "\(error.path): \(error.problem)"
    }

    /// `ID.png`, `ID@2x.png`, `ID-selected@2x.png`.
    public static func fileName(id: String, variant: String, scale: Double) -> String {
        var name = id
        if variant != "default" { name += "-\(variant)" }
        if scale != 1 { name += "@\(format(scale))x" }
        return name + ".png"
    }

    /// The data and style files by identity, each with what it is, for `render`'s check.
    private func readFiles(dataFile: String) -> [FileIdentity: String] {
        var files: [FileIdentity: String] = [:]
        if let style = configuration.styleFile, let identity = FileIdentity(path: style) { files[identity] = "the style file \(style)" }
        if dataFile != "-", let identity = FileIdentity(path: dataFile) { files[identity] = "the data file \(dataFile)" }
        return files
    }

    /// The index and the sprite files that exist, by identity, each with the option that names it.
    private func batchFiles(indexPath: String) -> [FileIdentity: String] {
        var files: [FileIdentity: String] = [:]
        if let identity = FileIdentity(path: indexPath) { files[identity] = "--index \(configuration.indexName)" }
        if let sprite = configuration.sprite {
            for scale in configuration.scales {
                let base = SpriteSheet.fileBase(sprite.name, pixelRatio: scale)
                for name in [base + ".png", base + ".json"] {
                    if let identity = FileIdentity(path: PathName.appending(name, to: configuration.outputFolder)) {
                        files[identity] = "--sprite \(sprite.name) (\(name))"
                    }
                }
            }
        }
        return files
    }

    private func recipeBase() -> FNV1a {
        var hash = FNV1a()
        hash.add(Self.recipeVersion)
        hash.add(configuration.file.style.source)
        hash.add(configuration.pngMode.rawValue)
        for folder in configuration.fontFolders { hash.add(folder) }
        return hash
    }

    private func indexHeader() -> String {
        let style = configuration.file.style
        let scales = configuration.scales.map { format($0) }.joined(separator: ", ")
        var header = "\"generator\": \"pinmint batch\",\n\"style\": \(JSONText.quote(style.name)),\n\"scales\": [\(scales)],\n"
        if let sprite = configuration.sprite { header += "\"sprite\": \(JSONText.quote(sprite.name)),\n" }
        // Left out when the parts are joined: the joined index is the one a single run writes.
        if let shard = configuration.shard { header += "\"shard\": \"\(shard.index)/\(shard.count)\",\n" }
        return header
    }

    /// Packs and encodes the sheets at every scale into `set` (written when the set is committed).
    private func stageSprites(_ sprite: BatchConfiguration.SpriteOutput, images: [SpriteImage],
                              into set: FileSet) throws(SpriteError) -> (Int, [String]) {
        var written = 0
        var lines: [String] = []
        var outputs: [(String, [UInt8])] = []
        for scale in configuration.scales {
            let atScale = images.filter { $0.pixelRatio == scale }     // distance fields already, with `sdf`
            let sheet = try SpriteSheet.pack(atScale, spacing: sprite.spacing, maximumSize: sprite.maximumSize,
                                             unique: sprite.unique, name: sprite.name, overflowAdvice: Self.spriteOverflowAdvice)
            let base = PathName.appending(SpriteSheet.fileBase(sprite.name, pixelRatio: scale), to: configuration.outputFolder)
            do { outputs.append((base + ".png", try sheet.pngData(mode: configuration.pngMode))) } catch {
                throw SpriteError(input: base + ".png", problem: error.problem)
            }
            outputs.append((base + ".json", Array(sheet.indexJSON(minified: sprite.minified).utf8)))
            written += atScale.count
            lines.append("\(PathName.lastComponent(of: base)).png \(sheet.packingSummary)")
        }
        for (path, bytes) in outputs {
            do { try set.stage(bytes, for: path) } catch { throw SpriteError(input: error.file, problem: error.problem) }
        }
        return (written, lines)
    }
}
