import PinmintMarkers
import PinmintRaster

/// A preset that `MarkerStyle.preset(named:)` did not know.
struct UnknownPreset: Error, CustomStringConvertible {
    let name: String
    var description: String { "no preset named \(name)" }
}

/// The first variant of a Pinmint preset at `scale`, drawn with Pinmint's
/// own fonts only (no system fonts), so that it is the same on every machine.
func drawPreset(_ name: String, options: [String: String], scale: Double) throws -> Canvas {
    guard let style = MarkerStyle.preset(named: name) else { throw UnknownPreset(name: name) }
    let renderer = try MarkerRenderer(includeSystemFonts: false)
    return try renderer.render(style: style, options: options, scale: scale)[0].canvas
}

/// The pin preset with the label "1".
func drawPin(scale: Double) throws -> Canvas {
    try drawPreset("pin", options: ["label": "1"], scale: scale)
}
