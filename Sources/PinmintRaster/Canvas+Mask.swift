import PinmintGeometry
import Synchronization

/// A shape's coverage, rasterized once and composited many times: how text
/// draws a glyph it has drawn before. Coverage is 0...1 per device pixel,
/// exactly what `fill` would composite for the same path at the same
/// sub-pixel position; a mask moves only by whole pixels, so that position
/// is kept.
public struct CoverageMask: Sendable {
    /// Offset of the mask's top-left pixel from the drawing origin it was
    /// rasterized at, device pixels.
    public let originX: Int, originY: Int
    /// Size of the mask in device pixels, repeated columns included.
    public let width: Int, height: Int
    /// Row-major, `stride × height` values: the mask without its repeated
    /// columns (`repeats`), so `stride` is `width` for a mask without any.
    let coverage: [Float]
    let stride: Int
    /// Columns drawn more than once (see `stretched`), ascending: per item,
    /// `count` copies of stored column `column` go in before it. Mostly none.
    let repeats: [ColumnRepeat]
    /// Per row y, four values at `4y ..< 4y + 4` (mask coordinates): the
    /// columns `start ..< end` outside which coverage is 0 (compositing
    /// skips the rest of the row), then the longest run `fullStart ..<
    /// fullEnd` of fully covered pixels (coverage ≥ 1; empty when there is
    /// none), which compositing stores or blends as one run instead of
    /// testing each pixel. One array, not four: a copy of a mask (the glyph
    /// and shape caches hand them out) retains each of its arrays, atomically.
    let extents: [Int32]
    static let start = 0, end = 1, fullStart = 2, fullEnd = 3
    /// The mask's pixels composited over a uniform colour, kept for the
    /// next time it is drawn over that colour (see `Stamps`); nil for masks
    /// over `Stamps.maximumPixels` and stretched ones.
    let stamps: Stamps?

    struct ColumnRepeat: Sendable {
        let column: Int, count: Int
    }

    /// A small mask (a glyph, a badge) is mostly drawn over one plain
    /// colour with one colour of its own: the text of a price tag over its
    /// body, again and again. Composited once over that background, its
    /// pixels are a function of the coverage alone, so they are kept (a
    /// stamp): where a later drawing in that colour finds every pixel of a
    /// row equal to the background, it copies the row instead of blending it
    /// (a few instructions a pixel against twenty), with exactly the values
    /// blending gives. A stamp is made the second time in a row that a
    /// drawing without one starts over the same background in the same
    /// colour (so a mask drawn once costs nothing more), and replaced the
    /// same way when one stops matching. Shared by the mask's copies; under
    /// a lock, since masks are `Sendable`.
    final class Stamps: Sendable {
        /// Masks of at most this many pixels keep a stamp (32 KiB at most: 8 bytes a pixel).
        static let maximumPixels = 4096

        struct Stamp: Sendable {
            /// The premultiplied colour composited, and the packed background pixel.
            let color: SIMD4<Float>, background: UInt64
            /// The mask's `width × height` pixels over the background, four
            /// channels each as a canvas holds them.
            let pixels: [UInt16]
        }
        private struct State {
            var kept: Stamp?
            /// A colour and background a drawing without a usable stamp started on.
            var candidate: (color: SIMD4<Float>, background: UInt64)?
        }
        private let state = Mutex<State>(State())

        /// The stamp kept for `color`, if any.
        func stamp(for color: SIMD4<Float>) -> Stamp? {
            state.withLock { $0.kept?.color == color ? $0.kept : nil }
        }

        /// A drawing in `color` found no use for the kept stamp and starts
        /// over `background`: when the previous such drawing did too, the
        /// stamp `make` gives is kept (and returned) instead.
        func miss(color: SIMD4<Float>, background: UInt64, make: () -> [UInt16]) -> Stamp? {
            let repeated: Bool = state.withLock { state in
                if let candidate = state.candidate, candidate.color == color, candidate.background == background {
                    state.candidate = nil
                    return true
                }
                state.candidate = (color, background)
                return false
            }
            guard repeated else { return nil }
            let stamp = Stamp(color: color, background: background, pixels: make())
            state.withLock { $0.kept = stamp }
            return stamp
        }

        /// The colour and background of the kept stamp (for tests).
        var kept: (color: SIMD4<Float>, background: UInt64)? {
            state.withLock { state in state.kept.map { ($0.color, $0.background) } }
        }
    }

    init(originX: Int, originY: Int, width: Int, height: Int, coverage: [Float], stride: Int? = nil,
         repeats: [ColumnRepeat] = [], extents: [Int32]) {
        self.originX = originX; self.originY = originY
        self.width = width; self.height = height
        self.coverage = coverage; self.stride = stride ?? width; self.repeats = repeats
        self.extents = extents
        stamps = repeats.isEmpty && width * height <= Stamps.maximumPixels ? Stamps() : nil
    }

    /// Bytes held, for caches that bound their memory, counting the stamp a
    /// small mask may keep (8 bytes a pixel) whether made yet or not. A
    /// stretched mask counts only its row extents: its coverage is the one
    /// it was stretched from, which holds it too.
    public var byteCount: Int {
        (repeats.isEmpty ? coverage.count * MemoryLayout<Float>.size : 0) + 16 * height + (stamps == nil ? 0 : 8 * width * height)
    }

    /// The coverage of columns `start ..< end` (mask coordinates) of the
    /// stored row `stored`: a pointer into it when no repeated column lies
    /// inside (the partly covered ends of a stretched row), else the values
    /// gathered into `scratch`.
    @inline(__always)
    fileprivate func coverage(row stored: UnsafePointer<Float>, from start: Int, to end: Int, repeats: UnsafeBufferPointer<ColumnRepeat>,
                  scratch: UnsafeMutablePointer<Float>) -> UnsafePointer<Float> {
        // Stored columns before an item are drawn `shift` further right; its copies follow them.
        var shift = 0
        for item in repeats {
            let copiesStart = item.column &+ shift
            if end <= copiesStart { return stored + (start &- shift) }
            if start < copiesStart &+ item.count {
                gather(row: stored, from: start, to: end, into: scratch)
                return UnsafePointer(scratch)
            }
            shift &+= item.count
        }
        return stored + (start &- shift)
    }

    /// Columns `start ..< end` of stored row `stored` with their repeated columns written out, into `target`.
    private func gather(row stored: UnsafePointer<Float>, from start: Int, to end: Int,
                        into target: UnsafeMutablePointer<Float>) {
        var shift = 0, column = 0
        for index in 0...repeats.count {
            // Stored columns column ..< next drawn from column + shift, then the copies of next.
            let next = index < repeats.count ? repeats[index].column : stride
            let copies = index < repeats.count ? repeats[index].count : 0
            let piece = (max(start, column &+ shift), min(end, next &+ shift))
            if piece.1 > piece.0 {
                (target + (piece.0 &- start)).update(from: stored + (piece.0 &- shift), count: piece.1 &- piece.0)
            }
            let run = (max(start, next &+ shift), min(end, next &+ shift &+ copies))
            if run.1 > run.0 { (target + (run.0 &- start)).update(repeating: stored[next], count: run.1 &- run.0) }
            shift &+= copies
            column = next
        }
    }

    /// Whether the mask repeats columns of a coverage it shares (see `stretched`).
    public var isStretched: Bool { !repeats.isEmpty }

    /// The same mask with its repeated columns written out: composited alike
    /// and a little faster, for the memory of its own coverage. A mask drawn
    /// once is best left stretched, one kept to be drawn again written out.
    public func materialized() -> CoverageMask {
        guard !repeats.isEmpty else { return self }
        let values = [Float](unsafeUninitializedCapacity: width * height) { target, initialized in
            coverage.withUnsafeBufferPointer { source in
                for y in 0..<height {
                    gather(row: source.baseAddress! + y * stride, from: 0, to: width, into: target.baseAddress! + y * width)
                }
            }
            initialized = width * height
        }
        return CoverageMask(originX: originX, originY: originY, width: width, height: height, coverage: values,
                            extents: extents)
    }

    /// This mask widened by repeating columns and moved by whole pixels:
    /// for each insertion, `count` copies of mask column `column` go in
    /// before it (columns ascending, each in `0 ..< width`, counts ≥ 0), and
    /// the origin moves by (`dx`, `dy`). The mask of a shape stretched
    /// sideways where every column inside the stretch is crossed only by
    /// horizontal edges (the straight top and bottom of a rounded box): the
    /// coverage of a pixel depends only on the outline inside it, so those
    /// columns are alike and the rest is the same coverage moved by whole
    /// pixels. The idea is the nine-patch image's (Android), for coverage.
    /// The result shares this mask's coverage (stretching costs the row
    /// extents; compositing reads the copies in place). Returns nil
    /// when an insertion is out of range, the result would be wider than
    /// `Canvas.maximumSide`, or this mask is stretched already.
    public func stretched(inserting insertions: [(column: Int, count: Int)], dx: Int, dy: Int) -> CoverageMask? {
        guard repeats.isEmpty else { return nil }
        var added = 0, previous = -1
        for insertion in insertions {
            guard insertion.column > previous, insertion.column < width, insertion.count >= 0,
                  insertion.count <= Canvas.maximumSide else { return nil }
            previous = insertion.column
            added += insertion.count
        }
        let newWidth = width + added
        guard newWidth <= Canvas.maximumSide, dx.magnitude <= 1 << 40, dy.magnitude <= 1 << 40 else { return nil }
        // A row's extents move right by the copies inserted strictly left of
        // them: copies of an extent's own column start where it started, and
        // copies inside a run of full coverage lengthen it.
        var kept: [ColumnRepeat] = []
        kept.reserveCapacity(insertions.count)
        for insertion in insertions where insertion.count > 0 { kept.append(ColumnRepeat(column: insertion.column, count: insertion.count)) }
        // Extents are columns 0 ... width: how far each moves, looked up
        // (a tag's body has a few hundred extents and a few insertions).
        let moved = withUnsafeTemporaryAllocation(of: Int32.self, capacity: width + 1) { shifts in
            var shift: Int32 = 0, item = 0
            for column in 0...width {
                shifts[column] = shift
                // Copies inserted before `column` move the columns after it.
                while item < kept.count && kept[item].column == column { shift &+= Int32(kept[item].count); item += 1 }
            }
            return [Int32](unsafeUninitializedCapacity: extents.count) { target, initialized in
                extents.withUnsafeBufferPointer { values in
                    for index in 0..<values.count {
                        let value = values[index]
                        target[index] = value &+ shifts[min(max(Int(value), 0), width)]
                    }
                }
                initialized = extents.count
            }
        }
        // The coverage is shared: compositing reads the repeated columns from it.
        return CoverageMask(originX: originX + dx, originY: originY + dy, width: newWidth, height: height,
                            coverage: coverage, stride: stride,
                            repeats: kept, extents: moved)
    }
}

extension Canvas {
    /// Rasterizes `path` (user space, mapped by `transform`) into a mask.
    /// The mask does not depend on this canvas's size, clip or pixels; the
    /// canvas only lends its rasterizer. Throws `RasterError.nonFinite` for
    /// NaN or infinite coordinates; a mask has at most `Canvas.maximumSide`
    /// pixels a side (larger shapes give an empty mask: fill them instead).
    public func makeCoverageMask(_ path: Path, rule: FillRule = .nonZero,
                                 transform: AffineMap = .identity) throws(RasterError) -> CoverageMask {
        try Canvas.validate(path: path, transform: transform, opacity: 1)
        path.flatten(transform: transform, tolerance: fillFlatteningTolerance, centred: true, into: &polylines)
        try Canvas.validate(device: polylines)
        guard let bounds = Canvas.deviceBounds(of: polylines), !bounds.isEmpty,
              bounds.x1 - bounds.x0 <= Canvas.maximumSide, bounds.y1 - bounds.y0 <= Canvas.maximumSide else {
            return CoverageMask(originX: 0, originY: 0, width: 0, height: 0, coverage: [], extents: [])
        }
        let width = bounds.x1 - bounds.x0, height = bounds.y1 - bounds.y0
        var coverage = [Float](repeating: 0, count: width * height)
        coverage.withUnsafeMutableBufferPointer { values in
            rasterizer.rasterize(polylines, rule: rule, bounds: bounds) { y, x0, rowCoverage, _ in
                let row = values.baseAddress! + (y - bounds.y0) * width + (x0 - bounds.x0)
                for i in 0..<rowCoverage.count { row[i] = rowCoverage[i] }
            }
        }
        try charge(rasterizer.lastWork)
        var extents = [Int32](repeating: 0, count: 4 * height)
        for y in 0..<height {
            let row = coverage[(y * width)..<((y + 1) * width)]
            guard let first = row.firstIndex(where: { $0 != 0 }), let last = row.lastIndex(where: { $0 != 0 }) else { continue }
            extents[4 * y + CoverageMask.start] = Int32(first - y * width)
            extents[4 * y + CoverageMask.end] = Int32(last - y * width + 1)
            // The longest run of full coverage.
            var x = first, longest = 0
            while x <= last {
                guard row[x] >= 1 else { x += 1; continue }
                var end = x + 1
                while end <= last && row[end] >= 1 { end += 1 }
                if end - x > longest {
                    longest = end - x
                    extents[4 * y + CoverageMask.fullStart] = Int32(x - y * width)
                    extents[4 * y + CoverageMask.fullEnd] = Int32(end - y * width)
                }
                x = end
            }
        }
        return CoverageMask(originX: bounds.x0, originY: bounds.y0, width: width, height: height, coverage: coverage,
                            extents: extents)
    }

    /// The work a mask's composite is charged per pixel of its box, before
    /// it is drawn: 255 text parts of 500 wrapped 萬 at @3x ran 3.2 s before
    /// the limit refused them at 1 a pixel (a glyph's pixels are blended
    /// through its coverage, some 16 instructions each).
    static let maskWorkPerPixel = 3

    /// Composites `color` (× `opacity`) through `mask`, moved by whole device
    /// pixels (`x`, `y`), source-over, inside the current clip and layer.
    /// Any offsets are accepted: a mask moved off the canvas (however far,
    /// up to `Int.max`) draws nothing.
    public func fill(mask: CoverageMask, x: Int, y: Int, color: Color, opacity: Double = 1) throws(RasterError) {
        guard opacity.isFinite else { throw .nonFinite("opacity") }
        let premultiplied = Canvas.premultipliedFloat(color, opacity: opacity)
        guard premultiplied.w > 0, mask.width > 0 else { return }
        // A canvas and a mask are at most `maximumSide` wide: past this the mask cannot touch
        // the canvas, and within it `left + mask.width` cannot overflow.
        let reach = 4 * Canvas.maximumSide
        guard x > -reach - abs(mask.originX), x < reach + abs(mask.originX),
              y > -reach - abs(mask.originY), y < reach + abs(mask.originY) else { return }
        let left = mask.originX + x, top = mask.originY + y
        let area = PixelBounds(x0: left, y0: top, x1: left + mask.width, y1: top + mask.height).intersection(drawableBounds)
        guard !area.isEmpty else { return }
        try charge((area.x1 - area.x0) * (area.y1 - area.y0) * Canvas.maskWorkPerPixel)
        let target = layers[layers.count - 1]
        let clip = clips.last
        let solid = SolidSource(color: premultiplied, blend: .sourceOver)
        mask.extents.withUnsafeBufferPointer { extents in
            let extents = extents.baseAddress!
            guard mask.isStretched else {
                mask.coverage.withUnsafeBufferPointer { values in
                    let base = values.baseAddress!, width = mask.width
                    if clip == nil, let stamps = mask.stamps {
                        // Pixels over the stamp's background take its pixels, each row up to
                        // the first that is not the background; the rest are blended.
                        // Returns how many rows took pixels of the stamp.
                        func drawStamped(_ stamp: CoverageMask.Stamps.Stamp) -> Int {
                            var copied = 0
                            stamp.pixels.withUnsafeBufferPointer { pixels in
                                let stampBase = UnsafeRawPointer(pixels.baseAddress!)
                                for row in area.y0..<area.y1 {
                                    let rowExtents = extents + 4 &* (row &- top)
                                    let x0 = max(area.x0, left &+ Int(rowExtents[CoverageMask.start]))
                                    let x1 = min(area.x1, left &+ Int(rowExtents[CoverageMask.end]))
                                    guard x1 > x0 else { continue }
                                    let count = target.copy(stampBase + 8 &* ((row &- top) &* width &+ (x0 &- left)), count: x1 &- x0,
                                                            toRow: row, at: x0, over: stamp.background)
                                    if count > 0 { copied &+= 1 }
                                    guard count < x1 &- x0 else { continue }
                                    // From the first pixel that is not the background on, blended.
                                    compositeRows(extents, left: left, top: top,
                                                  area: PixelBounds(x0: x0 &+ count, y0: row, x1: area.x1, y1: row &+ 1),
                                                  target: target, clip: nil, solid: solid) { row, start, _ in
                                        base + (row &* width &+ start)
                                    }
                                }
                            }
                            return copied
                        }
                        // The pixel the drawing starts on, read before drawing: the background a new stamp would be for.
                        let candidate = firstPixel(extents, left: left, top: top, area: area, target: target)
                        func make(_ background: UInt64) -> CoverageMask.Stamps.Stamp? {
                            stamps.miss(color: premultiplied, background: background) {
                                stampPixels(mask, extents: extents, coverage: base, background: background, solid: solid)
                            }
                        }
                        if let stamp = stamps.stamp(for: premultiplied) {
                            // No row matched: drawn all the same; the stamp may be replaced for next time.
                            if drawStamped(stamp) == 0, let candidate { _ = make(candidate) }
                            return
                        }
                        if let candidate, let stamp = make(candidate) {
                            _ = drawStamped(stamp)
                            return
                        }
                    }
                    compositeRows(extents, left: left, top: top, area: area, target: target, clip: clip, solid: solid) { row, start, _ in
                        base + (row &* width &+ start)
                    }
                }
                return
            }
            // A stretched mask's ranges that hold repeated columns are gathered into `scratch`.
            mask.coverage.withUnsafeBufferPointer { values in
                mask.repeats.withUnsafeBufferPointer { repeats in
                    withUnsafeTemporaryAllocation(of: Float.self, capacity: mask.width) { scratch in
                        compositeRows(extents, left: left, top: top, area: area, target: target, clip: clip, solid: solid) { row, start, end in
                            mask.coverage(row: values.baseAddress! + row * mask.stride, from: start, to: end, repeats: repeats,
                                          scratch: scratch.baseAddress!)
                        }
                    }
                }
            }
        }
    }

    /// The pixel (packed) where the mask's first row in `area` starts, when
    /// that row's memory holds it as drawn; nil otherwise.
    private func firstPixel(_ extents: UnsafePointer<Int32>, left: Int, top: Int, area: PixelBounds,
                            target: PixelBuffer) -> UInt64? {
        for row in area.y0..<area.y1 {
            let x0 = max(area.x0, left + Int(extents[4 &* (row &- top) &+ CoverageMask.start]))
            let x1 = min(area.x1, left + Int(extents[4 &* (row &- top) &+ CoverageMask.end]))
            if x1 > x0 { return target.drawnPixel(row, x0) }
        }
        return nil
    }

    /// `mask` composited in `solid`'s colour over `background` everywhere
    /// (see `CoverageMask.Stamps`): `compositeRows` itself, on a buffer of
    /// drawn background pixels, so pixel for pixel what blending over the
    /// background gives.
    private func stampPixels(_ mask: CoverageMask, extents: UnsafePointer<Int32>, coverage: UnsafePointer<Float>,
                             background: UInt64, solid: SolidSource) -> [UInt16] {
        let width = mask.width
        let buffer = PixelBuffer(width: width, height: mask.height)
        // The packed pixel is in memory order (as `Canvas.pack` stores it).
        let channels = UInt64(littleEndian: background)
        buffer.fill(SIMD4<UInt16>(UInt16(truncatingIfNeeded: channels), UInt16(truncatingIfNeeded: channels >> 16),
                                  UInt16(truncatingIfNeeded: channels >> 32), UInt16(truncatingIfNeeded: channels >> 48)))
        compositeRows(extents, left: 0, top: 0, area: PixelBounds(x0: 0, y0: 0, x1: width, y1: mask.height), target: buffer,
                      clip: nil, solid: solid) { row, start, _ in
            coverage + (row &* width &+ start)
        }
        return Array(UnsafeBufferPointer(start: buffer.pointer, count: buffer.count))
    }

    /// `fill(mask:)`'s rows, whose extents are `extents` (see
    /// `CoverageMask.extents`); `coverage(row, start, end)` gives the values
    /// of mask row `row`, columns `start ..< end`.
    ///
    /// Wrapping arithmetic per row: `area` lies on the canvas and the mask's
    /// offset (`left`, `top`) within a few `maximumSide` of it (`fill(mask:)`
    /// checks both), so columns, rows and their differences are far from
    /// overflowing. Checked, they cost 2 % of a price tag @2x.
    @inline(__always)
    private func compositeRows(_ extents: UnsafePointer<Int32>, left: Int, top: Int, area: PixelBounds, target: PixelBuffer,
                               clip: ClipMask?, solid: SolidSource,
                               coverage: (_ row: Int, _ start: Int, _ end: Int) -> UnsafePointer<Float>) {
        for row in area.y0..<area.y1 {
            let rowExtents = extents + 4 &* (row &- top)
            let x0 = max(area.x0, left &+ Int(rowExtents[CoverageMask.start]))
            let x1 = min(area.x1, left &+ Int(rowExtents[CoverageMask.end]))
            guard x1 > x0 else { continue }
            let pixels = target.row(row) + x0 &* 4
            if let clip {
                let overTransparent = target.prepareRow(row, writing: x0, x1)
                let source = coverage(row &- top, x0 &- left, x1 &- left)
                Canvas.compositeSolid(row: pixels, coverage: UnsafeBufferPointer(start: source, count: x1 &- x0),
                                      mask: UnsafePointer(clip.row(y: row, x: x0)), source: solid,
                                      overTransparent: overTransparent)
                continue
            }
            // Unclipped: the partly covered pixels either side of the row's
            // full run one by one (stored outright over a transparent row),
            // the run as one fill or blend. The same values as compositing
            // the whole row (`compositeSolid` also treats full pixels as runs).
            // Over a transparent row every pixel of x0 ..< x1 is stored (zeros
            // included), so a stale row (a new canvas's, or one cleared) is
            // zeroed only outside them, not first in full.
            let (overTransparent, mustOverwrite) = target.beginOverwrite(row, from: x0)
            let fullStart = min(max(left &+ Int(rowExtents[CoverageMask.fullStart]), x0), x1)
            let fullEnd = max(min(left &+ Int(rowExtents[CoverageMask.fullEnd]), x1), fullStart)
            func composite(_ start: Int, _ end: Int) {
                guard end > start else { return }
                let source = coverage(row &- top, start &- left, end &- left)
                if overTransparent {
                    solid.storeOverTransparent(pixels + (start &- x0) &* 4, coverage: source, count: end &- start)
                } else {
                    solid.blendOver(pixels + (start &- x0) &* 4, coverage: source, count: end &- start)
                }
            }
            composite(x0, fullStart)
            if fullEnd > fullStart {
                solid.run(pixels + (fullStart &- x0) &* 4, count: fullEnd &- fullStart, overTransparent: overTransparent)
            }
            composite(fullEnd, x1)
            target.endOverwrite(row, from: x0, to: x1, mustOverwrite: mustOverwrite)
        }
    }
}
