// README.md, "The library": a preset rendered, written and inspected.
import PinmintMarkers
import PinmintPNG

func renderPriceTagAsTheReadmeDoes() throws {
    let renderer = try MarkerRenderer()                     // Pinmint's shipped fonts
    let style = MarkerStyle.preset(named: "price-tag")!     // or try MarkerFile(contentsOfFile: "marker.json").style
    let tag = try renderer.render(style: style, options: ["label": "5200萬", "badge": "成"], scale: 2)[0]
    try PNGEncoder.writeAtomically(try tag.pngData(), to: "tag@2x.png")
    print(tag.metadata.anchor, tag.metadata.hitBoxes)       // pixels: (70, 76), [body, pointer]
    let rgba = tag.canvas.straightRGBA8()                   // or the pixels themselves
    _ = rgba
}
