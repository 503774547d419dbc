/// SVG path data (the `d` attribute): a parser to `Path` and a serialiser back.
///
/// The parser follows the SVG 2 path grammar (SVG 2, section 9.3.9, which
/// accepts everything SVG 1.1 does) with the SVG error rule "stop at the
/// first error", except that we throw instead of keeping the part before the
/// error: a marker drawn half-way is worse than a marker refused with a
/// message. Tokenising is done on UTF-8 bytes by hand; only the rare number
/// that the exact fast path cannot convert goes through `Double(Substring)`.

/// A malformed SVG path data string: where, and what was expected.
public struct PathDataError: Error, Equatable, Sendable, CustomStringConvertible {
    /// Offset in the string, in Unicode scalars (characters) from 0.
    ///
    /// Valid path data is pure ASCII and the parser stops at the first byte
    /// it cannot use, so every byte before the offset is ASCII and the byte
    /// offset equals the scalar offset.
    public let offset: Int
    /// What the parser expected there, e.g. "a number", "a command letter",
    /// "an arc flag (0 or 1)".
    public let expected: String

    /// An error at scalar `offset` (from 0) where `expected` was wanted.
    public init(offset: Int, expected: String) {
        self.offset = offset
        self.expected = expected
    }

    /// For example "path data: expected a number at offset 7".
    public var description: String { "path data: expected \(expected) at offset \(offset)" }
}

extension Path {
    /// The default limit on the number of path elements one path data string
    /// may produce (an arc produces up to 8 cubics). It bounds the memory a
    /// hostile string can make the parser use.
    public static let defaultSVGPathDataElementLimit = 1_000_000

    /// Parses SVG path data (the SVG 1.1 / SVG 2 path grammar), e.g.
    /// `"M10 10h20v20z"`, into a path in the same user-space units.
    ///
    /// Supported: every command (M L H V C S Q T A Z, absolute in upper case
    /// and relative in lower case), implicit repetition of a command's
    /// arguments (extra pairs after M / m are L / l), the reflection rules of
    /// S and T, numbers such as `1e-3`, `.5.5` (two numbers) and `10-.5`, arc
    /// flags written without separators (`a1 1 0 00 10 10`). Between two
    /// arguments there may be whitespace and at most one comma; between
    /// commands only whitespace. Arc radii are used as absolute values, a zero
    /// radius draws a line (SVG's out-of-range rules).
    ///
    /// An empty or all-whitespace string gives an empty path.
    ///
    /// - Parameter maximumElementCount: the most path elements the string may
    ///   produce; default `defaultSVGPathDataElementLimit` (1 000 000).
    /// - Throws: `PathDataError` at the first error: data that does not start
    ///   with M or m ("a moveto command (M or m)"), a missing or malformed
    ///   number ("a number", "exponent digits"), a number that overflows
    ///   ("a finite number"), finite numbers whose sum or arc overflows
    ///   ("coordinates that stay finite"), a bad arc flag ("an arc flag (0 or 1)"), an
    ///   unknown command ("a command letter"), or too many elements
    ///   ("at most N path elements"). Nothing is returned on error.
    public init(svgPathData: String,
                maximumElementCount: Int = Path.defaultSVGPathDataElementLimit) throws(PathDataError) {
        var text = svgPathData
        let result: Result<Path, PathDataError> = text.withUTF8 { bytes in
            var parser = SVGPathDataParser(bytes: bytes, maximumElementCount: maximumElementCount)
            do throws(PathDataError) {
                try parser.parse()
                return .success(parser.path)
            } catch {
                return .failure(error)
            }
        }
        self = try result.get()
    }

    /// The path as SVG path data, using only absolute M, L, Q, C and Z with
    /// the shortest decimal form of each number that reads back to the same
    /// `Double` (so `Path(svgPathData: path.svgPathData) == path` for finite
    /// paths). Numbers are separated by a space, or by nothing before a minus
    /// sign; integers have no decimal point, and "0." is written ".".
    /// Non-finite coordinates are written as "nan" or "inf", which do not parse.
    public var svgPathData: String {
        var output = ""
        output.reserveCapacity(elements.count * 16)
        func write(_ letter: Character, _ points: Point...) {
            if !output.isEmpty { output.append(" ") }
            output.append(letter)
            var first = true
            for point in points {
                for value in [point.x, point.y] {
                    let number = Path.compactNumber(value)
                    if !first && !number.hasPrefix("-") { output.append(" ") }
                    output.append(number)
                    first = false
                }
            }
        }
        for element in elements {
            switch element {
            case .move(let p): write("M", p)
            case .line(let p): write("L", p)
            case .quad(let c, let p): write("Q", c, p)
            case .cubic(let c1, let c2, let p): write("C", c1, c2, p)
            case .close: write("Z")
            }
        }
        return output
    }

    /// The shortest text that parses back to `value`: "3", "-.25", "1e-05".
    static func compactNumber(_ value: Double) -> String {
        if value == 0 { return "0" }  // also -0
        if value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
        var text = value.description
        if text.hasPrefix("0.") {
            text.removeFirst()
        } else if text.hasPrefix("-0.") {
            text.remove(at: text.index(after: text.startIndex))
        }
        return text
    }
}

/// A one-pass recursive-descent parser over UTF-8 bytes, building the path
/// as it goes. It tracks the current point, the subpath start and the last
/// control point itself, so relative and smooth commands never depend on how
/// `Path` stores its elements.
struct SVGPathDataParser {
    let bytes: UnsafeBufferPointer<UInt8>
    let maximumElementCount: Int
    var position = 0
    var path = Path()
    var current = Point.zero
    var subpathStart = Point.zero
    /// The second control point of the last C or S, for reflection by S.
    var lastCubicControl: Point?
    /// The control point (given or reflected) of the last Q or T, for reflection by T.
    var lastQuadraticControl: Point?

    init(bytes: UnsafeBufferPointer<UInt8>, maximumElementCount: Int) {
        self.bytes = bytes
        self.maximumElementCount = maximumElementCount
    }

    // MARK: Characters

    private static let space = UInt8(ascii: " "), tab = UInt8(ascii: "\t"), lineFeed = UInt8(ascii: "\n")
    private static let carriageReturn = UInt8(ascii: "\r"), formFeed: UInt8 = 0x0C
    private static let comma = UInt8(ascii: ","), plus = UInt8(ascii: "+"), minus = UInt8(ascii: "-")
    private static let dot = UInt8(ascii: "."), zero = UInt8(ascii: "0"), one = UInt8(ascii: "1")
    private static let nine = UInt8(ascii: "9")

    private var isAtEnd: Bool { position >= bytes.count }
    private var byte: UInt8 { bytes[position] }

    private static func isWhitespace(_ c: UInt8) -> Bool {
        c == space || c == tab || c == lineFeed || c == carriageReturn || c == formFeed
    }
    private static func isDigit(_ c: UInt8) -> Bool { c >= zero && c <= nine }

    private var isAtNumberStart: Bool {
        guard !isAtEnd else { return false }
        let c = byte
        return Self.isDigit(c) || c == Self.dot || c == Self.minus || c == Self.plus
    }

    private mutating func skipWhitespace() {
        while !isAtEnd && Self.isWhitespace(byte) { position += 1 }
    }

    /// Skips SVG's `comma_wsp?` (whitespace, at most one comma, whitespace);
    /// returns whether it skipped a comma.
    private mutating func skipSeparator() -> Bool {
        skipWhitespace()
        guard !isAtEnd, byte == Self.comma else { return false }
        position += 1
        skipWhitespace()
        return true
    }

    private func error(_ expected: String, at offset: Int? = nil) -> PathDataError {
        PathDataError(offset: offset ?? position, expected: expected)
    }

    // MARK: Numbers

    /// Powers of ten that a `Double` holds exactly.
    private static let exactPowersOfTen: [Double] = (0...22).map { exponent in
        var value = 1.0
        for _ in 0..<exponent { value *= 10 }
        return value
    }

    /// Reads `sign? (digits ("." digits?)? | "." digits) ([eE] sign? digits)?`.
    private mutating func number() throws(PathDataError) -> Double {
        let start = position
        guard isAtNumberStart else { throw error("a number") }
        var isNegative = false
        if byte == Self.minus || byte == Self.plus {
            isNegative = byte == Self.minus
            position += 1
        }
        // Significant digits accumulate in `mantissa` while they fit exactly.
        var mantissa: UInt64 = 0
        var significantDigitCount = 0
        var digitCount = 0
        var fractionDigitCount = 0
        func addDigit(_ c: UInt8) {
            if mantissa == 0 && c == Self.zero { return }  // leading zeros carry no precision
            significantDigitCount += 1
            if significantDigitCount <= 19 { mantissa = mantissa &* 10 &+ UInt64(c - Self.zero) }
        }
        while !isAtEnd && Self.isDigit(byte) {
            addDigit(byte); digitCount += 1; position += 1
        }
        if !isAtEnd && byte == Self.dot {
            position += 1
            while !isAtEnd && Self.isDigit(byte) {
                addDigit(byte); digitCount += 1; fractionDigitCount += 1; position += 1
            }
        }
        guard digitCount > 0 else { throw error("a number", at: start) }
        var exponent = 0
        if !isAtEnd && (byte == UInt8(ascii: "e") || byte == UInt8(ascii: "E")) {
            position += 1
            var exponentIsNegative = false
            if !isAtEnd && (byte == Self.minus || byte == Self.plus) {
                exponentIsNegative = byte == Self.minus
                position += 1
            }
            guard !isAtEnd && Self.isDigit(byte) else { throw error("exponent digits") }
            while !isAtEnd && Self.isDigit(byte) {
                if exponent < 100_000 { exponent = exponent * 10 + Int(byte - Self.zero) }
                position += 1
            }
            if exponentIsNegative { exponent = -exponent }
        }
        // Clinger's fast path: an exact integer times or over an exact power
        // of ten is correctly rounded by one IEEE operation.
        let decimalExponent = exponent - fractionDigitCount
        var value: Double
        if significantDigitCount <= 15 && abs(decimalExponent) <= 22 {
            value = Double(mantissa)
            value = decimalExponent >= 0 ? value * Self.exactPowersOfTen[decimalExponent]
                                         : value / Self.exactPowersOfTen[-decimalExponent]
            if isNegative { value = -value }
        } else {
            let token = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<position]), as: UTF8.self)
            guard let converted = Double(token) else { throw error("a finite number", at: start) }
            value = converted
        }
        guard value.isFinite else { throw error("a finite number", at: start) }
        return value
    }

    /// Reads an arc flag: exactly one character, 0 or 1.
    private mutating func flag() throws(PathDataError) -> Bool {
        guard !isAtEnd, byte == Self.zero || byte == Self.one else { throw error("an arc flag (0 or 1)") }
        defer { position += 1 }
        return byte == Self.one
    }

    /// Reads a coordinate pair, relative to the current point when `relative`.
    private mutating func point(relative: Bool) throws(PathDataError) -> Point {
        let x = try number()
        _ = skipSeparator()
        let y = try number()
        return relative ? Point(current.x + x, current.y + y) : Point(x, y)
    }

    // MARK: Commands

    mutating func parse() throws(PathDataError) {
        skipWhitespace()
        if isAtEnd { return }
        guard byte == UInt8(ascii: "M") || byte == UInt8(ascii: "m") else {
            throw error("a moveto command (M or m)")
        }
        while true {
            var command = byte
            position += 1
            skipWhitespace()
            if command == UInt8(ascii: "Z") || command == UInt8(ascii: "z") {
                path.close()
                current = subpathStart
                lastCubicControl = nil
                lastQuadraticControl = nil
                try checkElementCount(at: position)
            } else {
                // One or more argument sets; the first is mandatory.
                while true {
                    let setStart = position, elementCountBefore = path.elements.count
                    try arguments(for: &command)
                    try checkNewElements(from: elementCountBefore, at: setStart)
                    if skipSeparator() { continue }  // after a comma another set must follow
                    if !isAtNumberStart { break }
                }
            }
            if isAtEnd { return }
            guard Self.isCommandLetter(byte) else { throw error("a command letter") }
        }
    }

    private static func isCommandLetter(_ c: UInt8) -> Bool {
        switch c | 0x20 {  // lower case
        case UInt8(ascii: "m"), UInt8(ascii: "z"), UInt8(ascii: "l"), UInt8(ascii: "h"), UInt8(ascii: "v"),
             UInt8(ascii: "c"), UInt8(ascii: "s"), UInt8(ascii: "q"), UInt8(ascii: "t"), UInt8(ascii: "a"):
            return true
        default:
            return false
        }
    }

    private func checkElementCount(at offset: Int) throws(PathDataError) {
        if path.elements.count > maximumElementCount {
            throw error("at most \(maximumElementCount) path elements", at: offset)
        }
    }

    /// Checks the elements one argument set added: their count, and that
    /// finite numbers did not add up to infinite coordinates ("l1e308 0"
    /// twice, or an arc with a radius near `Double.greatestFiniteMagnitude`).
    private func checkNewElements(from firstNew: Int, at offset: Int) throws(PathDataError) {
        try checkElementCount(at: offset)
        // From one element earlier: a moveto replaces a moveto before it.
        let elements = path.elements
        for element in elements[Swift.min(Swift.max(0, firstNew - 1), elements.count)...] {
            switch element {
            case .move(let p), .line(let p):
                if !p.isFinite { throw error("coordinates that stay finite", at: offset) }
            case .quad(let c, let p):
                if !(c.isFinite && p.isFinite) { throw error("coordinates that stay finite", at: offset) }
            case .cubic(let c1, let c2, let p):
                if !(c1.isFinite && c2.isFinite && p.isFinite) {
                    throw error("coordinates that stay finite", at: offset)
                }
            case .close:
                break
            }
        }
    }

    /// Reads one argument set of `command` and adds it to the path. A moveto
    /// turns `command` into the lineto that its further pairs mean.
    private mutating func arguments(for command: inout UInt8) throws(PathDataError) {
        let relative = command >= UInt8(ascii: "a")
        var cubicControl: Point? = nil, quadraticControl: Point? = nil
        switch command | 0x20 {
        case UInt8(ascii: "m"):
            let p = try point(relative: relative)
            path.move(to: p)
            subpathStart = p
            current = p
            command = relative ? UInt8(ascii: "l") : UInt8(ascii: "L")
        case UInt8(ascii: "l"):
            let p = try point(relative: relative)
            path.line(to: p)
            current = p
        case UInt8(ascii: "h"):
            let x = try number()
            let p = Point(relative ? current.x + x : x, current.y)
            path.line(to: p)
            current = p
        case UInt8(ascii: "v"):
            let y = try number()
            let p = Point(current.x, relative ? current.y + y : y)
            path.line(to: p)
            current = p
        case UInt8(ascii: "c"):
            let control1 = try point(relative: relative)
            _ = skipSeparator()
            let control2 = try point(relative: relative)
            _ = skipSeparator()
            let p = try point(relative: relative)
            path.curve(to: p, control1: control1, control2: control2)
            current = p
            cubicControl = control2
        case UInt8(ascii: "s"):
            // The first control point reflects the last C or S's second one about the current point.
            let control1 = lastCubicControl.map { current * 2 - $0 } ?? current
            let control2 = try point(relative: relative)
            _ = skipSeparator()
            let p = try point(relative: relative)
            path.curve(to: p, control1: control1, control2: control2)
            current = p
            cubicControl = control2
        case UInt8(ascii: "q"):
            let control = try point(relative: relative)
            _ = skipSeparator()
            let p = try point(relative: relative)
            path.quadCurve(to: p, control: control)
            current = p
            quadraticControl = control
        case UInt8(ascii: "t"):
            let control = lastQuadraticControl.map { current * 2 - $0 } ?? current
            let p = try point(relative: relative)
            path.quadCurve(to: p, control: control)
            current = p
            quadraticControl = control
        case UInt8(ascii: "a"):
            let radiusX = try number()
            _ = skipSeparator()
            let radiusY = try number()
            _ = skipSeparator()
            let rotation = try number()
            _ = skipSeparator()
            let largeArc = try flag()
            _ = skipSeparator()
            let sweep = try flag()
            _ = skipSeparator()
            let p = try point(relative: relative)
            path.ellipticalArc(to: p, radiusX: radiusX, radiusY: radiusY,
                               rotationDegrees: rotation, largeArc: largeArc, sweep: sweep)
            current = p
        default:
            preconditionFailure("not a command letter")  // parse() checks before calling
        }
        lastCubicControl = cubicControl
        lastQuadraticControl = quadraticControl
    }
}
