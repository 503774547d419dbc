/// The variants of one marker style rendered together, found by name
/// rather than by position: `markers.default`, `markers.selected`,
/// `markers[variant: "selected"]`.
///
/// A style with one variant (`marker` in its description) has only
/// "default"; the `avatar` preset has "default" and "selected". The order
/// of `all` is the style's (`MarkerStyle.variantNames`), as the
/// array-returning `MarkerRenderer.render(style:options:scale:)` gives it.
public struct RenderedMarkers {
    /// Every variant, in the style's order.
    public let all: [RenderedMarker]

    /// The variants, in the style's order; a style has at least one.
    init(_ markers: [RenderedMarker]) {
        precondition(!markers.isEmpty, "a style renders at least one variant")
        all = markers
    }

    /// The variants' names, in the style's order (e.g. ["default", "selected"]).
    public var variantNames: [String] { all.map(\.variant) }

    /// The variant called `name`, or nil when the style has none of that name.
    public subscript(variant name: String) -> RenderedMarker? { all.first { $0.variant == name } }

    /// The variant called "default", else the first one (a style whose
    /// variants are all named otherwise).
    public var `default`: RenderedMarker { self[variant: "default"] ?? all[0] }

    /// The variant called "selected", or nil when the style has none.
    public var selected: RenderedMarker? { self[variant: "selected"] }
}

extension MarkerRenderer {
    /// Renders every variant of `style` with `options` (text as typed on
    /// a command line, see `MarkerStyle.resolve(options:)`) at `scale`
    /// (pixel ratio), returned by variant name. Throws as
    /// `render(style:options:scale:)`, which returns the same markers as an array.
    public func renderVariants(of style: MarkerStyle, options: [String: String] = [:],
                               scale: Double) throws(MarkerError) -> RenderedMarkers {
        RenderedMarkers(try render(style: style, options: options, scale: scale))
    }

    /// Renders the preset that `options` belongs to, with its typed values,
    /// at `scale` (pixel ratio): the same pixels as the string form,
    /// `renderVariants(of: .preset(named: O.presetName)!, options: options.strings, scale:)`.
    /// Throws `MarkerError` for a value the preset refuses (out of range,
    /// a file that cannot be read) or a scale outside `MarkerLimits.scaleRange`.
    public func render<Options: PresetOptions>(_ options: Options, scale: Double) throws(MarkerError) -> RenderedMarkers {
        guard let style = MarkerStyle.preset(named: options.presetName) else {
            throw MarkerError(input: "preset", problem: "no built-in style is called '\(options.presetName)'")
        }
        return try renderVariants(of: style, options: options.strings, scale: scale)
    }
}
