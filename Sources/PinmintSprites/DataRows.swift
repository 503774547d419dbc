import Foundation
import PinmintGeometry
import PinmintMarkers

/// One row of batch data: its fields as text and where it starts.
public struct DataRow: Sendable {
    /// 1-based line of the file where the row starts.
    public var line: Int
    /// A GeoJSON feature's 0-based index in the `features` array; nil for CSV and JSON lines.
    public var feature: Int? = nil
    /// Whether `line` tells where the row is: false for a GeoJSON feature of
    /// a document written on one line (as most tools write it), which only
    /// `feature` finds.
    public var lineLocates = true
    /// Field name → text. Numbers are written as in the source (JSON numbers
    /// without a needless `.0`), booleans `true` / `false`, null empty,
    /// nested arrays and objects as compact JSON.
    public var fields: [String: String]
    /// `[longitude, latitude]` of a GeoJSON Point feature.
    public var coordinates: [Double]?

    /// A row starting on `line` (CSV, JSON lines; a GeoJSON reader sets `feature` and `lineLocates` after).
    public init(line: Int, fields: [String: String], coordinates: [Double]? = nil) {
        self.line = line
        self.fields = fields
        self.coordinates = coordinates
    }

    /// Where the row is, for a message: `features[812]` (a one-line GeoJSON
    /// document), `14: features[812]`, or the line alone (`14`).
    public var place: String {
        guard let feature else { return String(line) }
        return lineLocates ? "\(line): features[\(feature)]" : "features[\(feature)]"
    }

    /// `problem` as this row's failure in `input`: `input:LINE: problem`,
    /// `input:LINE: features[N]: problem`, or `input: features[N]: problem`.
    public func error(_ problem: String, input: String = "") -> SpriteError {
        let lead = feature.map { "features[\($0)]: " } ?? ""
        return SpriteError(input: input, line: lineLocates ? line : nil, problem: lead + problem)
    }

    /// The key that decides the row's shard when it has no id (it failed
    /// before one was made): its feature's index or its line.
    var positionKey: String { feature.map { "features[\($0)]" } ?? "line \(line)" }
}

/// What a reader hands out: a row, or a row that could not be read (the
/// batch reports it with its line and goes on). A malformed GeoJSON
/// feature's problem starts with its place (`features[3]…`); its line is 0
/// when the document is on one line (the line would say nothing).
public enum DataRowResult: Sendable {
    /// A row read whole, its fields ready to fill templates.
    case row(DataRow)
    /// A row that cannot be used: the 1-based line it starts on (0, see
    /// above) and what is wrong, one line of text.
    case malformed(line: Int, problem: String)
}

/// The character between CSV fields.
public enum CSVDelimiter: Sendable, Equatable {
    /// Chosen from the header row: the one of comma, semicolon and tab that
    /// occurs most often outside quotes (a comma when none does, or on a tie).
    case detect
    /// This byte (an ASCII character) between fields, whatever the header holds.
    case given(UInt8)

    /// The delimiters `detect` chooses from, in the order that breaks a tie.
    public static let detectable: [UInt8] = [UInt8(ascii: ","), UInt8(ascii: ";"), UInt8(ascii: "\t")]

    /// `,` `;` `|` `:` or `tab` (also `\t` or a tab itself), as `--delimiter` takes it; nil for anything else.
    public init?(option text: String) {
        switch text {
        case "tab", "\\t", "\t": self = .given(UInt8(ascii: "\t"))
        case ",", ";", "|", ":": self = .given(text.utf8.first!)
        default: return nil
        }
    }

    /// A delimiter for messages: `','`, `';'`, `tab`.
    public static func name(_ byte: UInt8) -> String { byte == UInt8(ascii: "\t") ? "tab" : "'\(Character(Unicode.Scalar(byte)))'" }
}

/// The formats `pinmint batch` reads.
public enum DataFormat: String, Sendable, CaseIterable {
    /// RFC 4180: a header row, commas (or semicolons or tabs: `CSVDelimiter`),
    /// `"quoted"` fields with `""` for a quote, CRLF or LF.
    case csv
    /// One JSON object per line (also called NDJSON).
    case jsonl
    /// A FeatureCollection; each feature's `properties` are its fields.
    case geojson

    /// The format a file name suggests: `.csv`, `.jsonl` / `.ndjson`, `.geojson`; `.json`
    /// is GeoJSON when its start says `FeatureCollection`, else JSON lines.
    public static func guess(path: String, start: [UInt8]) -> DataFormat? {
        switch PathName.pathExtension(of: path).lowercased() {
        case "csv": return .csv
        case "jsonl", "ndjson": return .jsonl
        case "geojson": return .geojson
        case "json":
            return String(decoding: start, as: UTF8.self).contains("\"FeatureCollection\"") ? .geojson : .jsonl
        default: return nil
        }
    }
}

/// Limits on batch data, so that a broken or hostile file cannot take the
/// machine's memory: rows are read one at a time, and none may exceed these.
public enum DataLimits {
    /// One field's text, in bytes.
    public static let maximumFieldBytes = 64 * 1024
    /// One row (a CSV record, a JSON line, a GeoJSON feature), in bytes.
    public static let maximumRowBytes = 1024 * 1024
    /// Fields per row.
    public static let maximumFieldCount = 1024
    /// Rows per file.
    public static let maximumRowCount = 50_000_000
    /// A row this long (bytes) is not read to its end: the rest of the
    /// input is given up (an endless line, `</dev/zero`, would be read forever).
    public static let abandonedRowBytes = 4 * maximumRowBytes
}

/// Reads a data file row by row with a fixed-size buffer, whatever its
/// length: the memory a batch needs does not grow with the file.
public final class DataRowReader {
    /// How the file's bytes are read into rows.
    public let format: DataFormat
    /// The file's name in messages.
    public let input: String
    private let stream: ByteStream
    private var header: [String]? = nil
    private var rowCount = 0
    /// The line of a row too long to read to its end: reading stopped there.
    private var abandonedLine: Int? = nil
    /// GeoJSON scanning state.
    private var geoJSON = GeoJSONScanner()
    /// The CSV field delimiter (detected or given), and what ends a field's run of bytes.
    public private(set) var delimiter = UInt8(ascii: ",")
    private var fieldEnds = DataRowReader.fieldEnds(UInt8(ascii: ","))

    /// Opens `path` ('-': standard input). `format` nil guesses from the name.
    /// - Parameter delimiter: CSV only: detected from the header, or given.
    /// - Throws: `SpriteError` for a missing or unreadable file, an unknown
    ///   format, or (CSV) a missing, empty or repeated header name.
    public init(path: String, format: DataFormat?, delimiter: CSVDelimiter = .detect) throws(SpriteError) {
        input = path == "-" ? "standard input" : path
        stream = try ByteStream(path: path)
        guard let format = format ?? DataFormat.guess(path: path, start: stream.peek(4096)) else {
            throw SpriteError(input: path, problem: "cannot tell the data format from the name; use .csv, .jsonl, .geojson or --format")
        }
        self.format = format
        if format == .csv {
            stream.skipByteOrderMark()
            switch delimiter {
            case .given(let byte): self.delimiter = byte
            case .detect: self.delimiter = Self.detectDelimiter(stream.peek(ByteStream.bufferSize))
            }
            fieldEnds = Self.fieldEnds(self.delimiter)
            try readHeader()
        } else if format == .jsonl { stream.skipByteOrderMark() }
    }

    /// The detectable delimiter found most often outside quotes in the first
    /// line of `start`; a comma when none is there, or on a tie.
    static func detectDelimiter(_ start: [UInt8]) -> UInt8 {
        var counts = [Int](repeating: 0, count: CSVDelimiter.detectable.count)
        var quoted = false
        for byte in start {
            if byte == UInt8(ascii: "\"") { quoted.toggle(); continue }
            if quoted { continue }
            if byte == 0x0A || byte == 0x0D { break }
            if let index = CSVDelimiter.detectable.firstIndex(of: byte) { counts[index] += 1 }
        }
        var best = 0
        for index in counts.indices where counts[index] > counts[best] { best = index }
        return CSVDelimiter.detectable[best]
    }

    /// For a CSV header of one column whose name holds a likely delimiter
    /// (`id;price` read with commas): what to say, e.g. "the header is one
    /// column, 'id;price': if ';' separates the fields, give --delimiter ';'"; else nil.
    public var delimiterHint: String? {
        guard let header, header.count == 1 else { return nil }
        let name = header[0]
        for candidate in CSVDelimiter.detectable + [UInt8(ascii: "|")] where candidate != delimiter && name.utf8.contains(candidate) {
            let option = candidate == UInt8(ascii: "\t") ? "tab" : String(Character(Unicode.Scalar(candidate)))
            return "the header is one column, '\(name)': if \(CSVDelimiter.name(candidate)) separates the fields, give --delimiter '\(option)'"
        }
        return nil
    }

    /// How far through the file (0...1), nil when its size is unknown (standard input).
    public var fraction: Double? { stream.size.map { $0 == 0 ? 1 : min(1, Double(stream.offset) / Double($0)) } }

    /// The CSV header's names (nil for JSON formats, whose fields vary by row).
    public var fieldNames: [String]? { header }

    /// The next row, nil at the end.
    /// - Throws: `SpriteError` when the file as a whole is unusable (not
    ///   GeoJSON at all, unbalanced brackets at the end, too many rows).
    public func next() throws(SpriteError) -> DataRowResult? {
        var result: DataRowResult?
        switch format {
        case .csv: result = nextCSV()
        case .jsonl: result = nextJSONLine()
        case .geojson: result = try geoJSON.next(stream, input: input)
        }
        if let abandonedLine {
            throw SpriteError(input: "\(input):\(abandonedLine)", problem: "a row longer than \(DataLimits.abandonedRowBytes) "
                              + "bytes; the rest of the input is not read")
        }
        if case .malformed(let line, let problem)? = result {
            // The problem may quote the row (a JSON snippet, a field): one line, as every message.
            result = .malformed(line: line, problem: MessageText.oneLine(problem))
        }
        if result != nil {
            rowCount += 1
            guard rowCount <= DataLimits.maximumRowCount else {
                throw SpriteError(input: input, problem: "more than \(DataLimits.maximumRowCount) rows")
            }
        }
        return result
    }

    // MARK: CSV

    private func readHeader() throws(SpriteError) {
        while true {
            guard let record = readCSVRecord() else { throw SpriteError(input: input, problem: "empty: no header row") }
            if let problem = record.problem { throw SpriteError(input: input, line: record.line, problem: "header: \(problem)") }
            if record.isBlank { continue }
            var seen = Set<String>()
            let names = record.values.map { $0.trimmingCharacters(in: .whitespaces) }
            for (index, name) in names.enumerated() {
                guard !name.isEmpty else { throw SpriteError(input: input, line: record.line, problem: "header: column \(index + 1) has no name") }
                guard seen.insert(name).inserted else {
                    throw SpriteError(input: input, line: record.line, problem: "header: column '\(name)' appears twice")
                }
            }
            header = names
            return
        }
    }

    private func nextCSV() -> DataRowResult? {
        while let record = readCSVRecord() {
            if let problem = record.problem { return .malformed(line: record.line, problem: problem) }
            if record.isBlank { continue }
            let names = header!
            guard record.values.count == names.count else {
                return .malformed(line: record.line, problem: "\(record.values.count) field(s), the header has \(names.count)")
            }
            var fields: [String: String] = [:]
            for (name, value) in zip(names, record.values) { fields[name] = value }
            return .row(DataRow(line: record.line, fields: fields))
        }
        return nil
    }

    private struct CSVRecord {
        var line: Int
        var values: [String] = []
        var problem: String? = nil
        /// An empty line (not `""`, which is one empty field).
        var isBlank = false
    }

    /// One record, RFC 4180 (section 2): fields split by commas (or the
    /// `delimiter`), records by
    /// CRLF or LF; a field in double quotes may hold commas, line breaks
    /// and `""` (a quote). A malformed record is read to its end, so the
    /// next one starts clean. Fields are read a buffered span at a time
    /// (`ByteStream.readSpan`): linear, and fast on long fields (a per-byte
    /// loop that rebuilt its message for every byte past a limit read 1–2 MB
    /// fields at 4–5 MB/s).
    private func readCSVRecord() -> CSVRecord? {
        guard abandonedLine == nil, stream.peekByte() != nil else { return nil }
        var record = CSVRecord(line: stream.line)
        var field: [UInt8] = []
        var fieldTooLong = false, anyQuoted = false
        var recordBytes = 0
        func fail(_ problem: @autoclosure () -> String) { if record.problem == nil { record.problem = problem() } }
        func take(_ span: UnsafeBufferPointer<UInt8>) {
            recordBytes += span.count
            let room = DataLimits.maximumFieldBytes - field.count
            if span.count <= room { field.append(contentsOf: span) } else {
                field.append(contentsOf: span.prefix(room))
                fieldTooLong = true
            }
        }
        func takeQuote() { withUnsafeBytes(of: UInt8(ascii: "\"")) { take($0.bindMemory(to: UInt8.self)) } }
        func finishField() {
            if fieldTooLong { fail("a field longer than \(DataLimits.maximumFieldBytes) bytes") }
            if record.values.count >= DataLimits.maximumFieldCount {
                fail("more than \(DataLimits.maximumFieldCount) fields")
            } else {
                if let problem = TextBytes.problem(field) { fail("field \(record.values.count + 1) \(problem)") }
                record.values.append(String(decoding: field, as: UTF8.self))
            }
            field.removeAll(keepingCapacity: true)
            fieldTooLong = false
        }
        func finishRecord() -> CSVRecord {
            finishField()
            if recordBytes > DataLimits.maximumRowBytes { fail("a record longer than \(DataLimits.maximumRowBytes) bytes") }
            record.isBlank = record.values == [""] && !anyQuoted
            return record
        }
        while true {
            // At the start of a field.
            var stop: UInt8?
            if stream.peekByte() == UInt8(ascii: "\"") {
                // A quoted field, up to its closing quote.
                let opening = stream.line
                _ = stream.nextByte()
                recordBytes += 1
                anyQuoted = true
                var closed = false
                while stream.readSpan(until: DataRowReader.quote, take) != nil {
                    if recordBytes > DataLimits.abandonedRowBytes { abandonedLine = record.line; return record }
                    _ = stream.nextByte()
                    guard stream.peekByte() == UInt8(ascii: "\"") else { closed = true; break }
                    _ = stream.nextByte()
                    takeQuote()
                }
                if recordBytes > DataLimits.abandonedRowBytes { abandonedLine = record.line; return record }
                guard closed else {
                    fail("a quoted field opened on line \(opening) is never closed")
                    finishField()
                    return record
                }
                stop = stream.readSpan(until: fieldEnds) { span in
                    if !span.isEmpty { fail("text after a closing quote (a quote inside a quoted field is written \"\")") }
                    take(span)
                }
            } else {
                stop = stream.readSpan(until: fieldEnds, take)
            }
            // A quote inside an unquoted field (or after a quoted one) belongs to the field.
            while stop == UInt8(ascii: "\"") {
                _ = stream.nextByte()
                fail("a quote inside an unquoted field (quote the whole field and double the quote)")
                takeQuote()
                stop = stream.readSpan(until: fieldEnds, take)
            }
            if recordBytes > DataLimits.abandonedRowBytes { abandonedLine = record.line; return record }
            switch stop {
            case delimiter?:
                _ = stream.nextByte()
                recordBytes += 1
                finishField()
            case UInt8(ascii: "\r")?:
                _ = stream.nextByte()
                if stream.peekByte() == UInt8(ascii: "\n") { _ = stream.nextByte() }
                return finishRecord()
            case UInt8(ascii: "\n")?:
                _ = stream.nextByte()
                return finishRecord()
            default:
                return finishRecord()
            }
        }
    }

    /// What ends an unquoted field's run of bytes; what ends a quoted field's.
    private static func fieldEnds(_ delimiter: UInt8) -> ByteSet {
        ByteSet([delimiter, UInt8(ascii: "\n"), UInt8(ascii: "\r"), UInt8(ascii: "\"")])
    }
    private static let quote = ByteSet([UInt8(ascii: "\"")])

    // MARK: JSON lines

    private func nextJSONLine() -> DataRowResult? {
        while stream.peekByte() != nil {
            let line = stream.line
            var abandoned = false
            guard let bytes = stream.readLine(maximumBytes: DataLimits.maximumRowBytes,
                                              abandonAfter: DataLimits.abandonedRowBytes, abandoned: &abandoned) else {
                if abandoned { abandonedLine = line; return nil }
                return .malformed(line: line, problem: "a line longer than \(DataLimits.maximumRowBytes) bytes")
            }
            if bytes.allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }) { continue }
            return JSONRow.parse(bytes, line: line, what: "line")
        }
        return nil
    }
}

/// Turns one JSON object's text into a row.
enum JSONRow {
    static func parse(_ bytes: [UInt8], line: Int, what: String) -> DataRowResult {
        if let problem = TextBytes.problem(bytes) { return .malformed(line: line, problem: "the \(what) \(problem)") }
        let value: JSONValue
        do {
            value = try JSONReader.parse(bytes, maximumDepth: MarkerLimits.maximumJSONDepth)
        } catch {
            return .malformed(line: line, problem: problem(error))
        }
        guard case .object(let members) = value else {
            return .malformed(line: line, problem: "the \(what) is \(value.typeName), not a JSON object")
        }
        return row(members, line: line)
    }

    /// A row of `members`; `path` (a GeoJSON feature's `features[3].properties`)
    /// leads its problems.
    static func row(_ members: [String: JSONValue], line: Int, path: String? = nil, coordinates: [Double]? = nil) -> DataRowResult {
        let lead = path.map { "\($0): " } ?? ""
        guard members.count <= DataLimits.maximumFieldCount else {
            return .malformed(line: line, problem: lead + "more than \(DataLimits.maximumFieldCount) fields")
        }
        var fields: [String: String] = [:]
        for (key, value) in members {
            let text = text(value)
            // A NUL written as the escape \u0000 (a raw one is refused with the row's bytes).
            if text.utf8.contains(0) || key.utf8.contains(0) {
                return .malformed(line: line, problem: lead + "field '\(key.replacingOccurrences(of: "\u{0}", with: "\\u0000"))' holds a NUL character (\\u0000)")
            }
            fields[key] = text
        }
        return .row(DataRow(line: line, fields: fields, coordinates: coordinates))
    }

    /// A JSON value as field text.
    static func text(_ value: JSONValue) -> String {
        switch value {
        case .string(let text): return text
        case .null: return ""
        case .bool(let flag): return flag ? "true" : "false"
        default: return JSONText.serialize(value)
        }
    }

    /// What is wrong with a row's JSON, as its line says it; `path` (a
    /// GeoJSON feature's `features[3]`) leads it. A key given twice fails
    /// the row: a misedited row must not pass with one of the two values.
    static func problem(_ error: JSONReader.Problem, path: String? = nil) -> String {
        let lead = path.map { "\($0): " } ?? ""
        switch error.kind {
        case .duplicateKey(let place): return (path.map { "\($0)." } ?? "") + "\(place): " + error.message
        case .numberOutOfRange(let number): return lead + numberProblem(number)
        case .tooDeep: return lead + error.message
        case .syntax: return lead + "not valid JSON: " + error.message
        }
    }

    static func numberProblem(_ number: String) -> String {
        let shown = number.count > 40 ? String(number.prefix(37)) + "..." : number
        guard Double(number)?.isInfinite == false else {
            return "the number \(shown) is out of range (a field's number must be within ±\(Double.greatestFiniteMagnitude))"
        }
        return "the number \(shown) is out of range (too close to 0: the smallest a field's number can be is ±\(Double.leastNonzeroMagnitude))"
    }
}


/// Checks on raw bytes before they become text (a data row, a file name):
/// decoding would turn invalid UTF-8 into U+FFFD and keep a NUL, and a
/// marker would be drawn with the wrong text, or a file looked up under a
/// name it does not have.
public enum TextBytes {
    /// Why `bytes` cannot be text (a NUL byte, invalid UTF-8), with the
    /// 1-based byte position, e.g. `is not valid UTF-8 (byte 4 is 0xFF)`; nil when they can.
    public static func problem<Bytes: Collection>(_ bytes: Bytes) -> String? where Bytes.Element == UInt8, Bytes.Index == Int {
        var index = bytes.startIndex
        while index < bytes.endIndex {
            let byte = bytes[index]
            if byte == 0 { return "holds a NUL byte (byte \(index - bytes.startIndex + 1))" }
            if byte < 0x80 { index += 1; continue }
            // RFC 3629 section 4: the lead byte gives the length; no overlong forms, surrogates or values above U+10FFFF.
            let length: Int, secondRange: ClosedRange<UInt8>
            switch byte {
            case 0xC2...0xDF: length = 2; secondRange = 0x80...0xBF
            case 0xE0: length = 3; secondRange = 0xA0...0xBF
            case 0xE1...0xEC, 0xEE...0xEF: length = 3; secondRange = 0x80...0xBF
            case 0xED: length = 3; secondRange = 0x80...0x9F
            case 0xF0: length = 4; secondRange = 0x90...0xBF
            case 0xF1...0xF3: length = 4; secondRange = 0x80...0xBF
            case 0xF4: length = 4; secondRange = 0x80...0x8F
            default: return invalid(byte, at: index - bytes.startIndex)
            }
            guard index + length <= bytes.endIndex, secondRange.contains(bytes[index + 1]) else {
                return invalid(byte, at: index - bytes.startIndex)
            }
            for next in (index + 2)..<(index + length) where !(0x80...0xBF).contains(bytes[next]) {
                return invalid(byte, at: index - bytes.startIndex)
            }
            index += length
        }
        return nil
    }

    /// `bytes` for a message: valid UTF-8 as text, each other byte as `\xFF`.
    public static func shown(_ bytes: [UInt8]) -> String {
        var text = "", index = 0
        scan: while index < bytes.count {
            // One character: the only length (1 to 4 bytes) at which the bytes from here are valid.
            for length in 1...4 where index + length <= bytes.count {
                let piece = bytes[index..<(index + length)]
                if bytes[index] != 0 && problem(piece) == nil {
                    text += String(decoding: piece, as: UTF8.self)
                    index += length
                    continue scan
                }
            }
            text += "\\x" + String(bytes[index], radix: 16, uppercase: true)
            index += 1
        }
        return text
    }

    private static func invalid(_ byte: UInt8, at offset: Int) -> String {
        "is not valid UTF-8 (byte \(offset + 1) is 0x\(String(byte, radix: 16, uppercase: true)))"
    }
}
