/// An axis-aligned rectangle: origin at its top-left corner (y down), size
/// non-negative for rectangles built by the initialisers here.
public struct Rect: Hashable, Sendable, CustomStringConvertible {
    /// The top-left corner (smallest x and y).
    public var origin: Point
    /// Width and height, extending right and down from `origin`.
    public var size: Size

    /// The rectangle at `origin` of `size`, taken as given (not normalised).
    @inlinable public init(origin: Point, size: Size) { self.origin = origin; self.size = size }
    /// The rectangle with top-left corner (`x`, `y`) and the given size, taken
    /// as given (a negative width or height is kept and makes it `isEmpty`).
    @inlinable public init(x: Double, y: Double, width: Double, height: Double) {
        origin = Point(x, y); size = Size(width, height)
    }
    /// The smallest rectangle holding both corners.
    @inlinable public init(corner a: Point, _ b: Point) {
        origin = Point(Swift.min(a.x, b.x), Swift.min(a.y, b.y))
        size = Size(abs(a.x - b.x), abs(a.y - b.y))
    }

    /// The empty rectangle at the origin.
    public static let zero = Rect(x: 0, y: 0, width: 0, height: 0)

    /// Left edge: `origin.x`.
    @inlinable public var minX: Double { origin.x }
    /// Top edge (y down): `origin.y`.
    @inlinable public var minY: Double { origin.y }
    /// Right edge: `minX + width`.
    @inlinable public var maxX: Double { origin.x + size.width }
    /// Bottom edge: `minY + height`.
    @inlinable public var maxY: Double { origin.y + size.height }
    /// `size.width`, as stored (negative if set so).
    @inlinable public var width: Double { size.width }
    /// `size.height`, as stored (negative if set so).
    @inlinable public var height: Double { size.height }
    /// Horizontal centre.
    @inlinable public var midX: Double { origin.x + size.width / 2 }
    /// Vertical centre.
    @inlinable public var midY: Double { origin.y + size.height / 2 }
    /// The centre point (`midX`, `midY`).
    @inlinable public var center: Point { Point(midX, midY) }
    /// True when the width or height is zero or negative. A NaN width or
    /// height does not count as empty here (every comparison with NaN fails).
    @inlinable public var isEmpty: Bool { size.width <= 0 || size.height <= 0 }

    /// The smallest rectangle holding both.
    @inlinable public func union(_ other: Rect) -> Rect {
        let x0 = Swift.min(minX, other.minX), y0 = Swift.min(minY, other.minY)
        let x1 = Swift.max(maxX, other.maxX), y1 = Swift.max(maxY, other.maxY)
        return Rect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
    }
    /// The overlap of both, or nil when they do not overlap.
    @inlinable public func intersection(_ other: Rect) -> Rect? {
        let x0 = Swift.max(minX, other.minX), y0 = Swift.max(minY, other.minY)
        let x1 = Swift.min(maxX, other.maxX), y1 = Swift.min(maxY, other.maxY)
        return x1 > x0 && y1 > y0 ? Rect(x: x0, y: y0, width: x1 - x0, height: y1 - y0) : nil
    }
    /// The rectangle shrunk by `dx` on the left and right and `dy` on top and
    /// bottom (grown for negative values), as CoreGraphics' `insetBy`.
    @inlinable public func insetBy(dx: Double, dy: Double) -> Rect {
        Rect(x: minX + dx, y: minY + dy, width: width - 2 * dx, height: height - 2 * dy)
    }
    /// Whether `p` lies inside, half-open like pixel coverage: the left and top
    /// edges are inside, the right and bottom edges are not.
    @inlinable public func contains(_ p: Point) -> Bool {
        p.x >= minX && p.x < maxX && p.y >= minY && p.y < maxY
    }

    /// For example "Rect(x: 0.0, y: 0.0, w: 10.0, h: 4.0)".
    public var description: String { "Rect(x: \(minX), y: \(minY), w: \(width), h: \(height))" }
}
