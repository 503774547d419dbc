import Foundation
import PinmintGeometry
@testable import PinmintRaster
import Testing

/// A mask rasterized once and composited at whole-pixel offsets gives the
/// pixels a direct fill of the moved path gives (glyph masks rely on it).
/// Not under a clip: a fill resolves its edges against the clip's exactly,
/// a mask can only multiply coverages, so text fills directly when clipped.
@Suite struct CoverageMaskTests {
    static func star() -> Path {
        var path = Path()
        for i in 0..<10 {
            let angle = Double(i) * .pi / 5 - .pi / 2, radius = i % 2 == 0 ? 9.0 : 3.7
            let point = Point(10 + radius * cos(angle), 10 + radius * sin(angle))
            if i == 0 { path.move(to: point) } else { path.line(to: point) }
        }
        path.close()
        path.addCircle(center: Point(10, 10), radius: 2.2)
        return path
    }

    /// The largest difference between two same-size canvases, in 16-bit steps of any channel.
    static func largestDifference(_ first: Canvas, _ second: Canvas) -> Int {
        var worst = 0
        for y in 0..<first.height {
            for x in 0..<first.width {
                let a = first.pixel(x: x, y: y), b = second.pixel(x: x, y: y)
                for (u, v) in [(a.red, b.red), (a.green, b.green), (a.blue, b.blue), (a.alpha, b.alpha)] {
                    worst = max(worst, Int((abs(u - v) * 65535).rounded()))
                }
            }
        }
        return worst
    }

    @Test(arguments: [(0.0, 0.0, 3, 4), (0.37, 0.81, 7, 2), (0.5, 0.25, -5, -6), (0.99, 0.01, 30, 12)])
    func maskMatchesDirectFill(fractionX: Double, fractionY: Double, x: Int, y: Int) throws {
        let direct = try Canvas(width: 48, height: 40), masked = try Canvas(width: 48, height: 40)
        for canvas in [direct, masked] {
            canvas.clear(try Color(parsing: "#20406080"))
        }
        let color = try Color(parsing: "rgba(200, 30, 90, 0.85)")
        let path = CoverageMaskTests.star()
        try direct.fill(path, paint: .solid(color), transform: .translation(Double(x) + fractionX, Double(y) + fractionY),
                        opacity: 0.9)
        let mask = try masked.makeCoverageMask(path, transform: .translation(fractionX, fractionY))
        try masked.fill(mask: mask, x: x, y: y, color: color, opacity: 0.9)
        let worst = CoverageMaskTests.largestDifference(direct, masked)
        // The path is moved by whole pixels in floating point: a last-bit change may round one 16-bit step either way.
        #expect(worst <= 2, "16-bit difference \(worst)")
    }

    /// Wide shapes: masks composite each row's run of full coverage as one
    /// fill (opaque colour) or blend (translucent), over transparent rows, over
    /// drawn ones, and cut by the canvas edge.
    @Test(arguments: [("#3598DB", false, 4), ("rgba(77, 77, 77, 0.8)", false, 4), ("#3598DB", true, 4),
                      ("rgba(77, 77, 77, 0.8)", true, -9), ("#FFFFFF", true, 30)])
    func fullRunsMatchDirectFill(color: String, overDrawing: Bool, x: Int) throws {
        let direct = try Canvas(width: 64, height: 40), masked = try Canvas(width: 64, height: 40)
        var shape = Path()
        shape.addRoundedRect(Rect(x: 0.3, y: 0.6, width: 44.5, height: 21.2), radius: 5)
        shape.addCircle(center: Point(12, 30), radius: 8.4)
        for canvas in [direct, masked] where overDrawing {
            var stripe = Path()
            stripe.addRect(Rect(x: 0, y: 8, width: 64, height: 9.5))
            try canvas.fill(stripe, paint: .solid(try Color(parsing: "#E74C3C")))
        }
        let paint = try Color(parsing: color)
        try direct.fill(shape, paint: .solid(paint), transform: .translation(Double(x), 3))
        let mask = try masked.makeCoverageMask(shape)
        try masked.fill(mask: mask, x: x, y: 3, color: paint)
        let worst = CoverageMaskTests.largestDifference(direct, masked)
        #expect(worst <= 2, "16-bit difference \(worst)")
    }

    @Test func maskOutsideTheCanvasDrawsNothing() throws {
        let canvas = try Canvas(width: 8, height: 8)
        let mask = try canvas.makeCoverageMask(CoverageMaskTests.star())
        try canvas.fill(mask: mask, x: 100, y: -100, color: .black)
        #expect(canvas.straightRGBA8().allSatisfy { $0 == 0 })
        #expect(mask.width == 18 && mask.height == 17 && mask.originX == 1 && mask.originY == 1)
    }

    /// A rounded rectangle's mask widened by repeating straight columns
    /// composites what the wider rectangle's own mask composites, moved by
    /// whole pixels (a direct fill too, where no clip is set), over
    /// transparent or drawn pixels and under a clip.
    @Test(arguments: [(0.0, 1, [(9, 30)]), (0.25, 0, [(8, 1), (13, 17)]), (0.5, 3, [(12, 0), (14, 5)])], [false, true])
    func stretchedMaskMatchesWiderOne(case: (fractionY: Double, dx: Int, insertions: [(Int, Int)]), overDrawn: Bool) throws {
        func box(width: Double) -> Path {
            var path = Path()
            path.addRoundedRect(Rect(x: 2, y: 3 + `case`.fractionY, width: width, height: 14.5), radius: 5)
            return path
        }
        let added = `case`.insertions.reduce(0) { $0 + $1.1 }
        let wider = box(width: 20 + Double(added)).transformed(by: .translation(Double(`case`.dx), 0))
        let color = Color(red: 0.2, green: 0.6, blue: 0.86)
        var clipPath = Path()
        clipPath.addEllipse(in: Rect(x: 4.3, y: 0.6, width: 40.5, height: 21.2))
        for clipped in [false, true] {
            let direct = try Canvas(width: 80, height: 24), masked = try Canvas(width: 80, height: 24)
            for canvas in [direct, masked] {
                if overDrawn { try canvas.fill(CoverageMaskTests.star(), paint: .solid(Color(red: 0.9, green: 0.2, blue: 0.1, alpha: 0.7))) }
                if clipped { try canvas.pushClip(clipPath) }
            }
            if clipped {
                try direct.fill(mask: try direct.makeCoverageMask(wider), x: 0, y: 0, color: color)
            } else {
                try direct.fill(wider, paint: .solid(color))
            }
            let mask = try masked.makeCoverageMask(box(width: 20))
            // Columns 8 ... 14 of the narrow box (x 7 ... 15 in the canvas, mask origin 1 or 2) are straight.
            let stretched = try #require(mask.stretched(inserting: `case`.insertions.map { (column: $0.0, count: $0.1) }, dx: `case`.dx, dy: 0))
            #expect(stretched.width == mask.width + added)
            #expect(stretched.isStretched == (added > 0) && !stretched.materialized().isStretched)
            #expect(stretched.materialized().width == stretched.width)
            #expect(stretched.stretched(inserting: [], dx: 0, dy: 0) == nil)
            try masked.fill(mask: stretched, x: 0, y: 0, color: color)
            #expect(CoverageMaskTests.largestDifference(direct, masked) <= 8, "clipped \(clipped)")
        }
    }

    @Test func stretchingRefusesBadInsertions() throws {
        let canvas = try Canvas(width: 8, height: 8)
        var path = Path()
        path.addRect(Rect(x: 1, y: 1, width: 5, height: 5))
        let mask = try canvas.makeCoverageMask(path)
        #expect(mask.stretched(inserting: [(column: 2, count: 1), (column: 2, count: 1)], dx: 0, dy: 0) == nil)
        #expect(mask.stretched(inserting: [(column: 3, count: 1), (column: 1, count: 1)], dx: 0, dy: 0) == nil)
        #expect(mask.stretched(inserting: [(column: mask.width, count: 1)], dx: 0, dy: 0) == nil)
        #expect(mask.stretched(inserting: [(column: -1, count: 1)], dx: 0, dy: 0) == nil)
        #expect(mask.stretched(inserting: [(column: 1, count: -1)], dx: 0, dy: 0) == nil)
        #expect(mask.stretched(inserting: [(column: 1, count: Canvas.maximumSide)], dx: 0, dy: 0) == nil)
        #expect(mask.stretched(inserting: [], dx: Int.max, dy: 0) == nil)
        #expect(mask.stretched(inserting: [], dx: Int.min, dy: 0) == nil)
        #expect(mask.stretched(inserting: [], dx: 0, dy: Int.min) == nil)
        let same = try #require(mask.stretched(inserting: [], dx: 2, dy: -1))
        #expect(same.width == mask.width && same.originX == mask.originX + 2 && same.originY == mask.originY - 1)
    }
}

/// A small mask drawn again over the same plain background copies the rows
/// it composited there before (`CoverageMask.Stamps`): the pixels must be
/// exactly those of blending, row by row, wherever the background is not
/// plain, the mask is cut by the canvas, or the colour or background changes.
@Suite struct MaskStampTests {
    /// The canvas both sides draw on: a plain body, a stripe of another
    /// colour through some rows of it, a band down it, and a transparent margin.
    static func background(_ canvas: Canvas) throws {
        canvas.clear()
        var body = Path()
        body.addRect(Rect(x: 6, y: 4, width: 80, height: 44))
        try canvas.fill(body, paint: .solid(try Color(parsing: "#3598DB")))
        var stripe = Path()
        stripe.addRect(Rect(x: 30.5, y: 21.25, width: 30, height: 2.5))
        try canvas.fill(stripe, paint: .solid(try Color(parsing: "rgba(200, 30, 90, 0.6)")))
        // A band from column 64 on: rows of a mask across its edge take the
        // stamp up to it and are blended from there.
        var band = Path()
        band.addRect(Rect(x: 64, y: 4, width: 10, height: 44))
        try canvas.fill(band, paint: .solid(try Color(parsing: "#2ECC71")))
    }

    /// Where the mask goes: over the plain body (again and again), across the
    /// stripe, cut by the left edge, half out over the transparent margin,
    /// across the band's left edge.
    static let places = [(20, 10), (20, 10), (40, 8), (20, 10), (35, 14), (-6, 12), (70, 30), (44, 26), (40, 8), (12, 28),
                         (50, 10), (51, 27), (53, 12), (55, 29), (57, 6), (46, 18)]

    @Test(arguments: [("#FFFFFF", 1.0), ("#1A1A1A", 0.6), ("rgba(255, 200, 0, 0.7)", 1.0)])
    func stampedRowsAreBlendedRows(color: String, opacity: Double) throws {
        let stamped = try Canvas(width: 96, height: 56), blended = try Canvas(width: 96, height: 56)
        try MaskStampTests.background(stamped)
        try MaskStampTests.background(blended)
        let paint = try Color(parsing: color)
        let transform = AffineMap.translation(0.37, 0.6)
        let mask = try stamped.makeCoverageMask(CoverageMaskTests.star(), transform: transform)
        #expect(mask.stamps != nil)
        for (x, y) in MaskStampTests.places {
            try stamped.fill(mask: mask, x: x, y: y, color: paint, opacity: opacity)
            // A mask of its own each time: its first drawing, never stamped.
            try blended.fill(mask: try blended.makeCoverageMask(CoverageMaskTests.star(), transform: transform), x: x, y: y,
                             color: paint, opacity: opacity)
        }
        #expect(mask.stamps?.kept != nil, "the stamp was never made, so never used")
        #expect(CoverageMaskTests.largestDifference(stamped, blended) == 0)
    }

    /// Colours and backgrounds taking turns: a stamp is only ever used for its own.
    @Test func changingColourOrBackground() throws {
        let stamped = try Canvas(width: 96, height: 56), blended = try Canvas(width: 96, height: 56)
        try MaskStampTests.background(stamped)
        try MaskStampTests.background(blended)
        let mask = try stamped.makeCoverageMask(CoverageMaskTests.star())
        let colors = [try Color(parsing: "#FFFFFF"), try Color(parsing: "#E74C3C")]
        // Runs of three drawings in one colour, then the other: each run makes
        // its stamp (replacing the other colour's), and some places are
        // drawn over earlier drawings, a background of their own.
        var kept: [Bool] = []
        for round in 0..<4 {
            for (index, (x, y)) in MaskStampTests.places.enumerated() {
                let color = colors[(index / 3 + round) % 2]
                try stamped.fill(mask: mask, x: x, y: y, color: color)
                try blended.fill(mask: try blended.makeCoverageMask(CoverageMaskTests.star()), x: x, y: y, color: color)
                kept.append(mask.stamps?.kept?.color == Canvas.premultipliedFloat(color))
            }
        }
        #expect(kept.filter { $0 }.count > 10, "\(kept)")
        #expect(CoverageMaskTests.largestDifference(stamped, blended) == 0)
    }

    /// Inside a layer (group opacity) the layer's own pixels are the background.
    @Test func insideALayer() throws {
        let stamped = try Canvas(width: 96, height: 56), blended = try Canvas(width: 96, height: 56)
        let mask = try stamped.makeCoverageMask(CoverageMaskTests.star())
        for canvas in [stamped, blended] {
            try MaskStampTests.background(canvas)
            try canvas.beginLayer()
            var plate = Path()
            plate.addRect(Rect(x: 10, y: 6, width: 60, height: 30))
            try canvas.fill(plate, paint: .solid(try Color(parsing: "#2ECC71")))
            for (x, y) in [(14, 8), (34, 8), (50, 12), (24, 14)] {
                let used = canvas === stamped ? mask : try canvas.makeCoverageMask(CoverageMaskTests.star())
                try canvas.fill(mask: used, x: x, y: y, color: try Color(parsing: "#FFFFFF"))
            }
            try canvas.endLayer(opacity: 0.7)
        }
        #expect(mask.stamps?.kept != nil)
        #expect(CoverageMaskTests.largestDifference(stamped, blended) == 0)
    }

    @Test func largeAndStretchedMasksKeepNone() throws {
        let canvas = try Canvas(width: 200, height: 100)
        var wide = Path()
        wide.addRoundedRect(Rect(x: 0.5, y: 0.5, width: 120, height: 60), radius: 6)
        #expect(try canvas.makeCoverageMask(wide).stamps == nil)
        let small = try canvas.makeCoverageMask(CoverageMaskTests.star())
        #expect(small.stamps != nil)
        #expect(small.stretched(inserting: [(column: 10, count: 5)], dx: 0, dy: 0)?.stamps == nil)
    }
}
