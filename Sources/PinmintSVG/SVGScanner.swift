/// A cursor over attribute text that reads SVG numbers, separators and
/// names. Offsets in its errors are byte offsets into the text.
struct SVGScanner {
    let bytes: [UInt8]
    var index = 0

    init(_ text: String) { bytes = Array(text.utf8) }

    var isAtEnd: Bool { index >= bytes.count }
    var current: UInt8? { index < bytes.count ? bytes[index] : nil }

    static func isWhitespace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D || byte == 0x0C
    }
    static func isDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }

    mutating func skipWhitespace() {
        while let byte = current, SVGScanner.isWhitespace(byte) { index += 1 }
    }

    /// Skips whitespace and at most one comma.
    mutating func skipSeparator() {
        skipWhitespace()
        if current == UInt8(ascii: ",") { index += 1; skipWhitespace() }
    }

    mutating func consume(_ byte: UInt8) -> Bool {
        guard current == byte else { return false }
        index += 1
        return true
    }

    /// True when a number starts at the cursor.
    var atNumber: Bool {
        guard let byte = current else { return false }
        return SVGScanner.isDigit(byte) || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "+")
            || byte == UInt8(ascii: ".")
    }

    /// Reads a number (sign, digits, fraction, exponent); an `e` not followed
    /// by digits is left for a unit such as `em`.
    mutating func number() throws(SVGProblem) -> Double {
        let start = index
        if current == UInt8(ascii: "+") || current == UInt8(ascii: "-") { index += 1 }
        var digitCount = 0
        while let byte = current, SVGScanner.isDigit(byte) { index += 1; digitCount += 1 }
        if current == UInt8(ascii: ".") {
            index += 1
            while let byte = current, SVGScanner.isDigit(byte) { index += 1; digitCount += 1 }
        }
        guard digitCount > 0 else {
            index = start
            throw SVGProblem("expected a number at offset \(start)")
        }
        if current == UInt8(ascii: "e") || current == UInt8(ascii: "E") {
            var probe = index + 1
            if probe < bytes.count, bytes[probe] == UInt8(ascii: "+") || bytes[probe] == UInt8(ascii: "-") { probe += 1 }
            if probe < bytes.count, SVGScanner.isDigit(bytes[probe]) {
                index = probe
                while let byte = current, SVGScanner.isDigit(byte) { index += 1 }
            }
        }
        let text = String(decoding: bytes[start..<index], as: UTF8.self)
        guard let value = Double(text), value.isFinite else {
            throw SVGProblem("'\(text)' at offset \(start) is not a finite number")
        }
        return value
    }

    /// Reads ASCII letters, `%` and `-` (a unit or a function name).
    mutating func word() -> String {
        let start = index
        while let byte = current,
              (byte | 0x20) >= UInt8(ascii: "a") && (byte | 0x20) <= UInt8(ascii: "z")
              || byte == UInt8(ascii: "%") { index += 1 }
        return String(decoding: bytes[start..<index], as: UTF8.self)
    }
}

/// What a percentage of the viewport is measured against.
enum SVGAxis {
    case horizontal, vertical
    /// The normalised diagonal, sqrt((w² + h²) / 2), for radii and stroke widths.
    case diagonal
}

/// Lengths, number lists and other small value grammars.
enum SVGValueParser {
    /// Pixels per unit at 96 dpi (CSS absolute units); em and ex assume a 16 px font.
    static let pixelsPerUnit: [String: Double] = [
        "": 1, "px": 1, "pt": 96.0 / 72, "pc": 16, "mm": 96 / 25.4, "cm": 96 / 2.54, "in": 96,
        "em": 16, "ex": 8,
    ]

    /// A length in user units; percentages are of `viewport` along `axis`.
    static func length(_ text: String, axis: SVGAxis, viewport: (width: Double, height: Double))
        throws(SVGProblem) -> Double {
        let (value, unit) = try number(withUnit: text)
        if unit == "%" {
            let reference: Double
            switch axis {
            case .horizontal: reference = viewport.width
            case .vertical: reference = viewport.height
            case .diagonal:
                reference = ((viewport.width * viewport.width + viewport.height * viewport.height) / 2).squareRoot()
            }
            return value / 100 * reference
        }
        guard let factor = pixelsPerUnit[unit] else { throw SVGProblem("unknown unit '\(unit)' in '\(text)'") }
        return value * factor
    }

    /// A number followed by an optional unit (`""`, `%`, `px`...), lower-cased.
    static func number(withUnit text: String) throws(SVGProblem) -> (Double, String) {
        var scanner = SVGScanner(text)
        scanner.skipWhitespace()
        let value = try scanner.number()
        let unit = scanner.word().lowercased()
        scanner.skipWhitespace()
        guard scanner.isAtEnd else {
            throw SVGProblem("unexpected text at offset \(scanner.index) of '\(text)'")
        }
        return (value, unit)
    }

    /// A plain number, no unit.
    static func number(_ text: String) throws(SVGProblem) -> Double {
        let (value, unit) = try number(withUnit: text)
        guard unit.isEmpty else { throw SVGProblem("expected a plain number, found '\(text)'") }
        return value
    }

    /// Numbers separated by whitespace and/or commas (`points`, `viewBox`).
    static func numberList(_ text: String) throws(SVGProblem) -> [Double] {
        var scanner = SVGScanner(text)
        var values: [Double] = []
        scanner.skipWhitespace()
        while !scanner.isAtEnd {
            values.append(try scanner.number())
            scanner.skipSeparator()
        }
        return values
    }

    /// A number or a percentage, as a fraction clamped to 0...1 (`offset`, opacities).
    static func fraction(_ text: String) throws(SVGProblem) -> Double {
        let (value, unit) = try number(withUnit: text)
        switch unit {
        case "": return min(max(value, 0), 1)
        case "%": return min(max(value / 100, 0), 1)
        default: throw SVGProblem("expected a number or a percentage, found '\(text)'")
        }
    }

    /// The id in `url(#id)`, or nil when the text is not such a reference.
    /// The rest after the closing parenthesis is returned as the fallback.
    static func urlReference(_ text: String) -> (id: String, fallback: String)? {
        let trimmed = text.trimmingWhitespace()
        guard trimmed.hasPrefix("url("), let close = trimmed.firstIndex(of: ")") else { return nil }
        var inner = trimmed[trimmed.index(trimmed.startIndex, offsetBy: 4)..<close].trimmingWhitespace()
        if inner.count >= 2, let first = inner.first, first == "'" || first == "\"", inner.last == first {
            inner = String(inner.dropFirst().dropLast())
        }
        guard inner.hasPrefix("#") else { return nil }
        return (String(inner.dropFirst()), String(trimmed[trimmed.index(after: close)...]).trimmingWhitespace())
    }
}

extension StringProtocol {
    func trimmingWhitespace() -> String {
        let bytes = Array(utf8)
        var start = 0, end = bytes.count
        while start < end, SVGScanner.isWhitespace(bytes[start]) { start += 1 }
        while end > start, SVGScanner.isWhitespace(bytes[end - 1]) { end -= 1 }
        return String(decoding: bytes[start..<end], as: UTF8.self)
    }
}
