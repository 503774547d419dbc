import PinmintGeometry

/// What happens outside a gradient's 0...1 range (SVG `spreadMethod`).
public enum SpreadMethod: String, Sendable, CaseIterable {
    /// The end colours extend outwards.
    case pad
    /// The gradient starts again: 1.25 is 0.25.
    case `repeat`
    /// The gradient runs back and forth: 1.25 is 0.75.
    case reflect
}

/// A colour at a position along a gradient.
public struct GradientStop: Hashable, Sendable {
    /// Position along the gradient, 0...1.
    public var offset: Double
    /// The colour at `offset`, straight alpha; between stops the colours are
    /// interpolated in straight sRGB.
    public var color: Color
    /// A stop at `offset` (clamped to 0...1 when drawn, NaN refused) of `color`.
    public init(offset: Double, color: Color) { self.offset = offset; self.color = color }
}

/// A gradient along the line from `start` to `end`.
///
/// Colours are interpolated between stops in straight (unpremultiplied)
/// sRGB, as SVG renderers do, and evaluated at pixel centres.
public struct LinearGradient: Hashable, Sendable {
    /// Start and end in gradient space, mapped to user space by `transform`.
    public var start: Point, end: Point
    /// Stops in increasing offset order (out-of-order offsets are raised to
    /// the previous one, as SVG requires).
    public var stops: [GradientStop]
    /// What is painted before the first stop and after the last. Default `.pad`.
    public var spread: SpreadMethod
    /// Gradient space to user space (SVG's gradientTransform, and the
    /// bounding box for objectBoundingBox units).
    public var transform: AffineMap
    /// A linear gradient. When `start` equals `end` (after the transform),
    /// the last stop's colour fills the shape; no stops paint transparent.
    public init(start: Point, end: Point, stops: [GradientStop], spread: SpreadMethod = .pad,
                transform: AffineMap = .identity) {
        self.start = start; self.end = end; self.stops = stops; self.spread = spread; self.transform = transform
    }
}

/// A radial gradient: t = 0 at the focal point, t = 1 on the circle of
/// `radius` around `center` (SVG `radialGradient` with `fr` = 0). A focal
/// point outside the circle is moved just inside it, as SVG 1.1 specifies.
public struct RadialGradient: Hashable, Sendable {
    /// Centre of the end circle (t = 1), gradient space.
    public var center: Point
    /// Radius of the end circle, gradient space; 0 or less paints the last
    /// stop's colour everywhere, as SVG's `r="0"` does.
    public var radius: Double
    /// The focal point (t = 0), gradient space; `center` unless given.
    public var focus: Point
    /// Stops in increasing offset order (out-of-order offsets are raised to
    /// the previous one, as SVG requires); none paints transparent.
    public var stops: [GradientStop]
    /// What is painted beyond the end circle. Default `.pad`.
    public var spread: SpreadMethod
    /// Gradient space to user space.
    public var transform: AffineMap
    /// A radial gradient; `focus` nil puts the focal point at `center`.
    /// Non-finite geometry is refused when drawn (`RasterError.nonFinite`).
    public init(center: Point, radius: Double, focus: Point? = nil, stops: [GradientStop],
                spread: SpreadMethod = .pad, transform: AffineMap = .identity) {
        self.center = center; self.radius = radius; self.focus = focus ?? center
        self.stops = stops; self.spread = spread; self.transform = transform
    }
}

/// An image used as paint, sampled bilinearly at pixel centres.
public struct ImagePattern: Sendable {
    /// The pixels, premultiplied 16-bit (an `Image`); an empty image paints nothing.
    public var image: Image
    /// Image space (pixels of `image`, origin at its top-left corner) to user space.
    public var transform: AffineMap
    /// Tile the image in both directions; when false, the image's edge pixels
    /// are not extended: outside the image the paint is transparent.
    public var repeats: Bool
    /// A pattern drawing `image` once (or tiled, with `repeats`) with its
    /// pixel grid mapped to user space by `transform`; a transform that is
    /// not invertible paints nothing.
    public init(image: Image, transform: AffineMap = .identity, repeats: Bool = false) {
        self.image = image; self.transform = transform; self.repeats = repeats
    }
}

/// What fills or strokes a shape.
public enum Paint: Sendable {
    /// One colour everywhere (straight alpha, premultiplied when drawn).
    case solid(Color)
    /// Colours along a line; see `LinearGradient`.
    case linearGradient(LinearGradient)
    /// Colours from a focal point out to a circle; see `RadialGradient`.
    case radialGradient(RadialGradient)
    /// An image, sampled bilinearly; see `ImagePattern`.
    case image(ImagePattern)
}

/// How a drawing's colour combines with what is already on the canvas.
/// Each is weighted by the shape's coverage and the clip.
public enum BlendMode: String, Sendable, CaseIterable {
    /// Porter-Duff source over: the default.
    case sourceOver
    /// Replaces the destination with the source.
    case copy
    /// Erases the destination.
    case clear
}

/// A drop shadow or glow drawn under a shape.
///
/// `blurRadius` has the meaning of CALayer's `shadowRadius`: the shadow is
/// the shape's coverage blurred by a Gaussian of standard deviation equal to
/// the radius (the convention Sketch and Figma use when they export a CSS
/// blur of 2r as shadowRadius r). Offset and radius are in user-space units
/// and scale with the drawing's transform, so a marker rendered @2x has a
/// shadow twice as wide; they do not rotate with it.
public struct Shadow: Hashable, Sendable {
    /// The shadow's colour, straight alpha; its alpha scales the shadow's
    /// opacity. Default opaque black.
    public var color: Color
    /// Shift of the shadow from the shape, user-space units, y down (a
    /// positive `y` puts it below). Default (0, 0).
    public var offset: Point
    /// Standard deviation of the Gaussian blur, user-space units (see the
    /// type); 0 or less gives an unblurred shadow (the shape's own
    /// anti-aliased edge). Default 3. In device pixels, 4× the blur and each
    /// offset component may be at most `Canvas.maximumShadowExtent`: beyond
    /// it drawing throws `RasterError.outOfRange`; a NaN or infinite blur or
    /// offset throws `RasterError.nonFinite`.
    public var blurRadius: Double
    /// A shadow; the defaults give an opaque black, unshifted, 3-unit blur.
    public init(color: Color = Color.black.withOpacity(1), offset: Point = .zero, blurRadius: Double = 3) {
        self.color = color; self.offset = offset; self.blurRadius = blurRadius
    }
}
