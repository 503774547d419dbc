import Foundation

/// A 2D affine transform with the layout of CGAffineTransform:
///
///     x' = a*x + c*y + tx
///     y' = b*x + d*y + ty
///
/// `concatenating(t)` applies `self` first, then `t` (as CoreGraphics does).
///
/// Named `AffineMap` (it was `AffineTransform` until issue 25) so that it does
/// not collide with Foundation's `AffineTransform` in files that import both.
public struct AffineMap: Hashable, Sendable, CustomStringConvertible {
    /// The matrix entries: `a`, `b`, `c`, `d` the linear part (unitless),
    /// `tx`, `ty` the translation, in the units of the target space.
    public var a, b, c, d, tx, ty: Double

    /// A transform from its six entries, in CGAffineTransform's order; see the type.
    @inlinable public init(a: Double, b: Double, c: Double, d: Double, tx: Double, ty: Double) {
        self.a = a; self.b = b; self.c = c; self.d = d; self.tx = tx; self.ty = ty
    }

    /// The transform that changes nothing (a = d = 1, the rest 0).
    public static let identity = AffineMap(a: 1, b: 0, c: 0, d: 1, tx: 0, ty: 0)

    /// A shift by `x` to the right and `y` down, in target units.
    @inlinable public static func translation(_ x: Double, _ y: Double) -> AffineMap {
        AffineMap(a: 1, b: 0, c: 0, d: 1, tx: x, ty: y)
    }
    /// A scale by `sx` along x and `sy` along y about the origin; a negative
    /// factor mirrors, 0 collapses (the result is then not invertible).
    @inlinable public static func scale(_ sx: Double, _ sy: Double) -> AffineMap {
        AffineMap(a: sx, b: 0, c: 0, d: sy, tx: 0, ty: 0)
    }
    /// A uniform scale by `s` about the origin, e.g. 2 for @2x device pixels.
    @inlinable public static func scale(_ s: Double) -> AffineMap { .scale(s, s) }
    /// Rotation by `angle` radians; positive turns clockwise on screen (y down).
    public static func rotation(_ angle: Double) -> AffineMap {
        let cosine = cos(angle), sine = sin(angle)
        return AffineMap(a: cosine, b: sine, c: -sine, d: cosine, tx: 0, ty: 0)
    }
    /// Skew by the angles `ax` (along x) and `ay` (along y), in radians, as SVG's skewX/skewY.
    public static func skew(_ ax: Double, _ ay: Double) -> AffineMap {
        AffineMap(a: 1, b: tan(ay), c: tan(ax), d: 1, tx: 0, ty: 0)
    }

    /// `self` applied first, then `other`.
    @inlinable public func concatenating(_ other: AffineMap) -> AffineMap {
        AffineMap(
            a: a * other.a + b * other.c, b: a * other.b + b * other.d,
            c: c * other.a + d * other.c, d: c * other.b + d * other.d,
            tx: tx * other.a + ty * other.c + other.tx, ty: tx * other.b + ty * other.d + other.ty)
    }
    /// `t` applied first, then `self`: the order SVG's `transform` lists compose in.
    @inlinable public func prepending(_ t: AffineMap) -> AffineMap { t.concatenating(self) }

    /// A shift by (`x`, `y`) applied before `self`, as CGAffineTransform's
    /// `translatedBy(x:y:)`: the shift is measured in the units `self` maps from.
    public func translatedBy(_ x: Double, _ y: Double) -> AffineMap { prepending(.translation(x, y)) }
    /// A scale by (`sx`, `sy`) applied before `self`, as CGAffineTransform's `scaledBy(x:y:)`.
    public func scaledBy(_ sx: Double, _ sy: Double) -> AffineMap { prepending(.scale(sx, sy)) }
    /// A rotation by `angle` radians (clockwise on screen, y down) applied
    /// before `self`, as CGAffineTransform's `rotated(by:)`.
    public func rotatedBy(_ angle: Double) -> AffineMap { prepending(.rotation(angle)) }

    /// `a·d − b·c`: the factor by which areas grow; negative when the
    /// transform mirrors, 0 when it collapses the plane onto a line or point.
    @inlinable public var determinant: Double { a * d - b * c }
    /// True when every entry equals the identity's exactly (no tolerance).
    @inlinable public var isIdentity: Bool { self == .identity }
    /// True when all six entries are finite. Canvases refuse transforms where
    /// this is false, since NaN or infinite coordinates cannot be rasterized.
    public var isFinite: Bool { [a, b, c, d, tx, ty].allSatisfy(\.isFinite) }

    /// The inverse, or nil when the transform is singular (determinant 0 or not finite).
    public func inverted() -> AffineMap? {
        let det = determinant
        guard det != 0, det.isFinite else { return nil }
        let ia = d / det, ib = -b / det, ic = -c / det, id = a / det
        return AffineMap(a: ia, b: ib, c: ic, d: id,
                               tx: -(tx * ia + ty * ic), ty: -(tx * ib + ty * id))
    }

    /// The image of the point `p`: `(a·x + c·y + tx, b·x + d·y + ty)`.
    @inlinable public func apply(_ p: Point) -> Point {
        Point(a * p.x + c * p.y + tx, b * p.x + d * p.y + ty)
    }
    /// Applies the linear part only (for vectors).
    @inlinable public func applyToVector(_ v: Point) -> Point { Point(a * v.x + c * v.y, b * v.x + d * v.y) }

    /// The largest factor by which the transform stretches any length (the
    /// larger singular value). Flattening tolerances are divided by it.
    public var maximumScale: Double {
        let p = a * a + b * b, q = c * c + d * d, r = a * c + b * d
        let mean = (p + q) / 2, deviation = (((p - q) / 2) * ((p - q) / 2) + r * r).squareRoot()
        return (mean + deviation).squareRoot()
    }

    /// SVG's notation, e.g. "matrix(1.0 0.0 0.0 1.0 10.0 0.0)".
    public var description: String { "matrix(\(a) \(b) \(c) \(d) \(tx) \(ty))" }
}
