import Foundation
import PinmintGeometry
@testable import PinmintMarkers
import PinmintRaster
import Testing

/// A bubble filled with a plain colour is drawn from the mask of its
/// narrowest self with its straight columns repeated (`BubbleGeometry.stretch`).
/// That must draw what filling the whole outline draws, up to rounding: the
/// floats of a corner or an arrow moved by whole pixels round a hair
/// differently, so premultiplied 16-bit values may differ by a few steps of
/// 65535 (at most 6 seen) and, where one lies on a rounding boundary, a
/// premultiplied 8-bit value by 1. (Straight-alpha bytes can differ more
/// where alpha is 0 or 1 of 255: un-premultiplying amplifies the step.)
@Suite struct BubbleStretchTests {
    /// The largest differences between two renders' premultiplied 16-bit values and those values rounded to 8 bits.
    func compare(_ description: MarkerDescription, scale: Double, stretched: MarkerRenderer,
                 filled: MarkerRenderer) throws -> (worst16: Int, worst8: Int) {
        let a = try stretched.render(description, scale: scale), b = try filled.render(description, scale: scale)
        #expect(a.metadata == b.metadata)
        let a16 = a.canvas.makeImage().pixels, b16 = b.canvas.makeImage().pixels
        guard a16.count == b16.count else { return (Int.max, Int.max) }
        var worst16 = 0, worst8 = 0
        for i in 0..<a16.count {
            worst16 = max(worst16, abs(Int(a16[i]) - Int(b16[i])))
            worst8 = max(worst8, abs((Int(a16[i]) + 128) / 257 - (Int(b16[i]) + 128) / 257))
        }
        return (worst16, worst8)
    }

    @Test(arguments: [1.0, 1.5, 2.0, 3.0])
    func priceTagsMatchFilledOnes(scale: Double) throws {
        let priceTag = try #require(MarkerStyle.preset(named: "price-tag"))
        let stretched = try makeRenderer(), filled = try makeRenderer()
        filled.reusesShapeMasks = false
        for pointer in ["center", "left", "right"] {
            for label in ["1", "12萬", "5200萬", "5201萬", "12,345,678萬", "a much longer label than most", ""] {
                for description in try priceTag.resolve(options: ["label": label, "pointer": pointer]) {
                    let result = try compare(description, scale: scale, stretched: stretched, filled: filled)
                    #expect(result.worst8 <= 1, "\(pointer) \(label) @\(scale)x: 8-bit values \(result.worst8) apart")
                    #expect(result.worst16 <= 8, "\(pointer) \(label) @\(scale)x: 16-bit values \(result.worst16) apart")
                }
            }
        }
    }

    /// Bubbles of every arrow side, radius and width, fixed sizes, arrows
    /// off centre or wider than the straight part, placed at the origin or
    /// moved by whole points across and a fraction down: left and right
    /// arrows and bubbles without a straight column are filled, the rest stretched.
    @Test(arguments: [false, true])
    func customBubblesMatchFilledOnes(moved: Bool) throws {
        let stretched = try makeRenderer(), filled = try makeRenderer()
        filled.reusesShapeMasks = false
        var cases = 0
        for side in ["bottom", "top", "left", "right"] {
            for (radius, arrowWidth, position) in [(0.0, 20.0, 0.5), (6, 20, 0.5), (6, 20, 0.1), (6, 20, 0.93), (17.5, 12, 0.5), (30, 20, 0.5), (4, 90, 0.5)] {
                for width in [40.0, 41, 63.5, 120, 257] {
                    let bubble = """
                    {"type": "box", "width": \(width), "height": 34,
                     "shape": {"type": "bubble", "radius": \(radius), "arrow": {"side": "\(side)", "width": \(arrowWidth), "height": 9, "position": \(position)}},
                     "fill": "#3598DB"}
                    """
                    let json = moved
                        ? #"{"name": "bubble", "marker": {"type": "box", "padding": [2.25, 0, 0, 5], "children": [\#(bubble)]}}"#
                        : #"{"name": "bubble", "marker": \#(bubble)}"#
                    let style = try MarkerStyle(json: Data(json.utf8), name: "bubble", input: "bubble.json", baseDirectory: ".")
                    for scale in [1.0, 2.0, 3.0] {
                        let result = try compare(try style.resolve(options: [:])[0], scale: scale, stretched: stretched, filled: filled)
                        let name = "\(side) r \(radius) arrow \(arrowWidth) at \(position), width \(width) @\(scale)x"
                        #expect(result.worst8 <= 1, "\(name): 8-bit values \(result.worst8) apart")
                        #expect(result.worst16 <= 8, "\(name): 16-bit values \(result.worst16) apart")
                        cases += 1
                    }
                }
            }
        }
        #expect(cases == 4 * 7 * 5 * 3)
    }

    /// The price tag's body @2x: 140 × 56 with a 40-pixel arrow in the middle
    /// is its 54-pixel self with 43 columns repeated on each side of the arrow.
    @Test func priceTagBodyStretchesFromItsNarrowestSelf() throws {
        var arrow = Shape.Arrow()
        arrow.width = 20; arrow.height = 10
        let body = Rect(x: 0, y: 0, width: 140, height: 56)
        let stretch = try #require(BubbleGeometry(body: body, radius: 6, arrow: arrow, scale: 2)?.stretch())
        #expect(stretch.narrow.w == 54 && stretch.narrow.tipX == 27 && stretch.narrow.baseX == 27)
        #expect(stretch.insertions.map(\.column) == [6, 47] && stretch.insertions.map(\.count) == [43, 43])
        #expect(stretch.dx == 0 && stretch.dy == 0)
        // Moved by whole pixels across and 4.5 down: drawn at (0, 0.5), moved by (10, 4).
        let moved = try #require(BubbleGeometry(body: Rect(x: 10, y: 4.5, width: 140, height: 56), radius: 6, arrow: arrow, scale: 2)?.stretch())
        #expect(moved.dx == 10 && moved.dy == 4 && moved.narrow.toDevice.tx == 0 && moved.narrow.toDevice.ty == 0.5)
        #expect(moved.insertions.map(\.column) == [6, 47])
        // Off the pixel grid across, an arrow at the side, no straight column: not stretched.
        #expect(BubbleGeometry(body: Rect(x: 0.5, y: 0, width: 140, height: 56), radius: 6, arrow: arrow, scale: 2)?.stretch() == nil)
        arrow.side = .left
        #expect(BubbleGeometry(body: body, radius: 6, arrow: arrow, scale: 2)?.stretch() == nil)
        arrow.side = .bottom
        // 52 pixels at @2x: corners of 12 and an arrow of 40 leave no column
        // (54 would put the tip on the whole point 14, at pixel 28, leaving one).
        #expect(BubbleGeometry(body: Rect(x: 0, y: 0, width: 52, height: 56), radius: 6, arrow: arrow, scale: 2)?.stretch() == nil)
    }

    /// A renderer draws a bubble alike whatever it drew before: the narrow
    /// mask is made on first use, so a tag's pixels do not depend on the
    /// tags before it (a batch and a single render give the same bytes).
    @Test func bubblesDoNotDependOnHistory() throws {
        let priceTag = try #require(MarkerStyle.preset(named: "price-tag"))
        let labels = ["5200萬", "12萬", "m+ii萬", "5200萬", "9"]
        let shared = try makeRenderer()
        for label in labels + labels.reversed() {
            let description = try priceTag.resolve(options: ["label": label])[0]
            let again = try shared.render(description, scale: 2).canvas.makeImage().pixels
            let fresh = try makeRenderer().render(description, scale: 2).canvas.makeImage().pixels
            #expect(again == fresh, "\(label)")
        }
    }
}
