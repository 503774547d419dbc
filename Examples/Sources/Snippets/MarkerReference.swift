// docs/markers.md, "From Swift": the same through the marker reference's snippet.
import PinmintMarkers
import PinmintPNG

func renderPriceTagAsTheMarkerReferenceDoes() throws {
    let renderer = try MarkerRenderer()                           // shipped fonts
    let style = MarkerStyle.preset(named: "price-tag")!           // or MarkerFile(contentsOfFile:).style
    let markers = try renderer.render(style: style, options: ["label": "5200萬"], scale: 2)
    let tag = markers[0]
    try PNGEncoder.writeAtomically(try tag.pngData(), to: "tag@2x.png")
    print(tag.metadata.anchor, tag.metadata.hitBoxes)              // pixels
    let pixels = tag.canvas.straightRGBA8()                        // RGBA8, straight alpha
    _ = pixels
}
