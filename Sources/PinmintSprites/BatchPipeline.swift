import Foundation
import PinmintGeometry
import PinmintMarkers

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
    /// Whether to keep `writtenFiles` (for `--prune`).
    private let collectsFiles: Bool
    private var nextSequence = 0, committed = 0
    private var readerDone = false
    private var pending: [Int: RowOutcome] = [:]
    /// "id:ID" and "file:NAME" → where the row that took it is: its line, or
    /// for a GeoJSON feature -1 - its index (an integer: the table holds every row).
    private var taken: [String: Int] = [:]
    private(set) var fatalError: SpriteError?
    private(set) var summary = BatchProgress()
    private(set) var spriteImages: [SpriteImage] = []
    /// The files this run's index lists (written or up to date), when `collectsFiles`.
    private(set) var writtenFiles = Set<String>()

    init(reader: DataRowReader, window: Int, progress: @escaping (BatchProgress) -> Void,
         failure: @escaping (SpriteError) -> Void, missingGlyphs: @escaping (SpriteError) -> Void, index: IndexWriter,
         collectsFiles: Bool = false) {
        self.collectsFiles = collectsFiles
        self.reader = reader
        self.window = window
        self.progress = progress
        self.failure = failure
        self.missingGlyphs = missingGlyphs
        self.index = index
    }

    /// The next row to render (with its id, checked for duplicates), or nil
    /// when there are no more. With a shard, the rows of other shards are
    /// read (their ids taken, so that duplicates are found as in one run) and passed over.
    func nextJob(configuration: BatchConfiguration) -> Job? {
        condition.lock()
        defer { condition.unlock() }
        while !readerDone && fatalError == nil && nextSequence - committed >= window { condition.wait() }
        while !readerDone, fatalError == nil {
            let result: DataRowResult?
            do { result = try reader.next() } catch {
                fatalError = error
                readerDone = true
                condition.broadcast()
                return nil
            }
            guard let result else { readerDone = true; condition.broadcast(); return nil }
            let work: Job.Work, shardKey: String
            switch result {
            case .malformed(let line, let problem):
                work = .failed(SpriteError(input: "", line: line == 0 ? nil : line, problem: problem))
                shardKey = "malformed \(line) \(problem)"
            case .row(let row):
                switch markerID(row, configuration: configuration) {
                case .failure(let error): work = .failed(error); shardKey = row.positionKey
                case .success(let id): work = .render(row, id: id); shardKey = id
                }
            }
            if let shard = configuration.shard, !shard.contains(shardKey) { continue }
            let sequence = nextSequence
            nextSequence += 1
            return Job(sequence: sequence, work: work)
        }
        return nil
    }

    private func markerID(_ row: DataRow, configuration: BatchConfiguration) -> Result<String, SpriteError> {
        func fail(_ problem: String) -> Result<String, SpriteError> { .failure(row.error(problem)) }
        let id: String
        if let template = configuration.idTemplate {
            switch template.fill(row.fields) {
            case .failure(let problem): return fail(template.message(problem, fields: Array(row.fields.keys)))
            case .success(let text): id = text
            }
        } else if let field = row.fields["id"], !field.isEmpty {
            id = field
        } else if let feature = row.feature {
            id = "feature-\(feature)"
        } else {
            id = "row-\(row.line)"
        }
        if let problem = SpriteID.problem(id, allowsSlash: false) { return fail(problem) }
        func place(_ taken: Int) -> String { taken > 0 ? "line \(taken)" : "features[\(-1 - taken)]" }
        if let first = taken["id:" + id] { return fail("duplicate id '\(id)' (first \(first > 0 ? "on" : "at") \(place(first)))") }
        let files = configuration.sprite == nil ? configuration.file.style.variantNames.flatMap { variant in
            configuration.scales.map { BatchRenderer.fileName(id: id, variant: variant, scale: $0) }
        } : []
        for file in files {
            if let first = taken["file:" + file] { return fail("id '\(id)' would write \(file), which \(place(first)) writes") }
        }
        let position = row.feature.map { -1 - $0 } ?? row.line
        taken["id:" + id] = position
        for file in files { taken["file:" + file] = position }
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
                if collectsFiles {
                    for line in lines { if let file = IndexLine.field("file", in: Substring(line)) { writtenFiles.insert(String(file)) } }
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
