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
    /// The marker id (a file name): `--set id=…`; nil uses the row's `id` field, else `row-LINE`.
    public var idTemplate: FieldTemplate?
    /// Pixel ratios; ratio 1 writes `ID.png`, ratio N `ID@Nx.png`.
    public var scales: [Double]
    public var outputFolder: String
    /// The index file's name inside `outputFolder`.
    public var indexName = "index.json"
    public var pngMode: PNGEncoder.Mode = .default
    /// Worker threads (one `MarkerRenderer` each).
    public var jobs: Int
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

    /// Sprite output: `NAME.png` + `NAME.json` per ratio in the output folder.
    public struct SpriteOutput: Sendable {
        public var name: String
        public var spacing = 0
        public var maximumSize = SpriteSheet.defaultMaximumSize
        public var unique = false
        public var minified = false
        public var sdf = false
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
    /// Rows drawn with characters no font has (.notdef boxes), whether
    /// rendered now or up to date from an earlier run; with
    /// `strictGlyphs` they fail instead and are counted in `failed`.
    public var missingGlyphRows = 0
    /// How far through the data file (0...1), from bytes read; nil when unknown (standard input).
    public var fraction: Double?
    /// With sprite output, when the batch ends: one line per sheet, e.g.
    /// `tags@2x.png 1024x980 (91.2% packed)`.
    public var sheets: [String] = []
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
    public let configuration: BatchConfiguration
    static let windowPerJob = 32
    /// Bumped when a change in Pinmint may change pixels: part of every recipe.
    public static let recipeVersion = "pinmint-batch-1"
    /// How to make a batch's sprite fit when it does not (`--sprite` writes one sheet per ratio).
    static let spriteOverflowAdvice = "split the rows into several batches, each with its own --sprite "
        + "(or render PNG files and pack them with 'pinmint sprite --split')"

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
    ///     (temporary files of killed runs removed from the output folder).
    public func run(_ reader: DataRowReader, progress: @escaping (BatchProgress) -> Void = { _ in },
                    failure: @escaping (SpriteError) -> Void = { _ in },
                    missingGlyphs: @escaping (SpriteError) -> Void = { _ in },
                    notice: (String) -> Void = { _ in }) throws(SpriteError) -> BatchProgress {
        let configuration = self.configuration
        if let clash = configuration.outputClash { throw clash }
        if let names = reader.fieldNames {
            for (option, template) in configuration.settings.sorted(by: { $0.key < $1.key }) {
                for field in template.fieldNames where !names.contains(field) {
                    throw SpriteError(input: "--set \(option)", problem: "no field '\(field)' in \(reader.input) (fields: \(names.joined(separator: ", ")))")
                }
            }
            if let id = configuration.idTemplate {
                for field in id.fieldNames where !names.contains(field) {
                    throw SpriteError(input: "--set id", problem: "no field '\(field)' in \(reader.input) (fields: \(names.joined(separator: ", ")))")
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
        let stale = StaleTemporaries.remove(in: configuration.outputFolder)
        if !stale.isEmpty {
            let shown = stale.prefix(3).joined(separator: ", ") + (stale.count > 3 ? ", …" : "")
            notice("removed \(stale.count) temporary file\(stale.count == 1 ? "" : "s") that killed runs left in "
                   + "\(configuration.outputFolder.isEmpty ? "." : configuration.outputFolder) (\(shown))")
        }
        let indexPath = PathName.appending(configuration.indexName, to: configuration.outputFolder)
        let previous = configuration.force || configuration.sprite != nil ? nil : PreviousIndex(path: indexPath)
        let readFiles = readFiles(dataFile: reader.input), batchFiles = batchFiles(indexPath: indexPath)
        let index = try IndexWriter(path: indexPath, header: indexHeader())

        let state = PipelineState(reader: reader, window: Self.windowPerJob * configuration.jobs, progress: progress, failure: failure,
                                  missingGlyphs: missingGlyphs, index: index)
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
        guard let sprite = configuration.sprite else {
            try index.finish(footer: "\"failed\": \(summary.failed)")
            finished = true
            return summary
        }
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
        finished = true
        return summary
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
        let input = "\(dataName):\(row.line)"
        func fail(_ problem: String) -> RowOutcome { .failed(SpriteError(input: "", line: row.line, problem: problem)) }
        var values = configuration.file.values
        for (name, template) in configuration.settings {
            switch template.fill(row.fields) {
            case .failure(let missing):
                return fail("no field '\(missing.name)' (fields: \(row.fields.keys.sorted().joined(separator: ", ")))")
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
                return .fatal(SpriteError(input: option, problem: "would replace \(file), which line \(row.line) draws; "
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
                    lines.append(IndexLine.line(marker.metadata, id: markerID, file: name, row: row.line, coordinates: row.coordinates,
                                                recipe: recipeText, png: pngText, missingGlyphs: marker.missingCharacters))
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
        let glyphs = glyphWarning.map { SpriteError(input: "", line: row.line, problem: $0) }
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
            let shared = sheet.rectangleCount < sheet.entries.count ? ", \(sheet.rectangleCount) distinct" : ""
            lines.append("\(PathName.lastComponent(of: base)).png \(sheet.width)x\(sheet.height) "
                         + "(\(String(format: "%.1f", sheet.efficiency * 100))% packed\(shared))")
        }
        for (path, bytes) in outputs {
            do { try set.stage(bytes, for: path) } catch { throw SpriteError(input: error.file, problem: error.problem) }
        }
        return (written, lines)
    }
}

/// What a worker made of one row.
enum RowOutcome {
    /// `missingGlyphs`: the row's report when its text has characters no font has.
    case done(lines: [String], images: [SpriteImage], rendered: Int, skipped: Int, missingGlyphs: SpriteError?)
    case failed(SpriteError)
    /// Stops the batch: the output folder or its disk takes no more files
    /// (full, read-only, no permission), the fonts cannot load, or the index
    /// or a sprite would replace a picture the row draws.
    case fatal(SpriteError)
}

/// The reader, the window of rows in flight and the in-order commit, behind one lock.
final class PipelineState: @unchecked Sendable {
    struct Job {
        enum Work { case render(DataRow, id: String), failed(SpriteError) }
        let sequence: Int
        let work: Work
    }

    private let condition = NSCondition()
    private let reader: DataRowReader
    private let window: Int
    private let progress: (BatchProgress) -> Void
    private let failure: (SpriteError) -> Void
    private let missingGlyphs: (SpriteError) -> Void
    private let index: IndexWriter
    private var nextSequence = 0, committed = 0
    private var readerDone = false
    private var pending: [Int: RowOutcome] = [:]
    /// "id:ID" and "file:NAME" → the line that took it.
    private var taken: [String: Int] = [:]
    private(set) var fatalError: SpriteError?
    private(set) var summary = BatchProgress()
    private(set) var spriteImages: [SpriteImage] = []

    init(reader: DataRowReader, window: Int, progress: @escaping (BatchProgress) -> Void,
         failure: @escaping (SpriteError) -> Void, missingGlyphs: @escaping (SpriteError) -> Void, index: IndexWriter) {
        self.reader = reader
        self.window = window
        self.progress = progress
        self.failure = failure
        self.missingGlyphs = missingGlyphs
        self.index = index
    }

    /// The next row to render (with its id, checked for duplicates), or nil when there are no more.
    func nextJob(configuration: BatchConfiguration) -> Job? {
        condition.lock()
        defer { condition.unlock() }
        while !readerDone && fatalError == nil && nextSequence - committed >= window { condition.wait() }
        guard !readerDone, fatalError == nil else { return nil }
        let result: DataRowResult?
        do { result = try reader.next() } catch {
            fatalError = error
            readerDone = true
            condition.broadcast()
            return nil
        }
        guard let result else { readerDone = true; condition.broadcast(); return nil }
        let sequence = nextSequence
        nextSequence += 1
        switch result {
        case .malformed(let line, let problem):
            return Job(sequence: sequence, work: .failed(SpriteError(input: "", line: line, problem: problem)))
        case .row(let row):
            switch markerID(row, configuration: configuration) {
            case .failure(let error): return Job(sequence: sequence, work: .failed(error))
            case .success(let id): return Job(sequence: sequence, work: .render(row, id: id))
            }
        }
    }

    private func markerID(_ row: DataRow, configuration: BatchConfiguration) -> Result<String, SpriteError> {
        func fail(_ problem: String) -> Result<String, SpriteError> { .failure(SpriteError(input: "", line: row.line, problem: problem)) }
        let id: String
        if let template = configuration.idTemplate {
            switch template.fill(row.fields) {
            case .failure(let missing): return fail("no field '\(missing.name)' for the id (fields: \(row.fields.keys.sorted().joined(separator: ", ")))")
            case .success(let text): id = text
            }
        } else if let field = row.fields["id"], !field.isEmpty {
            id = field
        } else {
            id = "row-\(row.line)"
        }
        if let problem = SpriteID.problem(id, allowsSlash: false) { return fail(problem) }
        if let first = taken["id:" + id] { return fail("duplicate id '\(id)' (first on line \(first))") }
        let files = configuration.sprite == nil ? configuration.file.style.variantNames.flatMap { variant in
            configuration.scales.map { BatchRenderer.fileName(id: id, variant: variant, scale: $0) }
        } : []
        for file in files {
            if let first = taken["file:" + file] { return fail("id '\(id)' would write \(file), which line \(first) writes") }
        }
        taken["id:" + id] = row.line
        for file in files { taken["file:" + file] = row.line }
        return .success(id)
    }

    /// Records a row's outcome; commits every row that is next in order.
    func complete(_ sequence: Int, _ outcome: RowOutcome) {
        condition.lock()
        defer { condition.unlock() }
        pending[sequence] = outcome
        while let next = pending.removeValue(forKey: committed) {
            committed += 1
            summary.rows += 1
            switch next {
            case .done(let lines, let images, let rendered, let skipped, let glyphs):
                do { try index.append(lines) } catch {
                    if fatalError == nil { fatalError = error }
                }
                spriteImages += images
                summary.rendered += rendered
                summary.skipped += skipped
                if let glyphs {
                    summary.missingGlyphRows += 1
                    missingGlyphs(SpriteError(input: reader.input, line: glyphs.line, problem: glyphs.problem))
                }
            case .failed(let error):
                summary.failed += 1
                failure(error.input.isEmpty ? SpriteError(input: reader.input, line: error.line, problem: error.problem) : error)
            case .fatal(let error):
                if fatalError == nil { fatalError = error }
            }
            summary.fraction = reader.fraction
            progress(summary)
        }
        condition.broadcast()
    }
}
