import Foundation

/// Turns a path's stroke into closed polygons to be filled with the non-zero rule.
///
/// The design follows Skia's `SkStroke` (and its Rust port, tiny-skia's
/// stroker): every subpath becomes whole outlines, not a union of separate
/// quads and wedges. An open subpath gives one polygon (right offset side
/// forward, end cap, left offset side backward, start cap); a closed subpath
/// gives two loops of opposite orientation (the ring between them is filled,
/// the hole is not). The rejected alternative, one polygon per segment and
/// per join, is simpler but overlaps along the stroke's boundary, which an
/// accumulating signed-area rasterizer turns into double-counted edge
/// coverage.
///
/// Why the outline is exact under the non-zero rule: as chains of edges, the
/// outline equals the sum of one rectangle per segment, one wedge per outer
/// join and one piece per cap, all with the same orientation; so the winding
/// number at a point counts the pieces that cover it, and is non-zero
/// exactly on their union. On the inner side of a turn the outline runs
/// through the vertex itself (prevOffsetEnd, pivot, nextOffsetStart), as in
/// Skia's `SkStrokerPriv` inner joins, which keeps that identity whatever the
/// segment lengths; where both segments are long enough the outline takes the
/// offset lines' intersection instead, which removes the doubly covered
/// corner and keeps the winding number at most 1 along the boundary.
///
/// The stroker keeps its scratch buffers between calls, so stroking many
/// paths with one `Stroker` allocates nothing once the buffers have grown.
public struct Stroker: Sendable {
    /// The flattened input path, in user space.
    var flattened = Polylines()
    /// The distinct vertices of the subpath being stroked (user space).
    var vertices: [Point] = []
    /// The vertices of the dash being built (user space).
    var dashVertices: [Point] = []
    /// For dashed strokes, the path's direction at each vertex of `flattened`
    /// and of `vertices` (see `VertexTangents`): dash caps inside a chord
    /// follow the curve, not the chord.
    var flattenedTangents = VertexTangents()
    var vertexTangents = VertexTangents()
    /// Offset points to the right of travel on screen (`point + normal * halfWidth`).
    /// Both sides are slots, written through `SideWriter`: their count is
    /// room, not the side's length, which the stroking functions keep.
    var rightSide: [Point] = []
    /// Offset points to the left of travel on screen (`point - normal * halfWidth`).
    var leftSide: [Point] = []
    /// The normalised dash pattern (even count, all non-negative, positive sum).
    var dashPattern: [Double] = []
    /// Where each subpath enters the dash pattern: interval index and the length left in it.
    var dashStart = (index: 0, remaining: 0.0)
    /// The current stroke's parameters.
    var pen = Pen()

    /// Roughly the memory the scratch buffers hold, bytes (for pools that bound what they keep).
    public var retainedBytes: Int {
        flattened.retainedBytes + (vertices.capacity + dashVertices.capacity + rightSide.capacity
            + leftSide.capacity + flattenedTangents.arriving.capacity + flattenedTangents.leaving.capacity
            + vertexTangents.arriving.capacity + vertexTangents.leaving.capacity) * MemoryLayout<Point>.stride
            + dashPattern.capacity * 8
    }

    /// The parameters of one `stroke` call, derived from the style and the transform.
    struct Pen {
        /// Half the stroke width, in user-space units.
        var halfWidth = 0.5
        var cap = LineCap.butt
        var join = LineJoin.miter
        /// The miter limit squared (at least 1).
        var miterLimitSquared = 16.0
        /// The flattening tolerance in user-space units.
        var tolerance = defaultFlatteningTolerance
        /// The angle (radians) of one chord of a round join or cap, chosen so that
        /// the chord stays within `tolerance` of the arc.
        var arcStep = Double.pi / 2
        /// Segments shorter than this (user space) are dropped as degenerate.
        var minimumSegmentLength = 1e-9
        /// Where the outline goes: user space to device space.
        var transform = AffineMap.identity
    }

    /// A stroker with empty scratch buffers; they grow on first use and are kept.
    public init() {}

    /// Strokes `path` (user space) with `style` (user-space units), flattening curves so that after
    /// `transform` no chord is farther than `tolerance` device pixels from the curve (i.e. flatten in user
    /// space with tolerance / transform.maximumScale), builds the outline in user space, and appends the
    /// outline polygons mapped through `transform` into `output` (device space). Every appended subpath is
    /// closed. The union of the polygons under the NON-ZERO rule is exactly the stroke's area.
    ///
    /// Round joins and caps are flattened to the same device tolerance. Nothing
    /// is appended when the width is zero, negative or not finite, when the
    /// transform is singular or not finite, or when the path has a non-finite
    /// coordinate. `tolerance` is clamped to at least 1e-6 device pixels.
    /// Stops early, setting `output.reachedPointLimit`, once the outline
    /// would pass `output.maximumPointCount` points (see `Polylines`).
    public mutating func stroke(_ path: Path, style: StrokeStyle, transform: AffineMap,
                                tolerance: Double, into output: inout Polylines) {
        guard style.width > 0, style.width.isFinite, transform.isFinite, path.isFinite else { return }
        let scale = transform.maximumScale
        guard scale > 0, scale.isFinite else { return }
        let deviceTolerance = tolerance.isFinite ? Swift.max(tolerance, 1e-6) : defaultFlatteningTolerance

        pen.halfWidth = style.width / 2
        pen.cap = style.cap
        pen.join = style.join
        let miterLimit = style.miterLimit.isFinite ? Swift.max(style.miterLimit, 1) : 1
        pen.miterLimitSquared = miterLimit * miterLimit
        pen.tolerance = deviceTolerance / scale
        pen.arcStep = Self.arcStep(radius: pen.halfWidth, tolerance: pen.tolerance)
        pen.minimumSegmentLength = pen.tolerance * 1e-3
        pen.transform = transform

        flattened.removeAll()
        flattened.maximumPointCount = output.maximumPointCount
        if Stroker.hasDashPattern(style.dashes, offset: style.dashOffset) {
            // Dashes are laid out along the chords, whose lengths stand for the
            // arc length: fine plain chords (centred ones at twice the tolerance
            // moved dash ends by up to 0.1 px on the dashes scene).
            flattenedTangents.removeAll()
            path.appendFlattened(transform: .identity, tolerance: pen.tolerance, into: &flattened,
                                 tangents: &flattenedTangents)
        } else {
            // The centre line is flattened centred at twice the tolerance, as fills are
            // (see `defaultCentredFlatteningTolerance`): both offset sides inherit its
            // chords' outward shift, so neither loses area; joins and caps keep `tolerance`.
            path.appendFlattened(transform: .identity, tolerance: 2 * pen.tolerance, centred: true, into: &flattened)
        }
        if flattened.reachedPointLimit { output.reachedPointLimit = true; return }
        // After flattening: the dash count is bounded by the path's length.
        let isDashed = prepareDashPattern(style.dashes, offset: style.dashOffset)

        for index in flattened.subpaths.indices {
            if output.reachedPointLimit || output.wouldPassLimit(adding: 0) { return }
            let subpath = flattened.subpaths[index]
            collectVertices(start: subpath.start, count: subpath.count, isClosed: subpath.isClosed, withTangents: isDashed)
            // A lone move draws nothing (SVG); "M x y Z" and "M x y L x y" draw a dot.
            let isZeroLength = vertices.count < 2
            if isZeroLength && subpath.count < 2 && !subpath.isClosed { continue }
            if isDashed {
                strokeDashed(isClosed: subpath.isClosed, into: &output)
            } else if isZeroLength {
                appendDot(at: vertices[0], direction: Point(1, 0), into: &output)
            } else if subpath.isClosed && vertices.count > 1 {
                strokeClosed(vertices, into: &output)
            } else {
                strokeOpen(vertices, into: &output)
            }
        }
    }

    /// The chord angle (radians) that keeps a circle of `radius` within
    /// `tolerance` of its chords: the sagitta r (1 - cos(step / 2)) equals the
    /// tolerance. Clamped so that a full circle has 4 to 4096 chords.
    static func arcStep(radius: Double, tolerance: Double) -> Double {
        let ratio = tolerance / radius
        // acos(1 - x) loses precision for tiny x; use its expansion sqrt(2x) there.
        let step = ratio < 1e-8 ? 2 * (2 * ratio).squareRoot() : 2 * acos(Swift.max(-1, 1 - ratio))
        return Swift.min(Swift.max(step, 2 * Double.pi / 4096), Double.pi / 2)
    }

    /// Copies subpath vertices from `flattened` into `vertices`, dropping
    /// points that repeat the previous one (and, for a closed subpath, a last
    /// point that repeats the first).
    ///
    /// `withTangents`: also fills `vertexTangents` from `flattenedTangents`.
    /// A dropped repeat passes on its leaving direction (the next segment
    /// starts from it); a dropped last point, the first's arriving one (the
    /// closing chord then ends a curve at the start).
    mutating func collectVertices(start: Int, count: Int, isClosed: Bool, withTangents: Bool = false) {
        // The vertices as a local array for the loops (moved out, still
        // unique, and back): appended to through `self`, every point paid
        // for a uniqueness check and reloaded the buffers.
        var vertices = self.vertices
        self.vertices = []
        defer { self.vertices = vertices }
        vertices.removeAll(keepingCapacity: true)
        if withTangents { vertexTangents.removeAll() }
        let minimumSquared = pen.minimumSegmentLength * pen.minimumSegmentLength
        if !withTangents {
            // The loop below without tangents, the last vertex kept at hand.
            flattened.points.withUnsafeBufferPointer { points in
                var last: Point? = nil
                for index in start..<(start + count) {
                    let point = points[index]
                    if let last, (point - last).dot(point - last) <= minimumSquared { continue }
                    vertices.append(point)
                    last = point
                }
            }
        } else {
            for index in start..<(start + count) {
                let point = flattened.points[index]
                if let last = vertices.last, (point - last).dot(point - last) <= minimumSquared {
                    if flattenedTangents.leaving[index] != .zero {
                        vertexTangents.leaving[vertices.count - 1] = flattenedTangents.leaving[index]
                    }
                    continue
                }
                vertices.append(point)
                vertexTangents.arriving.append(flattenedTangents.arriving[index])
                vertexTangents.leaving.append(flattenedTangents.leaving[index])
            }
        }
        if isClosed, vertices.count > 1, let first = vertices.first, let last = vertices.last,
           (last - first).dot(last - first) <= minimumSquared {
            vertices.removeLast()
            if withTangents {
                vertexTangents.arriving[0] = vertexTangents.arriving.removeLast()
                vertexTangents.leaving.removeLast()
            }
        }
    }

    // MARK: Outlines

    /// Appends the outline of an open polyline of at least two distinct
    /// points: right side forward, end cap, left side backward, start cap.
    /// `startDirection` and `endDirection` (unit vectors), when given, turn
    /// the caps and the first and last offset points: a dash end inside a
    /// flattened curve is square to the curve there, not to its chord.
    mutating func strokeOpen(_ points: [Point], startDirection givenStart: Point? = nil,
                             endDirection givenEnd: Point? = nil, into output: inout Polylines) {
        let count = points.count
        let pen = self.pen
        let halfWidth = pen.halfWidth
        // The sides are moved out (still unique) and back, as in `strokeClosed`.
        var rightSide = self.rightSide, leftSide = self.leftSide
        self.rightSide = []; self.leftSide = []
        defer { self.rightSide = rightSide; self.leftSide = leftSide }

        var incoming = points[1] - points[0]
        var incomingLength = incoming.length
        incoming = incoming / incomingLength
        let startDirection = givenStart ?? incoming
        Self.reserveSlots(&rightSide, 1); Self.reserveSlots(&leftSide, 1)
        rightSide[0] = points[0] + startDirection.perpendicular * halfWidth
        leftSide[0] = points[0] - startDirection.perpendicular * halfWidth
        var rightCount = 1, leftCount = 1
        if count > 2 {
            if !Self.appendJoins(pen, points: points, from: 1, to: count - 1, incoming: &incoming,
                                 incomingLength: &incomingLength, right: &rightSide, rightCount: &rightCount,
                                 left: &leftSide, leftCount: &leftCount, output: &output) { return }
        }
        let end = points[count - 1]
        let endDirection = givenEnd ?? incoming
        Self.reserveSlots(&rightSide, rightCount + 1); Self.reserveSlots(&leftSide, leftCount + 1)
        rightSide[rightCount] = end + endDirection.perpendicular * halfWidth
        leftSide[leftCount] = end - endDirection.perpendicular * halfWidth
        rightCount += 1; leftCount += 1

        let transform = pen.transform
        output.beginSubpath(transform.apply(rightSide[0]))
        rightSide.withUnsafeBufferPointer { right in
            output.add(count: rightCount - 1) { index in transform.apply(right[index]) }
        }
        appendCap(at: end, forward: endDirection, into: &output)
        leftSide.withUnsafeBufferPointer { left in
            output.add(count: leftCount) { index in transform.apply(left[leftCount - index]) }
        }
        appendCap(at: points[0], forward: -startDirection, into: &output)
        output.finishSubpath(closed: true)
    }

    /// Appends the two loops of a closed polygon of at least two distinct
    /// points, joined at every vertex including the first: the right side
    /// forward and the left side backward, so the loops have opposite
    /// orientations and the non-zero rule fills only the ring between them.
    mutating func strokeClosed(_ points: [Point], into output: inout Polylines) {
        let count = points.count
        // The pen and the two sides as locals for the loop: through `self`,
        // which the joins' appends mutate, the pen was copied for every
        // vertex. The sides are moved out (still unique) and back.
        let pen = self.pen
        var rightSide = self.rightSide, leftSide = self.leftSide
        self.rightSide = []; self.leftSide = []
        defer { self.rightSide = rightSide; self.leftSide = leftSide }

        var incoming = points[0] - points[count - 1]
        var incomingLength = incoming.length
        incoming = incoming / incomingLength
        var rightCount = 0, leftCount = 0
        if !Self.appendJoins(pen, points: points, from: 0, to: count, incoming: &incoming,
                             incomingLength: &incomingLength, right: &rightSide, rightCount: &rightCount,
                             left: &leftSide, leftCount: &leftCount, output: &output) { return }

        let transform = pen.transform
        output.beginSubpath(transform.apply(rightSide[0]))
        rightSide.withUnsafeBufferPointer { right in
            output.add(count: rightCount - 1) { index in transform.apply(right[index]) }
        }
        output.finishSubpath(closed: true)
        output.beginSubpath(transform.apply(leftSide[leftCount - 1]))
        leftSide.withUnsafeBufferPointer { left in
            output.add(count: leftCount - 1) { index in transform.apply(left[leftCount - 1 - index]) }
        }
        output.finishSubpath(closed: true)
    }

    /// Appends the stroke of a zero-length subpath or dash at `center`: a disc
    /// for round caps, a square turned to `direction` (unit length) for square
    /// caps, nothing for butt caps (SVG and Skia behaviour).
    mutating func appendDot(at center: Point, direction: Point, into output: inout Polylines) {
        let halfWidth = pen.halfWidth, transform = pen.transform
        switch pen.cap {
        case .butt:
            return
        case .square:
            let along = direction * halfWidth, across = direction.perpendicular * halfWidth
            output.beginSubpath(transform.apply(center + along + across))
            output.add(transform.apply(center - along + across))
            output.add(transform.apply(center - along - across))
            output.add(transform.apply(center + along - across))
        case .round:
            let segments = Swift.max(4, Int((2 * Double.pi / pen.arcStep).rounded(.up)))
            let angle = 2 * Double.pi / Double(segments)
            let cosine = cos(angle), sine = sin(angle)
            var radius = Point(halfWidth, 0)
            output.beginSubpath(transform.apply(center + radius))
            for _ in 1..<segments {
                radius = Point(radius.x * cosine - radius.y * sine, radius.x * sine + radius.y * cosine)
                output.add(transform.apply(center + radius))
            }
        }
        output.finishSubpath(closed: true)
    }

    /// Appends the points of the cap at `center` that lie between the side
    /// offset `center + forward.perpendicular * halfWidth` (already appended)
    /// and `center - forward.perpendicular * halfWidth` (appended next), going
    /// around the `forward` side (unit vector pointing away from the line).
    mutating func appendCap(at center: Point, forward: Point, into output: inout Polylines) {
        let halfWidth = pen.halfWidth, transform = pen.transform
        let across = forward.perpendicular * halfWidth, along = forward * halfWidth
        switch pen.cap {
        case .butt:
            break
        case .square:
            output.add(transform.apply(center + across + along))
            output.add(transform.apply(center - across + along))
        case .round:
            // Half a turn from `across` to `-across`, clockwise through `forward`
            // (turning `across` by -90 degrees gives `along`).
            let segments = Swift.max(2, Int((Double.pi / pen.arcStep).rounded(.up)))
            let angle = -Double.pi / Double(segments)
            let cosine = cos(angle), sine = sin(angle)
            var radius = across
            for _ in 1..<segments {
                radius = Point(radius.x * cosine - radius.y * sine, radius.x * sine + radius.y * cosine)
                output.add(transform.apply(center + radius))
            }
        }
    }

    // MARK: Joins

    /// One offset side, written through a pointer into slots known to be
    /// there: appending to the arrays paid a uniqueness check (a call) and a
    /// capacity test per point, and kept the arrays' buffers in memory.
    struct SideWriter {
        var base: UnsafeMutablePointer<Point>
        var count: Int

        @inline(__always)
        mutating func append(_ point: Point) {
            base[count] = point
            count += 1
        }
    }

    /// Gives `side` at least `count` slots, keeping the ones it has.
    static func reserveSlots(_ side: inout [Point], _ count: Int) {
        if side.count < count {
            side.append(contentsOf: repeatElement(Point.zero, count: Swift.max(count, 2 * side.count) - side.count))
        }
    }

    /// How many joins' slots `appendJoins` reserves at a time.
    static let joinsPerReservation = 1 << 14

    /// The most points one join appends to one side: 3 (an inner join), or a
    /// round join's arc of up to half a turn.
    static func joinHeadroom(_ pen: Pen) -> Int {
        guard pen.join == .round else { return 3 }
        return Swift.max(3, Int((Double.pi / pen.arcStep).rounded(.up)) + 2)
    }

    /// Appends the joins at `points[first..<end]` (the next point after the
    /// last one is `points[0]`) to the sides, whose lengths are `rightCount`
    /// and `leftCount`. Returns false when the output's point limit stopped it.
    ///
    /// The sides get slots for 3 points a join (for up to
    /// `joinsPerReservation` joins) and one join of any kind; the loop writes
    /// through pointers while every side has room for one more join of any
    /// kind, and comes back for more slots after a long run of round joins'
    /// arcs or that many joins.
    static func appendJoins(_ pen: Pen, points: [Point], from first: Int, to end: Int,
                            incoming: inout Point, incomingLength: inout Double,
                            right rightSide: inout [Point], rightCount: inout Int,
                            left leftSide: inout [Point], leftCount: inout Int,
                            output: inout Polylines) -> Bool {
        let count = points.count
        let headroom = joinHeadroom(pen)
        // The points the output can still take (`wouldPassLimit` without
        // reading the output per join): -1 when it can take none. The
        // vertices are read through a buffer pointer, with no bounds checks.
        let room = output.maximumPointCount < output.points.count
            ? -1 : output.maximumPointCount - output.points.count
        var index = first
        while index < end {
            // Slots for at most `joinsPerReservation` joins at a time: a path of
            // millions of vertices that the output's limit stops early takes no
            // memory for the joins it never reaches (the sides double as they grow).
            let joins = Swift.min(end - index, joinsPerReservation)
            let slots = Swift.max(rightCount, leftCount) + 3 * joins + headroom
            reserveSlots(&rightSide, slots)
            reserveSlots(&leftSide, slots)
            let stopped = points.withUnsafeBufferPointer { points in
                rightSide.withUnsafeMutableBufferPointer { rightBuffer in
                    leftSide.withUnsafeMutableBufferPointer { leftBuffer in
                        var right = SideWriter(base: rightBuffer.baseAddress!, count: rightCount)
                        var left = SideWriter(base: leftBuffer.baseAddress!, count: leftCount)
                        defer { rightCount = right.count; leftCount = left.count }
                        let limit = Swift.min(rightBuffer.count, leftBuffer.count) - headroom
                        while index < end, right.count <= limit, left.count <= limit {
                            if right.count &+ left.count > room {
                                _ = output.wouldPassLimit(adding: right.count + left.count)
                                return true
                            }
                            var outgoing = points[index + 1 == count ? 0 : index + 1] - points[index]
                            let outgoingLength = outgoing.length
                            outgoing = outgoing / outgoingLength
                            appendJoin(pen, at: points[index], incoming: incoming, outgoing: outgoing,
                                       shortestLength: Swift.min(incomingLength, outgoingLength),
                                       right: &right, left: &left)
                            incoming = outgoing
                            incomingLength = outgoingLength
                            index += 1
                        }
                        return false
                    }
                }
            }
            if stopped { return false }
        }
        return true
    }

    /// Appends the join at `pivot` between a segment arriving along `incoming`
    /// and one leaving along `outgoing` (unit vectors) to both sides: the join
    /// geometry on the outer side of the turn, the inner connection on the other.
    /// `shortestLength` is the shorter of the two segments' lengths.
    static func appendJoin(_ pen: Pen, at pivot: Point, incoming: Point, outgoing: Point, shortestLength: Double,
                           right: inout SideWriter, left: inout SideWriter) {
        // cross > 0: the path turns clockwise on screen, towards its right side,
        // which is then the inner side. A reversal (cross 0, dot -1) picks the
        // right side as the outer one.
        let cross = incoming.cross(outgoing)
        if cross > 0 {
            appendOuterJoin(pen, at: pivot, incoming: incoming, outgoing: outgoing, sign: -1, into: &left)
            appendInnerJoin(pen, at: pivot, incoming: incoming, outgoing: outgoing, sign: 1,
                            shortestLength: shortestLength, into: &right)
        } else {
            appendOuterJoin(pen, at: pivot, incoming: incoming, outgoing: outgoing, sign: 1, into: &right)
            appendInnerJoin(pen, at: pivot, incoming: incoming, outgoing: outgoing, sign: -1,
                            shortestLength: shortestLength, into: &left)
        }
    }

    /// The outer side of a turn (`sign` 1: right side, -1: left side): miter
    /// point, round arc or bevel. When the miter point is within the
    /// flattening tolerance of the arc (the small turns between the chords of
    /// a flattened curve), any join style emits just that point.
    /// Inlined: the miter point, what nearly every vertex of a flattened
    /// path gets, is appended with no call; arcs and bevels go to
    /// `appendOuterJoinSlowly`.
    @inline(__always)
    static func appendOuterJoin(_ pen: Pen, at pivot: Point, incoming: Point, outgoing: Point, sign: Double,
                                into side: inout SideWriter) {
        let halfWidth = pen.halfWidth
        let startNormal = incoming.perpendicular * sign, endNormal = outgoing.perpendicular * sign
        let dot = incoming.dot(outgoing)
        let onePlusDot = 1 + dot
        if onePlusDot > 1e-12 {
            // (miter length / width)^2 = 1 / cos^2(turn / 2) = 2 / (1 + cos(turn)).
            let miterRatioSquared = 2 / onePlusDot
            let overshoot = halfWidth * (miterRatioSquared.squareRoot() - 1)
            if overshoot <= pen.tolerance || (pen.join == .miter && miterRatioSquared <= pen.miterLimitSquared) {
                side.append(pivot + (startNormal + endNormal) * (halfWidth / onePlusDot))
                return
            }
        }
        appendOuterJoinSlowly(pen, at: pivot, incoming: incoming, outgoing: outgoing, sign: sign,
                              startNormal: startNormal, endNormal: endNormal, dot: dot, into: &side)
    }

    /// `appendOuterJoin` past its miter point: a bevel or a round join's arc
    /// (`startNormal`, `endNormal` and `dot` as `appendOuterJoin` computed them).
    @inline(never)
    static func appendOuterJoinSlowly(_ pen: Pen, at pivot: Point, incoming: Point, outgoing: Point, sign: Double,
                                      startNormal: Point, endNormal: Point, dot: Double,
                                      into side: inout SideWriter) {
        let halfWidth = pen.halfWidth
        switch pen.join {
        case .miter, .bevel:
            side.append(pivot + startNormal * halfWidth)
            side.append(pivot + endNormal * halfWidth)
        case .round:
            // The normals turn as the directions do: by `turn`, signed like `cross`.
            let turn = atan2(Swift.abs(incoming.cross(outgoing)), dot)
            let sweep = sign > 0 ? -turn : turn
            let segments = Swift.max(1, Int((turn / pen.arcStep).rounded(.up)))
            let angle = sweep / Double(segments)
            let cosine = cos(angle), sine = sin(angle)
            var radius = startNormal * halfWidth
            side.append(pivot + radius)
            for _ in 1..<segments {
                radius = Point(radius.x * cosine - radius.y * sine, radius.x * sine + radius.y * cosine)
                side.append(pivot + radius)
            }
            side.append(pivot + endNormal * halfWidth)
        }
    }

    /// The inner side of a turn (`sign` as in `appendOuterJoin`): the offset
    /// lines' intersection when it lies within the first half of both
    /// segments, otherwise incoming offset end, pivot, outgoing offset start
    /// (Skia's `HandleInnerJoin`), whose small loop the non-zero rule fills.
    static func appendInnerJoin(_ pen: Pen, at pivot: Point, incoming: Point, outgoing: Point, sign: Double,
                                shortestLength: Double, into side: inout SideWriter) {
        let halfWidth = pen.halfWidth
        let startNormal = incoming.perpendicular * sign, endNormal = outgoing.perpendicular * sign
        let onePlusDot = 1 + incoming.dot(outgoing)
        // The intersection lies halfWidth * tan(turn / 2) = halfWidth * |cross| / (1 + dot)
        // back along each segment; at most half of each keeps neighbouring joins apart.
        if onePlusDot > 1e-12,
           halfWidth * Swift.abs(incoming.cross(outgoing)) <= 0.5 * shortestLength * onePlusDot {
            side.append(pivot + (startNormal + endNormal) * (halfWidth / onePlusDot))
        } else {
            side.append(pivot + startNormal * halfWidth)
            side.append(pivot)
            side.append(pivot + endNormal * halfWidth)
        }
    }
}

extension Path {
    /// The stroke's outline as a path of closed polygons (fill it with the non-zero rule); convenience for users.
    ///
    /// The outline is in the path's own (user) space; `tolerance` (user-space
    /// units, default `defaultFlatteningTolerance`) bounds the distance between
    /// curves, round joins and round caps and the chords that replace them.
    /// Allocates a `Stroker`; keep one to stroke many paths without allocating.
    public func strokedOutline(_ style: StrokeStyle, tolerance: Double = defaultFlatteningTolerance) -> Path {
        var stroker = Stroker()
        var polylines = Polylines()
        stroker.stroke(self, style: style, transform: .identity, tolerance: tolerance, into: &polylines)
        var outline = Path()
        for index in polylines.subpaths.indices {
            let vertices = polylines.vertices(of: index)
            guard let first = vertices.first else { continue }
            outline.move(to: first)
            for point in vertices.dropFirst() { outline.line(to: point) }
            outline.close()
        }
        return outline
    }
}
