// docs/library.md: a bubble path filled with a shadow and stroked.
import PinmintGeometry
import PinmintRaster
import PinmintPNG

func drawBubble() throws {
    // Seed 004's bubble from four tangent arcs, as CGContext's addArc(tangent1End:tangent2End:radius:).
    var bubble = Path()
    bubble.move(to: Point(100, 70))
    bubble.line(to: Point(90, 60))
    bubble.arcTo(tangent1: Point(0, 60), tangent2: Point(0, 0), radius: 6)
    bubble.arcTo(tangent1: Point(0, 0), tangent2: Point(200, 0), radius: 6)
    bubble.arcTo(tangent1: Point(200, 0), tangent2: Point(200, 60), radius: 6)
    bubble.arcTo(tangent1: Point(200, 60), tangent2: Point(100, 60), radius: 6)
    bubble.line(to: Point(110, 60))
    bubble.close()

    let scale = 2.0
    let canvas = try Canvas(width: 220 * 2, height: 90 * 2)
    try canvas.fill(bubble, paint: .solid(try Color(parsing: "rgba(77,77,77,0.8)")),
                    transform: AffineMap.scale(scale).translatedBy(10, 10),
                    shadow: Shadow(color: .init(red: 1, green: 0, blue: 0), blurRadius: 3))
    try canvas.stroke(bubble, style: StrokeStyle(width: 1, join: .round), paint: .solid(.white),
                      transform: AffineMap.scale(scale).translatedBy(10, 10))
    try PNGEncoder.writeAtomically(try PNGEncoder.encode(canvas, pixelRatio: scale), to: "bubble@2x.png")
}
