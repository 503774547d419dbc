/// A path reduced to polylines: what the rasterizer and the stroker consume.
///
/// Buffers are kept between uses (`removeAll(keepingCapacity:)`), so a
/// canvas that flattens into the same `Polylines` every frame allocates
/// nothing once warm.
public struct Polylines: Sendable {
    /// Every vertex of every subpath, one after the other.
    public var points: [Point] = []
    /// Per subpath: where its vertices start in `points`, how many it has, and
    /// whether it was closed with `close()`.
    public var subpaths: [(start: Int, count: Int, isClosed: Bool)] = []

    /// The most points `Path.appendFlattened` and `Stroker.stroke` write into
    /// this value (default `Int.max`: no limit). Each checks it once per
    /// curve, vertex or dash, before it adds them, so a path that is small to
    /// describe but huge once flattened or stroked (a million long curves,
    /// a million round-capped dashes) stops early instead of taking gigabytes:
    /// they then set `reachedPointLimit` and what they wrote is incomplete.
    /// A stroke may pass the limit by one join or cap (at most about 4100 points).
    public var maximumPointCount = Int.max
    /// True when a flattening or stroke stopped at `maximumPointCount`; `removeAll` clears it.
    public internal(set) var reachedPointLimit = false

    /// Empty buffers with no point limit.
    public init() {}

    /// Roughly the memory the two arrays hold, bytes (for pools that bound what they keep).
    public var retainedBytes: Int {
        points.capacity * MemoryLayout<Point>.stride
            + subpaths.capacity * MemoryLayout<(start: Int, count: Int, isClosed: Bool)>.stride
    }

    /// Empties both arrays, keeping their capacity for the next path, and
    /// clears `reachedPointLimit` (`maximumPointCount` stays).
    public mutating func removeAll() {
        points.removeAll(keepingCapacity: true)
        subpaths.removeAll(keepingCapacity: true)
        reachedPointLimit = false
    }

    /// Whether `count` more points would pass `maximumPointCount`; if so, sets `reachedPointLimit`.
    @inline(__always)
    mutating func wouldPassLimit(adding count: Int) -> Bool {
        guard points.count + count > maximumPointCount else { return false }
        reachedPointLimit = true
        return true
    }

    /// The vertices of subpath `index`.
    public func vertices(of index: Int) -> ArraySlice<Point> {
        let subpath = subpaths[index]
        return points[subpath.start..<(subpath.start + subpath.count)]
    }

    mutating func beginSubpath(_ p: Point) {
        finishSubpath(closed: false)
        subpaths.append((points.count, 0, false))
        points.append(p)
        subpaths[subpaths.count - 1].count = 1
    }

    mutating func add(_ p: Point) {
        points.append(p)
        subpaths[subpaths.count - 1].count += 1
    }

    /// Adds `count` points, `point(1) ... point(count)`, to the current
    /// subpath, counting them into the subpath once rather than per point
    /// (`add` costs about as much as evaluating a curve point).
    @inline(__always)
    mutating func add(count: Int, _ point: (Int) -> Point) {
        guard count > 0 else { return }
        for index in 1...count { points.append(point(index)) }
        subpaths[subpaths.count - 1].count += count
    }

    /// As `add(count:_:)` with `point(count)` being `last`: a curve's end
    /// point is appended after the loop, with no test for it in every point.
    @inline(__always)
    mutating func add(count: Int, last: Point, _ point: (Int) -> Point) {
        guard count > 0 else { return }
        for index in 1..<count { points.append(point(index)) }
        points.append(last)
        subpaths[subpaths.count - 1].count += count
    }

    mutating func finishSubpath(closed: Bool) {
        guard let last = subpaths.last, last.count > 0 else { return }
        if closed { subpaths[subpaths.count - 1].isClosed = true }
    }
}

/// The default tolerance, in device pixels, of centred flattening (see
/// `Path.appendFlattened(transform:tolerance:centred:into:)`), which fills
/// use: its chords cross the curve, so their errors cancel along an edge
/// instead of adding up. Measured against the exact coverage of a ring
/// (Golden/scenes/ring.svg, numerically integrated), 0.01 centred gives the
/// same worst pixel as 0.005 uncentred (1.4–1.8 vs 1.3–1.5 of 255) with half
/// its mean error and 30 % fewer chords; 0.02 would cut 45 % but doubles the
/// worst pixel, 0.04 quadruples it.
public let defaultCentredFlatteningTolerance = 0.01

/// The default flattening tolerance in device pixels: the largest distance
/// between a curve and the chords that replace it. A chord 0.1 px off moves
/// edge coverage by about 10 %; 0.005 px keeps it within 0.5 %, i.e. at most
/// 1.3 of 255 levels (chords lie inside convex arcs, so the error is
/// a bias, not noise, and must be small); segments are cheap.
public let defaultFlatteningTolerance = 0.005

extension Path {
    /// Flattens the path after mapping it through `transform`, replacing
    /// curves by chords no farther than `tolerance` (device pixels) from them.
    /// The segment count of each curve follows Wang's formula (Wang, Sederberg
    /// et al., "Computer Aided Geometric Design"), so it adapts to the curve's
    /// device-space size and @3x is as smooth as @1x.
    public func flatten(transform: AffineMap = .identity,
                        tolerance: Double = defaultFlatteningTolerance, centred: Bool = false,
                        into output: inout Polylines) {
        output.removeAll()
        appendFlattened(transform: transform, tolerance: tolerance, centred: centred, into: &output)
    }

    /// As `flatten`, appending to `output` instead of replacing its contents.
    ///
    /// `centred`: chords of a curve lie on its concave side, so plain
    /// flattening loses area all along a curved edge (a bias of 2/3 of the
    /// chord's sagitta). Centred flattening moves each vertex inside a curve
    /// by -h²/12 times the curve's second derivative there (h the parameter
    /// step), which shifts every chord outward by about 2/3 of its sagitta:
    /// the chords then cross the curve, the area each one misses equals the
    /// area it adds, and the errors alternate along the edge instead of adding
    /// up. A curve's end points stay where they are (they join other
    /// segments, often straight ones). For fills; strokes offset the chords.
    ///
    /// Stops, setting `output.reachedPointLimit`, before it would pass `output.maximumPointCount`.
    public func appendFlattened(transform: AffineMap, tolerance: Double, centred: Bool = false,
                                into output: inout Polylines) {
        appendFlattened(transform: transform, tolerance: tolerance, centred: centred, into: &output, tangents: nil)
    }

    /// As `appendFlattened` (plain chords), also recording the path's
    /// direction at every vertex into `tangents`, index for index with
    /// `output.points`: what dash ends that fall inside a chord are turned by.
    func appendFlattened(transform: AffineMap, tolerance: Double, into output: inout Polylines,
                                tangents: inout VertexTangents) {
        withUnsafeMutablePointer(to: &tangents) { tangents in
            appendFlattened(transform: transform, tolerance: tolerance, centred: false, into: &output, tangents: tangents)
        }
    }

    /// The flattening itself; with `tangents` nil (fills) the recording
    /// folds away: one copy of the loop serves both.
    @inline(__always)
    private func appendFlattened(transform: AffineMap, tolerance: Double, centred: Bool,
                                 into output: inout Polylines, tangents: UnsafeMutablePointer<VertexTangents>?) {
        defer { tangents?.pointee.pad(to: output.points.count) }
        let tolerance = max(tolerance, 1e-6)
        var current = Point.zero
        var open = false
        for element in elements {
            if output.wouldPassLimit(adding: 1) { return }
            switch element {
            case .move(let p):
                current = transform.apply(p)
                output.beginSubpath(current)
                open = true
            case .line(let p):
                if !open { output.beginSubpath(current); open = true }
                let start = current
                current = transform.apply(p)
                output.add(current)
                if let tangents {
                    let direction = VertexTangents.unit(current - start)
                    tangents.pointee.record(arriving: direction, leaving: .zero, at: output.points.count - 1,
                                            startLeaving: direction)
                }
            case .quad(let c, let p):
                if !open { output.beginSubpath(current); open = true }
                let p0 = current, p1 = transform.apply(c), p2 = transform.apply(p)
                let dd = (p0 - p1 * 2 + p2).length
                // Wang's formula for degree 2: n = sqrt(dd / (4 tol)).
                let n = Path.flatteningSegmentCount((dd / (4 * tolerance)).squareRoot())
                if output.wouldPassLimit(adding: n) { return }
                let step = 1.0 / Double(n)
                // In powers of t (Horner's rule): p0 + c1 t + c2 t².
                let c1 = (p1 - p0) * 2, c2 = p0 - p1 * 2 + p2
                var c0 = p0
                if centred && n > 1 {
                    // The second derivative 2 (p0 - 2 p1 + p2) is constant: one shift for every inner vertex.
                    c0 = c0 + c2 * (-step * step / 6)
                }
                output.add(count: n, last: p2) { i in
                    let t = Double(i) * step
                    return (c2 * t + c1) * t + c0
                }
                if let tangents {
                    // The derivative 2 (p1 - p0) + 2 (p0 - 2 p1 + p2) t.
                    tangents.pointee.recordCurve(points: n, endingAt: output.points.count - 1) { t in c2 * (2 * t) + c1 }
                }
                current = p2
            case .cubic(let c1, let c2, let p):
                if !open { output.beginSubpath(current); open = true }
                let p0 = current, p1 = transform.apply(c1), p2 = transform.apply(c2), p3 = transform.apply(p)
                let dd = Swift.max((p0 - p1 * 2 + p2).length, (p1 - p2 * 2 + p3).length)
                // Wang's formula for degree 3: n = sqrt(3 * 2 / 8 * dd / tol).
                let n = Path.flatteningSegmentCount((0.75 * dd / tolerance).squareRoot())
                if output.wouldPassLimit(adding: n) { return }
                let step = 1.0 / Double(n)
                // The curve in powers of t, evaluated by Horner's rule (three
                // multiply-adds a coordinate, against about ten for the
                // Bernstein form): p0 + c1 t + c2 t² + c3 t³.
                var c1 = (p1 - p0) * 3
                let c2 = (p0 - p1 * 2 + p2) * 3, c3 = p3 - p0 + (p1 - p2) * 3
                var c0 = p0
                if centred && n > 1 {
                    // The second derivative is 6 ((1 - t) a + t b), a and b the
                    // control polygon's second differences; the shift of
                    // -h²/12 of it, a (1 - t) + b t, is linear in t.
                    let a = (p0 - p1 * 2 + p2) * (-step * step / 2), b = (p1 - p2 * 2 + p3) * (-step * step / 2)
                    c0 = c0 + a
                    c1 = c1 + (b - a)
                }
                output.add(count: n, last: p3) { i in
                    let t = Double(i) * step
                    return ((c3 * t + c2) * t + c1) * t + c0
                }
                if let tangents {
                    // The derivative c1 + 2 c2 t + 3 c3 t² (tangents are recorded for plain chords only,
                    // where c1 is the curve's own).
                    tangents.pointee.recordCurve(points: n, endingAt: output.points.count - 1) { t in
                        (c3 * (3 * t) + c2 * 2) * t + c1
                    }
                }
                current = p3
            case .close:
                if open {
                    output.finishSubpath(closed: true)
                    // The current point returns to the subpath's start.
                    if let start = output.subpaths.last.map({ output.points[$0.start] }) { current = start }
                    open = false
                }
            }
        }
        output.finishSubpath(closed: false)
    }

    /// The most chords one curve is split into: enough for a 4096-pixel curve
    /// at the default tolerance, and a bound on the work a huge one can cause.
    static let maximumFlatteningSegmentCount = 4096

    /// Rounds Wang's segment estimate up and clamps it to 1...maximum. Done
    /// in `Double` first: converting a NaN or infinite estimate (from huge or
    /// non-finite coordinates) to `Int` would trap.
    static func flatteningSegmentCount(_ estimate: Double) -> Int {
        guard estimate.isFinite else { return estimate.isNaN ? 1 : maximumFlatteningSegmentCount }
        // ⌈estimate⌉ clamped to 1...maximum, with no call to `ceil` (no
        // SSE4.1) for the estimates in between: there truncation is ⌊⌋, and
        // ⌈⌉ is one more unless the estimate is whole.
        guard estimate > 1 else { return 1 }
        guard estimate < Double(maximumFlatteningSegmentCount) else { return maximumFlatteningSegmentCount }
        let truncated = Int(estimate)
        return Double(truncated) == estimate ? truncated : truncated + 1
    }
}

/// The direction of a flattened path at each of its vertices, index for
/// index with `Polylines.points` (`Path.appendFlattened(…tangents:)`):
/// `arriving[i]` is the unit tangent of the element that ends at vertex i,
/// there, and `leaving[i]` that of the element that starts there. Inside a
/// curve both are the curve's own direction at that vertex, which its chords
/// only approximate (a chord leans by half the angle it spans); at a corner
/// they differ. Zero where no element arrives or leaves, or where a curve's
/// derivative vanishes (a control point on its end point).
struct VertexTangents: Sendable {
    /// Per vertex: the unit direction the path arrives with (user or device space, as the points).
    var arriving: [Point] = []
    /// Per vertex: the unit direction the path leaves with.
    var leaving: [Point] = []

    init() {}

    mutating func removeAll() {
        arriving.removeAll(keepingCapacity: true)
        leaving.removeAll(keepingCapacity: true)
    }

    /// `vector` scaled to length 1, or zero when it is too short to have a direction.
    static func unit(_ vector: Point) -> Point {
        let length = vector.length
        return length > 1e-12 && length.isFinite ? vector / length : .zero
    }

    /// Grows both arrays with zeros to `count` entries.
    mutating func pad(to count: Int) {
        while arriving.count < count { arriving.append(.zero) }
        while leaving.count < count { leaving.append(.zero) }
    }

    /// Vertex `index` was just added by a line: it arrives along `arriving`
    /// (and leaves along `leaving`), and the vertex before it leaves along `startLeaving`.
    mutating func record(arriving direction: Point, leaving: Point, at index: Int, startLeaving: Point) {
        pad(to: index + 1)
        if index > 0 { self.leaving[index - 1] = startLeaving }
        arriving[index] = direction
        self.leaving[index] = leaving
    }

    /// A curve of `points` chords was just added, its last vertex at `end`:
    /// the vertices `end - points ... end` lie at t = 0, 1/points, ... 1 on
    /// it, and `derivative(t)` is its derivative.
    mutating func recordCurve(points: Int, endingAt end: Int, derivative: (Double) -> Point) {
        pad(to: end + 1)
        let start = end - points, step = 1 / Double(points)
        if start >= 0 { leaving[start] = VertexTangents.unit(derivative(0)) }
        if points > 1 {
            for i in 1..<points {
                let direction = VertexTangents.unit(derivative(Double(i) * step))
                arriving[start + i] = direction
                leaving[start + i] = direction
            }
        }
        arriving[end] = VertexTangents.unit(derivative(1))
    }
}
