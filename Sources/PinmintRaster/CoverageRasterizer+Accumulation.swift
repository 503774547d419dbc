import PinmintGeometry

// MARK: Area accumulation

extension CoverageRasterizer {
    /// Adds the signed area that `edge` sweeps to the cells of rows
    /// `bandTop ..< bandBottom`. For each row the segment's part in that row
    /// spans [x0, x1]; a cell gets the area between the segment and the
    /// cell's right side, and the cell after the segment gets the rest of the
    /// row's height, so the prefix sum carries it to the right.
    /// With `ownership`, the pixels the segment passes through are claimed
    /// for its chain (flagging rows where chains meet). A vertical edge
    /// skips the band rows whose `repeatedRows` state is not 0 (rows that
    /// repeat the row above, see `RepeatedRows`; only vertical edges reach them).
    /// `wholeShape`: the band holds every row of the shape and starts at a
    /// row ≥ 0 (`accumulateBand`'s own loop), so the edge's rows lie inside
    /// it and none is clamped to the band, and yTop ≥ 0, so truncation is
    /// ⌊yTop⌋ (the same values, fewer of them to compute).
    @inline(__always)
    static func accumulate(_ edge: Edge, into cells: UnsafeMutablePointer<Float>,
                           touched: UnsafeMutablePointer<UInt64>, stride: Int, wordsPerRow: Int,
                           originX: Float, bandTop: Int, bandBottom: Int, wholeShape: Bool = false,
                           ownership: Ownership? = nil, repeatedRows: UnsafePointer<UInt8>? = nil) {
        // Two copies of the loops, one claiming pixels and one not, so that
        // neither tests for the ownership in every row.
        if let ownership {
            accumulateRows(edge, into: cells, touched: touched, stride: stride, wordsPerRow: wordsPerRow,
                           originX: originX, bandTop: bandTop, bandBottom: bandBottom, wholeShape: wholeShape,
                           ownership: ownership, repeatedRows: repeatedRows)
        } else {
            accumulateRows(edge, into: cells, touched: touched, stride: stride, wordsPerRow: wordsPerRow,
                           originX: originX, bandTop: bandTop, bandBottom: bandBottom, wholeShape: wholeShape,
                           ownership: nil, repeatedRows: repeatedRows)
        }
    }

    @inline(__always)
    private static func accumulateRows(_ edge: Edge, into cells: UnsafeMutablePointer<Float>,
                                       touched: UnsafeMutablePointer<UInt64>, stride: Int, wordsPerRow: Int,
                                       originX: Float, bandTop: Int, bandBottom: Int, wholeShape: Bool,
                                       ownership: Ownership?, repeatedRows: UnsafePointer<UInt8>?) {
        let dxdy = (edge.xBottom - edge.xTop) / (edge.yBottom - edge.yTop)
        // ⌊yTop⌋ as an Int and as a Float (Float(n) - 1 is Float(n - 1): rows are far below 2²⁴).
        // With `wholeShape`, yTop ≥ bandTop ≥ 0: no step down.
        let truncatedTop = CoverageRasterizer.truncate(edge.yTop)
        let truncatedTopFloat = Float(truncatedTop)
        let stepsDown = !wholeShape && truncatedTopFloat > edge.yTop
        let topRow = stepsDown ? truncatedTop &- 1 : truncatedTop
        let topRowFloat = stepsDown ? truncatedTopFloat - 1 : truncatedTopFloat
        // Edges have yTop < yBottom, so ⌈yBottom⌉ is topRow + 1, the edge
        // within one row, exactly when yBottom ≤ topRow + 1.
        // With `wholeShape` the edge's rows lie in the band: bandTop ≤ ⌊yTop⌋
        // and yBottom ≤ Float(bandBottom) (edges are clipped to the bounds' rows,
        // and the band spans ⌊minY⌋ ..< ⌈maxY⌉ of them).
        if edge.yBottom <= topRowFloat + 1 && edge.xTop != edge.xBottom
            && (wholeShape || (topRow >= bandTop && topRow < bandBottom)) {
            // Within one row (most chords of a finely flattened curve): the
            // general loop's values without its row bookkeeping. There the
            // row's top is yTop, its bottom yBottom, and the start's offset
            // (yTop - yTop) × dxdy is 0, so xStart is xTop - originX.
            let height = edge.yBottom - edge.yTop
            let bandRow = topRow &- bandTop
            accumulateRow(cells + bandRow &* stride, touched: touched + bandRow &* wordsPerRow,
                          xStart: edge.xTop - originX, xEnd: edge.xTop + height * dxdy - originX,
                          signedHeight: height * edge.direction, bandRow: bandRow, stride: stride,
                          chain: edge.chain, ownership: ownership)
            return
        }
        let firstRow = wholeShape ? topRow : max(bandTop, topRow)
        let firstRowFloat = wholeShape ? topRowFloat : larger(Float(bandTop), topRowFloat)
        // The rows to fill are those above bandBottom and above ⌈yBottom⌉:
        // for whole numbers, r < ⌈y⌉ exactly when r < y, so the rows r with Float(r) < rowsEnd.
        let rowsEnd = wholeShape ? edge.yBottom : smaller(Float(bandBottom), edge.yBottom)
        guard wholeShape || firstRowFloat < rowsEnd else { return }
        // firstRow ≥ bandTop, both rows of the canvas's bounds: no overflow.
        var rowCells = cells + (firstRow &- bandTop) &* stride
        var rowTouched = touched + (firstRow &- bandTop) &* wordsPerRow
        if edge.xTop == edge.xBottom {
            // A vertical edge (the sides of boxes and callouts): the same
            // cells and fractions in every row, computed once; the values are
            // those of the general loop below, whose x offsets are then 0.
            let lastRow = min(bandBottom, CoverageRasterizer.ceiling(edge.yBottom))
            let xStart = edge.xTop - originX
            let x0Cell = CoverageRasterizer.truncate(larger(xStart, 0))
            let middle = 0.5 * (xStart + xStart) - Float(x0Cell)
            let left = 1 - middle
            if middle == 0 {
                // On a pixel boundary: all of the area goes to one cell, and the
                // next would only receive zeros, so it is left untouched (the
                // prefix sum passes it unchanged; the same coverage values).
                for row in firstRow..<lastRow {
                    defer { rowCells += stride; rowTouched += wordsPerRow }
                    if let repeatedRows, repeatedRows[row &- bandTop] != 0 { continue }
                    let rowTop = larger(Float(row), edge.yTop)
                    let rowBottom = smaller(Float(row + 1), edge.yBottom)
                    let height = rowBottom - rowTop
                    if height <= 0 { continue }
                    rowCells[x0Cell] += height * edge.direction * left
                    rowTouched[x0Cell &>> 6] |= 1 &<< UInt64(x0Cell & 63)
                    ownership?.claim(bandRow: row &- bandTop, stride: stride, cell: x0Cell, chain: edge.chain)
                }
                return
            }
            for row in firstRow..<lastRow {
                defer { rowCells += stride; rowTouched += wordsPerRow }
                if let repeatedRows, repeatedRows[row &- bandTop] != 0 { continue }
                let rowTop = larger(Float(row), edge.yTop)
                let rowBottom = smaller(Float(row + 1), edge.yBottom)
                let height = rowBottom - rowTop
                if height <= 0 { continue }
                let signedHeight = height * edge.direction
                rowCells[x0Cell] += signedHeight * left
                rowCells[x0Cell &+ 1] += signedHeight * middle
                CoverageRasterizer.markTouchedPair(rowTouched, first: x0Cell)
                ownership?.claim(bandRow: row &- bandTop, stride: stride, cell: x0Cell, chain: edge.chain)
            }
            return
        }
        // Consecutive rows share a boundary: the x where the segment leaves
        // one row is where it enters the next (the same expression of the
        // same values, so the same bits), computed once. Every row but the
        // first starts at its own top, Float(row), which lies above yBottom
        // and below yTop only for the first: `larger(Float(row), yTop)` is
        // Float(row) there, equal to the row above's bottom, and no row is
        // empty (rows run from ⌊yTop⌋ to ⌈yBottom⌉, and yTop < yBottom).
        // Float(row) + 1 is Float(row + 1): rows are far below 2²⁴.
        // With `wholeShape` the first row is the edge's top row: rowTop is
        // yTop, and the start's offset 0 (as for an edge within one row).
        var rowTop = wholeShape ? edge.yTop : larger(firstRowFloat, edge.yTop)
        var xStart = wholeShape ? edge.xTop - originX : edge.xTop + (rowTop - edge.yTop) * dxdy - originX
        var nextRowTop = firstRowFloat + 1
        var row = firstRow
        while true {
            // rowsEnd, not yBottom: the same value (where Float(bandBottom)
            // is the smaller, nextRowTop is at most that), one value fewer in registers.
            let rowBottom = smaller(nextRowTop, rowsEnd)
            let xEnd = edge.xTop + (rowBottom - edge.yTop) * dxdy - originX
            accumulateRow(rowCells, touched: rowTouched, xStart: xStart, xEnd: xEnd,
                          signedHeight: (rowBottom - rowTop) * edge.direction, bandRow: row &- bandTop,
                          stride: stride, chain: edge.chain, ownership: ownership)
            if nextRowTop >= rowsEnd { return }
            row &+= 1
            rowCells += stride; rowTouched += wordsPerRow
            rowTop = nextRowTop; xStart = xEnd
            nextRowTop += 1
        }
    }

    /// Adds one row's part of a segment, from `xStart` (at the part's top)
    /// to `xEnd` (at its bottom), both relative to the band's first column,
    /// sweeping `signedHeight` of the row, to the row's cells `rowCells` and
    /// marks them in `rowTouched`; with `ownership`, claims the pixels for `chain`.
    @inline(__always)
    private static func accumulateRow(_ rowCells: UnsafeMutablePointer<Float>,
                                      touched rowTouched: UnsafeMutablePointer<UInt64>, xStart: Float, xEnd: Float, signedHeight: Float, bandRow: Int, stride: Int,
                                      chain: Int32, ownership: Ownership?) {
        let x0 = larger(smaller(xStart, xEnd), 0), x1 = larger(larger(xStart, xEnd), 0)
        // Both are ≥ 0, so truncation is floor (and cheaper than floorf without SSE4.1).
        let x0Cell = CoverageRasterizer.truncate(x0)
        let x0Floor = Float(x0Cell)
        // ⌈x1⌉ ≤ x0Cell + k exactly when x1 ≤ x0Floor + k (exact sums: cells
        // are far below 2²⁴), so the common cases need no ⌈x1⌉.
        if x1 <= x0Floor + 1 {
            // Within one cell: the area right of the segment's midpoint.
            let middle = 0.5 * (xStart + xEnd) - x0Floor
            rowCells[x0Cell] += signedHeight * (1 - middle)
            rowCells[x0Cell &+ 1] += signedHeight * middle
            CoverageRasterizer.markTouchedPair(rowTouched, first: x0Cell)
            ownership?.claim(bandRow: bandRow, stride: stride, cell: x0Cell, chain: chain)
        } else if x1 <= x0Floor + 2 {
            // Across two cells (most crossings of a finely flattened
            // curve): `accumulateAcrossCells`'s values for two cells.
            let x1Cell = x0Cell &+ 2
            let inverseWidth = 1 / (x1 - x0)
            let x0Fraction = x0 - x0Floor
            let firstArea = 0.5 * inverseWidth * (1 - x0Fraction) * (1 - x0Fraction)
            let x1Fraction = x1 - (x0Floor + 2) + 1
            let lastArea = 0.5 * inverseWidth * x1Fraction * x1Fraction
            rowCells[x0Cell] += signedHeight * firstArea
            rowCells[x0Cell &+ 1] += signedHeight * (1 - firstArea - lastArea)
            rowCells[x1Cell] += signedHeight * lastArea
            CoverageRasterizer.markTouchedTriple(rowTouched, first: x0Cell)
            ownership?.claim(bandRow: bandRow, stride: stride, cell: x0Cell, chain: chain)
            ownership?.claim(bandRow: bandRow, stride: stride, cell: x0Cell &+ 1, chain: chain)
        } else {
            var x1Cell = CoverageRasterizer.truncate(x1)
            if Float(x1Cell) < x1 { x1Cell &+= 1 }
            accumulateAcrossCells(rowCells, touched: rowTouched, x0: x0, x1: x1, x0Cell: x0Cell, x1Cell: x1Cell,
                                  signedHeight: signedHeight, bandRow: bandRow, stride: stride, chain: chain,
                                  ownership: ownership)
        }
    }

    /// `accumulateRow` for a part that crosses three cells or more
    /// (`x1Cell ≥ x0Cell + 3`): a triangle in the first cell, trapezoids in
    /// between (each 1/width of the height), a triangle at the end. Not
    /// inlined: the parts within one or two cells, most of a finely
    /// flattened curve's, keep their values in registers.
    @inline(never)
    private static func accumulateAcrossCells(_ rowCells: UnsafeMutablePointer<Float>,
                                              touched rowTouched: UnsafeMutablePointer<UInt64>, x0: Float, x1: Float,
                                              x0Cell: Int, x1Cell: Int, signedHeight: Float, bandRow: Int,
                                              stride: Int, chain: Int32, ownership: Ownership?) {
        let x0Floor = Float(x0Cell)
        let x1Ceil = Float(x1Cell)
        let inverseWidth = 1 / (x1 - x0)
        let x0Fraction = x0 - x0Floor
        let firstArea = 0.5 * inverseWidth * (1 - x0Fraction) * (1 - x0Fraction)
        let x1Fraction = x1 - x1Ceil + 1
        let lastArea = 0.5 * inverseWidth * x1Fraction * x1Fraction
        rowCells[x0Cell] += signedHeight * firstArea
        let secondArea = inverseWidth * (1.5 - x0Fraction)
        rowCells[x0Cell + 1] += signedHeight * (secondArea - firstArea)
        let step = signedHeight * inverseWidth
        var cell = x0Cell + 2
        while cell < x1Cell - 1 { rowCells[cell] += step; cell += 1 }
        let beforeLast = secondArea + Float(x1Cell - x0Cell - 3) * inverseWidth
        rowCells[x1Cell - 1] += signedHeight * (1 - beforeLast - lastArea)
        rowCells[x1Cell] += signedHeight * lastArea
        CoverageRasterizer.markTouched(rowTouched, first: x0Cell, last: x1Cell)
        ownership?.claim(bandRow: bandRow, stride: stride, first: x0Cell, last: x1Cell - 1, chain: chain)
    }

    /// The larger of two finite floats as one `maxss` (`Swift.max` also
    /// orders NaNs, at several instructions more; edges are finite).
    @inline(__always)
    static func larger(_ a: Float, _ b: Float) -> Float { a > b ? a : b }

    /// The smaller of two finite floats as one `minss`.
    @inline(__always)
    static func smaller(_ a: Float, _ b: Float) -> Float { a < b ? a : b }

    /// Sets the bits of cells `first` and `first + 1` (both in one row).
    /// On a little-endian machine cell c's bit is bit c % 8 of byte c / 8, so
    /// both bits lie in the 16 bits from `first`'s byte on: one unaligned OR,
    /// with no shift by the word's bit and no branch for a pair across two
    /// words. The second byte may be the one after the row's last (then it
    /// is ORed with zeros; the buffer has a word to spare after the last row).
    @inline(__always)
    static func markTouchedPair(_ bits: UnsafeMutablePointer<UInt64>, first: Int) {
        #if _endian(little)
        markTouchedWindow(bits, first: first, mask: 3)
        #else
        let shift = first & 63
        if shift != 63 {
            bits[first &>> 6] |= 3 &<< UInt64(shift)
        } else {
            bits[first &>> 6] |= 1 &<< 63
            bits[(first &>> 6) &+ 1] |= 1
        }
        #endif
    }

    /// Sets the bits of cells `first`, `first + 1` and `first + 2` (all in
    /// one row), as `markTouchedPair` does two.
    @inline(__always)
    static func markTouchedTriple(_ bits: UnsafeMutablePointer<UInt64>, first: Int) {
        #if _endian(little)
        markTouchedWindow(bits, first: first, mask: 7)
        #else
        markTouched(bits, first: first, last: first &+ 2)
        #endif
    }

    /// ORs `mask` shifted by `first % 8` into the 16 bits from byte `first / 8` of `bits`.
    @inline(__always)
    private static func markTouchedWindow(_ bits: UnsafeMutablePointer<UInt64>, first: Int, mask: UInt16) {
        let window = UnsafeMutableRawPointer(bits) + (first &>> 3)
        let value = window.loadUnaligned(as: UInt16.self) | (mask &<< UInt16(first & 7))
        window.storeBytes(of: value, as: UInt16.self)
    }
}
