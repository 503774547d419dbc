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
    /// dash draws a dot turned along its segment. A dash end is square to
    /// the path there (`dashEndDirection`), not to the chord it falls on.
    mutating func strokeDashed(isClosed: Bool, into output: inout Polylines) {
        var index = dashStart.index, remaining = dashStart.remaining
        var isOn = index % 2 == 0
        dashVertices.removeAll(keepingCapacity: true)
        let count = vertices.count
        if count < 2 {
            if isOn { appendDot(at: vertices[0], direction: Point(1, 0), into: &output) }
            return
        }
        var direction = (vertices[1] - vertices[0]) / vertices[1].distance(to: vertices[0])
        var startDirection: Point? = nil
        if isOn {
            appendDashVertex(vertices[0])
            startDirection = dashEndDirection(from: 0, to: 1, at: 0, chord: direction)
        }
        let segmentCount = isClosed ? count : count - 1
        for segment in 0..<segmentCount {
            let endIndex = segment + 1 == count ? 0 : segment + 1
            let start = vertices[segment], end = vertices[endIndex]
            let chordLength = start.distance(to: end)
            direction = (end - start) / chordLength
            // The pattern runs on arc length: a chord of a curve is shorter
            // than its arc (see `arcLength`); positions map back linearly.
            let length = arcLength(from: segment, to: endIndex, chordLength: chordLength, chord: direction)
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
                let atEnd = consumed >= length
                let point = atEnd ? end : start + direction * (consumed * chordLength / length)
                if isOn {
                    appendDashVertex(point)
                    finishDash(direction: direction, startDirection: startDirection,
                               endDirection: dashEndDirection(from: segment, to: endIndex, at: atEnd ? 1 : consumed / length,
                                                              chord: direction),
                               into: &output)
                    if output.reachedPointLimit || output.wouldPassLimit(adding: 0) { return }
                }
                index = index + 1 == dashPattern.count ? 0 : index + 1
                remaining = dashPattern[index]
                isOn = index % 2 == 0
                if isOn {
                    appendDashVertex(point)
                    if !atEnd {
                        startDirection = dashEndDirection(from: segment, to: endIndex, at: consumed / length, chord: direction)
                    } else if segment + 1 < segmentCount {
                        // Starting on a vertex: square to the path leaving it, along the next segment.
                        let next = endIndex + 1 == count ? 0 : endIndex + 1
                        let nextChord = VertexTangents.unit(vertices[next] - end)
                        startDirection = nextChord == .zero ? nil
                            : dashEndDirection(from: endIndex, to: next, at: 0, chord: nextChord)
                    } else {
                        startDirection = nil
                    }
                }
            }
        }
        if isOn {
            finishDash(direction: direction, startDirection: startDirection,
                       endDirection: dashEndDirection(from: segmentCount - 1, to: isClosed ? 0 : count - 1, at: 1,
                                                      chord: direction),
                       into: &output)
        }
    }

    /// The length of the arc a chord of `chordLength` from vertex `from` to
    /// vertex `to` (unit `chord`) stands for: for a curve turning by θ along
    /// the chord (the angle between the path's directions at its ends), the
    /// arc is longer by about θ²/24, 1 − cos θ ≈ θ²/2 giving
    /// `chordLength × (1 + (1 − cos θ)/12)`. Laid out on chords alone, dashes
    /// fell behind by that much: 1/37000 of the length on the dashes scene's
    /// circle @2x, 1/1200 on curves of a 2-pixel radius. A corner (the same
    /// 30° test as `dashEndDirection`) is no arc.
    func arcLength(from: Int, to: Int, chordLength: Double, chord: Point) -> Double {
        let leaving = vertexTangents.leaving[from], arriving = vertexTangents.arriving[to]
        guard leaving != .zero, arriving != .zero, leaving.dot(chord) >= 0.866, arriving.dot(chord) >= 0.866 else {
            return chordLength
        }
        return chordLength * (1 + (1 - leaving.dot(arriving)) / 12)
    }

    /// The direction a dash end at fraction `fraction` of the segment from
    /// vertex `from` to vertex `to` (unit `chord`) is square to: the path's
    /// directions at the two vertices (`vertexTangents`), blended. On a
    /// flattened curve a chord leans from the curve by up to half the angle
    /// it spans, which turned butt-cap corners by up to 0.05 px on a dashed
    /// circle; blended, the error is of the third order in that angle. A
    /// direction that is missing, or leans more than 30° from the chord (a
    /// corner or cusp between segments, not a curve), gives way to the chord.
    func dashEndDirection(from: Int, to: Int, at fraction: Double, chord: Point) -> Point {
        var leaving = vertexTangents.leaving[from], arriving = vertexTangents.arriving[to]
        if leaving == .zero || leaving.dot(chord) < 0.866 { leaving = chord }
        if arriving == .zero || arriving.dot(chord) < 0.866 { arriving = chord }
        let blended = VertexTangents.unit(leaving * (1 - fraction) + arriving * fraction)
        return blended == .zero ? chord : blended
    }

    /// Adds a point to the dash being built, unless it repeats the last one.
    mutating func appendDashVertex(_ point: Point) {
        if let last = dashVertices.last, last.distance(to: point) <= pen.minimumSegmentLength { return }
        dashVertices.append(point)
    }

    /// Strokes the dash in `dashVertices` (a dot when it has zero length) and
    /// empties it; its ends are square to `startDirection` and `endDirection`
    /// when given (see `strokeOpen`).
    mutating func finishDash(direction: Point, startDirection: Point? = nil, endDirection: Point? = nil,
                             into output: inout Polylines) {
        if dashVertices.count > 1 {
            trimShortEndChords()
            strokeOpen(dashVertices, startDirection: startDirection, endDirection: endDirection, into: &output)
        } else if let center = dashVertices.first {
            appendDot(at: center, direction: direction, into: &output)
        }
        dashVertices.removeAll(keepingCapacity: true)
    }

    /// Drops the chord vertex next to either end of the dash in
    /// `dashVertices` when the partial chord that ends the dash is shorter
    /// than the overlap of the two chords' inner offsets (half the width ×
    /// tan of half the turn; the test uses twice that) at a curve's gentle
    /// turn (under about 6°). Otherwise the inner join, its segments too
    /// short to meet, is routed through the centre line and leaves a sliver
    /// just past the butt cap (+11 of 255 at a dash start on the dashes
    /// scene's circle @2x). The centre line moves by at most that length ×
    /// the turn: a thousandth of a pixel there.
    mutating func trimShortEndChords() {
        func isShortGentleEnd(_ end: Point, _ vertex: Point, _ next: Point) -> Bool {
            let partial = vertex - end, chord = next - vertex
            let partialLength = partial.length, chordLength = chord.length
            guard partialLength > 0, chordLength > 0, partial.dot(chord) > 0 else { return false }
            let sine = abs(partial.cross(chord)) / (partialLength * chordLength)
            return sine < 0.1 && partialLength < pen.halfWidth * sine
        }
        while dashVertices.count > 2 && isShortGentleEnd(dashVertices[0], dashVertices[1], dashVertices[2]) {
            dashVertices.remove(at: 1)
        }
        while dashVertices.count > 2 {
            let last = dashVertices.count - 1
            guard isShortGentleEnd(dashVertices[last], dashVertices[last - 1], dashVertices[last - 2]) else { break }
            dashVertices.remove(at: last - 1)
        }
    }
}
