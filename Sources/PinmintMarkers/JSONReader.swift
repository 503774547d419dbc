/// Pinmint's own JSON reader (RFC 8259), for marker descriptions, preset
/// and sprite files, JSON lines and GeoJSON features.
///
/// Why not Foundation's `JSONDecoder`: decoding `JSONValue` through it is
/// super-linear in nesting (50 KB of arrays nested 510 deep took 38 s
/// before a depth check could run on the result), and it accepts what
/// JSON does not (a comma before `]` or `}`) or keeps one of two members
/// of one name silently, which took three more scans over the text. This
/// reader does it all in one pass, in time linear in the text: the depth
/// limit is enforced as containers open, so refused input costs no more
/// than the bytes up to the refusal.
///
/// Strict: one value (any type at the top), whitespace of space, tab, LF
/// and CR only, strings of valid UTF-8 with no unescaped control
/// character and no lone surrogate escape, numbers by the JSON grammar and
/// within Double's range. Positions in messages are 1-based byte offsets
/// ("character 21"), as the messages of earlier versions counted them.
public struct JSONReader {
    /// Why text is not JSON, or not acceptable JSON.
    public struct Problem: Error, Sendable {
        /// The 0-based byte offset of the problem.
        public let offset: Int
        /// What is wrong, to follow "not valid JSON: " (for `.syntax`) or a place.
        public let message: String
        /// Which rule the text breaks.
        public let kind: Kind

        /// The classes of problem, for callers that word each differently.
        public enum Kind: Sendable, Equatable {
            /// Not JSON at all; `message` says why and where.
            case syntax
            /// A member's key given twice in one object; `place` is that
            /// member's (`marker.children[1].fill`).
            case duplicateKey(place: String)
            /// More arrays and objects inside one another than allowed.
            case tooDeep
            /// A number beyond Double's range (or a non-zero one that rounds
            /// to zero); its text as written.
            case numberOutOfRange(String)
        }
    }

    private let bytes: [UInt8]
    private var index = 0
    private let maximumDepth: Int
    /// The keys and indices of the containers open, for the place of a duplicate key.
    private var path: [PathComponent] = []

    private enum PathComponent {
        case key(String)
        case index(Int)
    }

    /// Reads `bytes` (UTF-8; a leading byte-order mark is skipped) as one
    /// JSON value, with arrays and objects nested at most `maximumDepth` deep.
    public static func parse(_ bytes: [UInt8], maximumDepth: Int) throws(Problem) -> JSONValue {
        var reader = JSONReader(bytes: bytes, maximumDepth: maximumDepth)
        if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF { reader.index = 3 }
        reader.skipWhitespace()
        let value = try reader.value(depth: 0)
        reader.skipWhitespace()
        guard reader.index == bytes.count else {
            throw reader.syntax("unexpected \(reader.describeCurrent()) after the end of the JSON value at character \(reader.index + 1)")
        }
        return value
    }

    private init(bytes: [UInt8], maximumDepth: Int) {
        self.bytes = bytes
        self.maximumDepth = maximumDepth
    }

    // MARK: Values

    private mutating func value(depth: Int) throws(Problem) -> JSONValue {
        guard index < bytes.count else { throw syntax("unexpected end of the text (expected a value)") }
        switch bytes[index] {
        case UInt8(ascii: "{"): return try object(depth: depth)
        case UInt8(ascii: "["): return try array(depth: depth)
        case UInt8(ascii: "\""): return .string(try string())
        case UInt8(ascii: "t"): try literal("true"); return .bool(true)
        case UInt8(ascii: "f"): try literal("false"); return .bool(false)
        case UInt8(ascii: "n"): try literal("null"); return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try number())
        default: throw syntax("expected a value at character \(index + 1), found \(describeCurrent())")
        }
    }

    private mutating func open(depth: Int) throws(Problem) {
        guard depth < maximumDepth else {
            throw Problem(offset: index, message: "nested deeper than \(maximumDepth) levels (at character \(index + 1))", kind: .tooDeep)
        }
        index += 1
        skipWhitespace()
    }

    private mutating func object(depth: Int) throws(Problem) -> JSONValue {
        let start = index
        try open(depth: depth)
        var members: [String: JSONValue] = [:]
        if current == UInt8(ascii: "}") { index += 1; return .object(members) }
        path.append(.key(""))
        while true {
            guard current == UInt8(ascii: "\"") else {
                if index >= bytes.count { throw unclosed("object", at: start) }
                if current == UInt8(ascii: "}") && bytes[previousNonWhitespace(before: index)] == UInt8(ascii: ",") {
                    throw syntax("a comma before the closing } at character \(previousNonWhitespace(before: index) + 1)")
                }
                throw syntax("expected a key (a string in quotes) at character \(index + 1), found \(describeCurrent())")
            }
            let keyStart = index
            let key = try string()
            path[path.count - 1] = .key(key)
            skipWhitespace()
            guard current == UInt8(ascii: ":") else {
                if index >= bytes.count { throw unclosed("object", at: start) }
                throw syntax("expected ':' after the key at character \(index + 1), found \(describeCurrent())")
            }
            index += 1
            skipWhitespace()
            let value = try self.value(depth: depth + 1)
            guard members.updateValue(value, forKey: key) == nil else {
                throw Problem(offset: keyStart, message: "given twice in one object (only one would be used)",
                              kind: .duplicateKey(place: place()))
            }
            skipWhitespace()
            switch current {
            case UInt8(ascii: ","):
                index += 1
                skipWhitespace()
            case UInt8(ascii: "}"):
                index += 1
                path.removeLast()
                return .object(members)
            case nil: throw unclosed("object", at: start)
            default: throw syntax("expected ',' or '}' at character \(index + 1), found \(describeCurrent())")
            }
        }
    }

    private mutating func array(depth: Int) throws(Problem) -> JSONValue {
        let start = index
        try open(depth: depth)
        var items: [JSONValue] = []
        if current == UInt8(ascii: "]") { index += 1; return .array(items) }
        path.append(.index(0))
        while true {
            if current == UInt8(ascii: "]") {
                throw syntax("a comma before the closing ] at character \(previousNonWhitespace(before: index) + 1)")
            }
            if index >= bytes.count { throw unclosed("array", at: start) }
            path[path.count - 1] = .index(items.count)
            items.append(try value(depth: depth + 1))
            skipWhitespace()
            switch current {
            case UInt8(ascii: ","):
                index += 1
                skipWhitespace()
            case UInt8(ascii: "]"):
                index += 1
                path.removeLast()
                return .array(items)
            case nil: throw unclosed("array", at: start)
            default: throw syntax("expected ',' or ']' at character \(index + 1), found \(describeCurrent())")
            }
        }
    }

    private mutating func literal(_ word: StaticString) throws(Problem) {
        let count = word.utf8CodeUnitCount
        let start = word.utf8Start
        for offset in 0..<count where index + offset >= bytes.count || bytes[index + offset] != start[offset] {
            throw syntax("expected a value at character \(index + 1), found \(describeCurrent())")
        }
        index += count
    }

    // MARK: Strings

    /// A string at the cursor's `"`, the cursor left after its closing quote.
    private mutating func string() throws(Problem) -> String {
        let start = index
        index += 1
        let contentStart = index
        // Most strings hold no escape: their bytes, once checked, are the string.
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                guard let text = String(validating: bytes[contentStart..<index], as: UTF8.self) else {
                    throw invalidUTF8(in: contentStart..<index)
                }
                index += 1
                return text
            }
            if byte == UInt8(ascii: "\\") { break }
            if byte < 0x20 { throw controlCharacter(byte) }
            index += 1
        }
        var text: [UInt8] = Array(bytes[contentStart..<index])
        while true {
            guard index < bytes.count else {
                throw Problem(offset: start, message: "unexpected end of the text: the string at character \(start + 1) is not closed", kind: .syntax)
            }
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") { break }
            if byte < 0x20 { throw controlCharacter(byte) }
            if byte != UInt8(ascii: "\\") { text.append(byte); index += 1; continue }
            guard index + 1 < bytes.count else { index += 1; continue }
            let escape = bytes[index + 1]
            switch escape {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): text.append(escape)
            case UInt8(ascii: "b"): text.append(0x08)
            case UInt8(ascii: "f"): text.append(0x0C)
            case UInt8(ascii: "n"): text.append(0x0A)
            case UInt8(ascii: "r"): text.append(0x0D)
            case UInt8(ascii: "t"): text.append(0x09)
            case UInt8(ascii: "u"):
                let escapeStart = index
                var scalar = try hexQuad(at: index + 2)
                index += 6
                if scalar >= 0xD800 && scalar < 0xDC00 {
                    guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u"),
                          case let low = try hexQuad(at: index + 2), low >= 0xDC00 && low < 0xE000 else {
                        throw syntax("a lone surrogate escape \\u\(hex(scalar)) at character \(escapeStart + 1) (it needs its pair)", at: escapeStart)
                    }
                    scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                    index += 6
                } else if scalar >= 0xDC00 && scalar < 0xE000 {
                    throw syntax("a lone surrogate escape \\u\(hex(scalar)) at character \(escapeStart + 1) (it needs its pair)", at: escapeStart)
                }
                text.append(contentsOf: String(Unicode.Scalar(scalar)!).utf8)
                continue
            default:
                throw syntax("an unknown escape '\\\(describe(escape))' at character \(index + 1) (JSON has \\\" \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX)")
            }
            index += 2
        }
        index += 1
        guard let decoded = String(validating: text, as: UTF8.self) else { throw invalidUTF8(in: contentStart..<(index - 1)) }
        return decoded
    }

    private func hexQuad(at position: Int) throws(Problem) -> UInt32 {
        var value: UInt32 = 0
        for offset in 0..<4 {
            guard position + offset < bytes.count else {
                throw syntax("unexpected end of the text in the escape at character \(position - 1)", at: position - 2)
            }
            let byte = bytes[position + offset]
            let digit: UInt32
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(byte - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = UInt32(byte - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = UInt32(byte - UInt8(ascii: "A") + 10)
            default: throw syntax("a \\u escape needs four hexadecimal digits (at character \(position - 1))", at: position - 2)
            }
            value = value << 4 | digit
        }
        return value
    }

    private func hex(_ value: UInt32) -> String {
        let digits = String(value, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }

    private func controlCharacter(_ byte: UInt8) -> Problem {
        syntax("a control character (byte 0x\(hex(UInt32(byte)).suffix(2))) in a string at character \(index + 1) (write it as an escape, e.g. \\n)")
    }

    private func invalidUTF8(in range: Range<Int>) -> Problem {
        var position = range.lowerBound
        while position < range.upperBound {
            let length = JSONReader.sequenceLength(bytes, at: position, end: range.upperBound)
            if length == 0 { break }
            position += length
        }
        let byte = bytes[min(position, bytes.count - 1)]
        return syntax("a string that is not valid UTF-8 (byte \(position + 1) is 0x\(hex(UInt32(byte)).suffix(2)))", at: position)
    }

    /// The length of the valid UTF-8 sequence at `position`, 0 when it is not one (RFC 3629 §4).
    private static func sequenceLength(_ bytes: [UInt8], at position: Int, end: Int) -> Int {
        let lead = bytes[position]
        let length: Int, second: ClosedRange<UInt8>
        switch lead {
        case 0x00...0x7F: return 1
        case 0xC2...0xDF: length = 2; second = 0x80...0xBF
        case 0xE0: length = 3; second = 0xA0...0xBF
        case 0xE1...0xEC, 0xEE, 0xEF: length = 3; second = 0x80...0xBF
        case 0xED: length = 3; second = 0x80...0x9F
        case 0xF0: length = 4; second = 0x90...0xBF
        case 0xF1...0xF3: length = 4; second = 0x80...0xBF
        case 0xF4: length = 4; second = 0x80...0x8F
        default: return 0
        }
        guard position + length <= end, second.contains(bytes[position + 1]) else { return 0 }
        for offset in 2..<length where bytes[position + offset] & 0xC0 != 0x80 { return 0 }
        return length
    }

    // MARK: Numbers

    /// A number by the JSON grammar: `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`.
    private mutating func number() throws(Problem) -> Double {
        let start = index
        if current == UInt8(ascii: "-") { index += 1 }
        func digits() -> Int {
            let first = index
            while let byte = current, byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") { index += 1 }
            return index - first
        }
        let integerStart = index
        let integerDigits = digits()
        guard integerDigits > 0 else { throw syntax("expected a digit at character \(index + 1), found \(describeCurrent())") }
        if integerDigits > 1 && bytes[integerStart] == UInt8(ascii: "0") {
            throw syntax("a number with a leading zero at character \(start + 1)", at: start)
        }
        var significantDigits = bytes[integerStart..<index].contains { $0 != UInt8(ascii: "0") }
        if current == UInt8(ascii: ".") {
            index += 1
            let fractionStart = index
            guard digits() > 0 else { throw syntax("expected a digit after '.' at character \(index + 1), found \(describeCurrent())") }
            significantDigits = significantDigits || bytes[fractionStart..<index].contains { $0 != UInt8(ascii: "0") }
        }
        if current == UInt8(ascii: "e") || current == UInt8(ascii: "E") {
            index += 1
            if current == UInt8(ascii: "+") || current == UInt8(ascii: "-") { index += 1 }
            guard digits() > 0 else { throw syntax("expected a digit in the exponent at character \(index + 1), found \(describeCurrent())") }
        }
        let text = String(decoding: bytes[start..<index], as: UTF8.self)
        guard let value = Double(text), value.isFinite, value != 0 || !significantDigits else {
            let shown = text.count > 40 ? String(text.prefix(37)) + "..." : text
            let range = Double(text)?.isInfinite == false
                ? "too close to 0: the smallest a number can be is ±\(Double.leastNonzeroMagnitude)"
                : "beyond ±\(Double.greatestFiniteMagnitude)"
            throw Problem(offset: start, message: "the number \(shown) at character \(start + 1) is out of range (\(range))",
                          kind: .numberOutOfRange(text))
        }
        return value
    }

    // MARK: Cursor and messages

    private var current: UInt8? { index < bytes.count ? bytes[index] : nil }

    private mutating func skipWhitespace() {
        while let byte = current, byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 { index += 1 }
    }

    private func previousNonWhitespace(before position: Int) -> Int {
        var position = position - 1
        while position > 0, bytes[position] == 0x20 || bytes[position] == 0x0A || bytes[position] == 0x0D || bytes[position] == 0x09 {
            position -= 1
        }
        return max(position, 0)
    }

    private func syntax(_ message: String, at offset: Int? = nil) -> Problem {
        Problem(offset: offset ?? index, message: message, kind: .syntax)
    }

    private func unclosed(_ container: String, at start: Int) -> Problem {
        syntax("unexpected end of the text: the \(container) at character \(start + 1) is not closed", at: start)
    }

    /// The byte at the cursor as a message shows it: `'}'`, `byte 0xFF`, `the end of the text`.
    private func describeCurrent() -> String {
        guard let byte = current else { return "the end of the text" }
        return byte >= 0x21 && byte < 0x7F ? "'\(describe(byte))'" : "byte 0x\(hex(UInt32(byte)).suffix(2))"
    }

    private func describe(_ byte: UInt8) -> String { String(Unicode.Scalar(byte)) }

    /// The place of the member being read: `marker.children[1].fill`.
    private func place() -> String {
        var place = ""
        for component in path {
            switch component {
            case .key(let key): place += place.isEmpty ? key : "." + key
            case .index(let index): place += "[\(index)]"
            }
        }
        return place
    }
}
