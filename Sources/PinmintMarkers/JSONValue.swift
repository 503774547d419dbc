import Foundation
import PinmintGeometry
import PinmintPNG

/// A JSON document as a tree, kept so that marker descriptions can be
/// checked key by key: a misspelt key or a value of the wrong type is an
/// error that names its place (`body.children[2].fill`), which Codable's
/// synthesised decoding (it ignores unknown keys) cannot do.
public indirect enum JSONValue: Hashable, Sendable, CustomStringConvertible {
    /// `null`; as an option value, "not set".
    case null
    /// `true` or `false`.
    case bool(Bool)
    /// Any JSON number, as a finite Double (out-of-range numbers are refused
    /// by the reader, not rounded to infinity).
    case number(Double)
    /// A string with its escapes decoded.
    case string(String)
    /// Items in order.
    case array([JSONValue])
    /// Members by key; a key given twice is refused by the reader.
    case object([String: JSONValue])

    /// Parses JSON text (UTF-8, or the UTF-16 and UTF-32 RFC 8259 allowed
    /// before it) with `JSONReader`, arrays and objects nested at most
    /// `MarkerLimits.maximumJSONDepth` deep; `name` (a file name) prefixes
    /// the error, and a key given twice names its member's place.
    public static func parse(_ data: Data, name: String) throws(MarkerError) -> JSONValue {
        guard data.count <= MarkerLimits.maximumDescriptionBytes else {
            throw MarkerError(input: name, problem: "the description is \(data.count) bytes; at most "
                              + "\(MarkerLimits.maximumDescriptionBytes) are read")
        }
        guard let text = JSONValue.utf8Text(data) else {
            throw MarkerError(input: name, problem: "not valid JSON: the text is UTF-16 or UTF-32 with a character that does not decode")
        }
        do {
            return try JSONReader.parse([UInt8](text), maximumDepth: MarkerLimits.maximumJSONDepth)
        } catch {
            switch error.kind {
            case .duplicateKey(let place): throw MarkerError(input: name, path: place, problem: error.message)
            case .tooDeep: throw MarkerError(input: name, problem: error.message)
            case .syntax, .numberOutOfRange: throw MarkerError(input: name, problem: "not valid JSON: " + error.message)
            }
        }
    }

    /// The bytes of the description file at `path` (links followed; see
    /// `InputFile`): a folder and a file over
    /// `MarkerLimits.maximumDescriptionBytes` are refused before reading (a
    /// large file was read whole, then refused); a pipe (`render
    /// <(generate)`, `/dev/stdin`) is read as it comes, up to the limit.
    public static func descriptionData(atPath path: String) throws(MarkerError) -> Data {
        let limit = MarkerLimits.maximumDescriptionBytes
        do {
            return Data(try InputFile.read(path, limit: limit))
        } catch {
            switch error {
            case .noSuchFile: throw MarkerError(input: path, problem: "no such file")
            case .folder: throw MarkerError(input: path, problem: "a folder, not a marker description file")
            case .tooLarge(let size?): throw MarkerError(input: path, problem: "the description is \(size) bytes; at most \(limit) are read")
            case .tooLarge(nil): throw MarkerError(input: path, problem: "the description is over \(limit) bytes; at most \(limit) are read")
            case .unreadable(let reason): throw MarkerError(input: path, problem: "cannot read the file: \(reason)")
            case .notRegularFile(let kind): throw MarkerError(input: path, problem: "\(kind), not a file")
            }
        }
    }

    /// The folder that relative picture and icon paths in the description
    /// at `path` start from: the file's own folder (a link's, not its
    /// target's, as a shell user would expect), or the current one when
    /// `path` is a stream (`/dev/fd/63` from `render <(generate)`).
    static func descriptionFolder(ofFileAt path: String) -> String {
        InputFile.isStream(path) ? FileManager.default.currentDirectoryPath : PathName.folder(of: path)
    }

    /// JSON text as UTF-8 bytes: `data` itself when it is UTF-8, else decoded
    /// from the UTF-16 or UTF-32 the decoder also reads, told apart as RFC
    /// 4627 §3 tells them (a byte-order mark, or where the zero bytes of the
    /// first two ASCII characters fall); nil when UTF-16 or UTF-32 does not decode.
    static func utf8Text(_ data: Data) -> Data? {
        // UTF-16 and UTF-32 of ASCII are valid UTF-8 too (with NULs, which
        // JSON in UTF-8 never holds unescaped): the first four bytes decide.
        let bytes = [UInt8](data.prefix(4)) + [UInt8](repeating: 1, count: max(0, 4 - data.count))
        let encoding: String.Encoding
        switch (bytes[0], bytes[1], bytes[2], bytes[3]) {
        case (0, 0, 0xFE, 0xFF), (0, 0, 0, _): encoding = .utf32BigEndian
        case (0xFF, 0xFE, 0, 0), (_, 0, 0, 0): encoding = .utf32LittleEndian
        case (0xFE, 0xFF, _, _), (0, _, _, _): encoding = .utf16BigEndian
        case (0xFF, 0xFE, _, _), (_, 0, _, _): encoding = .utf16LittleEndian
        // UTF-8, checked by the reader, which names the first byte that is not.
        default: return data
        }
        guard var text = String(data: data, encoding: encoding) else { return nil }
        if text.hasPrefix("\u{FEFF}") { text.removeFirst() }
        return Data(text.utf8)
    }

    /// The JSON type's name, for error messages.
    public var typeName: String {
        switch self {
        case .null: return "null"
        case .bool: return "a boolean"
        case .number: return "a number"
        case .string: return "a string"
        case .array: return "an array"
        case .object: return "an object"
        }
    }

    /// A compact one-line rendering for messages: numbers without a
    /// needless `.0`, object keys sorted. Strings are quoted but not
    /// escaped, so this is for people, not JSON to parse back.
    public var description: String {
        switch self {
        case .null: return "null"
        case .bool(let value): return String(value)
        case .number(let value): return value.plainDescription
        case .string(let value): return "\"\(value)\""
        case .array(let items): return "[" + items.map(\.description).joined(separator: ", ") + "]"
        case .object(let members):
            return "{" + members.keys.sorted().map { "\"\($0)\": \(members[$0]!)" }.joined(separator: ", ") + "}"
        }
    }
}

/// A JSON object being read: every key read is ticked off, and `finish()`
/// reports the first key nobody asked for, so typos do not pass silently.
struct ObjectReader {
    let path: String
    let input: String
    /// The object's members in a flat list: a part has a handful, and most
    /// keys a reader asks for are absent, so comparing short keys beats
    /// hashing each one (resolving a style reads every part this way).
    private let keys: [String]
    private let values: [JSONValue]
    /// Which members were asked for (by index); absent keys asked for are
    /// remembered only for "did you mean".
    private var used: [Bool]
    private var asked: [String] = []

    init(_ value: JSONValue, path: String, input: String) throws(MarkerError) {
        guard case .object(let members) = value else {
            throw MarkerError(input: input, path: path, problem: "expected an object, found \(value.typeName)")
        }
        keys = Array(members.keys)
        values = Array(members.values)
        used = [Bool](repeating: false, count: keys.count)
        self.path = path
        self.input = input
    }

    func place(_ key: String) -> String { path.isEmpty ? key : "\(path).\(key)" }
    func error(_ key: String, _ problem: String) -> MarkerError { MarkerError(input: input, path: place(key), problem: problem) }

    private func index(of key: String) -> Int? { keys.firstIndex(of: key) }

    func has(_ key: String) -> Bool { index(of: key).map { values[$0] != .null } ?? false }

    mutating func value(_ key: String) -> JSONValue? {
        guard let index = index(of: key) else {
            asked.append(key)
            return nil
        }
        used[index] = true
        return values[index] == .null ? nil : values[index]
    }

    mutating func string(_ key: String) throws(MarkerError) -> String? {
        guard let value = value(key) else { return nil }
        switch value {
        case .string(let text): return text
        case .number(let number): return number.plainDescription
        default: throw error(key, "expected a string, found \(value.typeName)")
        }
    }

    mutating func number(_ key: String, range: ClosedRange<Double>) throws(MarkerError) -> Double? {
        guard let value = value(key) else { return nil }
        return try JSONValue.number(value, at: place(key), input: input, range: range)
    }

    /// A whole number within `range` ("maxLines": 2; not 1.5).
    mutating func integer(_ key: String, range: ClosedRange<Int>) throws(MarkerError) -> Int? {
        guard let number = try number(key, range: Double(range.lowerBound)...Double(range.upperBound)) else { return nil }
        guard number == number.rounded() else { throw error(key, "\(number) is not a whole number") }
        return Int(number)
    }

    mutating func bool(_ key: String) throws(MarkerError) -> Bool? {
        guard let value = value(key) else { return nil }
        guard case .bool(let flag) = value else { throw error(key, "expected true or false, found \(value.typeName)") }
        return flag
    }

    mutating func array(_ key: String, maximumCount: Int) throws(MarkerError) -> [JSONValue]? {
        guard let value = value(key) else { return nil }
        guard case .array(let items) = value else { throw error(key, "expected an array, found \(value.typeName)") }
        guard items.count <= maximumCount else {
            throw error(key, "has \(items.count) items; at most \(maximumCount) are allowed")
        }
        return items
    }

    mutating func choice<Choice: RawRepresentable & CaseIterable>(_ key: String, _ type: Choice.Type)
        throws(MarkerError) -> Choice? where Choice.RawValue == String {
        guard let text = try string(key) else { return nil }
        guard let choice = Choice(rawValue: text) else {
            throw error(key, "unknown value '\(text)' (expected \(Choice.allCases.map { "'\($0.rawValue)'" }.joined(separator: ", ")))")
        }
        return choice
    }

    /// Throws for the first key (alphabetically) that was never read.
    func finish(allowed extra: Set<String> = []) throws(MarkerError) {
        guard used.contains(false) else { return }
        let unknown = keys.indices.filter { !used[$0] && !extra.contains(keys[$0]) }.map { keys[$0] }.sorted()
        if let first = unknown.first {
            let known = Set(asked).union(keys.indices.filter { used[$0] }.map { keys[$0] }).union(extra).sorted()
            let hint = JSONValue.closest(to: first, in: known).map { " (did you mean '\($0)'?)" } ?? ""
            throw MarkerError(input: input, path: place(first), problem: "unknown key" + hint)
        }
    }
}

extension JSONValue {
    static func number(_ value: JSONValue, at path: String, input: String,
                       range: ClosedRange<Double>) throws(MarkerError) -> Double {
        let number: Double
        switch value {
        case .number(let n): number = n
        case .string(let text):
            guard let n = Double(text.trimmingCharacters(in: .whitespaces)) else {
                throw MarkerError(input: input, path: path, problem: "'\(text)' is not a number")
            }
            number = n
        default: throw MarkerError(input: input, path: path, problem: "expected a number, found \(value.typeName)")
        }
        guard number.isFinite, range.contains(number) else {
            throw MarkerError(input: input, path: path, problem: "\(number.plainDescription) is out of range "
                              + "(\(range.plainDescription))")
        }
        return number
    }

    /// The candidate within edit distance 2 of `word` (ignoring case), for
    /// "did you mean"; the first of the closest, or nil. Shared by every
    /// module that names unknown keys, options or ids.
    public static func closest(to word: String, in candidates: [String]) -> String? {
        func distance(_ a: [Character], _ b: [Character]) -> Int {
            var previous = Array(0...b.count)
            for (i, ca) in a.enumerated() {
                var current = [i + 1]
                for (j, cb) in b.enumerated() {
                    current.append(Swift.min(previous[j + 1] + 1, current[j] + 1, previous[j] + (ca == cb ? 0 : 1)))
                }
                previous = current
            }
            return previous[b.count]
        }
        let letters = Array(word.lowercased())
        let scored = candidates.map { (candidate: $0, distance: distance(letters, Array($0.lowercased()))) }
        guard let best = scored.min(by: { $0.distance < $1.distance }), best.distance <= 2 else { return nil }
        return best.candidate
    }
}
