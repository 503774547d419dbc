#if canImport(Glibc)
import Glibc
#else
import Darwin
#endif
import Testing
@testable import PinmintGeometry

/// Shorthands that keep the case tables readable.
private func M(_ x: Double, _ y: Double) -> PathElement { .move(Point(x, y)) }
private func L(_ x: Double, _ y: Double) -> PathElement { .line(Point(x, y)) }
private func Q(_ cx: Double, _ cy: Double, _ x: Double, _ y: Double) -> PathElement {
    .quad(Point(cx, cy), Point(x, y))
}
private func C(_ c1x: Double, _ c1y: Double, _ c2x: Double, _ c2y: Double, _ x: Double, _ y: Double) -> PathElement {
    .cubic(Point(c1x, c1y), Point(c2x, c2y), Point(x, y))
}
private let Z = PathElement.close

/// The end point of an element (nil for close).
private func endPoint(_ element: PathElement) -> Point? {
    switch element {
    case .move(let p), .line(let p), .quad(_, let p), .cubic(_, _, let p): return p
    case .close: return nil
    }
}

struct SVGPathDataParsingCase: CustomTestStringConvertible, Sendable {
    let data: String
    let elements: [PathElement]
    init(_ data: String, _ elements: [PathElement]) { self.data = data; self.elements = elements }
    var testDescription: String { "\"\(data)\"" }
}

struct SVGPathDataErrorCase: CustomTestStringConvertible, Sendable {
    let data: String
    let offset: Int
    let expected: String
    init(_ data: String, _ offset: Int, _ expected: String) {
        self.data = data; self.offset = offset; self.expected = expected
    }
    var testDescription: String { "\"\(data)\" -> \(expected) at \(offset)" }
}

@Suite("SVG path data")
struct SVGPathDataTests {
    // MARK: Commands

    static let commandCases: [SVGPathDataParsingCase] = [
        .init("", []),
        .init(" \t\r\n\u{0C}", []),
        .init("M10 20", [M(10, 20)]),
        .init("m10 20", [M(10, 20)]),
        .init("  M 10 20  ", [M(10, 20)]),
        // Lines, absolute and relative, with implicit repetition.
        .init("M0 0 L10 0 l5 5", [M(0, 0), L(10, 0), L(15, 5)]),
        .init("M0 0 L1 2 3 4", [M(0, 0), L(1, 2), L(3, 4)]),
        .init("M1 1 l1 2 3 4", [M(1, 1), L(2, 3), L(5, 7)]),
        // Extra pairs after a moveto are linetos of the same case.
        .init("M10 20 30 40", [M(10, 20), L(30, 40)]),
        .init("m10 20 30 40 1 1", [M(10, 20), L(40, 60), L(41, 61)]),
        .init("M1,2,3,4", [M(1, 2), L(3, 4)]),
        // Horizontal and vertical lines.
        .init("M1 1 H5 h2 V7 v-3", [M(1, 1), L(5, 1), L(7, 1), L(7, 7), L(7, 4)]),
        .init("M1 1 H2 3 h1 1", [M(1, 1), L(2, 1), L(3, 1), L(4, 1), L(5, 1)]),
        .init("M1 1 V2 3 v1 1", [M(1, 1), L(1, 2), L(1, 3), L(1, 4), L(1, 5)]),
        // Cubics.
        .init("M0 0 C1 2 3 4 5 6", [M(0, 0), C(1, 2, 3, 4, 5, 6)]),
        .init("M1 1 c1 2 3 4 5 6", [M(1, 1), C(2, 3, 4, 5, 6, 7)]),
        .init("M0 0 C1 1 2 2 3 3 4 4 5 5 6 6", [M(0, 0), C(1, 1, 2, 2, 3, 3), C(4, 4, 5, 5, 6, 6)]),
        .init("M0 0 c1 1 2 2 3 3 1 1 2 2 3 3", [M(0, 0), C(1, 1, 2, 2, 3, 3), C(4, 4, 5, 5, 6, 6)]),
        // Quadratics.
        .init("M0 0 Q1 2 3 4", [M(0, 0), Q(1, 2, 3, 4)]),
        .init("M1 1 q1 2 3 4", [M(1, 1), Q(2, 3, 4, 5)]),
        .init("M0 0 Q1 1 2 2 3 3 4 4", [M(0, 0), Q(1, 1, 2, 2), Q(3, 3, 4, 4)]),
        // Close, and what comes after it.
        .init("M0 0 Z", [M(0, 0), Z]),
        .init("M0 0 L10 0 L10 10 z", [M(0, 0), L(10, 0), L(10, 10), Z]),
        .init("M0 0 L10 0 ZZ", [M(0, 0), L(10, 0), Z]),
        .init("M10 10 l5 0 z l0 5", [M(10, 10), L(15, 10), Z, M(10, 10), L(10, 15)]),
        .init("M10 10 l5 0 z m1 1 l1 0", [M(10, 10), L(15, 10), Z, M(11, 11), L(12, 11)]),
        .init("M10 10 l5 5 z h3", [M(10, 10), L(15, 15), Z, M(10, 10), L(13, 10)]),
        .init("M10 10 l5 5 z c1 1 2 2 3 3", [M(10, 10), L(15, 15), Z, M(10, 10), C(11, 11, 12, 12, 13, 13)]),
        .init("m1 1 l1 0 z m2 2 l1 0 z m3 3", [M(1, 1), L(2, 1), Z, M(3, 3), L(4, 3), Z, M(6, 6)]),
        // A moveto after a moveto replaces it (a lone moveto draws nothing).
        .init("M10 10 L20 20 M30 30 m5 5", [M(10, 10), L(20, 20), M(35, 35)]),
        // Commands run together without separators.
        .init("M0,0L10,0H20V5Z", [M(0, 0), L(10, 0), L(20, 0), L(20, 5), Z]),
        .init("M0 0L1 1l1 1", [M(0, 0), L(1, 1), L(2, 2)]),
    ]

    @Test("every command, absolute and relative, with implicit repetition", arguments: commandCases)
    func commands(_ testCase: SVGPathDataParsingCase) throws {
        let path = try Path(svgPathData: testCase.data)
        #expect(path.elements == testCase.elements)
    }

    // MARK: Smooth curves

    static let smoothCases: [SVGPathDataParsingCase] = [
        // S reflects the previous C's second control point about the current point.
        .init("M0 0 C10 0 20 10 30 10 S50 20 60 10",
              [M(0, 0), C(10, 0, 20, 10, 30, 10), C(40, 10, 50, 20, 60, 10)]),
        .init("M0 0 c1 1 2 2 3 0 s2 -2 3 0", [M(0, 0), C(1, 1, 2, 2, 3, 0), C(4, -2, 5, -2, 6, 0)]),
        // S after S reflects the previous S's control point.
        .init("M0 0 S10 10 20 0 S30 -10 40 0", [M(0, 0), C(0, 0, 10, 10, 20, 0), C(30, -10, 30, -10, 40, 0)]),
        .init("M0 0 S10 10 20 0 30 -10 40 0", [M(0, 0), C(0, 0, 10, 10, 20, 0), C(30, -10, 30, -10, 40, 0)]),
        // S after anything but C or S uses the current point.
        .init("M0 0 L10 0 S20 10 30 0", [M(0, 0), L(10, 0), C(10, 0, 20, 10, 30, 0)]),
        .init("M0 0 Q5 5 10 0 S15 5 20 0", [M(0, 0), Q(5, 5, 10, 0), C(10, 0, 15, 5, 20, 0)]),
        .init("M5 5 S10 10 20 0", [M(5, 5), C(5, 5, 10, 10, 20, 0)]),
        .init("M0 0 C1 1 2 2 3 3 Z S10 10 20 0", [M(0, 0), C(1, 1, 2, 2, 3, 3), Z, M(0, 0), C(0, 0, 10, 10, 20, 0)]),
        // T reflects the previous Q's (or T's) control point.
        .init("M0 0 Q10 10 20 0 T40 0", [M(0, 0), Q(10, 10, 20, 0), Q(30, -10, 40, 0)]),
        .init("M0 0 Q10 10 20 0 T40 0 T60 0", [M(0, 0), Q(10, 10, 20, 0), Q(30, -10, 40, 0), Q(50, 10, 60, 0)]),
        .init("M0 0 Q10 10 20 0 T40 0 60 0", [M(0, 0), Q(10, 10, 20, 0), Q(30, -10, 40, 0), Q(50, 10, 60, 0)]),
        .init("M0 0 q10 10 20 0 t20 0", [M(0, 0), Q(10, 10, 20, 0), Q(30, -10, 40, 0)]),
        // T after anything but Q or T uses the current point.
        .init("M0 0 T10 10", [M(0, 0), Q(0, 0, 10, 10)]),
        .init("M0 0 C1 1 2 2 3 3 T10 10", [M(0, 0), C(1, 1, 2, 2, 3, 3), Q(3, 3, 10, 10)]),
        .init("M0 0 Q10 10 20 0 L30 0 T40 0", [M(0, 0), Q(10, 10, 20, 0), L(30, 0), Q(30, 0, 40, 0)]),
        .init("M0 0 Q10 10 20 0 Z T5 5", [M(0, 0), Q(10, 10, 20, 0), Z, M(0, 0), Q(0, 0, 5, 5)]),
        .init("M0 0 T10 0 S20 10 30 0", [M(0, 0), Q(0, 0, 10, 0), C(10, 0, 20, 10, 30, 0)]),
    ]

    @Test("S and T reflect only after C/S and Q/T", arguments: smoothCases)
    func smoothCurves(_ testCase: SVGPathDataParsingCase) throws {
        let path = try Path(svgPathData: testCase.data)
        #expect(path.elements == testCase.elements)
    }

    // MARK: Numbers

    static let numberCases: [(String, [Double])] = [
        ("M1e-3 1E+5", [0.001, 100_000]),
        ("M1e3 1E-2", [1000, 0.01]),
        ("M.5.5", [0.5, 0.5]),
        ("M-1-2", [-1, -2]),
        ("M10-.5", [10, -0.5]),
        ("M+3,+4", [3, 4]),
        ("M-.5-.5", [-0.5, -0.5]),
        ("M1.5e2.5", [150, 0.5]),
        ("M1. 2.", [1, 2]),
        ("M1.e1 0", [10, 0]),
        ("M0.1 0.2", [0.1, 0.2]),
        ("M0.30000000000000004 1", [0.30000000000000004, 1]),
        ("M007 0.000", [7, 0]),
        ("M123456789012345678901234567890 0", [123456789012345678901234567890.0, 0]),
        ("M1e-400 2.5e-308", [0, 2.5e-308]),
        ("M1.7976931348623157e308 0", [1.7976931348623157e308, 0]),
        ("M0e999 1", [0, 1]),
        ("M\t1\n,\r2", [1, 2]),
        ("M 1 , 2", [1, 2]),
        ("M1,2 3,4", [1, 2, 3, 4]),
    ]

    @Test("number syntax", arguments: numberCases)
    func numbers(_ data: String, _ expected: [Double]) throws {
        let path = try Path(svgPathData: data)
        let coordinates = path.elements.compactMap(endPoint).flatMap { [$0.x, $0.y] }
        #expect(coordinates == expected)
    }

    @Test("numbers convert exactly as Double(String) does")
    func numberConversionMatchesStandardLibrary() throws {
        var generator = SystemRandomNumberGenerator()
        var checked = 0
        for _ in 0..<2000 {
            // Random decimal tokens: up to 19 digits, a point somewhere, an exponent sometimes.
            let digitCount = Int.random(in: 1...19, using: &generator)
            var digits = String((0..<digitCount).map { _ in Character(String(Int.random(in: 0...9))) })
            let point = Int.random(in: 0...digitCount, using: &generator)
            digits.insert(".", at: digits.index(digits.startIndex, offsetBy: point))
            if digits == "." { digits = "0." }
            if Bool.random(using: &generator) { digits += "e\(Int.random(in: -40...40, using: &generator))" }
            if Bool.random(using: &generator) { digits = "-" + digits }
            let path = try Path(svgPathData: "M\(digits) 0")
            let x = try #require(path.currentPoint).x
            #expect(x == Double(digits)!, "token \(digits)")
            checked += 1
        }
        for _ in 0..<1000 {
            let value = Double.random(in: -1e6...1e6, using: &generator) * .pow10(Int.random(in: -30...30))
            let path = try Path(svgPathData: "M\(value) 0")
            #expect(path.currentPoint?.x == value, "value \(value)")
        }
        #expect(checked == 2000)
    }

    // MARK: Arcs

    static let arcFlagCases: [(compact: String, spaced: String)] = [
        ("M0 0 a1 1 0 00 10 10", "M0 0 a 1 1 0 0 0 10 10"),
        ("M0 0 a1,1,0,1,1,2,2", "M0 0 a 1 1 0 1 1 2 2"),
        ("M0 0 A5 5 0 1110 10", "M0 0 A 5 5 0 1 1 10 10"),
        ("M0 0 A5 5 0 0110 10", "M0 0 A 5 5 0 0 1 10 10"),
        ("M0 0 A5 5 0 1,0 10 10", "M0 0 A 5 5 0 1 0 10 10"),
        ("M0 0 a5 5 30 1 0-10-10", "M0 0 a 5 5 30 1 0 -10 -10"),
        ("M0 0 A5 5 0 0 1 10 0 5 5 0 0 1 20 0", "M0 0 A5 5 0 0 1 10 0 A5 5 0 0 1 20 0"),
        ("M0 0 A5 5 0 0 1 10 0,5 5 0 0 1 20 0", "M0 0 A5 5 0 0 1 10 0 A5 5 0 0 1 20 0"),
    ]

    @Test("arc flags without separators read as the spaced form", arguments: arcFlagCases)
    func arcFlags(_ compact: String, _ spaced: String) throws {
        #expect(try Path(svgPathData: compact) == Path(svgPathData: spaced))
    }

    @Test("an arc's flags choose one of four arcs, and the end point is exact")
    func arcFlagsChooseTheArc() throws {
        // From (0,0) to (10,0) on a circle of radius 10: the two centres are (5, ±√75).
        let offset = 75.0.squareRoot()
        for (flags, centreY, expectedSweepSign) in [("0 1", offset, 1.0), ("1 1", -offset, 1.0),
                                                     ("0 0", -offset, -1.0), ("1 0", offset, -1.0)] {
            let path = try Path(svgPathData: "M0 0 A10 10 0 \(flags) 10 0")
            #expect(path.currentPoint == Point(10, 0))
            let centre = Point(5, centreY)
            var previousAngle = atan2(-centreY, -5.0), total = 0.0
            for point in samples(of: path) {
                #expect(abs(point.distance(to: centre) - 10) < 1e-4, "flags \(flags) at \(point)")
                let angle = atan2(point.y - centre.y, point.x - centre.x)
                var step = angle - previousAngle
                if step > .pi { step -= 2 * .pi } else if step < -.pi { step += 2 * .pi }
                total += step
                previousAngle = angle
            }
            let isLarge = flags.hasPrefix("1")
            #expect(abs(abs(total) - (isLarge ? 5 * .pi / 3 : .pi / 3)) < 1e-6, "flags \(flags)")
            #expect(total * expectedSweepSign > 0, "flags \(flags)")
        }
    }

    static let arcEdgeCases: [SVGPathDataParsingCase] = [
        // A zero radius is a straight line; the same end point draws nothing.
        .init("M0 0 A0 5 0 0 1 10 0", [M(0, 0), L(10, 0)]),
        .init("M0 0 A5 0 0 0 1 10 0", [M(0, 0), L(10, 0)]),
        .init("M3 4 A5 5 0 0 1 3 4", [M(3, 4)]),
        .init("M3 4 a5 5 0 0 1 0 0 l1 1", [M(3, 4), L(4, 5)]),
    ]

    @Test("arc edge cases", arguments: arcEdgeCases)
    func arcEdgeCase(_ testCase: SVGPathDataParsingCase) throws {
        #expect(try Path(svgPathData: testCase.data).elements == testCase.elements)
    }

    @Test("relative arcs end relative to the current point; radii that are too small grow")
    func relativeArcs() throws {
        let path = try Path(svgPathData: "M10 10 a1 1 0 0 1 10 0")
        #expect(path.currentPoint == Point(20, 10))
        // Radius 1 cannot span 10: scaled to 5, a half circle about (15, 10).
        for point in samples(of: path) { #expect(abs(point.distance(to: Point(15, 10)) - 5) < 1e-4) }
        let bounds = try #require(path.bounds)
        #expect(abs(bounds.minY - 5) < 1e-9 && abs(bounds.maxY - 10) < 1e-9)
        // Negative radii are used as their absolute value.
        #expect(try Path(svgPathData: "M0 0 A-5 -5 0 0 1 10 0") == Path(svgPathData: "M0 0 A5 5 0 0 1 10 0"))
    }

    @Test("S and T after an arc do not reflect")
    func smoothAfterArc() throws {
        let path = try Path(svgPathData: "M0 0 A5 5 0 0 1 10 0 S20 10 30 0 A5 5 0 0 1 40 0 T50 0")
        let smooth = path.elements.filter {
            if case .cubic(let c1, _, let p) = $0 { return p == Point(30, 0) && c1 == Point(10, 0) }
            if case .quad(let c, let p) = $0 { return p == Point(50, 0) && c == Point(40, 0) }
            return false
        }
        #expect(smooth.count == 2)
    }

    // MARK: Errors

    static let errorCases: [SVGPathDataErrorCase] = [
        .init("M 10", 4, "a number"),
        .init("L 10 10", 0, "a moveto command (M or m)"),
        .init("  5 5", 2, "a moveto command (M or m)"),
        .init(",M 0 0", 0, "a moveto command (M or m)"),
        .init("M 10 10 X", 8, "a command letter"),
        .init("M 0 0 # ", 6, "a command letter"),
        .init("M 0 0 Z 5", 8, "a command letter"),
        .init("M 0 0 L 1 2é", 11, "a command letter"),
        .init("éM 0 0", 0, "a moveto command (M or m)"),
        .init("M1 1 A 1 1 0 2 0 5 5", 13, "an arc flag (0 or 1)"),
        .init("M1 1 A 1 1 0 0 -1 5 5", 15, "an arc flag (0 or 1)"),
        .init("M 0 0 A 1 1 0 1", 15, "an arc flag (0 or 1)"),
        .init("M 1e999 0", 2, "a finite number"),
        .init("M 0 -1e400", 4, "a finite number"),
        .init("M1e308 0 l1e308 0", 10, "coordinates that stay finite"),
        .init("M 10,,10", 5, "a number"),
        .init("M 10 10,", 8, "a number"),
        .init("M 10 10, L 5 5", 9, "a number"),
        .init("M,10 10", 1, "a number"),
        .init("M 1e 2", 4, "exponent digits"),
        .init("M 1e+ 2", 5, "exponent digits"),
        .init("M - 2", 2, "a number"),
        .init("M . 2", 2, "a number"),
        .init("M 0 0 L", 7, "a number"),
        .init("M 0 0 H", 7, "a number"),
        .init("M 0 0 C 1 2 3 4 5", 17, "a number"),
        .init("M 0 0 L 1 2 3", 13, "a number"),
        .init("M", 1, "a number"),
    ]

    @Test("the first error throws with its offset and what was expected", arguments: errorCases)
    func errors(_ testCase: SVGPathDataErrorCase) {
        #expect(throws: PathDataError(offset: testCase.offset, expected: testCase.expected)) {
            try Path(svgPathData: testCase.data)
        }
    }

    @Test("the error describes itself")
    func errorDescription() {
        #expect(PathDataError(offset: 7, expected: "a number").description
                == "path data: expected a number at offset 7")
    }

    @Test("a limit bounds the number of elements")
    func elementLimit() throws {
        #expect(throws: PathDataError(offset: 16, expected: "at most 3 path elements")) {
            try Path(svgPathData: "M0 0 L1 1 L2 2 L3 3", maximumElementCount: 3)
        }
        // An arc that needs 8 cubics passes the limit part-way through one argument set.
        #expect(throws: PathDataError(offset: 7, expected: "at most 5 path elements")) {
            try Path(svgPathData: "M0 0 A 5 5 0 1 1 0 0.001", maximumElementCount: 5)
        }
        #expect(Path.defaultSVGPathDataElementLimit == 1_000_000)
        #expect(try Path(svgPathData: "M0 0 L1 1 L2 2", maximumElementCount: 3).elements.count == 3)
    }

    @Test("a long string parses")
    func longInput() throws {
        let data = "M0 0" + String(repeating: " l1 1 h-1 v1 c1 1 2 2 3 3 s1 1 2 2 q1 1 2 2 t1 1 a1 1 0 0 1 1 1", count: 10_000)
        let path = try Path(svgPathData: data)
        #expect(path.elements.count > 80_000)
        #expect(path.isFinite)
    }

    // MARK: Serialising

    static let serialisedCases: [(String, String)] = [
        ("", ""),
        ("M10 20 L30 40", "M10 20 L30 40"),
        ("M.5 -.5 l1.5 .25", "M.5-.5 L2-.25"),
        ("M0 0 Q1 2 3 4 C5 6 7 8 9 10 Z", "M0 0 Q1 2 3 4 C5 6 7 8 9 10 Z"),
        ("M0 0 l1 1 z l1 0", "M0 0 L1 1 Z M0 0 L1 0"),
        ("M1e-5 1e20 L-0 0", "M1e-05 1e+20 L0 0"),
        ("M0 0 H10 V10", "M0 0 L10 0 L10 10"),
    ]

    @Test("svgPathData writes M, L, Q, C and Z with compact numbers", arguments: serialisedCases)
    func serialising(_ data: String, _ expected: String) throws {
        #expect(try Path(svgPathData: data).svgPathData == expected)
    }

    static let roundTripCases: [String] = [
        "M10 10 l5 0 z m1 1 l1 0",
        "M0 0 C10 0 20 10 30 10 S50 20 60 10 Q1 1 2 2 T3 3",
        "M0 0 A10 5 30 1 0 7.25 -3.125 a1 2 3 0 1 4 5 Z",
        "M0.1 0.2 L0.30000000000000004 123456.789 L-1e-7 3e300",
        "M1 1 H2 V3 h-4 v-5 z M9 9 Z",
    ]

    @Test("parsing what svgPathData wrote gives the same path", arguments: roundTripCases)
    func roundTrip(_ data: String) throws {
        let path = try Path(svgPathData: data)
        #expect(try Path(svgPathData: path.svgPathData) == path)
    }
}

/// Points along every curve and line of a path (excluding each subpath's first point).
func samples(of path: Path, perSegment: Int = 32) -> [Point] {
    var result: [Point] = []
    var current = Point.zero
    for element in path.elements {
        switch element {
        case .move(let p):
            current = p
        case .line(let p):
            result.append(p); current = p
        case .quad(let c, let p):
            for i in 1...perSegment { result.append(Path.quadPoint(current, c, p, Double(i) / Double(perSegment))) }
            current = p
        case .cubic(let c1, let c2, let p):
            for i in 1...perSegment {
                result.append(Path.cubicPoint(current, c1, c2, p, Double(i) / Double(perSegment)))
            }
            current = p
        case .close:
            break
        }
    }
    return result
}

private extension Double {
    static func pow10(_ exponent: Int) -> Double {
        var value = 1.0
        for _ in 0..<abs(exponent) { value *= 10 }
        return exponent < 0 ? 1 / value : value
    }
}
