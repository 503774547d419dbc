import Foundation
import PinmintMarkers

/// Writes files whole or not at all: into a temporary file beside the
/// target, then renamed over it. Safe from several threads at once.
public enum AtomicFile {
    private static let counter = AtomicCounter()

    public static func write(_ bytes: [UInt8], to path: String) throws(SpriteError) {
        let folder = (path as NSString).deletingLastPathComponent
        let name = (path as NSString).lastPathComponent
        let temporary = (folder.isEmpty ? "" : folder + "/") + ".\(name).\(getpid()).\(counter.increment()).tmp"
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_TRUNC, 0o644)
        guard descriptor >= 0 else { throw SpriteError(input: path, problem: "cannot write: \(String(cString: strerror(errno)))") }
        var written = 0
        let failure: String? = bytes.withUnsafeBytes { buffer -> String? in
            while written < buffer.count {
                let count = Foundation.write(descriptor, buffer.baseAddress! + written, buffer.count - written)
                if count < 0 {
                    if errno == EINTR { continue }
                    return String(cString: strerror(errno))
                }
                written += count
            }
            return nil
        }
        let closed = close(descriptor) == 0
        if let failure = failure ?? (closed ? nil : String(cString: strerror(errno))) {
            unlink(temporary)
            throw SpriteError(input: path, problem: "cannot write: \(failure)")
        }
        if rename(temporary, path) != 0 {
            let problem = String(cString: strerror(errno))
            unlink(temporary)
            throw SpriteError(input: path, problem: "cannot move the finished file into place: \(problem)")
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
        let folder = (path as NSString).deletingLastPathComponent
        temporary = (folder.isEmpty ? "" : folder + "/") + ".\((path as NSString).lastPathComponent).\(getpid()).tmp"
        file = fopen(temporary, "w")
        guard file != nil else { throw SpriteError(input: path, problem: "cannot write: \(String(cString: strerror(errno)))") }
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
        guard closed, rename(temporary, path) == 0 else {
            let problem = String(cString: strerror(errno))
            unlink(temporary)
            throw SpriteError(input: path, problem: "cannot write: \(problem)")
        }
    }

    /// Drops the unfinished index; the previous one stays.
    func discard() {
        if let file { fclose(file) }
        file = nil
        unlink(temporary)
    }

    deinit { discard() }
}

/// Index lines as JSON text.
enum IndexLine {
    static func serialize(_ object: [String: Any]) -> String {
        let data = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])) ?? Data("{}".utf8)
        return String(decoding: data, as: UTF8.self)
    }

    /// A line from a previous run with this run's row number and coordinates.
    static func update(_ line: String, row: DataRow) -> String {
        guard var object = (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any] else { return line }
        object["row"] = row.line
        object["coordinates"] = row.coordinates
        return serialize(object)
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
            guard let value = try? JSONDecoder().decode(JSONValue.self, from: Data(text)),
                  case .object(let members) = value,
                  case .string(let file)? = members["file"], case .string(let recipe)? = members["recipe"],
                  case .string(let png)? = members["png"],
                  let recipeHash = UInt64(recipe, radix: 16), let pngHash = UInt64(png, radix: 16) else { continue }
            entries[file] = Entry(recipe: recipeHash, png: pngHash, offset: offset, length: text.count)
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
