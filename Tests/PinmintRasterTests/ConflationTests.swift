import PinmintGeometry
@testable import PinmintRaster
import Testing

/// `drawResolvingConflation`: pixels where separately drawn shapes leave
/// partial coverage take the mean of a 16 × 16 finer drawing (each fine
/// pixel's coverage still an exact area); every other pixel is what the
/// drawing in turn gives.
@Suite struct ConflationTests {
    static func rect(_ x0: Double, _ y0: Double, _ x1: Double, _ y1: Double) -> Path {
        var path = Path()
        path.addRect(Rect(x: x0, y: y0, width: x1 - x0, height: y1 - y0))
        return path
    }

    /// Two shapes meeting along x = 10.5 (full height unless `top` says otherwise).
    static func drawAbutting(on canvas: Canvas, transform: AffineMap, left: Color, right: Color,
                             top: Double = 0) throws(RasterError) {
        try canvas.fill(rect(0, top, 10.5, 20), paint: .solid(left), transform: transform)
        try canvas.fill(rect(10.5, top, 20, 20), paint: .solid(right), transform: transform)
    }

    static func inTurnAndResolved(background: Color = .transparent,
                                  _ draw: (Canvas, AffineMap) throws(RasterError) -> Void) throws -> (Canvas, Canvas) {
        let inTurn = try Canvas(width: 20, height: 20), resolved = try Canvas(width: 20, height: 20)
        inTurn.clear(background); resolved.clear(background)
        try draw(inTurn, .identity)
        try resolved.drawResolvingConflation(draw)
        return (inTurn, resolved)
    }

    @Test func abuttingShapesOfOneColourLeaveNoSeam() throws {
        let blue = Color(red: 0.16, green: 0.5, blue: 0.73)
        let (inTurn, resolved) = try ConflationTests.inTurnAndResolved { canvas, transform throws(RasterError) in
            try ConflationTests.drawAbutting(on: canvas, transform: transform, left: blue, right: blue, top: 2.25)
        }
        // In turn the seam is 1 − ½ × ½ covered; resolved, it is covered.
        #expect(abs(inTurn.pixel(x: 10, y: 8).alpha - 0.75) < 1e-4)
        for y in 3..<20 { #expect(resolved.pixel(x: 10, y: y) == resolved.pixel(x: 9, y: y)) }
        // The corner pixel (10, 2) is ¾ covered: both halves are.
        #expect(abs(resolved.pixel(x: 10, y: 2).alpha - 0.75) < 1e-4)
        #expect(abs(inTurn.pixel(x: 10, y: 2).alpha - (1 - 0.625 * 0.625)) < 1e-4)
        // Nothing else moves.
        for y in 0..<20 {
            for x in 0..<20 where x != 10 { #expect(resolved.pixel(x: x, y: y) == inTurn.pixel(x: x, y: y)) }
        }
    }

    @Test func aSharedPixelTakesEachColourByArea() throws {
        let (_, resolved) = try ConflationTests.inTurnAndResolved { canvas, transform throws(RasterError) in
            try ConflationTests.drawAbutting(on: canvas, transform: transform, left: .init(red: 1, green: 0, blue: 0),
                                             right: .init(red: 0, green: 0, blue: 1))
        }
        let seam = resolved.pixel(x: 10, y: 7)
        #expect(abs(seam.red - 0.5) < 1e-4 && abs(seam.blue - 0.5) < 1e-4 && seam.green == 0 && seam.alpha == 1)
    }

    /// Redrawn pixels start from what the canvas held before the drawing.
    @Test func translucentShapesOverAColouredCanvas() throws {
        let half = Color(red: 0, green: 0, blue: 0, alpha: 0.5)
        let (inTurn, resolved) = try ConflationTests.inTurnAndResolved(background: .white) { canvas, transform throws(RasterError) in
            try ConflationTests.drawAbutting(on: canvas, transform: transform, left: half, right: half)
        }
        // Half black over white everywhere; in turn the seam was 1 − (1 − ¼)² = 0.4375 black.
        #expect(abs(inTurn.pixel(x: 10, y: 5).red - 0.5625) < 1e-4)
        #expect(abs(resolved.pixel(x: 10, y: 5).red - 0.5) < 1e-4)
        #expect(resolved.pixel(x: 10, y: 5).alpha == 1)
        #expect(resolved.pixel(x: 3, y: 5) == inTurn.pixel(x: 3, y: 5))
    }

    /// A shape alone is exact already: its edges are not redrawn.
    @Test func oneShapeIsNotRedrawn() throws {
        let (inTurn, resolved) = try ConflationTests.inTurnAndResolved { canvas, transform throws(RasterError) in
            var circle = Path()
            circle.addCircle(center: Point(9.3, 10.6), radius: 7.7)
            try canvas.fill(circle, paint: .solid(.black), transform: transform)
        }
        #expect(resolved.makeImage().pixels == inTurn.makeImage().pixels)
        #expect(resolved.work < 3 * inTurn.work)
    }

    /// A hard shadow's edge is an edge like a shape's: under a shape of the
    /// same outline it is hidden, so the pixels on the outline are the
    /// shape's colour at the shape's coverage.
    @Test func aHardShadowUnderItsShape() throws {
        let shadow = Shadow(color: .black, offset: .zero, blurRadius: 0), red = Color(red: 1, green: 0, blue: 0)
        let (inTurn, resolved) = try ConflationTests.inTurnAndResolved { canvas, transform throws(RasterError) in
            try canvas.fill(ConflationTests.rect(2, 2, 10.5, 18), paint: .solid(red), transform: transform, shadow: shadow)
        }
        #expect(abs(inTurn.pixel(x: 10, y: 9).alpha - 0.75) < 1e-4)
        #expect(ConflationTests.isClose(resolved.pixel(x: 10, y: 9), Color(red: 1, green: 0, blue: 0, alpha: 0.5)))
    }

    static func isClose(_ a: Color, _ b: Color) -> Bool {
        abs(a.red - b.red) < 1e-4 && abs(a.green - b.green) < 1e-4 && abs(a.blue - b.blue) < 1e-4 && abs(a.alpha - b.alpha) < 1e-4
    }

    @Test func redrawingStaysWithinTheWorkLimit() throws {
        func draw(_ canvas: Canvas, _ transform: AffineMap) throws(RasterError) {
            try ConflationTests.drawAbutting(on: canvas, transform: transform, left: .black, right: .black)
        }
        let (inTurn, resolved) = try ConflationTests.inTurnAndResolved(draw)
        // The seam's 20 pixels are drawn again on 16 × 16 fine pixels each.
        #expect(resolved.work > 5 * inTurn.work)
        // Past the limit, the drawing stays as composited in turn; the
        // redrawing given up counts, up to the limit and not past it.
        let limited = try Canvas(width: 20, height: 20)
        limited.workLimit = 3 * inTurn.work
        #expect(try limited.drawResolvingConflation(draw) == false)
        #expect(limited.makeImage().pixels == inTurn.makeImage().pixels)
        #expect(limited.work == limited.workLimit)
        // The drawing itself past the limit throws as ever.
        let tight = try Canvas(width: 20, height: 20)
        tight.workLimit = inTurn.work / 2
        #expect(throws: RasterError.self) { try tight.drawResolvingConflation(draw) }
    }

    /// Shared pixels in more than `maximumConflationBlocks` blocks: none is redrawn.
    @Test func tooManyBlocksAreLeftAsDrawn() throws {
        // Columns of 1 px from x = 0.5: every pixel holds two edges; 38 × 38 blocks.
        func draw(_ canvas: Canvas, _ transform: AffineMap) throws(RasterError) {
            for column in 0..<300 {
                let gray = Double(column % 7) / 7
                try canvas.fill(ConflationTests.rect(Double(column) + 0.5, 0, Double(column) + 1.5, 300),
                                paint: .solid(Color(red: gray, green: gray, blue: gray)), transform: transform)
            }
        }
        #expect(38 * 38 > Canvas.maximumConflationBlocks)
        let inTurn = try Canvas(width: 300, height: 300), resolved = try Canvas(width: 300, height: 300)
        try draw(inTurn, .identity)
        #expect(try resolved.drawResolvingConflation(draw) == false)
        let same = resolved.makeImage().pixels == inTurn.makeImage().pixels
        #expect(same)
    }

    /// A shadow that is within range at this scale but not 16 times larger: not resolved, not refused.
    @Test func aShadowTooLargeToRedrawFinely() throws {
        let shadow = Shadow(color: .black, offset: Point(Canvas.maximumShadowExtent / 2, 0), blurRadius: 0)
        func draw(_ canvas: Canvas, _ transform: AffineMap) throws(RasterError) {
            try canvas.fill(ConflationTests.rect(0, 0, 10.5, 20), paint: .solid(.black), transform: transform, shadow: shadow)
            try canvas.fill(ConflationTests.rect(10.5, 0, 20, 20), paint: .solid(.black), transform: transform)
        }
        let (inTurn, resolved) = try ConflationTests.inTurnAndResolved(draw)
        let again = try Canvas(width: 20, height: 20)
        #expect(try again.drawResolvingConflation(draw) == false)
        #expect(resolved.makeImage().pixels == inTurn.makeImage().pixels)
    }

    /// The blocks are drawn without the exact pass for pixels where a
    /// path's own chains meet (16 × 16 fine pixels average its error away);
    /// the scratch buffers they hand back must not take that to the next canvas.
    @Test func theNextCanvasStillResolvesCrossingsExactly() throws {
        // Two circles crossing in one path: their chains meet inside pixels.
        func crossing(on canvas: Canvas) throws {
            var path = Path()
            path.addCircle(center: Point(8.3, 10.1), radius: 6.2)
            path.addCircle(center: Point(12.6, 9.7), radius: 5.9)
            try canvas.fill(path, paint: .solid(.black))
        }
        let before = try Canvas(width: 20, height: 20)
        try crossing(on: before)
        _ = try ConflationTests.inTurnAndResolved { canvas, transform throws(RasterError) in
            try ConflationTests.drawAbutting(on: canvas, transform: transform, left: .black, right: .black)
        }
        // Scratch sets go back to a last-in first-out pool: the two canvases'
        // come out first, then the blocks'.
        let canvases = try (0..<4).map { _ in try Canvas(width: 20, height: 20) }
        for (index, canvas) in canvases.enumerated() {
            try crossing(on: canvas)
            let same = canvas.makeImage().pixels == before.makeImage().pixels
            #expect(same, "canvas \(index) after the resolution draws the crossing circles otherwise")
        }
    }

    @Test func refusedWithAClipOrLayerOpen() throws {
        let canvas = try Canvas(width: 20, height: 20)
        try canvas.pushClip(ConflationTests.rect(0, 0, 10, 10))
        #expect(throws: RasterError.self) { try canvas.drawResolvingConflation { _, _ throws(RasterError) in } }
        try canvas.popClip()
        try canvas.beginLayer()
        #expect(throws: RasterError.self) { try canvas.drawResolvingConflation { _, _ throws(RasterError) in } }
        try canvas.endLayer()
    }

    /// An error from the drawing comes out as it is, and the canvas draws on afterwards.
    @Test func aFailingDrawingLeavesTheCanvasUsable() throws {
        let canvas = try Canvas(width: 20, height: 20)
        #expect(throws: RasterError.nonFinite("test")) {
            try canvas.drawResolvingConflation { _, _ throws(RasterError) in throw .nonFinite("test") }
        }
        try canvas.drawResolvingConflation { canvas, transform throws(RasterError) in
            try ConflationTests.drawAbutting(on: canvas, transform: transform, left: .black, right: .black)
        }
        #expect(canvas.pixel(x: 10, y: 10).alpha == 1)
    }

    /// Drawings that leave a layer open are refused rather than composited half-done.
    @Test func aDrawingThatLeavesALayerOpenIsRefused() throws {
        let canvas = try Canvas(width: 20, height: 20)
        #expect(throws: RasterError.self) {
            try canvas.drawResolvingConflation { canvas, transform throws(RasterError) in
                try ConflationTests.drawAbutting(on: canvas, transform: transform, left: .black, right: .black)
                try canvas.beginLayer()
            }
        }
    }

    // MARK: As a group, with clips and layers open

    /// Under an open clip and layer, the group's shared pixels are resolved,
    /// the clip cuts the group, and the layer receives it.
    @Test func aGroupUnderAClipAndALayer() throws {
        let blue = Color(red: 0.16, green: 0.5, blue: 0.73)
        let canvas = try Canvas(width: 20, height: 20)
        canvas.clear(.white)
        try canvas.pushClip(ConflationTests.rect(0, 0, 20, 15.5))
        try canvas.beginLayer()
        let resolved = try canvas.drawGroupResolvingConflation { canvas, transform throws(RasterError) in
            try ConflationTests.drawAbutting(on: canvas, transform: transform, left: blue, right: blue, top: 2)
        }
        #expect(resolved)
        #expect(canvas.layerDepth == 2 && canvas.clipDepth == 1)
        try canvas.endLayer()
        try canvas.popClip()
        // No seam at x = 10; the clip's edge halves row 15 and nothing is drawn below it.
        for y in 2..<15 { #expect(canvas.pixel(x: 10, y: y) == canvas.pixel(x: 9, y: y)) }
        #expect(ConflationTests.isClose(canvas.pixel(x: 10, y: 8), blue))
        let edge = canvas.pixel(x: 10, y: 15), inside = canvas.pixel(x: 10, y: 14)
        #expect(abs(edge.red - (inside.red + 1) / 2) < 1e-3 && abs(edge.green - (inside.green + 1) / 2) < 1e-3)
        #expect(canvas.pixel(x: 10, y: 16) == .white)
    }

    /// Where the group's drawings share no pixel, grouping changes nothing
    /// but rounding: source-over composites the same colours grouped or in turn.
    @Test func aGroupWithoutSharedPixelsIsTheDrawingInTurn() throws {
        let half = Color(red: 0.8, green: 0.2, blue: 0.1, alpha: 0.5)
        func draw(_ canvas: Canvas, _ transform: AffineMap) throws(RasterError) {
            var circle = Path()
            circle.addCircle(center: Point(6.3, 7.1), radius: 4.2)
            try canvas.fill(circle, paint: .solid(half), transform: transform)
            try canvas.fill(ConflationTests.rect(11, 3, 18, 17), paint: .solid(.black), transform: transform)
        }
        let inTurn = try Canvas(width: 20, height: 20), grouped = try Canvas(width: 20, height: 20)
        inTurn.clear(.white); grouped.clear(.white)
        try draw(inTurn, .identity)
        try grouped.drawGroupResolvingConflation(draw)
        let a = inTurn.straightRGBA8(), b = grouped.straightRGBA8()
        #expect(zip(a, b).allSatisfy { abs(Int($0) - Int($1)) <= 1 })
    }

    /// The group fades as a whole with its opacity, over what the canvas holds.
    @Test func aGroupFadesAsOne() throws {
        let canvas = try Canvas(width: 20, height: 20)
        canvas.clear(.white)
        try canvas.drawGroupResolvingConflation(opacity: 0.5) { canvas, transform throws(RasterError) in
            // Two overlapping black squares: as one group, the overlap is no darker.
            try canvas.fill(ConflationTests.rect(2, 2, 12, 12), paint: .solid(.black), transform: transform)
            try canvas.fill(ConflationTests.rect(6, 6, 16, 16), paint: .solid(.black), transform: transform)
        }
        #expect(abs(canvas.pixel(x: 8, y: 8).red - 0.5) < 1e-3)
        #expect(canvas.pixel(x: 8, y: 8) == canvas.pixel(x: 3, y: 3))
    }

    /// Two abutting black rects drawn as a group on a new 20 × 20 canvas
    /// with `limit`; returns the canvas and whether the seam was redrawn.
    static func abuttingGroup(limit: Int) throws -> (Canvas, Bool) {
        let canvas = try Canvas(width: 20, height: 20)
        canvas.workLimit = limit
        let resolved = try canvas.drawGroupResolvingConflation { canvas, transform throws(RasterError) in
            try ConflationTests.drawAbutting(on: canvas, transform: transform, left: .black, right: .black)
        }
        return (canvas, resolved)
    }

    /// The group's drawing and redrawing count against the canvas's work limit.
    @Test func aGroupCountsAgainstTheWorkLimit() throws {
        let inTurn = try Canvas(width: 20, height: 20)
        try ConflationTests.drawAbutting(on: inTurn, transform: .identity, left: .black, right: .black)
        let drawing = inTurn.work, composite = 20 * 20 * Canvas.compositeWorkPerPixel
        let (unlimited, resolved) = try ConflationTests.abuttingGroup(limit: Canvas.defaultWorkLimit)
        #expect(resolved && unlimited.layerDepth == 1)
        let redrawing = unlimited.work - drawing - composite
        #expect(redrawing > composite)
        // Room for the drawing and the composite but not the redrawing: the
        // group stands as composited, and the work given up counts, up to the limit.
        let limit = drawing + composite + redrawing / 2
        let (tight, tightResolved) = try ConflationTests.abuttingGroup(limit: limit)
        #expect(!tightResolved)
        #expect(tight.work == limit)
        #expect(tight.pixel(x: 10, y: 10).alpha < 0.9)
        // No room for the drawing: it throws, its work counted, and no layer stays open.
        let short = try Canvas(width: 20, height: 20)
        short.workLimit = drawing / 2
        #expect(throws: RasterError.self) {
            try short.drawGroupResolvingConflation { canvas, transform throws(RasterError) in
                try ConflationTests.drawAbutting(on: canvas, transform: transform, left: .black, right: .black)
            }
        }
        #expect(short.work > 0 && short.layerDepth == 1)
    }

    /// The group's layer covers its bounds only: what it draws outside is cut,
    /// and only that area is composited.
    @Test func aGroupWithinBounds() throws {
        let canvas = try Canvas(width: 20, height: 20)
        try canvas.drawGroupResolvingConflation(within: Rect(x: 4.5, y: 4.2, width: 10, height: 10)) {
            canvas, transform throws(RasterError) in
            try canvas.fill(ConflationTests.rect(0, 0, 20, 20), paint: .solid(.black), transform: transform)
        }
        // Whole pixels 4..<15 on both axes.
        #expect(canvas.pixel(x: 4, y: 4).alpha == 1 && canvas.pixel(x: 14, y: 14).alpha == 1)
        #expect(canvas.pixel(x: 3, y: 10).alpha == 0 && canvas.pixel(x: 15, y: 10).alpha == 0)
        #expect(canvas.pixel(x: 10, y: 3).alpha == 0 && canvas.pixel(x: 10, y: 15).alpha == 0)
        #expect(throws: RasterError.self) {
            try canvas.drawGroupResolvingConflation(within: Rect(x: 0, y: 0, width: .infinity, height: 1)) { _, _ throws(RasterError) in }
        }
        // Bounds off the canvas draw nothing and cost nothing.
        let work = canvas.work
        #expect(try !canvas.drawGroupResolvingConflation(within: Rect(x: 1e12, y: -1e12, width: 5, height: 5)) {
            canvas, transform throws(RasterError) in
            try canvas.fill(ConflationTests.rect(0, 0, 20, 20), paint: .solid(.black), transform: transform)
        })
        #expect(canvas.work == work)
    }

    /// At opacity 0 the group is not drawn; past 1 it is drawn at 1.
    @Test func aGroupsOpacityIsClamped() throws {
        let canvas = try Canvas(width: 20, height: 20)
        var drawn = false
        try canvas.drawGroupResolvingConflation(opacity: 0) { _, _ throws(RasterError) in drawn = true }
        #expect(!drawn && canvas.work == 0)
        try canvas.drawGroupResolvingConflation(opacity: 3) { canvas, transform throws(RasterError) in
            try canvas.fill(ConflationTests.rect(0, 0, 20, 20), paint: .solid(.black), transform: transform)
        }
        #expect(canvas.pixel(x: 5, y: 5).alpha == 1)
        #expect(throws: RasterError.nonFinite("group opacity")) {
            try canvas.drawGroupResolvingConflation(opacity: .nan) { _, _ throws(RasterError) in }
        }
    }

    /// Layers opened inside a group count with the ones open around it.
    @Test func nestedGroupsKeepTheLayerLimit() throws {
        let canvas = try Canvas(width: 20, height: 20)
        for _ in 1..<(Canvas.maximumLayerDepth - 1) { try canvas.beginLayer() }
        // One layer is left: the group takes it, and nothing can open inside.
        var opened = 0
        #expect(throws: RasterError.self) {
            try canvas.drawGroupResolvingConflation { canvas, _ throws(RasterError) in
                try canvas.beginLayer()
                opened += 1
            }
        }
        #expect(opened == 0 && canvas.layerDepth == Canvas.maximumLayerDepth - 1)
        try canvas.beginLayer()
        #expect(throws: RasterError.self) { try canvas.drawGroupResolvingConflation { _, _ throws(RasterError) in } }
    }
}
