/// Exact coverage where the signed-area sum is not enough.
///
/// Accumulating signed area is exact wherever no pixel holds both winding 0
/// and a winding the fill rule treats differently from the sum (±2 under
/// non-zero, or 2 under even-odd, next to 0): where edges cross inside a
/// pixel (a star's inner corners), or where two overlapping parts of a path
/// both have an edge in one pixel (a fan of thin lines, a stroke's inner
/// join). Such pixels can only occur where two different y-monotone chains
/// of the path pass through the same pixel of a row, so rows are flagged by
/// that test, and a flagged row is resolved exactly: it is cut into strips
/// at every segment end and crossing, inside which the edges neither begin,
/// end nor cross; in each strip the winding number is known between every
/// pair of neighbouring edges, and only the boundaries of the inside spans
/// are accumulated. Each span is then a trapezoid whose exact area the
/// accumulation already computes. (The strip decomposition is the classic
/// trapezoidal decomposition of a polygon, e.g. Seidel 1991; here it runs per
/// pixel row, only where needed.)
struct ExactRowScratch {
    /// Per band row: does it need the exact treatment?
    var flags: [Bool] = []
    /// Per band row: the cell range each chain covers, before merging.
    private var pieces: [(row: Int32, chain: Int32, first: Int32, last: Int32)] = []
    /// Per band row: one cell range per chain.
    private var merged: [(row: Int32, first: Int32, last: Int32)] = []
    private var rowEdges: [CoverageRasterizer.Edge] = []
    private var events: [Float] = []
    private var active: [(x: Float, index: Int)] = []
    /// Winding number of each path (shape, clips) while walking a strip.
    private var windings: [Float] = []
    /// Horizontal segments of the path: no area, but they matter for flagging and strip boundaries.
    private var horizontals: [(y: Float, left: Float, right: Float, chain: Int32)] = []

    mutating func removeHorizontals() { horizontals.removeAll(keepingCapacity: true) }

    mutating func addHorizontal(y: Float, left: Float, right: Float, chain: Int32) {
        horizontals.append((y, left, right, chain))
    }

    /// Marks rows of the band where two chains touch the same pixel.
    /// Returns whether any row was marked.
    mutating func flagRows(_ edges: UnsafeBufferPointer<CoverageRasterizer.Edge>, bandTop: Int, bandBottom: Int) -> Bool {
        let height = bandBottom - bandTop
        if flags.count < height { flags = [Bool](repeating: false, count: height) }
        for row in 0..<height { flags[row] = false }
        pieces.removeAll(keepingCapacity: true)
        for edge in edges where edge.yBottom > Float(bandTop) && edge.yTop < Float(bandBottom) {
            let firstRow = max(bandTop, Int(edge.yTop.rounded(.down)))
            let lastRow = min(bandBottom, Int(edge.yBottom.rounded(.up)))
            let dxdy = (edge.xBottom - edge.xTop) / (edge.yBottom - edge.yTop)
            for row in firstRow..<lastRow {
                let top = max(Float(row), edge.yTop), bottom = min(Float(row + 1), edge.yBottom)
                let xa = edge.xTop + (top - edge.yTop) * dxdy, xb = edge.xTop + (bottom - edge.yTop) * dxdy
                pieces.append((Int32(row), edge.chain, Int32(min(xa, xb).rounded(.down)), Int32(max(xa, xb).rounded(.down))))
            }
        }
        for horizontal in horizontals where horizontal.y >= Float(bandTop) && horizontal.y < Float(bandBottom) {
            pieces.append((Int32(horizontal.y.rounded(.down)), horizontal.chain,
                           Int32(horizontal.left.rounded(.down)), Int32(horizontal.right.rounded(.down))))
        }
        guard pieces.count > 1 else { return false }
        // Merge each chain's pieces per row, then look for overlaps between chains.
        pieces.sort { ($0.row, $0.chain, $0.first) < ($1.row, $1.chain, $1.first) }
        merged.removeAll(keepingCapacity: true)
        var previous: (row: Int32, chain: Int32)? = nil
        for piece in pieces {
            if let last = merged.last, let previous, previous.row == piece.row, previous.chain == piece.chain {
                merged[merged.count - 1].first = min(last.first, piece.first)
                merged[merged.count - 1].last = max(last.last, piece.last)
            } else {
                merged.append((piece.row, piece.first, piece.last))
            }
            previous = (piece.row, piece.chain)
        }
        merged.sort { ($0.row, $0.first) < ($1.row, $1.first) }
        var any = false
        var index = 0
        while index < merged.count {
            let row = merged[index].row
            var reach = merged[index].last
            var next = index + 1
            while next < merged.count && merged[next].row == row {
                if merged[next].first <= reach { flags[Int(row) - bandTop] = true; any = true }
                reach = max(reach, merged[next].last)
                next += 1
            }
            index = next
        }
        return any
    }

    /// Accumulates the flagged rows of the band exactly.
    /// A row holding more edge pieces than this is accumulated the fast way
    /// instead: the exact pass tests every pair of pieces for a crossing, and
    /// input such as 70,000 dashes of 0.001 px must not take minutes.
    static let maximumExactPieces = 256

    mutating func resolveFlaggedRows(_ edges: UnsafeBufferPointer<CoverageRasterizer.Edge>, rules: [FillRule],
                                     into cells: UnsafeMutablePointer<Float>, touched: UnsafeMutablePointer<UInt64>,
                                     stride: Int, wordsPerRow: Int, originX: Float, bandTop: Int, bandBottom: Int) {
        target = AccumulationTarget(cells: cells, touched: touched, stride: stride, wordsPerRow: wordsPerRow,
                                    originX: originX, bandTop: bandTop, bandBottom: bandBottom)
        for row in bandTop..<bandBottom where flags[row - bandTop] {
            resolveRow(row, edges: edges, rules: rules)
        }
    }

    /// `rules[0]` is the shape's fill rule, `rules[k]` clip k's: a point is
    /// inside when it is inside the shape and inside every clip.
    private mutating func resolveRow(_ row: Int, edges: UnsafeBufferPointer<CoverageRasterizer.Edge>, rules: [FillRule]) {
        guard let target else { return }
        let rowTop = Float(row), rowBottom = Float(row + 1)
        // The row's pieces of every edge.
        rowEdges.removeAll(keepingCapacity: true)
        events.removeAll(keepingCapacity: true)
        events.append(rowTop); events.append(rowBottom)
        for horizontal in horizontals where horizontal.y > rowTop && horizontal.y < rowBottom {
            events.append(horizontal.y)
        }
        for edge in edges where edge.yBottom > rowTop && edge.yTop < rowBottom {
            let dxdy = (edge.xBottom - edge.xTop) / (edge.yBottom - edge.yTop)
            let top = max(rowTop, edge.yTop), bottom = min(rowBottom, edge.yBottom)
            guard bottom > top else { continue }
            rowEdges.append(CoverageRasterizer.Edge(
                xTop: edge.xTop + (top - edge.yTop) * dxdy, yTop: top,
                xBottom: edge.xTop + (bottom - edge.yTop) * dxdy, yBottom: bottom,
                direction: edge.direction, chain: edge.chain, path: edge.path))
            events.append(top); events.append(bottom)
        }
        if rowEdges.count > ExactRowScratch.maximumExactPieces {
            // Too busy for the exact pass: the fast, approximate sum instead.
            flags[row - target.bandTop] = false
            for edge in rowEdges where edge.path == 0 { target.accumulate(edge) }
            return
        }
        // Crossings between pieces.
        let count = rowEdges.count
        if count > 1 {
            for i in 0..<(count - 1) {
                let a = rowEdges[i]
                for j in (i + 1)..<count {
                    let b = rowEdges[j]
                    let top = max(a.yTop, b.yTop), bottom = min(a.yBottom, b.yBottom)
                    guard bottom > top else { continue }
                    let differenceTop = ExactRowScratch.x(of: a, at: top) - ExactRowScratch.x(of: b, at: top)
                    let differenceBottom = ExactRowScratch.x(of: a, at: bottom) - ExactRowScratch.x(of: b, at: bottom)
                    if (differenceTop < 0 && differenceBottom > 0) || (differenceTop > 0 && differenceBottom < 0) {
                        events.append(top + (bottom - top) * differenceTop / (differenceTop - differenceBottom))
                    }
                }
            }
        }
        events.sort()
        // Each strip: order the edges that span it, walk the winding, accumulate inside spans.
        for index in 0..<(events.count - 1) {
            let stripTop = events[index], stripBottom = events[index + 1]
            guard stripBottom - stripTop > 1e-6 else { continue }
            let middle = 0.5 * (stripTop + stripBottom)
            active.removeAll(keepingCapacity: true)
            for (edgeIndex, edge) in rowEdges.enumerated() where edge.yTop < middle && edge.yBottom > middle {
                active.append((ExactRowScratch.x(of: edge, at: middle), edgeIndex))
            }
            guard active.count > 1 else { continue }
            active.sort { $0.x < $1.x }
            windings.removeAll(keepingCapacity: true)
            windings.append(contentsOf: repeatElement(0, count: rules.count))
            var spanStart: Int? = nil
            for (_, edgeIndex) in active {
                let edge = rowEdges[edgeIndex]
                windings[Int(edge.path)] += edge.direction
                var inside = true
                for (path, rule) in rules.enumerated() where inside {
                    let winding = windings[path]
                    inside = rule == .nonZero ? winding != 0 : Int(abs(winding)) % 2 == 1
                }
                if inside && spanStart == nil {
                    spanStart = edgeIndex
                } else if !inside, let start = spanStart {
                    addBoundary(rowEdges[start], direction: 1, from: stripTop, to: stripBottom, target: target)
                    addBoundary(rowEdges[edgeIndex], direction: -1, from: stripTop, to: stripBottom, target: target)
                    spanStart = nil
                }
            }
        }
    }

    @inline(__always)
    private static func x(of edge: CoverageRasterizer.Edge, at y: Float) -> Float {
        edge.xTop + (y - edge.yTop) * (edge.xBottom - edge.xTop) / (edge.yBottom - edge.yTop)
    }

    /// Accumulates the part of `edge` between `top` and `bottom` as a span boundary.
    private func addBoundary(_ edge: CoverageRasterizer.Edge, direction: Float, from top: Float, to bottom: Float,
                             target: AccumulationTarget) {
        target.accumulate(CoverageRasterizer.Edge(xTop: ExactRowScratch.x(of: edge, at: top), yTop: top,
                                                  xBottom: ExactRowScratch.x(of: edge, at: bottom), yBottom: bottom,
                                                  direction: direction, chain: edge.chain, path: 0))
    }

    /// Where the current band's accumulation lives.
    private var target: AccumulationTarget?

    private struct AccumulationTarget {
        var cells: UnsafeMutablePointer<Float>
        var touched: UnsafeMutablePointer<UInt64>
        var stride: Int, wordsPerRow: Int
        var originX: Float
        var bandTop: Int, bandBottom: Int

        func accumulate(_ edge: CoverageRasterizer.Edge) {
            CoverageRasterizer.accumulate(edge, into: cells, touched: touched, stride: stride, wordsPerRow: wordsPerRow,
                                          originX: originX, bandTop: bandTop, bandBottom: bandBottom)
        }
    }
}
