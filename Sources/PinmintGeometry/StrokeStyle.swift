/// How line ends are drawn (SVG `stroke-linecap`).
public enum LineCap: String, Sendable, CaseIterable {
    /// The stroke stops at the end point.
    case butt
    /// A half disc of the stroke's width caps the end.
    case round
    /// A half square of the stroke's width extends past the end.
    case square
}

/// How corners between segments are drawn (SVG `stroke-linejoin`).
public enum LineJoin: String, Sendable, CaseIterable {
    /// Outer edges extended until they meet, unless the miter limit is
    /// exceeded; then a bevel.
    case miter
    /// A circular arc around the corner.
    case round
    /// The outer corners joined by a straight line.
    case bevel
}

/// The parameters of a stroke, in user-space units (the stroke is computed
/// before the path's transform is applied, so a skew skews the pen too).
public struct StrokeStyle: Hashable, Sendable {
    /// Full width of the stroke. Default 1. A width of 0 draws nothing.
    public var width: Double
    /// How open subpaths and dashes end. Default `.butt`.
    public var cap: LineCap
    /// How corners between segments are drawn. Default `.miter`.
    public var join: LineJoin
    /// The limit on the ratio of miter length to stroke width, as SVG's
    /// `stroke-miterlimit`; default 4, values below 1 are treated as 1.
    public var miterLimit: Double
    /// Alternating dash and gap lengths; empty for a solid line. An odd count
    /// is repeated to make it even (SVG). Negative values or an all-zero
    /// pattern make the stroke solid.
    public var dashes: [Double]
    /// Distance into the dash pattern at which the stroke starts.
    public var dashOffset: Double

    /// A stroke style; every parameter defaults to SVG's initial value
    /// (width 1, butt caps, miter joins, miter limit 4, solid).
    public init(width: Double = 1, cap: LineCap = .butt, join: LineJoin = .miter, miterLimit: Double = 4,
                dashes: [Double] = [], dashOffset: Double = 0) {
        self.width = width; self.cap = cap; self.join = join; self.miterLimit = miterLimit
        self.dashes = dashes; self.dashOffset = dashOffset
    }
}
