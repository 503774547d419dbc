import PinmintGeometry
@testable import PinmintRaster
import Testing

/// A layer composited through a clip (`endLayer(clipped: true)`, how SVG
/// clips a group) whose content lies beside the clip in the clip's rows:
/// the columns to composite in such a row are the intersection of two
/// disjoint ranges. It was formed as `max(lows) ..< min(highs)`, a range
/// whose lower bound passed its upper one: a trap in a debug build, and in
/// the -Ounchecked release build a loop that walked past the layer's row
/// (a segfault reading it, or blends written past the canvas's row).
struct ClippedLayerTests {
    /// A clip rectangle and a content rectangle, whole pixels on a 40 × 30
    /// canvas: the composited pixels are exactly those inside both.
    struct Case: CustomTestStringConvertible, Sendable {
        let name: String
        let clip: (x: Int, y: Int, width: Int, height: Int)
        let content: (x: Int, y: Int, width: Int, height: Int)
        var testDescription: String { name }
    }

    static let cases: [Case] = [
        Case(name: "content right of the clip, same rows", clip: (0, 0, 5, 5), content: (20, 0, 5, 5)),
        Case(name: "content left of the clip, same rows", clip: (20, 0, 5, 5), content: (0, 0, 5, 5)),
        Case(name: "content all around the clip", clip: (15, 5, 4, 10), content: (0, 0, 40, 30)),
        Case(name: "content reaching into the clip from the right", clip: (0, 0, 5, 5), content: (3, 2, 30, 10)),
        Case(name: "content below the clip", clip: (0, 0, 5, 5), content: (0, 20, 5, 5)),
        Case(name: "a one-pixel clip at the last column", clip: (39, 29, 1, 1), content: (0, 29, 20, 1)),
    ]

    static func rectangle(_ box: (x: Int, y: Int, width: Int, height: Int)) -> Path {
        var path = Path()
        path.addRect(Rect(x: Double(box.x), y: Double(box.y), width: Double(box.width), height: Double(box.height)))
        return path
    }

    static func contains(_ box: (x: Int, y: Int, width: Int, height: Int), _ x: Int, _ y: Int) -> Bool {
        x >= box.x && x < box.x + box.width && y >= box.y && y < box.y + box.height
    }

    /// Every pixel: opaque red inside clip and content, transparent elsewhere.
    static func expectOnlyTheIntersection(_ canvas: Canvas, _ example: Case) {
        var wrong: [(Int, Int)] = []
        for y in 0..<canvas.height {
            for x in 0..<canvas.width {
                let inside = contains(example.clip, x, y) && contains(example.content, x, y)
                let pixel = canvas.pixel(x: x, y: y)
                if inside ? pixel != Color(red: 1, green: 0, blue: 0) : pixel.alpha != 0 { wrong.append((x, y)) }
            }
        }
        #expect(wrong.isEmpty, "\(wrong.count) pixels wrong, first \(wrong.prefix(4))")
    }

    @Test(arguments: cases)
    func aLayerClippedBesideItsContentCompositesOnlyTheIntersection(_ example: Case) throws {
        let canvas = try Canvas(width: 40, height: 30)
        try canvas.beginLayer()
        try canvas.fill(Self.rectangle(example.content), paint: .solid(Color(red: 1, green: 0, blue: 0)))
        try canvas.pushClip(Self.rectangle(example.clip))
        try canvas.endLayer(opacity: 1, clipped: true)
        try canvas.popClip()
        Self.expectOnlyTheIntersection(canvas, example)
    }

    /// The same through `drawGroupResolvingConflation`, which composites its
    /// group's canvas at an offset through the clip in force.
    @Test(arguments: cases)
    func aGroupDrawnInsideAClipCompositesOnlyTheIntersection(_ example: Case) throws {
        let canvas = try Canvas(width: 40, height: 30)
        try canvas.pushClip(Self.rectangle(example.clip))
        try canvas.drawGroupResolvingConflation { target, transform throws(RasterError) in
            try target.fill(Self.rectangle(example.content), paint: .solid(Color(red: 1, green: 0, blue: 0)),
                            transform: transform)
        }
        try canvas.popClip()
        Self.expectOnlyTheIntersection(canvas, example)
    }

    /// A zero-area shape (a line filled, as SVG fills a `line` element with
    /// its default black) leaves rows whose columns may be non-zero but are
    /// not: composited through a clip beside it, nothing changes.
    @Test func aFilledLineBesideTheClipChangesNothing() throws {
        let canvas = try Canvas(width: 40, height: 30)
        try canvas.beginLayer()
        var line = Path()
        line.move(to: Point(0, 0))
        line.line(to: Point(40, 9))
        try canvas.fill(line, paint: .solid(.black))
        var circle = Path()
        circle.addCircle(center: .zero, radius: 5)
        try canvas.pushClip(circle)
        try canvas.endLayer(opacity: 1, clipped: true)
        try canvas.popClip()
        #expect(canvas.makeImage().pixels.allSatisfy { $0 == 0 })
    }
}
