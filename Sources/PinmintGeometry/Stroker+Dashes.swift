/// Dashing: the subpath is cut into dashes, each stroked as an open polyline
/// with the style's caps (SVG `stroke-dasharray` and `stroke-dashoffset`).
extension Stroker {
    /// The most dashes one stroke may produce; beyond it the stroke is drawn
    /// solid (Skia's `SkDashPath` also gives up past a million dashes).
    static let maximumDashCount = 1_000_000.0

    /// Whether `dashes` and `offset` describe a dash pattern at all (the
    /// checks of `prepareDashPattern` that do not need the flattened path).
    static func hasDashPattern(_ dashes: [Double], offset: Double) -> Bool {
        guard !dashes.isEmpty, offset.isFinite else { return false }
        var sum = 0.0
        for length in dashes {
            guard length >= 0, length.isFinite else { return false }
            sum += length
        }
        return sum > 0 && sum.isFinite
    }

    /// Normalises `dashes` into `dashPattern` and finds where subpaths enter
    /// it (`dashStart`). Returns false when the stroke is solid: an empty
    /// pattern, a negative or non-finite value, an all-zero pattern, a
    /// non-finite offset, or more than `maximumDashCount` dashes. Call after
    /// flattening the path into `flattened`: the dash count is measured on it.
    mutating func prepareDashPattern(_ dashes: [Double], offset: Double) -> Bool {
        dashPattern.removeAll(keepingCapacity: true)
        guard Stroker.hasDashPattern(dashes, offset: offset) else { return false }
        var sum = dashes.reduce(0, +)
        // An odd count is repeated to make it even (SVG).
        let repetitions = dashes.count % 2 == 0 ? 1 : 2
        for _ in 0..<repetitions { dashPattern.append(contentsOf: dashes) }
        sum *= Double(repetitions)

        var pathLength = 0.0
        for subpath in flattened.subpaths where subpath.count > 1 {
            let end = subpath.start + subpath.count
            for index in (subpath.start + 1)..<end {
                pathLength += flattened.points[index].distance(to: flattened.points[index - 1])
            }
            if subpath.isClosed {
                pathLength += flattened.points[end - 1].distance(to: flattened.points[subpath.start])
            }
        }
        if pathLength / sum * Double(dashPattern.count / 2) > Self.maximumDashCount { return false }

        // The offset may be negative or longer than the pattern.
        var phase = offset.truncatingRemainder(dividingBy: sum)
        if phase < 0 { phase += sum }
        // Step over whole intervals; an interval ending exactly at the phase is
        // skipped unless it has zero length (as Skia's CalcDashParameters).
        var index = 0
        for _ in 0..<dashPattern.count {
            let length = dashPattern[index]
            guard phase > length || (phase == length && length > 0) else { break }
            phase -= length
            index = index + 1 == dashPattern.count ? 0 : index + 1
        }
        dashStart = (index, Swift.max(0, dashPattern[index] - phase))
        return true
    }

    /// Cuts the subpath in `vertices` into dashes and strokes each. The
    /// pattern restarts at the subpath's first point and runs on across its
    /// segments (and the closing segment of a closed subpath); a zero-length
    /// dash draws a dot turned along its segment.
    mutating func strokeDashed(isClosed: Bool, into output: inout Polylines) {
        var index = dashStart.index, remaining = dashStart.remaining
        var isOn = index % 2 == 0
        dashVertices.removeAll(keepingCapacity: true)
        let count = vertices.count
        if count < 2 {
            if isOn { appendDot(at: vertices[0], direction: Point(1, 0), into: &output) }
            return
        }
        if isOn { appendDashVertex(vertices[0]) }
        var direction = Point(1, 0)
        for segment in 0..<(isClosed ? count : count - 1) {
            let start = vertices[segment], end = vertices[segment + 1 == count ? 0 : segment + 1]
            let length = start.distance(to: end)
            direction = (end - start) / length
            var consumed = 0.0
            while true {
                let left = length - consumed
                if remaining > left {
                    // The interval runs on past this segment.
                    remaining -= left
                    if isOn { appendDashVertex(end) }
                    break
                }
                consumed += remaining
                let point = consumed >= length ? end : start + direction * consumed
                if isOn {
                    appendDashVertex(point)
                    finishDash(direction: direction, into: &output)
                    if output.reachedPointLimit || output.wouldPassLimit(adding: 0) { return }
                }
                index = index + 1 == dashPattern.count ? 0 : index + 1
                remaining = dashPattern[index]
                isOn = index % 2 == 0
                if isOn { appendDashVertex(point) }
            }
        }
        if isOn { finishDash(direction: direction, into: &output) }
    }

    /// Adds a point to the dash being built, unless it repeats the last one.
    mutating func appendDashVertex(_ point: Point) {
        if let last = dashVertices.last, last.distance(to: point) <= pen.minimumSegmentLength { return }
        dashVertices.append(point)
    }

    /// Strokes the dash in `dashVertices` (a dot when it has zero length) and empties it.
    mutating func finishDash(direction: Point, into output: inout Polylines) {
        if dashVertices.count > 1 {
            strokeOpen(dashVertices, into: &output)
        } else if let center = dashVertices.first {
            appendDot(at: center, direction: direction, into: &output)
        }
        dashVertices.removeAll(keepingCapacity: true)
    }
}
