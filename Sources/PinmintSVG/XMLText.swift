/// The text of an XML document as the reader sees it: UTF-8 that has been
/// validated, with line ends normalised to LF, and an index of its lines.
///
/// Everything a file can hold is turned into that form, or refused, before
/// one tag is read: a UTF-8 file (with or without a byte-order mark),
/// UTF-16 (little- or big-endian, with a mark or detected from `<?`), or a
/// file whose XML declaration names ISO-8859-1, windows-1252 or US-ASCII.
/// Every character must be one XML 1.0 allows (§2.2: no C0 control but
/// tab, LF and CR; no U+FFFE or U+FFFF); a byte sequence that is not UTF-8
/// (overlong forms, surrogates, beyond U+10FFFF, truncated) is refused with
/// its line and column. So the tokenizer never meets a byte it has to
/// guess about, and every `String` it makes decodes without repair.
struct XMLText {
    /// The normalised UTF-8 bytes.
    let bytes: [UInt8]
    /// The offset of the first byte of each line after the first.
    private let lineStarts: [Int]

    /// A problem found while decoding, at a byte offset of the decoded text
    /// (or of the file, when decoding did not get that far).
    struct Refusal: Error {
        let offset: Int
        let message: String
    }

    init(_ data: [UInt8]) throws(Refusal) {
        var utf8 = try XMLText.decode(data)
        try XMLText.validate(&utf8)
        bytes = utf8
        var starts: [Int] = []
        for (offset, byte) in utf8.enumerated() where byte == 0x0A { starts.append(offset + 1) }
        lineStarts = starts
    }

    /// The 1-based line and column (in characters) of a byte offset.
    func place(of offset: Int) -> (line: Int, column: Int) {
        let offset = min(max(offset, 0), bytes.count)
        let line = line(of: offset)
        let lineStart = line == 1 ? 0 : lineStarts[line - 2]
        // Columns count characters: the lead bytes before the offset on its line.
        var column = 1
        var index = lineStart
        while index < offset {
            if bytes[index] & 0xC0 != 0x80 { column += 1 }
            index += 1
        }
        return (line, column)
    }

    /// The 1-based line of a byte offset: one more than the line starts at or before it.
    func line(of offset: Int) -> Int {
        var low = 0, high = lineStarts.count
        while low < high {
            let middle = (low + high) / 2
            if lineStarts[middle] <= offset { low = middle + 1 } else { high = middle }
        }
        return low + 1
    }

    // MARK: Decoding

    private enum Encoding { case utf8, latin1, windows1252, ascii }

    /// The file's bytes as UTF-8, byte-order mark removed.
    private static func decode(_ data: [UInt8]) throws(Refusal) -> [UInt8] {
        if data.count >= 3, data[0] == 0xEF, data[1] == 0xBB, data[2] == 0xBF { return Array(data[3...]) }
        if data.count >= 2, data[0] == 0xFF, data[1] == 0xFE {
            return try utf16(data, from: 2, littleEndian: true)
        }
        if data.count >= 2, data[0] == 0xFE, data[1] == 0xFF {
            return try utf16(data, from: 2, littleEndian: false)
        }
        // UTF-16 without a mark, told by the '<' that must come first (XML 1.0 Appendix F).
        if data.count >= 4, data[0] == 0x3C, data[1] == 0, data[2] != 0, data[3] == 0 {
            return try utf16(data, from: 0, littleEndian: true)
        }
        if data.count >= 4, data[0] == 0, data[1] == 0x3C, data[2] == 0, data[3] != 0 {
            return try utf16(data, from: 0, littleEndian: false)
        }
        switch try declaredEncoding(data) {
        case .latin1: return singleByte(data, windows1252: false)
        case .windows1252: return singleByte(data, windows1252: true)
        case .ascii:
            if let offset = data.firstIndex(where: { $0 >= 0x80 }) {
                throw Refusal(offset: offset, message: "the file declares US-ASCII but holds byte 0x\(hex(data[offset]))")
            }
            return data
        case .utf8: return data
        }
    }

    /// The encoding named by an XML declaration at the start, UTF-8 when there is none.
    private static func declaredEncoding(_ data: [UInt8]) throws(Refusal) -> Encoding {
        let start: [UInt8] = Array("<?xml".utf8)
        guard data.count > start.count, Array(data[0..<start.count]) == start else { return .utf8 }
        // The declaration is ASCII and short; look in its first few hundred bytes.
        let end = data[0..<min(data.count, 512)].firstIndex(of: UInt8(ascii: ">")) ?? min(data.count, 512)
        let declaration = String(decoding: data[0..<end], as: UTF8.self)
        guard let range = declaration.range(of: "encoding") else { return .utf8 }
        let rest = declaration[range.upperBound...].drop { $0 == " " || $0 == "=" || $0 == "\t" || $0 == "\n" || $0 == "\r" }
        guard let quote = rest.first, quote == "\"" || quote == "'" else { return .utf8 }
        let name = rest.dropFirst().prefix { $0 != quote }
        switch name.lowercased() {
        case "utf-8", "utf8": return .utf8
        case "iso-8859-1", "iso8859-1", "latin1", "latin-1", "iso_8859-1": return .latin1
        case "windows-1252", "cp1252": return .windows1252
        case "us-ascii", "ascii": return .ascii
        // A declaration read as ASCII is not UTF-16, whatever it says: its bytes are read as UTF-8.
        case "utf-16", "utf16", "utf-16le", "utf-16be": return .utf8
        default:
            throw Refusal(offset: declaration.utf8.distance(from: declaration.startIndex, to: range.lowerBound),
                          message: "the encoding '\(name)' is not supported "
                          + "(UTF-8, UTF-16, ISO-8859-1, windows-1252 and US-ASCII are)")
        }
    }

    private static func utf16(_ data: [UInt8], from start: Int, littleEndian: Bool) throws(Refusal) -> [UInt8] {
        guard (data.count - start) % 2 == 0 else {
            throw Refusal(offset: data.count - 1, message: "the UTF-16 text ends in the middle of a character (an odd number of bytes)")
        }
        var output: [UInt8] = []
        output.reserveCapacity(data.count)
        var index = start
        func unit(_ at: Int) -> UInt32 {
            littleEndian ? UInt32(data[at]) | UInt32(data[at + 1]) << 8 : UInt32(data[at]) << 8 | UInt32(data[at + 1])
        }
        while index < data.count {
            var scalar = unit(index)
            if scalar >= 0xD800 && scalar < 0xDC00 {
                guard index + 3 < data.count, case let low = unit(index + 2), low >= 0xDC00 && low < 0xE000 else {
                    throw Refusal(offset: index, message: "the UTF-16 text holds an unpaired surrogate at byte \(index)")
                }
                scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                index += 2
            } else if scalar >= 0xDC00 && scalar < 0xE000 {
                throw Refusal(offset: index, message: "the UTF-16 text holds an unpaired surrogate at byte \(index)")
            }
            index += 2
            appendUTF8(scalar, to: &output)
        }
        return output
    }

    /// The windows-1252 characters of bytes 0x80...0x9F (0 where it has none).
    private static let windows1252High: [UInt32] = [
        0x20AC, 0, 0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021, 0x02C6, 0x2030, 0x0160, 0x2039, 0x0152, 0, 0x017D, 0,
        0, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2013, 0x2014, 0x02DC, 0x2122, 0x0161, 0x203A, 0x0153, 0, 0x017E, 0x0178,
    ]

    private static func singleByte(_ data: [UInt8], windows1252: Bool) -> [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity(data.count + data.count / 8)
        for byte in data {
            if byte < 0x80 { output.append(byte); continue }
            var scalar = UInt32(byte)
            // An unassigned windows-1252 byte stays a C1 control, which validation refuses.
            if windows1252, byte < 0xA0, windows1252High[Int(byte) - 0x80] != 0 { scalar = windows1252High[Int(byte) - 0x80] }
            appendUTF8(scalar, to: &output)
        }
        return output
    }

    private static func appendUTF8(_ scalar: UInt32, to output: inout [UInt8]) {
        switch scalar {
        case ..<0x80: output.append(UInt8(scalar))
        case ..<0x800:
            output.append(UInt8(0xC0 | scalar >> 6)); output.append(UInt8(0x80 | scalar & 0x3F))
        case ..<0x10000:
            output.append(UInt8(0xE0 | scalar >> 12)); output.append(UInt8(0x80 | scalar >> 6 & 0x3F))
            output.append(UInt8(0x80 | scalar & 0x3F))
        default:
            output.append(UInt8(0xF0 | scalar >> 18)); output.append(UInt8(0x80 | scalar >> 12 & 0x3F))
            output.append(UInt8(0x80 | scalar >> 6 & 0x3F)); output.append(UInt8(0x80 | scalar & 0x3F))
        }
    }

    static func hex(_ byte: UInt8) -> String {
        let digits = Array("0123456789ABCDEF")
        return String([digits[Int(byte >> 4)], digits[Int(byte & 15)]])
    }

    // MARK: Validation

    /// Checks that `text` is UTF-8 of XML characters only, and turns CR LF
    /// and lone CR into LF (XML 1.0 §2.11).
    private static func validate(_ text: inout [UInt8]) throws(Refusal) {
        var hasCarriageReturn = false
        var index = 0
        let count = text.count
        while index < count {
            let byte = text[index]
            if byte >= 0x20 && byte < 0x80 { index += 1; continue }
            if byte < 0x20 {
                if byte == 0x0D { hasCarriageReturn = true } else if byte != 0x09 && byte != 0x0A {
                    throw Refusal(offset: index, message: "a control character (byte 0x\(hex(byte))), which XML does not allow")
                }
                index += 1
                continue
            }
            guard let (scalar, length) = XMLText.scalar(in: text, at: index) else {
                throw Refusal(offset: index, message: "the file is not valid UTF-8 (byte 0x\(hex(byte)))")
            }
            if (scalar >= 0x80 && scalar < 0xA0) || scalar == 0xFFFE || scalar == 0xFFFF {
                throw Refusal(offset: index, message: "a character XML does not allow (U+\(String(scalar, radix: 16, uppercase: true)))")
            }
            index += length
        }
        guard hasCarriageReturn else { return }
        var normalised: [UInt8] = []
        normalised.reserveCapacity(count)
        index = 0
        while index < count {
            let byte = text[index]
            if byte == 0x0D {
                normalised.append(0x0A)
                if index + 1 < count && text[index + 1] == 0x0A { index += 1 }
            } else {
                normalised.append(byte)
            }
            index += 1
        }
        text = normalised
    }

    /// The scalar of the UTF-8 sequence at `index` and its length, or nil
    /// when the bytes there are not well-formed UTF-8 (Unicode 15, table 3-7).
    static func scalar(in bytes: [UInt8], at index: Int) -> (UInt32, Int)? {
        let count = bytes.count
        let lead = bytes[index]
        func continuation(_ offset: Int, _ low: UInt8 = 0x80, _ high: UInt8 = 0xBF) -> UInt32? {
            guard index + offset < count, case let byte = bytes[index + offset], byte >= low, byte <= high else { return nil }
            return UInt32(byte & 0x3F)
        }
        switch lead {
        case 0x00...0x7F: return (UInt32(lead), 1)
        case 0xC2...0xDF:
            guard let b1 = continuation(1) else { return nil }
            return (UInt32(lead & 0x1F) << 6 | b1, 2)
        case 0xE0...0xEF:
            let low: UInt8 = lead == 0xE0 ? 0xA0 : 0x80, high: UInt8 = lead == 0xED ? 0x9F : 0xBF
            guard let b1 = continuation(1, low, high), let b2 = continuation(2) else { return nil }
            return (UInt32(lead & 0x0F) << 12 | b1 << 6 | b2, 3)
        case 0xF0...0xF4:
            let low: UInt8 = lead == 0xF0 ? 0x90 : 0x80, high: UInt8 = lead == 0xF4 ? 0x8F : 0xBF
            guard let b1 = continuation(1, low, high), let b2 = continuation(2), let b3 = continuation(3) else { return nil }
            return (UInt32(lead & 0x07) << 18 | b1 << 12 | b2 << 6 | b3, 4)
        default: return nil
        }
    }
}
