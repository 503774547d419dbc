/// A point or vector in a 2D coordinate space, x to the right and y down.
///
/// Units are those of the space it lives in: points in user space, pixels in
/// device space. Values are `Double` so that huge coordinates and tiny
/// sub-pixel details survive transforms without losing precision.
public struct Point: Hashable, Sendable, CustomStringConvertible {
    /// Horizontal coordinate, growing to the right.
    public var x: Double
    /// Vertical coordinate, growing downwards.
    public var y: Double

    /// The point (`x`, `y`).
    @inlinable public init(_ x: Double, _ y: Double) { self.x = x; self.y = y }
    /// The point (`x`, `y`), with labels.
    @inlinable public init(x: Double, y: Double) { self.x = x; self.y = y }

    /// The origin, (0, 0): the top-left corner of a canvas or marker.
    public static let zero = Point(0, 0)

    /// Component-wise sum: a point moved by a vector, or two vectors added.
    @inlinable public static func + (a: Point, b: Point) -> Point { Point(a.x + b.x, a.y + b.y) }
    /// Component-wise difference: the vector from `b` to `a`.
    @inlinable public static func - (a: Point, b: Point) -> Point { Point(a.x - b.x, a.y - b.y) }
    /// Both coordinates multiplied by `s`.
    @inlinable public static func * (a: Point, s: Double) -> Point { Point(a.x * s, a.y * s) }
    /// Both coordinates multiplied by `s`.
    @inlinable public static func * (s: Double, a: Point) -> Point { Point(a.x * s, a.y * s) }
    /// Both coordinates divided by `s` (infinite or NaN for `s` = 0).
    @inlinable public static func / (a: Point, s: Double) -> Point { Point(a.x / s, a.y / s) }
    /// The vector reversed: (−x, −y).
    @inlinable public static prefix func - (a: Point) -> Point { Point(-a.x, -a.y) }

    /// Dot product, treating both points as vectors.
    @inlinable public func dot(_ other: Point) -> Double { x * other.x + y * other.y }
    /// The z component of the 3D cross product: positive when `other` turns
    /// clockwise from `self` on screen (y down).
    @inlinable public func cross(_ other: Point) -> Double { x * other.y - y * other.x }
    /// Euclidean length of the vector.
    @inlinable public var length: Double { (x * x + y * y).squareRoot() }
    /// Distance to another point.
    @inlinable public func distance(to other: Point) -> Double { (self - other).length }
    /// The vector scaled to length 1, or zero for the zero vector.
    @inlinable public var normalized: Point {
        let l = length
        return l > 0 ? Point(x / l, y / l) : .zero
    }
    /// The vector turned 90 degrees: (x, y) -> (-y, x).
    @inlinable public var perpendicular: Point { Point(-y, x) }
    /// Linear interpolation: `self` at t = 0, `other` at t = 1.
    @inlinable public func lerp(_ other: Point, _ t: Double) -> Point {
        Point(x + (other.x - x) * t, y + (other.y - y) * t)
    }
    /// True when both coordinates are finite (neither NaN nor infinite).
    @inlinable public var isFinite: Bool { x.isFinite && y.isFinite }

    /// For example "(1.5, -2.0)".
    public var description: String { "(\(x), \(y))" }
}

/// A width and a height, in the units of the space they measure.
public struct Size: Hashable, Sendable {
    /// Horizontal extent; negative only if set so by hand.
    public var width: Double
    /// Vertical extent (downwards); negative only if set so by hand.
    public var height: Double
    /// A size of `width` by `height`.
    @inlinable public init(_ width: Double, _ height: Double) { self.width = width; self.height = height }
    /// A size of `width` by `height`, with labels.
    @inlinable public init(width: Double, height: Double) { self.width = width; self.height = height }
    /// No width and no height.
    public static let zero = Size(0, 0)
}

extension Double {
    /// The value clamped to `range`, NaN as the range's lower bound
    /// (`min`/`max` would pass a NaN through): how colours, opacities and
    /// glyph sizes given out of range are read.
    @inlinable public func clamped(to range: ClosedRange<Double>) -> Double {
        self >= range.lowerBound ? (self <= range.upperBound ? self : range.upperBound) : range.lowerBound
    }
}
