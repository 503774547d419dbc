import Foundation
import PinmintGeometry
import PinmintMarkers

/// One of N parts of a batch (`--shard K/N`): the rows whose id hashes to
/// it. Each machine reads the whole data file and renders its own rows, so
/// no scheduler is needed; the parts' indexes are joined afterwards
/// (`BatchIndexMerge`).
///
/// The hash is 64-bit FNV-1a of the id's UTF-8 bytes, the same on every
/// machine, run and Swift version (Swift's `Hasher` is seeded per process).
/// A row that fails before it has an id (a malformed row) goes by its place
/// in the file instead, so that exactly one shard reports it.
public struct BatchShard: Sendable, Equatable {
    /// 1-based: 1...count.
    public let index: Int
    /// How many shards the batch is split into: 1...`maximumCount`.
    public let count: Int
    /// Shards at most this many.
    public static let maximumCount = 100_000

    /// - Throws: `SpriteError` for `index` outside 1...count or a count outside 1...`maximumCount`.
    public init(index: Int, count: Int) throws(SpriteError) {
        guard (1...Self.maximumCount).contains(count) else {
            throw SpriteError(input: "--shard", problem: "\(count) shards: expected 1 to \(Self.maximumCount)")
        }
        guard (1...count).contains(index) else {
            throw SpriteError(input: "--shard", problem: "shard \(index) of \(count): expected K/N with K from 1 to \(count) "
                              + "(a 0-based index, such as JOB_COMPLETION_INDEX, needs 1 added)")
        }
        self.index = index
        self.count = count
    }

    /// `K/N`, as `--shard` takes it.
    public init(parsing text: String) throws(SpriteError) {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let index = Int(parts[0]), let count = Int(parts[1]) else {
            throw SpriteError(input: "--shard", problem: "'\(text)' is not K/N (e.g. 2/8: the second of eight shards)")
        }
        try self.init(index: index, count: count)
    }

    /// Whether the row with this key (its id) is this shard's.
    public func contains(_ key: String) -> Bool { Self.shard(of: key, count: count) == index }

    /// The shard (1...count) of `key`: FNV-1a (64 bit) of its UTF-8 bytes, modulo `count`, plus 1.
    public static func shard(of key: String, count: Int) -> Int {
        var hash: UInt64 = 0xcbf29ce484222325
        for byte in key.utf8 { hash = (hash ^ UInt64(byte)) &* 0x100000001b3 }
        return Int(hash % UInt64(count)) + 1
    }

    /// The part's index file name: `index.json` → `index.shard-2-of-8.json`.
    public func partName(of indexName: String) -> String {
        Self.base(of: indexName) + ".shard-\(index)-of-\(count)" + Self.suffix(of: indexName)
    }

    /// `index.json` → `index`; `markers` → `markers`.
    static func base(of indexName: String) -> String {
        indexName.lowercased().hasSuffix(".json") ? String(indexName.dropLast(5)) : indexName
    }

    static func suffix(of indexName: String) -> String {
        indexName.lowercased().hasSuffix(".json") ? String(indexName.suffix(5)) : ""
    }
}

/// Joins the index parts of a sharded batch (`index.shard-K-of-N.json`)
/// into the index one run would have written (`index.json`), byte for byte:
/// the same header, the marker lines in row order, the failures summed.
public enum BatchIndexMerge {
    /// What was joined.
    public struct Result: Sendable {
        /// Index parts joined (the shard count).
        public let parts: Int
        /// Marker lines in the joined index.
        public let markers: Int
        /// Failed rows, summed over the parts.
        public let failed: Int
        /// The joined index's path.
        public let path: String
    }

    /// Joins the parts of `indexName` in `folder` into `folder/indexName`.
    /// - Throws: `SpriteError` when there are no parts, a shard is missing or
    ///   given twice, parts of different counts or headers (other batches) are
    ///   mixed, or a part is not a finished index.
    public static func merge(folder: String, indexName: String = "index.json") throws(SpriteError) -> Result {
        let base = BatchShard.base(of: indexName), suffix = BatchShard.suffix(of: indexName)
        let names: [String]
        do { names = try FileManager.default.contentsOfDirectory(atPath: folder.isEmpty ? "." : folder) } catch {
            throw SpriteError(input: folder, problem: "cannot list the folder: \(error.localizedDescription)")
        }
        // name → (K, N)
        var parts: [(name: String, shard: Int, count: Int)] = []
        let prefix = base + ".shard-"
        for name in names where name.hasPrefix(prefix) && name.hasSuffix(suffix) {
            let middle = name.dropFirst(prefix.count).dropLast(suffix.count)
            let numbers = middle.components(separatedBy: "-of-")
            guard numbers.count == 2, let shard = Int(numbers[0]), let count = Int(numbers[1]) else { continue }
            parts.append((name, shard, count))
        }
        guard !parts.isEmpty else {
            throw SpriteError(input: folder, problem: "no index parts (\(prefix)K-of-N\(suffix)): run pinmint batch with --shard K/N first")
        }
        let counts = Set(parts.map(\.count))
        guard counts.count == 1, let count = counts.first else {
            throw SpriteError(input: folder, problem: "index parts of different shard counts (\(counts.sorted().map(String.init).joined(separator: ", "))); "
                              + "remove those of the earlier split")
        }
        let present = Set(parts.map(\.shard))
        let missing = (1...count).filter { !present.contains($0) }
        guard missing.isEmpty else {
            let shown = missing.prefix(10).map(String.init).joined(separator: ", ") + (missing.count > 10 ? ", …" : "")
            throw SpriteError(input: folder, problem: "shard\(missing.count == 1 ? "" : "s") \(shown) of \(count) missing "
                              + "(\(prefix)K-of-\(count)\(suffix)): run them, or copy their output here")
        }
        var header: String? = nil
        var readers: [PartReader] = []
        for part in parts.sorted(by: { $0.shard < $1.shard }) {
            let reader = try PartReader(path: PathName.appending(part.name, to: folder), shard: part.shard, count: count)
            if let header, header != reader.header {
                throw SpriteError(input: reader.path, problem: "its header (style, scales) differs from shard 1's: parts of different batches")
            }
            header = reader.header
            readers.append(reader)
        }
        // Each part is in row order: an N-way merge by row keeps the single run's order. The parts are
        // streamed (a line of each at a time), so a merge of millions of markers takes little memory.
        let path = PathName.appending(indexName, to: folder)
        let writer = try IndexWriter(path: path, header: header!)
        var heads: [(key: Int, line: String)?] = []
        for reader in readers { heads.append(try reader.next()) }
        var markers = 0
        do throws(SpriteError) {
            while true {
                var best: Int? = nil
                for part in heads.indices {
                    guard let head = heads[part] else { continue }
                    if best == nil || head.key < heads[best!]!.key { best = part }
                }
                guard let best else { break }
                try writer.append([heads[best]!.line])
                markers += 1
                heads[best] = try readers[best].next()
            }
            let failed = readers.reduce(0) { $0 + $1.failed }
            try writer.finish(footer: "\"failed\": \(failed)")
            return Result(parts: parts.count, markers: markers, failed: failed, path: path)
        } catch {
            writer.discard()
            throw error
        }
    }

    /// One part, read a line at a time: its header without the `"shard"`
    /// line, then its marker lines with their order keys (the feature index
    /// of a GeoJSON row, else its line), then its failures.
    private final class PartReader {
        let path: String
        let header: String
        private(set) var failed = 0
        private let stream: ByteStream
        private var done = false

        init(path: String, shard: Int, count: Int) throws(SpriteError) {
            self.path = path
            stream = try ByteStream(path: path)
            guard Self.readLine(stream) == "{", let generator = Self.readLine(stream), generator.hasPrefix("\"generator\": \"pinmint batch\"") else {
                throw SpriteError(input: path, problem: "not an index part of pinmint batch (no pinmint batch header)")
            }
            var header = generator + "\n"
            var sawShard = false
            while true {
                guard let line = Self.readLine(stream) else {
                    throw SpriteError(input: path, problem: "not an index part of pinmint batch (no markers)")
                }
                if line == "\"markers\": [" { break }
                if line == "\"shard\": \"\(shard)/\(count)\"," { sawShard = true; continue }
                header += line + "\n"
            }
            guard sawShard else {
                throw SpriteError(input: path, problem: "not an index part of pinmint batch (its header does not say shard \(shard)/\(count))")
            }
            self.header = header
        }

        private static func readLine(_ stream: ByteStream) -> String? {
            guard stream.peekByte() != nil, let bytes = stream.readLine(maximumBytes: DataLimits.abandonedRowBytes) else { return nil }
            return String(decoding: bytes, as: UTF8.self)
        }

        /// The next marker line and its key; nil after the last, when `failed` is known.
        func next() throws(SpriteError) -> (key: Int, line: String)? {
            if done { return nil }
            func broken(_ why: String) -> SpriteError { SpriteError(input: path, problem: "not a finished index part (\(why))") }
            guard var line = Self.readLine(stream) else { throw broken("it ends inside the markers") }
            if line == "]," {
                guard let footer = Self.readLine(stream), footer.hasPrefix("\"failed\": "), let failed = Int(footer.dropFirst("\"failed\": ".count)),
                      Self.readLine(stream) == "}" else { throw broken("no \"failed\" count at its end") }
                self.failed = failed
                done = true
                return nil
            }
            if line.hasSuffix(",") { line.removeLast() }
            guard line.hasPrefix("{"), let key = BatchIndexMerge.orderKey(Substring(line)) else { throw broken("a marker line without its row") }
            return (key, line)
        }
    }

    /// A line's place in the data: its `"feature"` (GeoJSON), else its `"row"` (the line).
    static func orderKey(_ line: Substring) -> Int? {
        for key in ["\"feature\":", "\"row\":"] {
            guard let start = line.range(of: "," + key) ?? line.range(of: "{" + key) else { continue }
            let digits = line[start.upperBound...].prefix { $0.isNumber }
            if let value = Int(digits) { return value }
        }
        return nil
    }
}
