import Foundation
import PinmintGeometry
@testable import PinmintRaster
import Testing

/// The limits on what one canvas's drawings may take: work and layers.
struct WorkLimitTests {
    /// A five-pointed star drawn non-zero: its inner corners make exact rows.
    static func star(scale: Double) -> Path {
        var path = Path()
        for index in 0..<5 {
            let angle = Double(index) * 4 * .pi / 5 - .pi / 2
            let point = Point(50 + 45 * cos(angle), 50 + 45 * sin(angle)) * scale
            if index == 0 { path.move(to: point) } else { path.line(to: point) }
        }
        path.close()
        return path
    }

    static func pixels(_ canvas: Canvas) -> [UInt16] { canvas.makeImage().pixels }

    /// Found by `make fuzz` (Fuzz/regressions/svg-render/long-dashed-line-redrawn-per-block.svg):
    /// a 942-byte SVG whose dashed line runs 135,000 units past its
    /// 220-unit canvas ran 6.9 s, most of it stroking the line's 11,000
    /// round-capped dashes again for every block that conflation redrew,
    /// since points off the canvas cost no work. Every point is charged now.
    @Test func pointsOffTheCanvasAreCharged() throws {
        var line = Path()
        line.move(to: Point(20, 5)); line.line(to: Point(100_000, 5))
        let style = StrokeStyle(width: 4, cap: .round, dashes: [6, 6])
        let canvas = try Canvas(width: 10, height: 10)
        try canvas.stroke(line, style: style, paint: .solid(.black))
        // 8,333 dashes of two round caps each: hundreds of thousands of points.
        #expect(canvas.work >= 100_000 * Canvas.workPerPoint)
        let limited = try Canvas(width: 10, height: 10)
        limited.workLimit = 1_000_000
        #expect(throws: RasterError.self) { try limited.stroke(line, style: style, paint: .solid(.black)) }
    }

    @Test func aDrawingOverTheLimitIsRefusedBeforeItIsDrawn() throws {
        let canvas = try Canvas(width: 200, height: 200)
        canvas.workLimit = 10_000
        var square = Path(); square.addRect(Rect(x: 0, y: 0, width: 200, height: 200))
        #expect(throws: RasterError.self) { try canvas.fill(square, paint: .solid(.black)) }
        #expect(canvas.pixel(x: 100, y: 100).alpha == 0)
        // A small shape still fits.
        let small = try Canvas(width: 200, height: 200)
        small.workLimit = 10_000
        var dot = Path(); dot.addRect(Rect(x: 10, y: 10, width: 20, height: 20))
        try small.fill(dot, paint: .solid(.black))
        #expect(small.pixel(x: 15, y: 15).alpha == 1)
        #expect(small.work > 0 && small.work <= 10_000)
    }

    @Test func workAddsUpOverDrawings() throws {
        let canvas = try Canvas(width: 100, height: 100)
        var square = Path(); square.addRect(Rect(x: 0, y: 0, width: 100, height: 100))
        try canvas.fill(square, paint: .solid(.black))
        let one = canvas.work
        canvas.workLimit = one * 3 + one / 2
        try canvas.fill(square, paint: .solid(.black))
        try canvas.fill(square, paint: .solid(.black))
        #expect(throws: RasterError.self) { try canvas.fill(square, paint: .solid(.black)) }
    }

    /// Refusals at every stage (before accumulating, before the exact pass)
    /// leave the pooled rasterizer clean: the next canvas draws the star
    /// exactly as a canvas that never refused.
    @Test func refusalsLeaveTheScratchBuffersClean() throws {
        let star = WorkLimitTests.star(scale: 2)
        let reference = try Canvas(width: 200, height: 200)
        try reference.fill(star, paint: .solid(.black))
        let total = reference.work
        #expect(total > 0)
        for step in 1..<16 {
            let limited = try Canvas(width: 200, height: 200)
            limited.workLimit = total * step / 16
            _ = try? limited.fill(star, paint: .solid(.black))
            let again = try Canvas(width: 200, height: 200)
            try again.fill(star, paint: .solid(.black))
            #expect(WorkLimitTests.pixels(again) == WorkLimitTests.pixels(reference), "limit \(step)/16")
        }
    }

    @Test func shadowsAndLayersAreCharged() throws {
        let canvas = try Canvas(width: 400, height: 400)
        var square = Path(); square.addRect(Rect(x: 100, y: 100, width: 200, height: 200))
        try canvas.fill(square, paint: .solid(.black))
        let plain = canvas.work
        let shadowed = try Canvas(width: 400, height: 400)
        try shadowed.fill(square, paint: .solid(.black), shadow: Shadow(color: .black, offset: Point(0, 2), blurRadius: 20))
        #expect(shadowed.work > plain * 4)
        let layered = try Canvas(width: 400, height: 400)
        try layered.beginLayer()
        try layered.endLayer(opacity: 0.5)
        #expect(layered.work == 400 * 400 * Canvas.compositeWorkPerPixel)
    }

    /// Gradients were charged as solid colours, 1 a pixel, for some 25 times
    /// the instructions: 2,000 radial-gradient ellipses at @3x ran 22 s
    /// before the limit refused them. Their shading is charged before they
    /// are drawn: over the limit, nothing is drawn.
    @Test(arguments: ["linear", "radial"])
    func gradientsAreChargedBeforeTheyAreDrawn(_ kind: String) throws {
        var square = Path(); square.addRect(Rect(x: 0, y: 0, width: 100, height: 100))
        let stops = [GradientStop(offset: 0, color: .black), GradientStop(offset: 1, color: Color(red: 1, green: 0, blue: 0, alpha: 1))]
        let paint: Paint = kind == "linear"
            ? .linearGradient(LinearGradient(start: Point(0, 0), end: Point(100, 0), stops: stops))
            : .radialGradient(RadialGradient(center: Point(50, 50), radius: 50, stops: stops))
        let solid = try Canvas(width: 100, height: 100)
        try solid.fill(square, paint: .solid(.black))
        let shaded = try Canvas(width: 100, height: 100)
        try shaded.fill(square, paint: paint)
        #expect(shaded.work >= solid.work + 100 * 100 * 16)
        let limited = try Canvas(width: 100, height: 100)
        limited.workLimit = shaded.work - 1
        #expect(throws: RasterError.self) { try limited.fill(square, paint: paint) }
        #expect(limited.pixel(x: 50, y: 50).alpha == 0)
    }

    @Test func layersNestToTheDepthLimit() throws {
        let canvas = try Canvas(width: 10, height: 10)
        for _ in 1..<Canvas.maximumLayerDepth { try canvas.beginLayer() }
        #expect(throws: RasterError.self) { try canvas.beginLayer() }
        try canvas.endLayer()
        try canvas.beginLayer()
    }

    @Test func largeCanvasesAllowFewerLayers() throws {
        // 4096 × 4096 × 8 bytes = 128 MiB a layer: the canvas and 7 layers fill 1 GiB.
        let canvas = try Canvas(width: 4096, height: 4096)
        for _ in 0..<7 { try canvas.beginLayer() }
        #expect(throws: RasterError.self) { try canvas.beginLayer() }
    }
}
