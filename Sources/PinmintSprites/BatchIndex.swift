import Foundation
import PinmintGeometry
import PinmintMarkers
import PinmintPNG

/// The temporary files this process is writing (a marker's file before its
/// rename, the batch index until the batch ends), so that an interrupted
/// batch removes them (`removeAll`, from a SIGINT or SIGTERM handler)
/// instead of leaving halves behind. Only files created through `creating`
/// are known: never another process's. Safe from several threads at once.
public enum TemporaryFiles {
    private static let condition = NSCondition()
    nonisolated(unsafe) private static var paths: Set<String> = []
    /// Creations and `withoutInterruption` sections in progress: `removeAll` waits for them.
    nonisolated(unsafe) private static var busy = 0
    /// Set by `removeAll`: no file is created after it.
    nonisolated(unsafe) private static var ending = false
    /// Folders this process made (outermost first), removed by `removeAll` while empty.
    nonisolated(unsafe) private static var madeFolders: [String] = []

    /// Has `removeAll` remove `folders` (outermost first, as
    /// `OutputFolders.make` returns them) when they are still empty.
    static func removeWhenEmpty(_ folders: [String]) {
        condition.lock()
        madeFolders = folders
        condition.unlock()
    }

    /// Records `path` and runs `create`, which makes it (`fopen`, or
    /// `FileSet.writeNewFile`, which also writes it whole).
    /// After `removeAll` this waits for the process to end instead, so that
    /// no file appears once the temporaries have been removed.
    static func creating<Result>(_ path: String, _ create: () -> Result) -> Result {
        condition.lock()
        while ending { condition.wait() }
        busy += 1
        paths.insert(path)
        condition.unlock()
        defer { condition.lock(); busy -= 1; condition.broadcast(); condition.unlock() }
        return create()
    }

    /// Forgets `path`: renamed into place or removed (or never created).
    static func finished(_ path: String) {
        condition.lock()
        paths.remove(path)
        condition.unlock()
    }

    /// Runs `body` (renames that replace several files together, all or none)
    /// to its end before `removeAll` may run: an interruption then takes
    /// effect after it.
    public static func withoutInterruption<Result, Failure: Error>(_ body: () throws(Failure) -> Result) throws(Failure) -> Result {
        condition.lock()
        while ending { condition.wait() }
        busy += 1
        condition.unlock()
        defer { condition.lock(); busy -= 1; condition.broadcast(); condition.unlock() }
        return try body()
    }

    /// Removes every temporary file this process is writing, once the
    /// creations and sections in progress end, and the folders given to
    /// `removeWhenEmpty` that are empty then, and lets no new file be
    /// created. For a process about to exit (a signal's handler).
    public static func removeAll() {
        condition.lock()
        ending = true
        while busy > 0 { condition.wait() }
        for path in paths { unlink(path) }
        paths.removeAll()
        // Innermost first; a folder holding finished markers stays, and so do those above it.
        for folder in madeFolders.reversed() where rmdir(folder) != 0 { break }
        condition.unlock()
    }
}

/// Writes one file whole or not at all: into a temporary file beside the
/// target (`.NAME.PID.N.tmp`, `FileSet.temporaryName`), then renamed over
/// it. Safe from several threads at once. A marker of `pinmint batch` is one
/// file on its own; a `FileSet` would also check the target and keep a hard
/// link to the old file, four more system calls a marker for an undo one
/// file does not need.
public enum AtomicFile {
    /// - Throws: `SpriteError` naming `path`: "cannot write: REASON", or
    ///   "cannot move the finished file into place: REASON"; no temporary file is left.
    public static func write(_ bytes: [UInt8], to path: String) throws(SpriteError) {
        do { try writeFile(bytes, to: path) } catch { throw error.error }
    }

    /// Why a file was not written, and whether the reason is the folder's or
    /// the disk's (`stopsTheFolder`: no other file could be written there
    /// either) rather than this file's own (a folder in its place).
    struct Failure: Error {
        let error: SpriteError
        let stopsTheFolder: Bool
    }

    /// What keeps every file out of a folder, not one: a full disk or quota, a
    /// read-only file system, an I/O error, no descriptors left.
    static let diskErrors: Set<Int32> = [ENOSPC, EDQUOT, EROFS, EIO, EMFILE, ENFILE]
    /// What creating a temporary file (a new name of ours in the target's
    /// folder) fails with when the folder itself cannot take files: no
    /// permission, the folder removed or replaced by a file.
    static let folderErrors: Set<Int32> = [EACCES, EPERM, ENOENT, ENOTDIR]

    /// `write`, telling a folder or disk that takes no files apart from a
    /// target that cannot be replaced.
    static func writeFile(_ bytes: [UInt8], to path: String) throws(Failure) {
        let temporary = FileSet.temporaryName(beside: path)
        defer { TemporaryFiles.finished(temporary) }
        func fail(_ problem: String, _ code: Int32, creating: Bool) -> Failure {
            Failure(error: SpriteError(input: path, problem: "\(problem): \(String(cString: strerror(code)))"),
                    stopsTheFolder: diskErrors.contains(code) || (creating && folderErrors.contains(code)))
        }
        // Registered while it is written: an interruption waits for it, then removes it.
        if let failure = TemporaryFiles.creating(temporary, { FileSet.writeNewFile(bytes, at: temporary) }) {
            throw fail("cannot write", failure.code, creating: failure.creating)
        }
        if rename(temporary, path) != 0 {
            let code = errno
            unlink(temporary)
            throw fail("cannot move the finished file into place", code, creating: false)
        }
    }
}

/// The batch index (`index.json`): a JSON object whose `markers` array has
/// one marker image per line, in row order, written as rows complete into a
/// temporary file that replaces the index only when the batch ends.
///
/// ```
/// {
/// "generator": "pinmint batch",
/// "style": "price-tag",
/// "scales": [1, 2],
/// "markers": [
/// {"anchor":{"x":30,"y":38},"file":"a.png","id":"a","png":"…","recipe":"…","row":2,…},
/// …
/// ],
/// "failed": 0
/// }
/// ```
final class IndexWriter {
    private let path: String
    private let temporary: String
    private var file: UnsafeMutablePointer<FILE>?
    private var first = true

    init(path: String, header: String) throws(SpriteError) {
        self.path = path
        // Unique in the process (two batches writing one index must not share it), created exclusively.
        temporary = FileSet.temporaryName(beside: path)
        let temporary = self.temporary
        let (file, code) = TemporaryFiles.creating(temporary) { () -> (UnsafeMutablePointer<FILE>?, Int32) in
            let file = fopen(temporary, "wx")
            return (file, errno)
        }
        self.file = file
        guard file != nil else {
            TemporaryFiles.finished(temporary)
            throw SpriteError(input: path, problem: "cannot write: \(String(cString: strerror(code)))")
        }
        try put("{\n" + header + "\"markers\": [\n")
    }

    private func put(_ text: String) throws(SpriteError) {
        var copy = text
        let ok = copy.withUTF8 { fwrite($0.baseAddress, 1, $0.count, file) == $0.count }
        guard ok else { throw SpriteError(input: path, problem: "cannot write: \(String(cString: strerror(errno)))") }
    }

    func append(_ lines: [String]) throws(SpriteError) {
        for line in lines {
            try put(first ? line : ",\n" + line)
            first = false
        }
    }

    /// Ends the index and moves it into place.
    func finish(footer: String) throws(SpriteError) {
        try put((first ? "" : "\n") + "],\n" + footer + "\n}\n")
        let closed = fclose(file) == 0
        file = nil
        defer { TemporaryFiles.finished(temporary) }
        guard closed, rename(temporary, path) == 0 else {
            let problem = String(cString: strerror(errno))
            unlink(temporary)
            throw SpriteError(input: path, problem: "cannot write: \(problem)")
        }
    }

    /// Ends the index and adds it to `set`, to be moved into place with the set's other files.
    func finish(footer: String, into set: FileSet) throws(SpriteError) {
        try put((first ? "" : "\n") + "],\n" + footer + "\n}\n")
        let closed = fclose(file) == 0
        file = nil
        guard closed else {
            let problem = String(cString: strerror(errno))
            unlink(temporary)
            TemporaryFiles.finished(temporary)
            throw SpriteError(input: path, problem: "cannot write: \(problem)")
        }
        // Still a temporary file of this process until the set is committed or discarded (`discard`).
        set.adopt(temporary: temporary, for: path)
    }

    /// Drops the unfinished index; the previous one stays.
    func discard() {
        if let file { fclose(file) }
        file = nil
        unlink(temporary)
        TemporaryFiles.finished(temporary)
    }

    deinit { discard() }
}

/// Index lines as JSON text, written directly: Foundation's
/// JSONSerialization took half of a batch's time (bridging every value to
/// Objective-C types and sorting keys with locale-aware comparison). The
/// fields and their forms are `MarkerMetadata.json(id:file:)`'s (a test
/// checks they stay equal), plus `row`, `feature` (a GeoJSON feature's index
/// in the features array), `coordinates`, `recipe` and `png`.
enum IndexLine {
    /// One image's line: keys sorted, no spaces.
    ///
    /// Written as bytes into one buffer: string interpolation and appends
    /// (a dozen temporary strings per line) cost as much as the writing.
    /// - Parameter missingGlyphs: characters of the marker's text no font has (`"missingGlyphs"`, left out when none).
    static func line(_ metadata: MarkerMetadata, id: String, file: String, row: Int, feature: Int? = nil, coordinates: [Double]?,
                     recipe: String?, png: String?, missingGlyphs: [Unicode.Scalar] = []) -> String {
        var text = LineBuilder()
        func box(_ box: PixelBox) {
            text.add("{\"height\":"); text.add(box.height)
            text.add(",\"width\":"); text.add(box.width)
            text.add(",\"x\":"); text.add(box.x)
            text.add(",\"y\":"); text.add(box.y)
            text.add("}")
        }
        text.add("{\"anchor\":{\"x\":"); text.add(number: metadata.anchor.x)
        text.add(",\"y\":"); text.add(number: metadata.anchor.y); text.add("}")
        if let content = metadata.contentBox { text.add(",\"contentBox\":"); box(content) }
        if let coordinates { text.add(",\"coordinates\":"); text.add(coordinatesText(coordinates)) }
        if let feature { text.add(",\"feature\":"); text.add(feature) }
        text.add(",\"file\":"); text.add(JSONText.quote(file))
        text.add(",\"height\":"); text.add(metadata.height)
        text.add(",\"hitBoxes\":[")
        for (index, hitBox) in metadata.hitBoxes.enumerated() {
            if index > 0 { text.add(",") }
            box(hitBox)
        }
        text.add("],\"id\":"); text.add(JSONText.quote(id))
        let size = metadata.pointSize, anchor = metadata.pointAnchor, offset = metadata.iconOffset, centre = metadata.centerOffset
        text.add(",\"leaflet\":{\"iconAnchor\":["); text.add(number: anchor.x); text.add(","); text.add(number: anchor.y)
        text.add("],\"iconSize\":["); text.add(number: size.width); text.add(","); text.add(number: size.height)
        text.add("]},\"mapkit\":{\"centerOffset\":{\"x\":"); text.add(number: centre.x)
        text.add(",\"y\":"); text.add(number: centre.y)
        text.add("}},\"maplibre\":{\"icon-anchor\":\"bottom\",\"icon-offset\":["); text.add(number: offset.x)
        text.add(","); text.add(number: offset.y)
        text.add("]}")
        if !missingGlyphs.isEmpty {
            text.add(",\"missingGlyphs\":[")
            text.add(missingGlyphs.map { JSONText.quote(String($0)) }.joined(separator: ","))
            text.add("]")
        }
        text.add(",\"pixelRatio\":"); text.add(number: metadata.pixelRatio)
        if let png { text.add(",\"png\":\""); text.add(png); text.add("\"") }
        if let recipe { text.add(",\"recipe\":\""); text.add(recipe); text.add("\"") }
        text.add(",\"row\":"); text.add(row)
        text.add(",\"variant\":"); text.add(JSONText.quote(metadata.variant))
        text.add(",\"width\":"); text.add(metadata.width); text.add("}")
        return text.string
    }

    /// UTF-8 bytes of one index line.
    struct LineBuilder {
        private var bytes: [UInt8] = []

        init() { bytes.reserveCapacity(512) }

        mutating func add(_ text: String) {
            var text = text
            text.withUTF8 { bytes.append(contentsOf: $0) }
        }

        /// An integer in decimal, as `String(value)` writes it.
        mutating func add(_ value: Int) {
            if value < 0 { bytes.append(UInt8(ascii: "-")) }
            var magnitude = value.magnitude
            var digits: (UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8,
                         UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8) =
                (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
            var count = 0
            withUnsafeMutableBytes(of: &digits) { buffer in
                repeat {
                    buffer[count] = UInt8(ascii: "0") + UInt8(magnitude % 10)
                    magnitude /= 10
                    count += 1
                } while magnitude > 0
                for index in stride(from: count - 1, through: 0, by: -1) { bytes.append(buffer[index]) }
            }
        }

        /// A length rounded to 3 decimals: an integer without ".0", else as Swift prints the double.
        mutating func add(number value: Double) {
            let rounded = (value * 1000).rounded() / 1000
            if rounded == rounded.rounded() && abs(rounded) < 1e15 { add(Int(rounded)) } else { add(String(rounded)) }
        }

        var string: String { String(decoding: bytes, as: UTF8.self) }
    }

    static func coordinatesText(_ coordinates: [Double]) -> String {
        "[" + coordinates.map { JSONText.number($0) }.joined(separator: ",") + "]"
    }

    /// A line from a previous run with this run's row number, feature index and coordinates
    /// (the lines are ours: `"coordinates"` and `"feature"` come before `"file"`, `"row"` before `"variant"`).
    static func update(_ line: String, row: DataRow) -> String {
        var text = line
        if let start = text.range(of: ",\"coordinates\":["), let end = text.range(of: "]", range: start.upperBound..<text.endIndex) {
            text.removeSubrange(start.lowerBound..<end.upperBound)
        }
        if let start = text.range(of: ",\"feature\":"), let end = text.range(of: ",\"file\":", range: start.upperBound..<text.endIndex) {
            text.removeSubrange(start.lowerBound..<end.lowerBound)
        }
        var inserted = ""
        if let coordinates = row.coordinates { inserted += ",\"coordinates\":" + coordinatesText(coordinates) }
        if let feature = row.feature { inserted += ",\"feature\":\(feature)" }
        if !inserted.isEmpty, let file = text.range(of: ",\"file\":") {
            text.insert(contentsOf: inserted, at: file.lowerBound)
        }
        if let start = text.range(of: ",\"row\":"), let end = text.range(of: ",\"variant\":", range: start.upperBound..<text.endIndex) {
            text.replaceSubrange(start.upperBound..<end.lowerBound, with: String(row.line))
        }
        return text
    }

    /// Whether one of our lines lists characters no font had.
    static func hasMissingGlyphs(_ line: String) -> Bool { line.contains(",\"missingGlyphs\":[") }

    /// The characters one of our lines lists as missing, or nil when it lists none.
    static func missingGlyphs(in line: String) -> [Unicode.Scalar]? {
        guard let start = line.range(of: ",\"missingGlyphs\":["),
              let end = line[start.upperBound...].firstIndex(of: "]") else { return nil }
        let list = "[" + line[start.upperBound..<end] + "]"
        guard let characters = try? JSONDecoder().decode([String].self, from: Data(list.utf8)), !characters.isEmpty else { return nil }
        return characters.flatMap(\.unicodeScalars)
    }

    /// The text of string field `key` in one of our lines (no escapes in hashes and
    /// in file names we wrote), without parsing the whole line.
    static func field(_ key: String, in line: Substring) -> Substring? {
        guard let start = line.range(of: "\"\(key)\":\"") else { return nil }
        guard let end = line[start.upperBound...].firstIndex(of: "\"") else { return nil }
        return line[start.upperBound..<end]
    }
}

/// The index a previous run left: for each file, its recipe and PNG hash,
/// and where its line is (read back only when the marker is skipped), so
/// that the table stays small however many markers there are.
final class PreviousIndex: @unchecked Sendable {
    private struct Entry {
        let recipe: UInt64, png: UInt64
        let offset: Int, length: Int
    }
    private var entries: [String: Entry] = [:]
    private let descriptor: Int32

    /// Nil when there is no readable index at `path` (everything renders).
    init?(path: String) {
        descriptor = open(path, O_RDONLY)
        guard descriptor >= 0 else { return nil }
        guard let stream = try? ByteStream(path: path) else { close(descriptor); return nil }
        while stream.peekByte() != nil {
            let offset = stream.offset
            guard let bytes = stream.readLine(maximumBytes: DataLimits.maximumRowBytes) else { continue }
            guard bytes.first == UInt8(ascii: "{"), bytes.count > 2 else { continue }
            let text = bytes.last == UInt8(ascii: ",") ? Array(bytes.dropLast()) : bytes
            let line = Substring(String(decoding: text, as: UTF8.self))
            guard text.last == UInt8(ascii: "}"), let file = IndexLine.field("file", in: line),
                  let recipe = IndexLine.field("recipe", in: line).flatMap({ UInt64($0, radix: 16) }),
                  let png = IndexLine.field("png", in: line).flatMap({ UInt64($0, radix: 16) }) else { continue }
            entries[String(file)] = Entry(recipe: recipe, png: png, offset: offset, length: text.count)
        }
        if entries.isEmpty { close(descriptor); return nil }
    }

    deinit { close(descriptor) }

    /// The previous line for `file` when its recipe is `recipe` and the file
    /// at `path` still holds the bytes that line recorded; else nil.
    func upToDate(file: String, recipe: String, path: String) -> String? {
        guard let entry = entries[file], UInt64(recipe, radix: 16) == entry.recipe,
              let data = FileManager.default.contents(atPath: path) else { return nil }
        var hash = FNV1a()
        data.withUnsafeBytes { hash.add($0) }
        guard hash.value == entry.png else { return nil }
        var line = [UInt8](repeating: 0, count: entry.length)
        let count = line.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, entry.length, off_t(entry.offset)) }
        guard count == entry.length else { return nil }
        return String(decoding: line, as: UTF8.self)
    }
}

/// The files an earlier run's index lists, for `--prune`: only from an
/// index that `pinmint batch` wrote (its `"generator"`), read line by line.
enum EarlierIndex {
    /// The `"file"` of every marker line, and whether they are sprite sheets
    /// (the header names a `"sprite"`: each `NAME.png` has its `NAME.json`);
    /// no files when there is no such index.
    static func files(path: String) -> (files: Set<String>, sheets: Bool) {
        guard let stream = try? ByteStream(path: path) else { return ([], false) }
        var files = Set<String>()
        var isOurs = false, sheets = false
        while stream.peekByte() != nil {
            guard let bytes = stream.readLine(maximumBytes: DataLimits.maximumRowBytes) else { continue }
            let line = Substring(String(decoding: bytes, as: UTF8.self))
            if line.hasPrefix("\"generator\": \"pinmint batch\"") { isOurs = true; continue }
            if isOurs && files.isEmpty && line.hasPrefix("\"sprite\": ") { sheets = true; continue }
            guard isOurs, line.hasPrefix("{"), let file = IndexLine.field("file", in: line) else { continue }
            files.insert(String(file))
        }
        return isOurs ? (files, sheets) : ([], false)
    }
}
