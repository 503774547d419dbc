// docs/text.md: a label laid out with Pinmint's fonts and drawn with a halo (a
// continuation of the drawing snippet, so its imports are this file's own).
import PinmintGeometry
import PinmintRaster
import PinmintText

func drawLabel() throws {
    let canvas = try Canvas(width: 140, height: 40)
    let fonts = try FontLibrary.standard()                  // --font-dir folders, Fonts/, then fontconfig's fonts
    let layout = try TextLayout(text: "5200萬", style: TextStyle(fontSize: 12, maxWidth: 120, wraps: false),
                                fallback: try fonts.fallback(weight: 700), scale: 2)
    layout.size                                             // points, before drawing: size the marker to it
    try layout.draw(on: canvas, at: Point(24, 6), color: .white, halo: TextHalo(color: .black, width: 1))
}
