/// Rows that repeat the row above them.
///
/// Most rows of a marker's body are crossed by nothing but its straight
/// vertical sides: the same few edges in every row, each spanning the whole
/// row. Such rows receive the same areas in the same cells in the same
/// order (a vertical edge adds height × its fractions, and the height of a
/// whole row is exactly 1), so they have the same spans, bit for bit. Only
/// the first of a stretch of them (the *key* row) is accumulated and
/// prefix-summed, recording the spans it delivers; the rows after it are
/// not accumulated at all (their cells stay zero and untouched) and hand the
/// key row's spans to the consumer again. That skips the per-row work of
/// accumulation and of the span pass, which in a callout's body is most of
/// the rasterizer's work outside the pixel stores.
///
/// A row is *plain* when every edge of the shape that reaches into it is
/// vertical and spans the whole row, and no horizontal segment lies inside
/// it. A plain row repeats the row above it when that row is plain too and
/// no vertical edge starts or ends between them: both then hold the same
/// vertical edges. Rows are classified before accumulating, in one pass over
/// the edges. Shapes drawn with clips are not classified (their clip edges
/// would need the same treatment). The exact pass does not change this: a
/// repeating row would be flagged as its key row is (the same pixels claimed
/// by the same chains) and resolved to the same spans (its pieces are the
/// same vertical segments, cut at the same row boundaries), and the key row's
/// spans are recorded after its exact pass.
struct RepeatedRows {
    /// Per band row: 1 when the row repeats the row above it, else 0.
    var states: UnsafeMutablePointer<UInt8> { storage.states }
    /// The key row's spans; per-pixel ones point into `recordedCoverage`.
    var recordedSpans: UnsafeMutablePointer<CoverageSpan> { storage.spans }
    var recordedCoverage: UnsafeMutablePointer<Float> { storage.coverage }
    private let storage = Storage()

    /// The buffers in memory of their own, so that they can be written
    /// while the rasterizer's other buffers are borrowed.
    private final class Storage: @unchecked Sendable {
        var states = UnsafeMutablePointer<UInt8>.allocate(capacity: 1)
        var spans = UnsafeMutablePointer<CoverageSpan>.allocate(capacity: 1)
        var coverage = UnsafeMutablePointer<Float>.allocate(capacity: 1)
        var rowCapacity = 1, spanCapacity = 1, cellCapacity = 1

        func ensure(rows: Int, spans spanCount: Int, cells: Int) {
            if rows > rowCapacity {
                states.deallocate(); states = .allocate(capacity: rows); rowCapacity = rows
            }
            if spanCount > spanCapacity {
                spans.deallocate(); spans = .allocate(capacity: spanCount); spanCapacity = spanCount
            }
            if cells > cellCapacity {
                coverage.deallocate(); coverage = .allocate(capacity: cells); cellCapacity = cells
            }
        }

        deinit { states.deallocate(); spans.deallocate(); coverage.deallocate() }
    }

    /// Roughly the memory the buffers hold, bytes.
    var retainedBytes: Int {
        storage.rowCapacity + storage.spanCapacity * MemoryLayout<CoverageSpan>.stride + storage.cellCapacity * 4
    }

    /// Makes room for a band of `rows` rows, a row of `spans` spans and `cells` cells.
    func prepare(rows: Int, spans: Int, cells: Int) {
        storage.ensure(rows: rows, spans: spans, cells: cells)
    }

    /// Bits of a row's classification before `classify` turns it into a state.
    private static let notPlain: UInt8 = 1, edgesChange: UInt8 = 2

    /// Sets `states` for rows `bandTop ..< bandBottom` from the shape's
    /// edges (all of path 0: no clips) and its horizontal segments (see
    /// `ExactRowScratch.horizontals`). Returns whether any row repeats.
    func classify(_ edges: UnsafeBufferPointer<CoverageRasterizer.Edge>, horizontals: ExactRowScratch,
                  bandTop: Int, bandBottom: Int) -> Bool {
        let states = self.states, rowCount = bandBottom &- bandTop
        states.update(repeating: 0, count: rowCount)
        /// Marks band rows `first ..< end` (absolute rows, clamped to the band) with `bits`.
        @inline(__always)
        func mark(_ first: Int, _ end: Int, _ bits: UInt8) {
            var row = max(first, bandTop)
            let end = min(end, bandBottom)
            while row < end { states[row &- bandTop] |= bits; row &+= 1 }
        }
        // Rows that are not plain, gathered into one pending range while
        // consecutive edges (a chain's, mostly) reach into overlapping or
        // adjacent rows, and marked when the next edge's rows lie apart.
        var pendingFirst = 0, pendingEnd = 0
        @inline(__always)
        func markNotPlain(_ first: Int, _ end: Int) {
            if first <= pendingEnd && end >= pendingFirst {
                pendingFirst = min(pendingFirst, first); pendingEnd = max(pendingEnd, end)
            } else {
                mark(pendingFirst, pendingEnd, RepeatedRows.notPlain)
                pendingFirst = first; pendingEnd = end
            }
        }
        let top = Float(bandTop), bottom = Float(bandBottom)
        for edge in edges where edge.yBottom > top && edge.yTop < bottom {
            let firstRow = CoverageRasterizer.floor(edge.yTop), endRow = CoverageRasterizer.ceiling(edge.yBottom)
            guard edge.xTop == edge.xBottom else {
                markNotPlain(firstRow, endRow)
                continue
            }
            // The whole rows the edge spans: firstFull ..< endFull.
            let firstFull = CoverageRasterizer.ceiling(edge.yTop), endFull = CoverageRasterizer.floor(edge.yBottom)
            if firstFull >= endFull {
                markNotPlain(firstRow, endRow)
                continue
            }
            if firstRow < firstFull { markNotPlain(firstRow, firstFull) }
            if endFull < endRow { markNotPlain(endFull, endRow) }
            mark(firstFull, firstFull &+ 1, RepeatedRows.edgesChange)
            mark(endFull, endFull &+ 1, RepeatedRows.edgesChange)
        }
        mark(pendingFirst, pendingEnd, RepeatedRows.notPlain)
        for horizontal in horizontals.horizontals where horizontal.y >= top && horizontal.y < bottom {
            let row = CoverageRasterizer.floor(horizontal.y)
            mark(row, row &+ 1, RepeatedRows.notPlain)
        }
        var any = false, previousPlain = false
        for bandRow in 0..<rowCount {
            let bits = states[bandRow]
            let repeats = bits == 0 && previousPlain
            previousPlain = bits & RepeatedRows.notPlain == 0
            states[bandRow] = repeats ? 1 : 0
            any = any || repeats
        }
        return any
    }
}

/// Passes a row's spans on to `base` and records them (per-pixel values
/// copied) into a `RepeatedRows`' buffers, for the rows that repeat it.
struct RecordingConsumer<Base: CoverageRowConsumer>: CoverageRowConsumer {
    var base: Base
    let spans: UnsafeMutablePointer<CoverageSpan>
    let coverage: UnsafeMutablePointer<Float>
    /// Spans recorded so far, and per-pixel values copied so far.
    var count = 0, valueCount = 0

    @inline(__always)
    mutating func beginRow(_ y: Int, clipApplied: Bool) { base.beginRow(y, clipApplied: clipApplied) }

    @inline(__always)
    mutating func constantSpan(x: Int, count: Int, coverage value: Float) {
        base.constantSpan(x: x, count: count, coverage: value)
        spans[self.count] = CoverageSpan(x: x, count: count, constant: value, values: nil)
        self.count &+= 1
    }

    @inline(__always)
    mutating func perPixelSpan(x: Int, count: Int, coverage values: UnsafePointer<Float>) {
        base.perPixelSpan(x: x, count: count, coverage: values)
        let copy = coverage + valueCount
        copy.update(from: values, count: count)
        valueCount &+= count
        spans[self.count] = CoverageSpan(x: x, count: count, constant: 0, values: UnsafePointer(copy))
        self.count &+= 1
    }

    @inline(__always)
    mutating func endRow() { base.endRow() }
}

extension CoverageRasterizer {
    /// `spanRows` for a band with rows that repeat the row above (no clips,
    /// so no row is delivered with `clipApplied`): such a row hands the
    /// row above's spans to the consumer again, and the key row before them
    /// records its spans as it delivers them. A function of its own, so that
    /// `spanRows` keeps its registers for bands without repeated rows.
    static func spanRows<Consumer: CoverageRowConsumer>(
        _ cells: UnsafeMutablePointer<Float>, touched: UnsafeMutablePointer<UInt64>,
        owners: UnsafeMutablePointer<Int32>, wordsPerRow: Int, stride: Int, width: Int, originX: Int,
        rule: FillRule, coverage: UnsafeMutablePointer<Float>, bandTop: Int, bandBottom: Int,
        exactFlags: UnsafeMutablePointer<Bool>?, repeatedRows: RepeatedRows, consumer: inout Consumer) {
        var consumerCopy = consumer
        defer { consumer = consumerCopy }
        let states = repeatedRows.states, recordedSpans = repeatedRows.recordedSpans
        var recordedCount = 0
        for row in bandTop..<bandBottom {
            let bandRow = row &- bandTop
            let exact = exactFlags?[bandRow] ?? false
            if states[bandRow] != 0 {
                // The row above's spans again (none when it had none).
                guard recordedCount > 0 else { continue }
                consumerCopy.beginRow(row, clipApplied: false)
                for index in 0..<recordedCount {
                    let span = recordedSpans[index]
                    if let values = span.values {
                        consumerCopy.perPixelSpan(x: span.x, count: span.count, coverage: values)
                    } else {
                        consumerCopy.constantSpan(x: span.x, count: span.count, coverage: span.constant)
                    }
                }
                consumerCopy.endRow()
            } else if row &+ 1 < bandBottom && states[bandRow &+ 1] != 0 {
                // A key row: its spans recorded for the rows that repeat it.
                var recorder = RecordingConsumer(base: consumerCopy, spans: recordedSpans,
                                                 coverage: repeatedRows.recordedCoverage)
                spanBandRow(cells, touched: touched, owners: owners, wordsPerRow: wordsPerRow, stride: stride,
                            width: width, originX: originX, rule: rule, coverage: coverage, row: row,
                            bandTop: bandTop, exact: exact, clipped: false, consumer: &recorder)
                consumerCopy = recorder.base
                recordedCount = recorder.count
            } else {
                spanBandRow(cells, touched: touched, owners: owners, wordsPerRow: wordsPerRow, stride: stride,
                            width: width, originX: originX, rule: rule, coverage: coverage, row: row,
                            bandTop: bandTop, exact: exact, clipped: false, consumer: &consumerCopy)
            }
        }
    }
}
