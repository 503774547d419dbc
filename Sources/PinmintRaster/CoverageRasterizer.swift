import PinmintGeometry
#if arch(x86_64)
// SSE (part of every x86-64 processor): `truncate`'s conversion.
import _Builtin_intrinsics.intel
#endif

/// How overlapping subpaths decide what is inside (SVG `fill-rule`).
public enum FillRule: String, Sendable, CaseIterable {
    /// Inside where the winding number is not zero.
    case nonZero = "nonzero"
    /// Inside where the winding number is odd.
    case evenOdd = "evenodd"
}

/// A fill rule as a type: code generic over it (`spanRow`) is specialised
/// per rule, so that the rule is a constant there even where the compiler
/// does not inline the code (a `FillRule` argument to an outlined copy was
/// tested for every cell).
protocol FillRuleType { static var rule: FillRule { get } }
enum NonZeroRule: FillRuleType { static var rule: FillRule { .nonZero } }
enum EvenOddRule: FillRuleType { static var rule: FillRule { .evenOdd } }

/// A rectangle of whole pixels: columns `x0..<x1`, rows `y0..<y1`.
struct PixelBounds: Equatable {
    var x0, y0, x1, y1: Int
    var isEmpty: Bool { x1 <= x0 || y1 <= y0 }
    func intersection(_ other: PixelBounds) -> PixelBounds {
        PixelBounds(x0: max(x0, other.x0), y0: max(y0, other.y0), x1: min(x1, other.x1), y1: min(y1, other.y1))
    }
}

/// A run of pixels in one row and their coverage (0...1), as the rasterizer
/// hands it out: either one value for every pixel (`values` is nil), which is
/// what lies between edges, or one value per pixel, where edges pass.
struct CoverageSpan {
    /// The first column, in device pixels.
    var x: Int
    /// How many pixels the span has (at least 1).
    var count: Int
    /// The coverage of every pixel when `values` is nil.
    var constant: Float
    /// Per-pixel coverage for `count` pixels, or nil for a constant span.
    var values: UnsafePointer<Float>?
}

/// What receives a row's coverage as the rasterizer produces it, span by
/// span, left to right: `beginRow`, then the row's spans (at least one),
/// then `endRow`. Rows without coverage produce no calls at all. A struct
/// passed as a generic argument, so the calls are specialised and inlined
/// into the row loop (no closure or existential per row or span).
protocol CoverageRowConsumer {
    /// Row `y` starts; `clipApplied` as for `rasterizeSpans`.
    mutating func beginRow(_ y: Int, clipApplied: Bool)
    /// `count` (≥ 1) pixels from column `x` share `coverage` (> 0).
    mutating func constantSpan(x: Int, count: Int, coverage: Float)
    /// `count` (≥ 1) pixels from column `x` with one coverage each (zeros possible);
    /// the values are valid until the next call.
    mutating func perPixelSpan(x: Int, count: Int, coverage: UnsafePointer<Float>)
    /// The row's last span has been delivered. The span pass begins and
    /// ends every row of a band, spans or not: a consumer that must not act
    /// on a row without spans tests that itself.
    mutating func endRow()
}

/// The consumer behind `rasterizeSpans`: collects a row's spans into a list
/// and hands the list to a closure.
private struct SpanListConsumer: CoverageRowConsumer {
    let spans: UnsafeMutablePointer<CoverageSpan>
    let emit: (_ y: Int, _ spans: UnsafeBufferPointer<CoverageSpan>, _ clipApplied: Bool) -> Void
    var y = 0, clipApplied = false, count = 0

    mutating func beginRow(_ y: Int, clipApplied: Bool) { self.y = y; self.clipApplied = clipApplied; count = 0 }
    mutating func constantSpan(x: Int, count: Int, coverage: Float) {
        spans[self.count] = CoverageSpan(x: x, count: count, constant: coverage, values: nil)
        self.count &+= 1
    }
    mutating func perPixelSpan(x: Int, count: Int, coverage: UnsafePointer<Float>) {
        spans[self.count] = CoverageSpan(x: x, count: count, constant: 0, values: coverage)
        self.count &+= 1
    }
    mutating func endRow() {
        // A row of the span pass may have no spans (see `spanRow`).
        if count > 0 { emit(y, UnsafeBufferPointer(start: spans, count: count), clipApplied) }
    }
}

/// Anti-aliased coverage by exact area: every line segment adds the signed
/// area it sweeps to a buffer of cells, and a prefix sum along each row turns
/// those into the exact fraction of each pixel the shape covers. No
/// supersampling, so an edge at x = 10.25 covers its pixel by exactly 0.75.
///
/// The accumulation scheme is Raph Levien's font-rs ("Inside the fastest
/// font renderer in the world", 2016), here with clipping, bands and both
/// fill rules. The result is exact wherever the winding number is constant
/// across a pixel's uncovered part; at pixels where edges cross, non-zero
/// clamps the summed area to 1 and even-odd folds it, as Blend2D does.
///
/// Rejected alternative: sparse cells with cover/area pairs sorted per row
/// (FreeType's gray raster). Marker shapes are small and dense, so a dense
/// buffer with one prefix sum is simpler and faster here.
///
/// Spans: the prefix sum only changes at cells an edge touched, so each
/// row also keeps one bit per cell marking those (Blend2D's analytic
/// rasterizer keeps such a bit array). Rows are emitted as spans: per-pixel
/// coverage where bits are set, one constant value for the run between
/// them. Untouched cells are neither read nor cleared, and a fully covered
/// interior reaches the compositor as one run.
struct CoverageRasterizer {
    /// One line segment in device pixels, already clipped to the target rows
    /// and columns (x clamped into them), stored top to bottom.
    struct Edge {
        var xTop: Float, yTop: Float, xBottom: Float, yBottom: Float
        /// +1 for a segment that runs down the screen, -1 for one that runs up.
        var direction: Float
        /// The y-monotone chain the segment belongs to: consecutive segments
        /// of a subpath share a chain until the path turns up or down.
        var chain: Int32
        /// 0 for the shape being drawn, 1... for the clip paths in force.
        var path: Int32 = 0

        init(xTop: Float, yTop: Float, xBottom: Float, yBottom: Float, direction: Float, chain: Int32,
             path: Int32 = 0) {
            self.xTop = xTop; self.yTop = yTop; self.xBottom = xBottom; self.yBottom = yBottom
            self.direction = direction; self.chain = chain; self.path = path
        }

        /// The segment from (fromX, fromY) to (toX, toY), stored top to
        /// bottom: `down` tells that it runs down the screen (toY > fromY).
        @inline(__always)
        init(_ fromX: Float, _ fromY: Float, _ toX: Float, _ toY: Float, down: Bool, chain: Int32, path: Int32) {
            // Each end chosen whole as an (x, y) pair (a branch over two
            // register moves): choosing the four floats one by one became a
            // vector select whose mask was built from `down`, about a dozen instructions.
            let from = SIMD2(fromX, fromY), to = SIMD2(toX, toY)
            let top = down ? from : to, bottom = down ? to : from
            self.init(xTop: top.x, yTop: top.y, xBottom: bottom.x, yBottom: bottom.y, direction: down ? 1 : -1,
                      chain: chain, path: path)
        }
    }

    private var edges = EdgeList()
    /// Signed area per cell for the current band: `bandStride` cells per row.
    private var accumulation: [Float] = []
    /// The coverage of one row, handed to the caller.
    private var coverageRow: [Float] = []
    /// One bit per cell of the current band, set where an edge added area:
    /// `wordsPerRow` 64-bit words per row, cell c at bit c % 64 of word c / 64.
    private var touchedCells: [UInt64] = []
    /// Per cell of the current band: the chain whose segment last passed
    /// through that pixel, or -1. A second chain in the same pixel flags the
    /// row for the exact pass (see CoverageRasterizer+ExactRows.swift).
    private var cellOwners: [Int32] = []
    /// The spans of one row, handed to the caller.
    private var spans: [CoverageSpan] = []
    /// Scratch state for rows that need the exact per-region treatment.
    var exactRows = ExactRowScratch()
    /// Which rows repeat the row above, and the spans they repeat.
    private var repeatedRows = RepeatedRows()
    /// Rows where chains share a pixel get the exact pass (see
    /// CoverageRasterizer+ExactRows.swift); false sums them approximately.
    var resolvesSharedPixelsExactly = true
    /// The fill rule of each path: the shape's, then each clip's.
    private var pathRules: [FillRule] = []
    /// The next unused chain number; chains are unique across the shape and its clips.
    private var nextChain: Int32 = 0

    /// What the last call cost, roughly: the cells of its rows (the rows
    /// the shape spans × the columns it spans, clipped to the bounds) plus
    /// its edges. Canvases add it up to bound the work one drawing may take.
    private(set) var lastWork = 0

    /// The most work a call may take (see `lastWork`); the canvas sets it
    /// to what its work limit has left. A call whose rows and edges would
    /// take more draws nothing (or stops before its exact pass) and leaves
    /// the estimate, over this limit, in `lastWork`, for the canvas to refuse.
    var workLimit = Int.max

    /// `lastWork` of an edge crossing one row, and of one edge in a row of
    /// the exact pass, in cells' worth (measured: about 10 and 2,000 instructions).
    static let edgeRowWork = 8, exactPieceWork = 512

    /// Cells in one band at most (1 MiB of Float), so huge canvases are
    /// rasterized in bands of rows rather than with one huge buffer.
    static let maximumBandCells = 1 << 18

    init() {}

    /// Roughly the memory the buffers hold, bytes.
    var retainedBytes: Int {
        edges.capacity * MemoryLayout<Edge>.stride + (accumulation.capacity + coverageRow.capacity) * 4
            + touchedCells.capacity * 8 + cellOwners.capacity * 4 + spans.capacity * MemoryLayout<CoverageSpan>.stride
            + exactRows.retainedBytes + repeatedRows.retainedBytes
    }

    /// Rasterizes the closed polygons in `polylines` (every subpath is closed
    /// implicitly, as for a fill) inside `bounds`, calling `emit(y, spans)`
    /// for each row that has any coverage. Spans come left to right, do not
    /// overlap, lie inside `bounds` and have non-zero coverage where constant
    /// (per-pixel spans may contain zeros). Rows come top to bottom.
    ///
    /// `clips` are the clip paths in force. Most rows ignore them (the caller
    /// multiplies by the clip masks, which is exact where no pixel holds edges
    /// of both the shape and a clip); rows where a clip's edges and the shape's
    /// share a pixel are resolved exactly as the intersection, and are emitted
    /// with `clipApplied` true so that the masks are not applied again.
    ///
    /// `pointsInside`: the caller knows every point of `polylines` lies
    /// inside `bounds`, sides included (`Canvas.validate(device:within:)`
    /// found it in its pass over the points): no vertex is tested again.
    mutating func rasterizeSpans(_ polylines: Polylines, rule: FillRule, bounds: PixelBounds, clips: [ClipMask] = [],
                                 pointsInside: Bool = false,
                                 emit: (_ y: Int, _ spans: UnsafeBufferPointer<CoverageSpan>,
                                        _ clipApplied: Bool) -> Void) {
        if spans.count < CoverageRasterizer.spanCapacity(bounds) {
            spans = [CoverageSpan](repeating: CoverageSpan(x: 0, count: 0, constant: 0, values: nil),
                                   count: CoverageRasterizer.spanCapacity(bounds))
        }
        // Moved out while rasterizing, which needs `self` exclusively (no copy: the array stays unique).
        var spanList = spans
        spans = []
        defer { spans = spanList }
        withoutActuallyEscaping(emit) { emit in
            spanList.withUnsafeMutableBufferPointer { spanList in
                var consumer = SpanListConsumer(spans: spanList.baseAddress!, emit: emit)
                rasterize(polylines, rule: rule, bounds: bounds, clips: clips, pointsInside: pointsInside,
                          useSpans: true, consumer: &consumer)
            }
        }
    }

    /// `rasterizeSpans` handing each span to `consumer` as soon as it is
    /// known, with no span list: for compositors that write pixels directly.
    mutating func rasterizeRows<Consumer: CoverageRowConsumer>(_ polylines: Polylines, rule: FillRule,
                                                               bounds: PixelBounds, clips: [ClipMask] = [],
                                                               pointsInside: Bool = false,
                                                               into consumer: inout Consumer) {
        rasterize(polylines, rule: rule, bounds: bounds, clips: clips, pointsInside: pointsInside, useSpans: true,
                  consumer: &consumer)
    }

    /// Spans one row can have: a per-pixel and a constant one per run of
    /// touched cells, which are at least two cells apart, plus one.
    private static func spanCapacity(_ bounds: PixelBounds) -> Int { max(0, bounds.x1 - bounds.x0) + 4 }

    /// The per-pixel form: calls `emit(y, x0, coverage)` for each row that has
    /// any coverage, with coverage in 0...1 for columns `x0 ..< x0 + coverage.count`.
    /// A prefix sum over every cell of the row: the simple reference that the
    /// span form is tested against (the values are the same, bit for bit).
    mutating func rasterize(_ polylines: Polylines, rule: FillRule, bounds: PixelBounds, clips: [ClipMask] = [],
                            emit: (_ y: Int, _ x0: Int, _ coverage: UnsafeBufferPointer<Float>,
                                   _ clipApplied: Bool) -> Void) {
        /// Hands the row's one per-pixel span to `emit`.
        struct DenseConsumer: CoverageRowConsumer {
            let emit: (_ y: Int, _ x0: Int, _ coverage: UnsafeBufferPointer<Float>, _ clipApplied: Bool) -> Void
            var y = 0, clipApplied = false
            mutating func beginRow(_ y: Int, clipApplied: Bool) { self.y = y; self.clipApplied = clipApplied }
            mutating func constantSpan(x: Int, count: Int, coverage: Float) {
                preconditionFailure("the dense reference emits per-pixel spans only")
            }
            mutating func perPixelSpan(x: Int, count: Int, coverage: UnsafePointer<Float>) {
                emit(y, x, UnsafeBufferPointer(start: coverage, count: count), clipApplied)
            }
            mutating func endRow() {}
        }
        withoutActuallyEscaping(emit) { emit in
            var consumer = DenseConsumer(emit: emit)
            rasterize(polylines, rule: rule, bounds: bounds, clips: clips, useSpans: false, consumer: &consumer)
        }
    }

    private mutating func rasterize<Consumer: CoverageRowConsumer>(_ polylines: Polylines, rule: FillRule,
                                                                   bounds: PixelBounds, clips: [ClipMask],
                                                                   pointsInside: Bool = false,
                                                                   useSpans: Bool, consumer: inout Consumer) {
        lastWork = 0
        guard !bounds.isEmpty else { return }
        edges.removeAll()
        exactRows.removeHorizontals()
        nextChain = 0
        let extent = appendEdges(polylines, bounds: bounds, path: 0, pointsInside: pointsInside)
        guard !edges.isEmpty else { return }
        let minX = extent.minX, maxX = extent.maxX, minY = extent.minY, maxY = extent.maxY
        // Rows can repeat the row above only where a vertical edge spans two whole rows or more.
        let hasTallVerticalEdge = extent.hasTallVerticalEdge
        // The clips' edges matter only where the shape is.
        pathRules.removeAll(keepingCapacity: true)
        pathRules.append(rule)
        if !clips.isEmpty {
            let shapeBounds = PixelBounds(x0: Int(minX.rounded(.down)), y0: Int(minY.rounded(.down)),
                                          x1: Int(maxX.rounded(.up)) + 1, y1: Int(maxY.rounded(.up))).intersection(bounds)
            for (index, clip) in clips.enumerated() {
                appendEdges(clip.polylines, bounds: shapeBounds, path: Int32(index + 1))
                pathRules.append(clip.rule)
            }
        }
        let clipped = pathRules.count > 1
        let originX = max(bounds.x0, Int(minX.rounded(.down)))
        // Cells up to ceil(maxX) receive area; one more keeps every index in range.
        let stride = min(bounds.x1, Int(maxX.rounded(.up))) - originX + 2
        let firstRow = max(bounds.y0, Int(minY.rounded(.down)))
        let lastRow = min(bounds.y1, Int(maxY.rounded(.up)))
        guard stride > 1, lastRow > firstRow else { return }
        let visibleWidth = min(bounds.x1 - originX, stride - 1)
        guard visibleWidth > 0 else { return }
        // Cells of the rows spanned, and the rows each edge crosses (an edge
        // in a row costs about what eight cells do). The rows are counted
        // only when every edge crossing every row could pass the limit.
        lastWork = estimatedWork(rows: lastRow - firstRow, stride: stride)
        guard lastWork <= workLimit else { return }

        let bandHeight = max(1, min(lastRow - firstRow, CoverageRasterizer.maximumBandCells / stride))
        if accumulation.count < stride * bandHeight {
            accumulation = [Float](repeating: 0, count: stride * bandHeight)
        }
        let wordsPerRow = (stride + 63) >> 6
        // One word more than the rows need: `markTouchedPair` and
        // `markTouchedTriple` may OR zeros into the byte after a row's last.
        if touchedCells.count < wordsPerRow * bandHeight + 1 {
            touchedCells = [UInt64](repeating: 0, count: wordsPerRow * bandHeight + 1)
        }
        if cellOwners.count < stride * bandHeight {
            cellOwners = [Int32](repeating: -1, count: stride * bandHeight)
        }
        exactRows.prepareFlags(rowCount: bandHeight)
        if coverageRow.count < stride { coverageRow = [Float](repeating: 0, count: stride) }
        // Repeated rows: for the span form without clips (see `RepeatedRows`).
        let mayRepeatRows = useSpans && !clipped && hasTallVerticalEdge
        if mayRepeatRows {
            repeatedRows.prepare(rows: bandHeight, spans: CoverageRasterizer.spanCapacity(bounds), cells: stride)
        }

        let edges = self.edges.buffer
        accumulation.withUnsafeMutableBufferPointer { accumulation in
        touchedCells.withUnsafeMutableBufferPointer { touchedCells in
        cellOwners.withUnsafeMutableBufferPointer { cellOwners in
        coverageRow.withUnsafeMutableBufferPointer { coverageRow in
            let cells = accumulation.baseAddress!, touched = touchedCells.baseAddress!, owners = cellOwners.baseAddress!
            let coverage = coverageRow.baseAddress!
            var bandTop = firstRow
            while bandTop < lastRow {
                let bandBottom = min(bandTop + bandHeight, lastRow)
                // Accumulate the shape; note which chain passes through each
                // pixel, and flag rows where two chains share one.
                let flags = exactRows.flags
                let repeats = mayRepeatRows
                    && repeatedRows.classify(edges, horizontals: exactRows, bandTop: bandTop, bandBottom: bandBottom)
                let anyExact: Bool
                do {
                    flags.update(repeating: false, count: bandBottom - bandTop)
                    let ownership = Ownership(owners: owners, flags: flags)
                    CoverageRasterizer.accumulateBand(edges, into: cells, touched: touched, stride: stride,
                                                      wordsPerRow: wordsPerRow, originX: Float(originX),
                                                      bandTop: bandTop, bandBottom: bandBottom,
                                                      wholeShape: bandTop == firstRow && bandBottom == lastRow,
                                                      ownership: ownership,
                                                      repeatedRows: repeats ? UnsafePointer(repeatedRows.states) : nil)
                    exactRows.claimHorizontals(touched: touched, stride: stride, wordsPerRow: wordsPerRow,
                                               originX: Float(originX), width: stride - 1, bandTop: bandTop,
                                               bandBottom: bandBottom, ownership: ownership)
                    anyExact = resolvesSharedPixelsExactly && (0..<(bandBottom - bandTop)).contains { flags[$0] }
                }
                if anyExact {
                    lastWork += CoverageRasterizer.exactPassWork(flags: flags, bandTop: bandTop, bandBottom: bandBottom,
                                                                 edges: edges)
                    if lastWork > workLimit {
                        // Stop, leaving the buffers as the next call expects them: cleared.
                        let bandRows = bandBottom - bandTop
                        cells.update(repeating: 0, count: stride * bandRows)
                        touched.update(repeating: 0, count: wordsPerRow * bandRows)
                        owners.update(repeating: -1, count: stride * bandRows)
                        return
                    }
                    exactRows.resolveFlaggedRows(edges, rules: pathRules, into: cells, touched: touched,
                                                 stride: stride, wordsPerRow: wordsPerRow, originX: Float(originX),
                                                 bandTop: bandTop, bandBottom: bandBottom)
                }
                if repeats {
                    // As below, with the repeated rows' spans handed out again.
                    CoverageRasterizer.spanRows(cells, touched: touched, owners: owners, wordsPerRow: wordsPerRow,
                                                stride: stride, width: visibleWidth, originX: originX, rule: rule,
                                                coverage: coverage, bandTop: bandTop, bandBottom: bandBottom,
                                                exactFlags: anyExact ? exactRows.flags : nil,
                                                repeatedRows: repeatedRows, consumer: &consumer)
                } else if useSpans {
                    // One pass per row over the touched bits: spans, cleared cells, released owners, cleared bits.
                    CoverageRasterizer.spanRows(cells, touched: touched, owners: owners, wordsPerRow: wordsPerRow,
                                                stride: stride, width: visibleWidth, originX: originX, rule: rule,
                                                coverage: coverage, bandTop: bandTop, bandBottom: bandBottom,
                                                exactFlags: anyExact ? exactRows.flags : nil, clipped: clipped,
                                                consumer: &consumer)
                } else {
                    for row in bandTop..<bandBottom {
                        let bandRow = row - bandTop
                        // Exact rows hold true coverage: clamp, never fold.
                        let exact = anyExact && exactRows.flags[bandRow]
                        let rule = exact ? FillRule.nonZero : rule
                        let rowCells = cells + bandRow * stride
                        let rowTouched = touched + bandRow * wordsPerRow
                        var rowStarted = false
                        CoverageRasterizer.denseRow(rowCells, stride: stride, width: visibleWidth,
                                                    originX: originX, rule: rule, coverage: coverage,
                                                    y: row, clipApplied: exact && clipped,
                                                    consumer: &consumer, rowStarted: &rowStarted)
                        CoverageRasterizer.releaseOwners(owners + bandRow * stride, touched: rowTouched, stride: stride)
                        rowTouched.update(repeating: 0, count: wordsPerRow)
                        if rowStarted { consumer.endRow() }
                    }
                }
                bandTop = bandBottom
            }
        }}}}
    }

    /// Accumulates the shape's edges that reach into rows `bandTop ..< bandBottom`
    /// and claims the pixels of the clips' edges there. A function of its
    /// own, not inlined: inside `rasterize`, with its many live values, the
    /// loop's invariants (the band, the buffers, the edge index) were kept
    /// on the stack and reloaded for every edge; here they stay in registers.
    /// Vertical edges skip the rows that repeat the row above (`repeatedRows`, see `RepeatedRows`).
    /// `wholeShape`: the band holds every row of the shape, so every edge
    /// reaches into it (they are clipped to those rows) and none is tested
    /// (the test only saves work: `accumulate` and `claim` keep to the band's rows).
    @inline(never)
    private static func accumulateBand(_ edges: UnsafeBufferPointer<Edge>, into cells: UnsafeMutablePointer<Float>,
                                       touched: UnsafeMutablePointer<UInt64>, stride: Int, wordsPerRow: Int,
                                       originX: Float, bandTop: Int, bandBottom: Int, wholeShape: Bool,
                                       ownership: Ownership, repeatedRows: UnsafePointer<UInt8>?) {
        if wholeShape && bandTop >= 0 {
            // A loop of its own: no band test, rows need no clamping to the
            // band, and every y is ≥ bandTop ≥ 0, so ⌊yTop⌋ is a truncation.
            for edge in edges {
                if edge.path == 0 {
                    accumulate(edge, into: cells, touched: touched, stride: stride, wordsPerRow: wordsPerRow,
                               originX: originX, bandTop: bandTop, bandBottom: bandBottom, wholeShape: true,
                               ownership: ownership, repeatedRows: repeatedRows)
                } else {
                    claim(edge, touched: touched, stride: stride, wordsPerRow: wordsPerRow, originX: originX,
                          bandTop: bandTop, bandBottom: bandBottom, ownership: ownership)
                }
            }
            return
        }
        let top = Float(bandTop), bottom = Float(bandBottom)
        for edge in edges {
            guard edge.yBottom > top && edge.yTop < bottom else { continue }
            if edge.path == 0 {
                accumulate(edge, into: cells, touched: touched, stride: stride, wordsPerRow: wordsPerRow,
                           originX: originX, bandTop: bandTop, bandBottom: bandBottom, ownership: ownership,
                           repeatedRows: repeatedRows)
            } else {
                // Clip edges add no area; they only claim their pixels.
                claim(edge, touched: touched, stride: stride, wordsPerRow: wordsPerRow, originX: originX,
                      bandTop: bandTop, bandBottom: bandBottom, ownership: ownership)
            }
        }
    }

    /// `lastWork` before the exact pass: the cells of the rows spanned and
    /// the rows each edge crosses (an edge in a row costs about what eight
    /// cells do). The rows are counted only when every edge crossing every
    /// row could pass the limit. Not inlined: the drawing loop stays as it was.
    @inline(never)
    private func estimatedWork(rows: Int, stride: Int) -> Int {
        let edgeCount = edges.count
        var work = rows * stride + CoverageRasterizer.edgeRowWork * 2 * edgeCount
        if work + CoverageRasterizer.edgeRowWork * edgeCount * rows > workLimit {
            var edgeHeights: Double = 0
            for edge in edges.buffer { edgeHeights += Double(edge.yBottom - edge.yTop) }
            work += CoverageRasterizer.edgeRowWork * Int(min(edgeHeights, Double(Int.max / 64)))
        }
        return work
    }

    /// The work of a band's exact pass: it looks at every edge for each
    /// flagged row (one cell's worth each) and decomposes the row by the
    /// pieces of the edges that cross it (hundreds of cells' worth each).
    @inline(never)
    private static func exactPassWork(flags: UnsafeMutablePointer<Bool>, bandTop: Int, bandBottom: Int,
                                      edges: UnsafeBufferPointer<Edge>) -> Int {
        var work = 0
        for row in bandTop..<bandBottom where flags[row - bandTop] {
            let top = Float(row), bottom = Float(row + 1)
            var pieces = 0
            for edge in edges where edge.yTop < bottom && edge.yBottom > top { pieces += 1 }
            work += edges.count + pieces * CoverageRasterizer.exactPieceWork
        }
        return work
    }

    /// Where accumulation records which chain passes through which pixel.
    struct Ownership {
        /// Per cell of the band (`stride` a row): the chain, or -1.
        var owners: UnsafeMutablePointer<Int32>
        /// Per band row: two chains met in one of its pixels.
        var flags: UnsafeMutablePointer<Bool>

        /// Claims cell `cell` of band row `bandRow` for `chain`.
        @inline(__always)
        func claim(bandRow: Int, stride: Int, cell: Int, chain: Int32) {
            let pointer = owners + (bandRow &* stride &+ cell)
            let owner = pointer.pointee
            if owner != chain {
                if owner >= 0 { flags[bandRow] = true }
                pointer.pointee = chain
            }
        }

        /// Claims cells `first ... last` of band row `bandRow` for `chain`.
        @inline(__always)
        func claim(bandRow: Int, stride: Int, first: Int, last: Int, chain: Int32) {
            let row = owners + bandRow &* stride
            var cell = first
            while cell <= last {
                let owner = row[cell]
                if owner != chain {
                    if owner >= 0 { flags[bandRow] = true }
                    row[cell] = chain
                }
                cell &+= 1
            }
        }
    }

    /// Resets the owners of a row's touched cells to -1 (every claimed cell is touched).
    @inline(__always)
    static func releaseOwners(_ rowOwners: UnsafeMutablePointer<Int32>, touched: UnsafePointer<UInt64>, stride: Int) {
        var x = 0
        while x < stride {
            let runStart = nextBit(in: touched, from: x, limit: stride, set: true)
            guard runStart < stride else { return }
            let runEnd = nextBit(in: touched, from: runStart, limit: stride, set: false)
            (rowOwners + runStart).update(repeating: -1, count: runEnd - runStart)
            x = runEnd
        }
    }

    /// Marks the pixels a clip edge passes through as its chain's, and as
    /// touched (so that the row emits them per pixel and releases them), without adding area.
    static func claim(_ edge: Edge, touched: UnsafeMutablePointer<UInt64>, stride: Int, wordsPerRow: Int,
                      originX: Float, bandTop: Int, bandBottom: Int, ownership: Ownership) {
        let dxdy = (edge.xBottom - edge.xTop) / (edge.yBottom - edge.yTop)
        let firstRow = max(bandTop, CoverageRasterizer.floor(edge.yTop))
        let lastRow = min(bandBottom, CoverageRasterizer.ceiling(edge.yBottom))
        guard firstRow < lastRow else { return }
        for row in firstRow..<lastRow {
            let rowTop = larger(Float(row), edge.yTop), rowBottom = smaller(Float(row + 1), edge.yBottom)
            if rowBottom <= rowTop { continue }
            let xStart = edge.xTop + (rowTop - edge.yTop) * dxdy - originX
            let xEnd = edge.xTop + (rowBottom - edge.yTop) * dxdy - originX
            let first = Int(larger(smaller(xStart, xEnd), 0)), last = min(Int(larger(larger(xStart, xEnd), 0)), stride - 1)
            markTouched(touched + (row - bandTop) * wordsPerRow, first: first, last: last)
            ownership.claim(bandRow: row - bandTop, stride: stride, first: first, last: last, chain: edge.chain)
        }
    }

    /// The coverage for a winding area `sum` under `rule`.
    @inline(__always)
    private static func coverage(_ sum: Float, rule: FillRule) -> Float {
        switch rule {
        case .nonZero:
            // Plain comparison: one `minss` (the sums are finite).
            let magnitude = abs(sum)
            return magnitude < 1 ? magnitude : 1
        case .evenOdd:
            // Fold the winding area onto 0...1: 1.25 -> 0.75, 2 -> 0.
            let magnitude = abs(sum)
            // Below 2 the fold subtracts 2 × 0: skip the two conversions (most
            // cells: a ring's sums lie in 0...2). A branch, not a select
            // computing both.
            var folded = magnitude
            if _slowPath(!(magnitude < 2)) {
                folded = magnitude - 2 * Float(Int32(truncatingIfNeeded: Int(magnitude * 0.5)))
            }
            // folded > 1 ? 2 - folded : folded, as one `minss`: 2 - folded is below
            // folded exactly when folded > 1 (and equal to it at 1).
            let mirrored = 2 - folded
            return folded < mirrored ? folded : mirrored
        }
    }

    /// The reference: prefix-sums every cell of one band row into `coverage`,
    /// clears the cells and describes the covered columns as one per-pixel
    /// span (0 or 1 spans).
    private static func denseRow<Consumer: CoverageRowConsumer>(
        _ rowCells: UnsafeMutablePointer<Float>, stride: Int, width: Int, originX: Int, rule: FillRule,
        coverage: UnsafeMutablePointer<Float>, y: Int, clipApplied: Bool,
        consumer: inout Consumer, rowStarted: inout Bool) {
        var first = -1, last = -1
        var sum: Float = 0
        for x in 0..<width {
            sum += rowCells[x]
            rowCells[x] = 0
            let value = CoverageRasterizer.coverage(sum, rule: rule)
            coverage[x] = value
            if value > 0 { if first < 0 { first = x }; last = x }
        }
        for x in width..<stride { rowCells[x] = 0 }
        guard first >= 0 else { return }
        consumer.beginRow(y, clipApplied: clipApplied)
        rowStarted = true
        consumer.perPixelSpan(x: originX + first, count: last - first + 1, coverage: UnsafePointer(coverage + first))
    }

    /// Adds cells `from ..< to` to the running `sum` in turn, writing each
    /// pixel's coverage under the rule and clearing the cell and its owner.
    @inline(__always)
    static func sumCells<Rule: FillRuleType>(_ rowCells: UnsafeMutablePointer<Float>,
                                             owners: UnsafeMutablePointer<Int32>,
                                             coverage: UnsafeMutablePointer<Float>, from: Int, to: Int,
                                             sum: inout Float, rule: Rule.Type) {
        var cell = from
        while cell < to {
            sum += rowCells[cell]
            rowCells[cell] = 0
            owners[cell] = -1
            coverage[cell] = CoverageRasterizer.coverage(sum, rule: Rule.rule)
            cell &+= 1
        }
    }

    /// Prefix-sums the touched cells of one band row and delivers the row's
    /// spans: per-pixel ones over runs of touched cells, constant ones (when
    /// not 0) between them and after the last. In the same
    /// pass it leaves the row ready for the next band: touched cells zeroed,
    /// their owners reset to -1, the touched bits cleared. Every bit lies
    /// below `stride` (accumulation and claims never mark further right).
    /// The spans go straight to `consumer`, after `beginRow`, which comes
    /// whether or not the row has spans (the caller ends every row): the
    /// consumer tracks its own first span, so that no "row started" flag is
    /// tested (and reloaded across the consumer's calls) at every span.
    @inline(__always)
    static func spanRow<Consumer: CoverageRowConsumer, Rule: FillRuleType>(
        _ rowCells: UnsafeMutablePointer<Float>, touched: UnsafeMutablePointer<UInt64>,
        owners: UnsafeMutablePointer<Int32>, wordsPerRow: Int, stride: Int, width: Int, originX: Int,
        rule: Rule.Type, coverage: UnsafeMutablePointer<Float>, y: Int, clipApplied: Bool,
        consumer: inout Consumer) {
        consumer.beginRow(y, clipApplied: clipApplied)
        var sum: Float = 0
        // The coverage of the running sum is `coverage[x]`: the run before `x`
        // wrote it at its last cell, `x`, and the sum has not changed since (a
        // load instead of computing it again, which under even-odd is a compare,
        // a branch and three operations). Before the first run it is 0.
        coverage[0] = 0
        // Cells before `x` are done; `word` holds the not yet visited bits of word `wordIndex`.
        var x = 0
        var wordIndex = 0
        var word = touched[0]
        touched[0] = 0
        runs: while true {
            while word == 0 {
                wordIndex &+= 1
                if wordIndex >= wordsPerRow { break runs }
                word = touched[wordIndex]
                touched[wordIndex] = 0
            }
            let runStart = wordIndex &<< 6 &+ word.trailingZeroBitCount
            // The run ends at the first clear bit after its start.
            var clear = ~word & (~0 &<< UInt64(runStart & 63))
            while clear == 0 {
                wordIndex &+= 1
                if wordIndex == wordsPerRow { break }
                word = touched[wordIndex]
                touched[wordIndex] = 0
                clear = ~word
            }
            let runEnd = wordIndex == wordsPerRow ? wordIndex &<< 6 : wordIndex &<< 6 &+ clear.trailingZeroBitCount
            // Bits below the run's end are visited (clear has its lowest set bit there).
            word &= ~(clear ^ (clear &- 1))
            if runStart > x {
                // Untouched cells x ..< runStart keep the running sum.
                let value = coverage[x]
                if value > 0 {
                    consumer.constantSpan(x: originX &+ x, count: min(runStart, width) &- x, coverage: value)
                }
            }
            // The run's last cell already holds the running sum that the
            // untouched cells after it share, so it starts the next constant
            // span instead of ending this per-pixel one (the same value either
            // way): a one-cell run, an edge on a pixel boundary, takes no
            // per-pixel span at all. Not when the run reaches past the
            // visible columns (no constant span follows then).
            let perPixelEnd: Int
            if _fastPath(runEnd <= width) {
                // The whole run is visible (nearly every run: only a shape reaching
                // the bounds' right side has touched cells beyond them), with no
                // clamping of its end and no test for the cells beyond.
                CoverageRasterizer.sumCells(rowCells, owners: owners, coverage: coverage, from: runStart, to: runEnd,
                                            sum: &sum, rule: rule)
                perPixelEnd = runEnd &- 1
                x = perPixelEnd
            } else {
                let visibleEnd = max(width, runStart)
                CoverageRasterizer.sumCells(rowCells, owners: owners, coverage: coverage, from: runStart,
                                            to: visibleEnd, sum: &sum, rule: rule)
                // Touched cells right of the visible columns only need clearing.
                var cell = visibleEnd
                while cell < runEnd {
                    rowCells[cell] = 0
                    owners[cell] = -1
                    cell &+= 1
                }
                perPixelEnd = visibleEnd
                // Every later run lies beyond the visible columns too: no
                // constant span before any of them, nor after the last (so the
                // test before a run's constant span needs no `x < width`).
                x = Int.max
            }
            if perPixelEnd > runStart {
                consumer.perPixelSpan(x: originX &+ runStart, count: perPixelEnd &- runStart,
                                      coverage: UnsafePointer(coverage + runStart))
            }
        }
        if x < width {
            let value = coverage[x]
            if value > 0 {
                consumer.constantSpan(x: originX &+ x, count: width &- x, coverage: value)
            }
        }
    }

    /// `spanRow` for each row of a band (exact rows, flagged in
    /// `exactFlags`, clamp instead of folding and carry `clipped` as
    /// `clipApplied`), each ended by `endRow`. One function
    /// for the whole band, so that its setup is paid once per band rather
    /// than once per row; one copy per rule, chosen once per band, so that
    /// each holds one copy of the row code (with both in one function the
    /// even-odd copy was called, not inlined, and reached the consumer's
    /// fields through memory).
    private static func spanRows<Consumer: CoverageRowConsumer>(
        _ cells: UnsafeMutablePointer<Float>, touched: UnsafeMutablePointer<UInt64>,
        owners: UnsafeMutablePointer<Int32>, wordsPerRow: Int, stride: Int, width: Int, originX: Int,
        rule: FillRule, coverage: UnsafeMutablePointer<Float>, bandTop: Int, bandBottom: Int,
        exactFlags: UnsafeMutablePointer<Bool>?, clipped: Bool, consumer: inout Consumer) {
        if rule == .nonZero {
            spanRows(cells, touched: touched, owners: owners, wordsPerRow: wordsPerRow, stride: stride,
                     width: width, originX: originX, rule: NonZeroRule.self, coverage: coverage,
                     bandTop: bandTop, bandBottom: bandBottom, exactFlags: exactFlags, clipped: clipped,
                     consumer: &consumer)
        } else {
            spanRows(cells, touched: touched, owners: owners, wordsPerRow: wordsPerRow, stride: stride,
                     width: width, originX: originX, rule: EvenOddRule.self, coverage: coverage,
                     bandTop: bandTop, bandBottom: bandBottom, exactFlags: exactFlags, clipped: clipped,
                     consumer: &consumer)
        }
    }

    /// `spanRows` for one rule. Under even-odd, the exact rows (rare: two
    /// chains in one pixel) take `spanBandRow`'s non-zero copy out of line.
    @inline(never)
    private static func spanRows<Consumer: CoverageRowConsumer, Rule: FillRuleType>(
        _ cells: UnsafeMutablePointer<Float>, touched: UnsafeMutablePointer<UInt64>,
        owners: UnsafeMutablePointer<Int32>, wordsPerRow: Int, stride: Int, width: Int, originX: Int,
        rule: Rule.Type, coverage: UnsafeMutablePointer<Float>, bandTop: Int, bandBottom: Int,
        exactFlags: UnsafeMutablePointer<Bool>?, clipped: Bool, consumer: inout Consumer) {
        var consumerCopy = consumer
        defer { consumer = consumerCopy }
        for row in bandTop..<bandBottom {
            let bandRow = row &- bandTop
            let exact = exactFlags?[bandRow] ?? false
            if Rule.rule == .evenOdd && exact {
                spanExactRow(cells, touched: touched, owners: owners, wordsPerRow: wordsPerRow, stride: stride,
                             width: width, originX: originX, coverage: coverage, row: row, bandTop: bandTop,
                             clipped: clipped, consumer: &consumerCopy)
                continue
            }
            spanRow(cells + bandRow &* stride, touched: touched + bandRow &* wordsPerRow,
                    owners: owners + bandRow &* stride, wordsPerRow: wordsPerRow, stride: stride, width: width,
                    originX: originX, rule: Rule.self, coverage: coverage, y: row,
                    clipApplied: exact && clipped, consumer: &consumerCopy)
            consumerCopy.endRow()
        }
    }

    /// An exact row of an even-odd band: `spanBandRow`'s non-zero copy, out of line.
    @inline(never)
    private static func spanExactRow<Consumer: CoverageRowConsumer>(
        _ cells: UnsafeMutablePointer<Float>, touched: UnsafeMutablePointer<UInt64>,
        owners: UnsafeMutablePointer<Int32>, wordsPerRow: Int, stride: Int, width: Int, originX: Int,
        coverage: UnsafeMutablePointer<Float>, row: Int, bandTop: Int, clipped: Bool, consumer: inout Consumer) {
        spanBandRow(cells, touched: touched, owners: owners, wordsPerRow: wordsPerRow, stride: stride,
                    width: width, originX: originX, rule: .nonZero, coverage: coverage, row: row, bandTop: bandTop,
                    exact: true, clipped: clipped, consumer: &consumer)
    }

    /// `spanRow` for row `row` of a band, then `endRow`.
    @inline(__always)
    static func spanBandRow<Consumer: CoverageRowConsumer>(
        _ cells: UnsafeMutablePointer<Float>, touched: UnsafeMutablePointer<UInt64>,
        owners: UnsafeMutablePointer<Int32>, wordsPerRow: Int, stride: Int, width: Int, originX: Int,
        rule: FillRule, coverage: UnsafeMutablePointer<Float>, row: Int, bandTop: Int,
        exact: Bool, clipped: Bool, consumer: inout Consumer) {
        let bandRow = row &- bandTop
        // One copy per rule, so that neither tests the rule per cell.
        if exact || rule == .nonZero {
            spanRow(cells + bandRow &* stride, touched: touched + bandRow &* wordsPerRow,
                    owners: owners + bandRow &* stride, wordsPerRow: wordsPerRow, stride: stride, width: width,
                    originX: originX, rule: NonZeroRule.self, coverage: coverage, y: row,
                    clipApplied: exact && clipped, consumer: &consumer)
        } else {
            spanRow(cells + bandRow &* stride, touched: touched + bandRow &* wordsPerRow,
                    owners: owners + bandRow &* stride, wordsPerRow: wordsPerRow, stride: stride, width: width,
                    originX: originX, rule: EvenOddRule.self, coverage: coverage, y: row,
                    clipApplied: false, consumer: &consumer)
        }
        consumer.endRow()
    }

    /// The first cell index ≥ `from` whose bit equals `set`, or `limit` if none is below it.
    @inline(__always)
    static func nextBit(in bits: UnsafePointer<UInt64>, from: Int, limit: Int, set: Bool) -> Int {
        guard from < limit else { return limit }
        var wordIndex = from >> 6
        let flip: UInt64 = set ? 0 : ~0
        var word = (bits[wordIndex] ^ flip) & (~0 << UInt64(from & 63))
        while word == 0 {
            wordIndex += 1
            if wordIndex << 6 >= limit { return limit }
            word = bits[wordIndex] ^ flip
        }
        return min((wordIndex << 6) + word.trailingZeroBitCount, limit)
    }

    /// `Int(value)` for the coordinates and cell positions of edges, which
    /// are finite and clipped to the canvas's bounds (sides ≤ 16384), far
    /// inside Int's range: on x86-64 one `cvttss2si`, without the checks of
    /// `Int.init(_: Float)` (NaN, infinite, out of range), which cost a
    /// compare and a branch each in every row an edge crosses. Out of range
    /// the instruction gives Int.min: a defined value, not undefined
    /// behaviour. Other machines use the checked conversion.
    @inline(__always)
    static func truncate(_ value: Float) -> Int {
        #if arch(x86_64)
        Int(_mm_cvttss_si64(_mm_set_ss(value)))
        #else
        Int(value)
        #endif
    }

    /// ⌊value⌋ without a libm call (`floorf` is not an instruction before
    /// SSE4.1): truncate, then step down for negative fractions. For edge
    /// coordinates (see `truncate`): the step cannot overflow.
    @inline(__always)
    static func floor(_ value: Float) -> Int {
        let truncated = truncate(value)
        return Float(truncated) > value ? truncated &- 1 : truncated
    }

    /// ⌈value⌉ without a libm call, for edge coordinates.
    @inline(__always)
    static func ceiling(_ value: Float) -> Int {
        let truncated = truncate(value)
        return Float(truncated) < value ? truncated &+ 1 : truncated
    }

    /// Sets the bits of cells `first ... last` (both in one row).
    @inline(__always)
    static func markTouched(_ bits: UnsafeMutablePointer<UInt64>, first: Int, last: Int) {
        let firstWord = first >> 6, lastWord = last >> 6
        let firstMask: UInt64 = ~0 << UInt64(first & 63)
        let lastMask: UInt64 = ~0 >> UInt64(63 - (last & 63))
        if firstWord == lastWord {
            bits[firstWord] |= firstMask & lastMask
        } else {
            bits[firstWord] |= firstMask
            var word = firstWord + 1
            while word < lastWord { bits[word] = ~0; word += 1 }
            bits[lastWord] |= lastMask
        }
    }

    // MARK: Edges

    /// Appends every subpath as closed line segments, clipped to `bounds`:
    /// pieces above or below are dropped (they cover no row), pieces left of
    /// the bounds are moved onto its left side (they still cover whole rows
    /// to their right), pieces right of it are moved onto its right side
    /// (where they touch no visible cell). Segments get chain numbers (a new
    /// chain where a subpath turns up or down) and the path number `path`.
    /// `pointsInside`: every point is known to lie inside `bounds`; the
    /// subpaths then go to `appendInsideEdges`, which tests none.
    @discardableResult
    private mutating func appendEdges(_ polylines: Polylines, bounds: PixelBounds, path: Int32,
                                      pointsInside: Bool = false) -> EdgeExtent {
        guard !bounds.isEmpty else { return EdgeExtent() }
        let clip = (x0: Double(bounds.x0), y0: Double(bounds.y0), x1: Double(bounds.x1), y1: Double(bounds.y1))
        // A segment becomes at most three edges (cut at both sides): room for
        // all of them, written through a pointer with no check per edge.
        edges.reserve(3 * polylines.points.count)
        var chain = nextChain, cursor = edges.appendPointer, extent = EdgeExtent()
        // The loop is a function of its own, taking these as inout
        // parameters: as variables that the closure captured (and the
        // segment function within it), each access took a dynamic
        // exclusivity check.
        polylines.points.withUnsafeBufferPointer { points in
            appendSubpaths(points, polylines.subpaths, clip: clip, path: path, pointsInside: pointsInside,
                           chain: &chain, cursor: &cursor, extent: &extent)
        }
        nextChain = chain &+ 1
        edges.commit(upTo: cursor)
        return extent
    }

    /// `appendEdges`'s loop over the subpaths of `points`.
    private mutating func appendSubpaths(_ points: UnsafeBufferPointer<Point>,
                                         _ subpaths: [(start: Int, count: Int, isClosed: Bool)],
                                         clip: (x0: Double, y0: Double, x1: Double, y1: Double), path: Int32,
                                         pointsInside: Bool, chain: inout Int32,
                                         cursor: inout UnsafeMutablePointer<Edge>, extent: inout EdgeExtent) {
        guard let base = points.baseAddress else { return }
        for subpath in subpaths where subpath.count > 1 {
            let start = subpath.start, end = subpath.start + subpath.count
            chain &+= 1
            if pointsInside {
                appendInsideEdges(base + start, count: subpath.count, clip: clip, path: path, chain: &chain,
                                  cursor: &cursor, extent: &extent)
                continue
            }
            var previousDown: Bool? = nil
            // Each vertex is tested against the bounds and converted to
            // Float once, as the end of one segment, and the answers kept
            // for the next segment's start.
            var from = points[start]
            var fromInside = CoverageRasterizer.isInside(from, clip)
            var fromX = Float(from.x), fromY = Float(from.y)
            /// The segment from `from` to `to`, which becomes the next `from`.
            @inline(__always)
            func segment(to: Point) {
                let toInside = CoverageRasterizer.isInside(to, clip)
                let toX = Float(to.x), toY = Float(to.y)
                defer { from = to; fromInside = toInside; fromX = toX; fromY = toY }
                if from.y != to.y {
                    let down = to.y > from.y
                    if let previousDown, previousDown != down { chain &+= 1 }
                    previousDown = down
                    // Compare in Float: segments thinner than Float can tell apart carry no area.
                    guard fromY != toY else { return }
                    if fromInside && toInside {
                        // Most segments lie inside the bounds: no clipping to do.
                        cursor.initialize(to: Edge(fromX, fromY, toX, toY, down: down, chain: chain, path: path))
                        extent.include(cursor.pointee)
                        cursor += 1
                    } else {
                        let written = cursor
                        CoverageRasterizer.addClippedSlowly(from, to, clip, chain: chain, path: path, into: &cursor)
                        extent.include(from: written, to: cursor)
                    }
                } else if from.x != to.x && from.y > clip.y0 && from.y < clip.y1
                            && CoverageRasterizer.isFractional(from.y) {
                    // Horizontal segments carry no area, but where one meets
                    // another chain inside a pixel the row needs the exact pass.
                    // One lying on a row boundary is inside no row's pixels.
                    let left = min(max(min(from.x, to.x), clip.x0), clip.x1)
                    let right = min(max(max(from.x, to.x), clip.x0), clip.x1)
                    exactRows.addHorizontal(y: Float(from.y), left: Float(left), right: Float(right), chain: chain)
                }
            }
            // A pointer walk: the range's loop kept two counters.
            var next = base + (start + 1)
            let last = base + end
            while next < last { segment(to: next.pointee); next += 1 }
            // The closing segment.
            segment(to: points[start])
        }
    }

    /// `appendEdges` for one subpath of `count` (2 or more) points from
    /// `first`, all known to lie inside the bounds `clip`: the same edges,
    /// with no bounds test and no clipping. A function of its own, not
    /// inlined: inside `appendEdges`, next to the testing loop, the extent
    /// and the cursor were kept on the stack; here they stay in registers.
    @inline(never)
    private mutating func appendInsideEdges(_ first: UnsafePointer<Point>, count: Int,
                                            clip: (x0: Double, y0: Double, x1: Double, y1: Double), path: Int32,
                                            chain chain0: inout Int32, cursor cursor0: inout UnsafeMutablePointer<Edge>,
                                            extent extent0: inout EdgeExtent) {
        // Local copies, written back once: values the compiler can keep in registers.
        var chain = chain0, cursor = cursor0, extent = extent0
        // The extent as two vectors of the segments' (fromX, fromY, toX, toY):
        // lanewise minima and maxima (minps, maxps; edges are finite), folded
        // into `extent` at the end. Four scalars were kept on the stack. An
        // edge's x and y extremes are those of its two ends in either order,
        // so the ends need not be ordered top to bottom first.
        var low = SIMD4<Float>(repeating: .infinity), high = SIMD4<Float>(repeating: -.infinity)
        defer {
            let minX = low.x < low.z ? low.x : low.z, maxX = high.x > high.z ? high.x : high.z
            let minY = low.y < low.w ? low.y : low.w, maxY = high.y > high.w ? high.y : high.w
            if minX < extent.minX { extent.minX = minX }
            if maxX > extent.maxX { extent.maxX = maxX }
            if minY < extent.minY { extent.minY = minY }
            if maxY > extent.maxY { extent.maxY = maxY }
            (chain0, cursor0, extent0) = (chain, cursor, extent)
        }
        var from = first.pointee
        let last = first + count
        // The direction of the subpath's first segment that is not
        // horizontal (the closing segment is horizontal when all others
        // are): a new chain starts wherever a segment's direction differs
        // from the one before, with no test for a first one in every segment.
        var previousDown = false
        do {
            var probe = first + 1
            while probe < last && probe.pointee.y == from.y { probe += 1 }
            if probe < last { previousDown = probe.pointee.y > from.y }
        }
        var fromX = Float(from.x), fromY = Float(from.y)
        /// The segment from `from` to `to`, which becomes the next `from`.
        @inline(__always)
        func segment(to: Point) {
            let toX = Float(to.x), toY = Float(to.y)
            defer { from = to; fromX = toX; fromY = toY }
            if from.y != to.y {
                let down = to.y > from.y
                chain &+= down != previousDown ? 1 : 0
                previousDown = down
                // Compare in Float: segments thinner than Float can tell apart carry no area.
                guard fromY != toY else { return }
                let ends = SIMD4(fromX, fromY, toX, toY)
                low = low.replacing(with: ends, where: ends .< low)
                high = high.replacing(with: ends, where: ends .> high)
                cursor.initialize(to: Edge(fromX, fromY, toX, toY, down: down, chain: chain, path: path))
                // yBottom - yTop is toY - fromY or fromY - toY; the other is its negation.
                if fromX == toX && (toY - fromY > 3 || fromY - toY > 3) { extent.hasTallVerticalEdge = true }
                cursor += 1
            } else if from.x != to.x && from.y > clip.y0 && from.y < clip.y1 && CoverageRasterizer.isFractional(from.y) {
                // As in `appendEdges`: a horizontal inside a row may meet another chain there.
                let left = min(max(min(from.x, to.x), clip.x0), clip.x1)
                let right = min(max(max(from.x, to.x), clip.x0), clip.x1)
                exactRows.addHorizontal(y: Float(from.y), left: Float(left), right: Float(right), chain: chain)
            }
        }
        var next = first + 1
        while next < last { segment(to: next.pointee); next += 1 }
        // The closing segment.
        segment(to: first.pointee)
    }

    /// The extent of the edges `appendEdges` writes, gathered as it writes
    /// them (a second pass over the edges cost about 20 instructions an edge).
    struct EdgeExtent {
        var minX = Float.infinity, maxX = -Float.infinity, minY = Float.infinity, maxY = -Float.infinity
        /// Whether some vertical edge is taller than 3 rows (only then can
        /// rows repeat the row above, see `RepeatedRows`).
        var hasTallVerticalEdge = false

        /// Takes `edge` in. Plain comparisons (edges are finite): `min`/`max`
        /// on floats also order NaNs, at twice the instructions.
        @inline(__always)
        mutating func include(_ edge: Edge) {
            let left = edge.xTop < edge.xBottom ? edge.xTop : edge.xBottom
            let right = edge.xTop < edge.xBottom ? edge.xBottom : edge.xTop
            if left < minX { minX = left }
            if right > maxX { maxX = right }
            if edge.yTop < minY { minY = edge.yTop }
            if edge.yBottom > maxY { maxY = edge.yBottom }
            if edge.xTop == edge.xBottom && edge.yBottom - edge.yTop > 3 { hasTallVerticalEdge = true }
        }

        /// Takes in the edges from `first` up to `end`.
        mutating func include(from first: UnsafeMutablePointer<Edge>, to end: UnsafeMutablePointer<Edge>) {
            var edge = first
            while edge < end { include(edge.pointee); edge += 1 }
        }
    }

    /// Whether `y`, which lies strictly between two whole rows of the
    /// bounds (so in `Int`'s range), is not a whole number: what
    /// `y != y.rounded(.down)` tells, without its call to `floor` (no
    /// SSE4.1), a call in the edge loops that made them keep their values,
    /// the extent among them, on the stack.
    @inline(__always)
    private static func isFractional(_ y: Double) -> Bool { Double(Int(y)) != y }

    /// Whether `point` lies inside the bounds `clip`, sides included.
    /// Plain comparisons: the points are finite, and `min`/`max` would also order NaNs.
    @inline(__always)
    private static func isInside(_ point: Point, _ clip: (x0: Double, y0: Double, x1: Double, y1: Double)) -> Bool {
        point.x >= clip.x0 && point.x <= clip.x1 && point.y >= clip.y0 && point.y <= clip.y1
    }

    /// Writes the edges of the segment from `from` to `to`, which crosses a
    /// side of the bounds `clip`, at `cursor` (and advances it).
    private static func addClippedSlowly(_ from: Point, _ to: Point,
                                         _ clip: (x0: Double, y0: Double, x1: Double, y1: Double),
                                         chain: Int32, path: Int32, into cursor: inout UnsafeMutablePointer<Edge>) {
        // Order top to bottom, remembering the direction.
        let direction: Float = from.y < to.y ? 1 : -1
        var top = from.y < to.y ? from : to
        var bottom = from.y < to.y ? to : from
        if bottom.y <= clip.y0 || top.y >= clip.y1 { return }
        let slope = (bottom.x - top.x) / (bottom.y - top.y)
        if top.y < clip.y0 { top = Point(top.x + (clip.y0 - top.y) * slope, clip.y0) }
        if bottom.y > clip.y1 { bottom = Point(bottom.x - (bottom.y - clip.y1) * slope, clip.y1) }
        // Split where the segment crosses the left or right side, then clamp.
        var cuts: (Double, Double) = (top.y, top.y)
        var cutCount = 0
        for sideIndex in 0..<2 {
            // No array literal here: it would allocate for every clipped segment.
            let side = sideIndex == 0 ? clip.x0 : clip.x1
            guard (top.x - side) * (bottom.x - side) < 0 else { continue }
            let y = top.y + (side - top.x) / (bottom.x - top.x) * (bottom.y - top.y)
            if cutCount == 0 { cuts.0 = y } else { cuts.1 = y }
            cutCount += 1
        }
        if cutCount == 2 && cuts.0 > cuts.1 { cuts = (cuts.1, cuts.0) }
        var pieceTop = top
        for cutIndex in 0...cutCount {
            let pieceBottom: Point
            if cutIndex < cutCount {
                let y = cutIndex == 0 ? cuts.0 : cuts.1
                let t = (y - top.y) / (bottom.y - top.y)
                pieceBottom = Point(top.x + t * (bottom.x - top.x), y)
            } else {
                pieceBottom = bottom
            }
            // Compare in Float: pieces thinner than Float can tell apart carry no area.
            if Float(pieceBottom.y) > Float(pieceTop.y) {
                let xTop = min(max(pieceTop.x, clip.x0), clip.x1)
                let xBottom = min(max(pieceBottom.x, clip.x0), clip.x1)
                cursor.initialize(to: Edge(xTop: Float(xTop), yTop: Float(pieceTop.y), xBottom: Float(xBottom),
                                           yBottom: Float(pieceBottom.y), direction: direction, chain: chain, path: path))
                cursor += 1
            }
            pieceTop = pieceBottom
        }
    }
}
