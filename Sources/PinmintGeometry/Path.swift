/// One drawing command of a `Path`; every point is absolute.
public enum PathElement: Hashable, Sendable {
    /// Starts a new subpath at the point, drawing nothing.
    case move(Point)
    /// A straight line from the current point to the point.
    case line(Point)
    /// A quadratic Bézier curve: control point, then end point.
    case quad(Point, Point)
    /// A cubic Bézier curve: two control points, then end point.
    case cubic(Point, Point, Point)
    /// Closes the current subpath with a straight line back to its start.
    case close
}

/// A shape made of subpaths of lines and Bézier curves, in user-space units.
///
/// Paths are plain values: build one with the mutating methods, then fill or
/// stroke it on a canvas. The conventions are CoreGraphics' and SVG's: y
/// points down, a drawing command with no current point starts a subpath,
/// and `close()` draws back to the subpath's start.
public struct Path: Hashable, Sendable {
    /// The commands in order. A `move` is always followed by a drawing command
    /// or the end of the path: consecutive moves collapse into the last one.
    public private(set) var elements: [PathElement] = []
    /// The end of the last command, or nil for an empty path.
    public private(set) var currentPoint: Point?
    /// Where the open subpath started (the point `close()` returns to).
    public private(set) var subpathStart: Point?

    /// An empty path: no subpaths, no current point.
    public init() {}
    /// A path from commands, each added with `append` (so the same
    /// normalisation applies: repeated moves collapse, a command after
    /// `close` starts a new subpath at the closed subpath's start).
    public init(elements: [PathElement]) {
        for element in elements { append(element) }
    }

    /// True when the path has no commands at all (a path holding only a
    /// `move` is not empty, but it draws nothing).
    public var isEmpty: Bool { elements.isEmpty }

    /// True when every coordinate is finite. Canvases refuse paths where this is false.
    public var isFinite: Bool {
        elements.allSatisfy { element in
            switch element {
            case .move(let p), .line(let p): return p.isFinite
            case .quad(let c, let p): return c.isFinite && p.isFinite
            case .cubic(let c1, let c2, let p): return c1.isFinite && c2.isFinite && p.isFinite
            case .close: return true
            }
        }
    }

    /// Adds one command through the matching method (`move(to:)`,
    /// `line(to:)`, `quadCurve`, `curve`, `close`).
    public mutating func append(_ element: PathElement) {
        switch element {
        case .move(let p): move(to: p)
        case .line(let p): line(to: p)
        case .quad(let c, let p): quadCurve(to: p, control: c)
        case .cubic(let c1, let c2, let p): curve(to: p, control1: c1, control2: c2)
        case .close: close()
        }
    }

    /// Starts a new subpath at `p`.
    public mutating func move(to p: Point) {
        if case .move = elements.last { elements.removeLast() }
        elements.append(.move(p))
        currentPoint = p
        subpathStart = p
    }

    /// Starts a subpath at the current point when the last command closed one,
    /// or at `fallback` when there is no current point.
    private mutating func ensureSubpath(_ fallback: Point) {
        if currentPoint == nil {
            move(to: fallback)
        } else if case .close = elements.last, let p = currentPoint {
            elements.append(.move(p))
            subpathStart = p
        }
    }

    /// Adds a straight line from the current point to `p`. With no current
    /// point, starts a subpath at `p` first (so the line has no length).
    public mutating func line(to p: Point) {
        ensureSubpath(p)
        elements.append(.line(p))
        currentPoint = p
    }

    /// Adds a quadratic Bézier curve from the current point to `p`, pulled
    /// towards `control`. With no current point, starts a subpath at `control`.
    public mutating func quadCurve(to p: Point, control: Point) {
        ensureSubpath(control)
        elements.append(.quad(control, p))
        currentPoint = p
    }

    /// Adds a cubic Bézier curve from the current point to `p` with the two
    /// control points, as CoreGraphics' `addCurve`. With no current point,
    /// starts a subpath at `control1`.
    public mutating func curve(to p: Point, control1: Point, control2: Point) {
        ensureSubpath(control1)
        elements.append(.cubic(control1, control2, p))
        currentPoint = p
    }

    /// Closes the open subpath; the current point becomes its start. Does
    /// nothing when no subpath is open.
    public mutating func close() {
        guard currentPoint != nil else { return }
        if case .close = elements.last { return }
        elements.append(.close)
        currentPoint = subpathStart
    }

    /// Empties the path but keeps its storage, so a path rebuilt every frame
    /// allocates nothing once it has grown to its working size.
    public mutating func removeAll() {
        elements.removeAll(keepingCapacity: true)
        currentPoint = nil
        subpathStart = nil
    }

    /// Appends all of `other`'s subpaths.
    public mutating func append(_ other: Path) {
        for element in other.elements {
            if case .move = element {} else if case .close = element {} else if elements.isEmpty {
                // A path is never expected to start without a move, but keep it well-formed.
                elements.append(.move(.zero))
            }
            append(element)
        }
    }

    /// The path with every point mapped through `transform`.
    public func transformed(by transform: AffineMap) -> Path {
        if transform.isIdentity { return self }
        var result = Path()
        result.elements.reserveCapacity(elements.count)
        for element in elements {
            switch element {
            case .move(let p): result.move(to: transform.apply(p))
            case .line(let p): result.line(to: transform.apply(p))
            case .quad(let c, let p): result.quadCurve(to: transform.apply(p), control: transform.apply(c))
            case .cubic(let c1, let c2, let p):
                result.curve(to: transform.apply(p), control1: transform.apply(c1), control2: transform.apply(c2))
            case .close: result.close()
            }
        }
        return result
    }
}
