import Foundation
import PinmintGeometry
@testable import PinmintRaster
import Testing

/// Random drawings across the edges of small canvases: paths of lines and
/// curves that reach past every side, fills and dashed strokes, nested
/// clips, layers composited through clips, groups resolving conflation,
/// gradients and shadows. The rasterizer's hot loops index through
/// unsafe buffer pointers, which no build checks; this sweep runs in the
/// debug build, where every array index and integer operation is checked,
/// and where the pointers' offsets come from the same clipped bounds as
/// the arrays', so an index those bounds do not keep in range traps here
/// (as the clip + line case of issue 21 did, ClippedLayerTests).
/// `make fuzz` covers the same code in the release mode under
/// AddressSanitizer (the path-data, svg-render and marker-render harnesses).
///
/// Every pixel must also stay premultiplied (no channel above its alpha).
/// `PINMINT_SWEEP_CASES` sets the number of drawings (default 250 a
/// seed); the seeds make every run draw the same.
struct BoundsSweepTests {
    /// SpanTests' SplitMix64, with the draws this sweep needs.
    struct Random {
        var generator: SpanTests.SplitMix
        init(state: UInt64) { generator = SpanTests.SplitMix(state: state) }
        mutating func next() -> UInt64 { generator.next() }
        mutating func below(_ bound: Int) -> Int { Int(next() % UInt64(bound)) }
        /// A value in `range`, often a whole or half pixel (edges on pixel boundaries are their own case).
        mutating func coordinate(_ range: ClosedRange<Double>) -> Double {
            let unit = Double(next() >> 11) / Double(1 << 53)
            let value = range.lowerBound + unit * (range.upperBound - range.lowerBound)
            switch below(4) {
            case 0: return value.rounded()
            case 1: return (value * 2).rounded() / 2
            default: return value
            }
        }
    }

    static let casesPerSeed = ProcessInfo.processInfo.environment["PINMINT_SWEEP_CASES"].flatMap(Int.init) ?? 250

    static func path(_ random: inout Random, width: Int, height: Int) -> Path {
        let xs = -0.5 * Double(width)...1.5 * Double(width), ys = -0.5 * Double(height)...1.5 * Double(height)
        var path = Path()
        for _ in 0..<(1 + random.below(3)) {
            path.move(to: Point(random.coordinate(xs), random.coordinate(ys)))
            for _ in 0..<(1 + random.below(6)) {
                let end = Point(random.coordinate(xs), random.coordinate(ys))
                switch random.below(4) {
                case 0: path.quadCurve(to: end, control: Point(random.coordinate(xs), random.coordinate(ys)))
                case 1: path.curve(to: end, control1: Point(random.coordinate(xs), random.coordinate(ys)),
                                   control2: Point(random.coordinate(xs), random.coordinate(ys)))
                default: path.line(to: end)
                }
            }
            if random.below(2) == 0 { path.close() }
        }
        return path
    }

    static func paint(_ random: inout Random, width: Int) -> Paint {
        let color = Color(red: Double(random.below(256)) / 255, green: 0.5, blue: 0.25, alpha: Double(1 + random.below(255)) / 255)
        let stops = [GradientStop(offset: 0, color: color), GradientStop(offset: 1, color: .black)]
        switch random.below(5) {
        case 0: return .linearGradient(LinearGradient(start: .zero, end: Point(Double(width), 3), stops: stops))
        case 1: return .radialGradient(RadialGradient(center: Point(3, 3), radius: Double(width) / 2, stops: stops, spread: .reflect))
        default: return .solid(color)
        }
    }

    /// One drawing, or a group of them, on `canvas`.
    static func draw(_ random: inout Random, on canvas: Canvas, depth: Int = 0) throws(RasterError) {
        let width = canvas.width, height = canvas.height
        let path = Self.path(&random, width: width, height: height)
        let paint = Self.paint(&random, width: width)
        let rule: FillRule = random.below(2) == 0 ? .nonZero : .evenOdd
        switch depth < 2 ? random.below(9) : random.below(4) {
        case 0, 1:
            try canvas.fill(path, paint: paint, rule: rule)
        case 2:
            let style = StrokeStyle(width: Double(random.below(8)) / 2, cap: [.butt, .round, .square][random.below(3)],
                                    join: [.miter, .round, .bevel][random.below(3)],
                                    dashes: random.below(3) == 0 ? [Double(1 + random.below(4)), Double(1 + random.below(3))] : [])
            try canvas.stroke(path, style: style, paint: paint)
        case 3:
            let shadow = Shadow(color: .black.withOpacity(0.5), offset: Point(Double(random.below(5)) - 2, 2),
                                blurRadius: Double(random.below(4)))
            try canvas.fill(path, paint: paint, rule: rule, shadow: shadow)
        case 4, 5:
            try canvas.pushClip(Self.path(&random, width: width, height: height), rule: rule)
            for _ in 0..<(1 + random.below(3)) { try draw(&random, on: canvas, depth: depth + 1) }
            try canvas.popClip()
        case 6:
            // Drawn unclipped into a layer, composited through a clip pushed after it (how SVG clips a group).
            try canvas.beginLayer()
            for _ in 0..<(1 + random.below(3)) { try draw(&random, on: canvas, depth: depth + 1) }
            let clipped = random.below(2) == 0
            if clipped { try canvas.pushClip(Self.path(&random, width: width, height: height)) }
            try canvas.endLayer(opacity: Double(1 + random.below(4)) / 4, clipped: clipped)
            if clipped { try canvas.popClip() }
        case 7:
            guard depth == 0 else { return try canvas.fill(path, paint: paint) }
            var nested = random
            _ = random.next()
            try canvas.drawGroupResolvingConflation(opacity: Double(1 + random.below(4)) / 4) { (group, transform) throws(RasterError) in
                for _ in 0..<(1 + nested.below(3)) {
                    try group.fill(Self.path(&nested, width: width, height: height), paint: .solid(.black), transform: transform)
                }
            }
        default:
            try canvas.fill(path, paint: paint, rule: rule, opacity: Double(random.below(5)) / 4)
        }
    }

    @Test(arguments: 0..<4)
    func randomDrawingsStayInTheirBuffers(seed: Int) throws {
        var random = Random(state: UInt64(seed) &* 0x2545_F491_4F6C_DD1D)
        var drawn = 0
        for _ in 0..<Self.casesPerSeed {
            let canvas = try Canvas(width: 1 + random.below(48), height: 1 + random.below(40))
            if random.below(4) == 0 { canvas.clear(.white) }
            for _ in 0..<(1 + random.below(3)) {
                do { try Self.draw(&random, on: canvas) } catch .unbalanced(let message) {
                    Issue.record("seed \(seed): \(message)")
                } catch {
                    continue   // a limit refused it: fine, it drew nothing out of range
                }
            }
            let pixels = canvas.makeImage().pixels
            for index in stride(from: 0, to: pixels.count, by: 4) {
                let alpha = pixels[index + 3]
                if pixels[index] > alpha || pixels[index + 1] > alpha || pixels[index + 2] > alpha {
                    Issue.record("seed \(seed): pixel \(index / 4) of a \(canvas.width)x\(canvas.height) canvas is not premultiplied")
                    break
                }
            }
            drawn += 1
        }
        #expect(drawn == Self.casesPerSeed)
    }
}
