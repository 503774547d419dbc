// TEMPORARY stand-in for the SVG path-data parser being written on another
// branch. Delete this file when the real `Path(svgPathData:)` lands.

/// Where SVG path data stopped making sense.
public struct PathDataError: Error, Equatable, CustomStringConvertible {
    /// Byte offset into the path data.
    public let offset: Int
    /// What the parser wanted to find there.
    public let expected: String
    public init(offset: Int, expected: String) { self.offset = offset; self.expected = expected }
    public var description: String { "expected \(expected) at offset \(offset)" }
}

extension Path {
    /// Parses SVG path data (M L H V C S Q T A Z, absolute and relative).
    public init(svgPathData: String) throws(PathDataError) {
        self.init()
        let bytes = Array(svgPathData.utf8)
        var index = 0
        func isSpace(_ b: UInt8) -> Bool { b == 0x20 || b == 0x09 || b == 0x0A || b == 0x0D || b == 0x0C }
        func skip() {
            while index < bytes.count, isSpace(bytes[index]) { index += 1 }
            if index < bytes.count, bytes[index] == UInt8(ascii: ",") {
                index += 1
                while index < bytes.count, isSpace(bytes[index]) { index += 1 }
            }
        }
        func isDigit(_ b: UInt8) -> Bool { b >= 0x30 && b <= 0x39 }
        func number() throws(PathDataError) -> Double {
            skip()
            let start = index
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
            var digits = 0
            while index < bytes.count, isDigit(bytes[index]) { index += 1; digits += 1 }
            if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
                index += 1
                while index < bytes.count, isDigit(bytes[index]) { index += 1; digits += 1 }
            }
            guard digits > 0 else { index = start; throw PathDataError(offset: start, expected: "a number") }
            if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
                var probe = index + 1
                if probe < bytes.count, bytes[probe] == UInt8(ascii: "+") || bytes[probe] == UInt8(ascii: "-") { probe += 1 }
                if probe < bytes.count, isDigit(bytes[probe]) {
                    index = probe
                    while index < bytes.count, isDigit(bytes[index]) { index += 1 }
                }
            }
            guard let value = Double(String(decoding: bytes[start..<index], as: UTF8.self)), value.isFinite else {
                throw PathDataError(offset: start, expected: "a finite number")
            }
            return value
        }
        func flag() throws(PathDataError) -> Bool {
            skip()
            guard index < bytes.count, bytes[index] == UInt8(ascii: "0") || bytes[index] == UInt8(ascii: "1") else {
                throw PathDataError(offset: index, expected: "a flag (0 or 1)")
            }
            index += 1
            return bytes[index - 1] == UInt8(ascii: "1")
        }
        func startsNumber() -> Bool {
            skip()
            guard index < bytes.count else { return false }
            let b = bytes[index]
            return isDigit(b) || b == UInt8(ascii: "-") || b == UInt8(ascii: "+") || b == UInt8(ascii: ".")
        }
        var current = Point.zero, start = Point.zero
        var lastControl: Point? = nil, lastQuadControl: Point? = nil
        skip()
        if index < bytes.count, bytes[index] != UInt8(ascii: "M"), bytes[index] != UInt8(ascii: "m") {
            throw PathDataError(offset: index, expected: "a moveto command (M or m)")
        }
        while true {
            skip()
            guard index < bytes.count else { break }
            let command = bytes[index]
            let commandOffset = index
            index += 1
            let relative = command >= UInt8(ascii: "a")
            let upper = relative ? command - 32 : command
            func point() throws(PathDataError) -> Point {
                let x = try number(), y = try number()
                return relative ? Point(current.x + x, current.y + y) : Point(x, y)
            }
            var first = true
            repeat {
                var control: Point? = nil, quadControl: Point? = nil
                switch upper {
                case UInt8(ascii: "M"):
                    let p = try point()
                    if first { move(to: p); start = p } else { line(to: p) }
                    current = p
                case UInt8(ascii: "L"):
                    current = try point(); line(to: current)
                case UInt8(ascii: "H"):
                    let x = try number(); current = Point(relative ? current.x + x : x, current.y); line(to: current)
                case UInt8(ascii: "V"):
                    let y = try number(); current = Point(current.x, relative ? current.y + y : y); line(to: current)
                case UInt8(ascii: "C"):
                    let c1 = try point(), c2 = try point(), p = try point()
                    curve(to: p, control1: c1, control2: c2); current = p; control = c2
                case UInt8(ascii: "S"):
                    let c1 = lastControl.map { current * 2 - $0 } ?? current
                    let c2 = try point(), p = try point()
                    curve(to: p, control1: c1, control2: c2); current = p; control = c2
                case UInt8(ascii: "Q"):
                    let c = try point(), p = try point()
                    quadCurve(to: p, control: c); current = p; quadControl = c
                case UInt8(ascii: "T"):
                    let c = lastQuadControl.map { current * 2 - $0 } ?? current
                    let p = try point()
                    quadCurve(to: p, control: c); current = p; quadControl = c
                case UInt8(ascii: "A"):
                    let rx = try number(), ry = try number(), rotation = try number()
                    let large = try flag(), sweep = try flag()
                    let p = try point()
                    ellipticalArc(to: p, radiusX: rx, radiusY: ry, rotationDegrees: rotation, largeArc: large, sweep: sweep)
                    current = p
                case UInt8(ascii: "Z"):
                    close(); current = start
                default:
                    throw PathDataError(offset: commandOffset, expected: "a path command")
                }
                lastControl = control; lastQuadControl = quadControl
                first = false
            } while upper != UInt8(ascii: "Z") && startsNumber()
        }
    }
}
