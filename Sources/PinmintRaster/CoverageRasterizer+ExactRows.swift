/// Exact coverage where the signed-area sum is not enough.
///
/// Accumulating signed area is exact wherever no pixel holds both winding 0
/// and a winding the fill rule treats differently from the sum (±2 under
/// non-zero, or 2 under even-odd, next to 0): where edges cross inside a
/// pixel (a star's inner corners), or where two overlapping parts of a path
/// both have an edge in one pixel (a fan of thin lines, a stroke's inner
/// join). Such pixels can only occur where two different y-monotone chains
/// of the path pass through the same pixel of a row, so rows are flagged by
/// that test (accumulation records each pixel's chain as it goes), and a
/// flagged row is resolved exactly: it is cut into strips
/// at every segment end and crossing, inside which the edges neither begin,
/// end nor cross; in each strip the winding number is known between every
/// pair of neighbouring edges, and only the boundaries of the inside spans
/// are accumulated. Each span is then a trapezoid whose exact area the
/// accumulation already computes. (The strip decomposition is the classic
/// trapezoidal decomposition of a polygon, e.g. Seidel 1991; here it runs per
/// pixel row, only where needed.)
struct ExactRowScratch {
    /// Per band row: does it need the exact treatment?
    var flags: UnsafeMutablePointer<Bool> { flagStorage.pointer }
    private let flagStorage = FlagStorage()

    /// Row flags in memory of their own, so that they can be written while
    /// the rasterizer's other buffers are borrowed.
    private final class FlagStorage: @unchecked Sendable {
        var pointer = UnsafeMutablePointer<Bool>.allocate(capacity: 1)
        var capacity = 1
        init() { pointer.initialize(to: false) }
        func ensure(_ count: Int) {
            guard count > capacity else { return }
            pointer.deallocate()
            pointer = .allocate(capacity: count)
            pointer.initialize(repeating: false, count: count)
            capacity = count
        }
        deinit { pointer.deallocate() }
    }
    private var rowEdges: [CoverageRasterizer.Edge] = []
    private var events: [Float] = []
    private var active: [(x: Float, index: Int)] = []
    /// Winding number of each path (shape, clips) while walking a strip.
    private var windings: [Float] = []
    /// Horizontal segments of the path: no area, but they matter for flagging and strip boundaries.
    private(set) var horizontals: [(y: Float, left: Float, right: Float, chain: Int32)] = []

    /// Roughly the memory the scratch holds, bytes.
    var retainedBytes: Int {
        flagStorage.capacity + rowEdges.capacity * MemoryLayout<CoverageRasterizer.Edge>.stride
            + (events.capacity + windings.capacity) * 4 + active.capacity * 16 + horizontals.capacity * 16
    }

    mutating func removeHorizontals() { horizontals.removeAll(keepingCapacity: true) }

    mutating func addHorizontal(y: Float, left: Float, right: Float, chain: Int32) {
        horizontals.append((y, left, right, chain))
    }

    /// Makes room for one flag per band row.
    mutating func prepareFlags(rowCount: Int) {
        flagStorage.ensure(rowCount)
    }

    /// Claims the pixels of the horizontal segments in the band: they carry
    /// no area, but a horizontal edge meeting another chain inside a pixel
    /// (the star's crossing on its horizontal side) needs the exact pass.
    func claimHorizontals(touched: UnsafeMutablePointer<UInt64>, stride: Int, wordsPerRow: Int, originX: Float,
                          width: Int, bandTop: Int, bandBottom: Int, ownership: CoverageRasterizer.Ownership) {
        for horizontal in horizontals where horizontal.y >= Float(bandTop) && horizontal.y < Float(bandBottom) {
            let row = CoverageRasterizer.floor(horizontal.y) - bandTop
            let first = min(max(Int(max(horizontal.left - originX, 0)), 0), width)
            let last = min(Int(max(horizontal.right - originX, 0)), width)
            CoverageRasterizer.markTouched(touched + row * wordsPerRow, first: first, last: last)
            ownership.claim(bandRow: row, stride: stride, first: first, last: last, chain: horizontal.chain)
        }
    }

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
            // Drop the fast pass's sums for this row; the exact pass replaces them.
            (cells + (row - bandTop) * stride).update(repeating: 0, count: stride)
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
