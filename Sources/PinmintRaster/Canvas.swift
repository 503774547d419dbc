import PinmintGeometry
#if arch(x86_64)
// SSE2 (part of every x86-64 processor) for comparing pixels four at a time.
import _Builtin_intrinsics.intel
#endif

/// Why a canvas refused a request.
public enum RasterError: Error, Equatable, CustomStringConvertible {
    /// A canvas or layer size outside the limits; the message says which limit.
    case invalidSize(width: Int, height: Int, reason: String)
    /// A NaN or infinite number in what was drawn; the string names it.
    case nonFinite(String)
    /// `popClip` or `endLayer` without a matching push or begin.
    case unbalanced(String)
    /// Coordinates that leave the range the rasterizer works in once
    /// transformed (see `Canvas.maximumDeviceCoordinate`); the string says which.
    case outOfRange(String)

    /// The message, one line, e.g. "canvas size 0x10: ..." or "path is not
    /// finite (NaN or infinity)".
    public var description: String {
        switch self {
        case .invalidSize(let width, let height, let reason): return "canvas size \(width)x\(height): \(reason)"
        case .nonFinite(let what): return "\(what) is not finite (NaN or infinity)"
        case .unbalanced(let what): return what
        case .outOfRange(let what): return what
        }
    }
}

/// A block of premultiplied RGBA pixels, 16 bits per channel, owned by one canvas layer.
///
/// Clearing is lazy and per row: each row remembers the columns that may
/// hold non-zero pixels (its dirty columns), and clearing to transparent
/// only marks rows with dirty columns as stale. A stale row is zeroed when
/// it is next drawn into, just before the drawing, while it is in the cache,
/// or before anything reads it. So a clear costs nothing for pixels never
/// drawn, and a redrawn row goes through memory once instead of twice
/// (the dirty-rectangle clear of GUI toolkits, done per row).
final class PixelBuffer {
    let pointer: UnsafeMutablePointer<UInt16>
    /// The number of UInt16 values: width × height × 4.
    let count: Int
    let width: Int, height: Int
    /// Per row y, the columns `dirtyStart[y] ..< dirtyEnd[y]` may be non-zero; outside them the row is 0.
    private let dirtyStart: UnsafeMutablePointer<Int>, dirtyEnd: UnsafeMutablePointer<Int>
    /// Per row: transparent, although its dirty columns are not zeroed yet.
    private let stale: UnsafeMutablePointer<Bool>

    /// A transparent buffer of `width` × `height` pixels. The memory is not
    /// zeroed up front: every row starts stale with all its columns dirty,
    /// so a row is zeroed when first touched, and the part a drawing stores
    /// over (a marker's body covers most of its image) is never zeroed at all.
    init(width: Int, height: Int) {
        self.width = width
        self.height = height
        count = width * height * 4
        pointer = .allocate(capacity: count)
        dirtyStart = .allocate(capacity: height)
        dirtyStart.initialize(repeating: 0, count: height)
        dirtyEnd = .allocate(capacity: height)
        dirtyEnd.initialize(repeating: width, count: height)
        stale = .allocate(capacity: height)
        stale.initialize(repeating: width > 0, count: height)
    }
    deinit {
        pointer.deallocate()
        dirtyStart.deallocate(); dirtyEnd.deallocate(); stale.deallocate()
    }

    /// The pixels of row `y` (0 ..< height). Wrapping arithmetic: for such
    /// a row y × width × 4 is below `count`, which `init` computed checked.
    @inline(__always)
    func row(_ y: Int) -> UnsafeMutablePointer<UInt16> { pointer + y &* width &* 4 }

    /// Zeroes row `y` if it is stale, so its memory holds its pixels, and
    /// records that columns `x0 ..< x1` are about to be written (nothing when
    /// `x1 <= x0`). Call before reading or writing the row's memory. Returns
    /// whether the whole row was transparent, so that a drawing can store
    /// its colour instead of blending it with zeros.
    @inline(__always) @discardableResult
    func prepareRow(_ y: Int, writing x0: Int, _ x1: Int) -> Bool {
        let wasTransparent = stale[y] || dirtyEnd[y] <= dirtyStart[y]
        if stale[y] {
            stale[y] = false
            // Dirty columns lie in 0 ... width: no overflow.
            (row(y) + dirtyStart[y] &* 4).update(repeating: 0, count: (dirtyEnd[y] &- dirtyStart[y]) &* 4)
            dirtyStart[y] = 0; dirtyEnd[y] = 0
        }
        guard x1 > x0 else { return wasTransparent }
        if dirtyEnd[y] <= dirtyStart[y] {
            dirtyStart[y] = x0; dirtyEnd[y] = x1
        } else {
            dirtyStart[y] = min(dirtyStart[y], x0); dirtyEnd[y] = max(dirtyEnd[y], x1)
        }
        return wasTransparent
    }

    /// `prepareRow` for a drawing that learns the columns it writes as it
    /// goes, from `x0` on: call before the first write, then `endOverwrite`
    /// with the columns written. A stale row has only its dirty columns
    /// outside the written ones zeroed (left of `x0` here, right of them in
    /// `endOverwrite`), and `mustOverwrite` tells the caller that the old
    /// values in between are garbage it must store over or zero itself.
    /// `wasTransparent` is as for `prepareRow`.
    @inline(__always)
    func beginOverwrite(_ y: Int, from x0: Int) -> (wasTransparent: Bool, mustOverwrite: Bool) {
        guard stale[y] else { return (dirtyEnd[y] <= dirtyStart[y], false) }
        // The old dirty columns stay recorded until `endOverwrite` zeroes their right part.
        stale[y] = false
        let start = dirtyStart[y], leftEnd = min(dirtyEnd[y], x0)
        // Columns lie in 0 ... width (dirty ones, or clipped): no overflow.
        if leftEnd > start { PixelBuffer.zero(row(y) + start &* 4, count: leftEnd &- start) }
        return (true, true)
    }

    /// Ends `beginOverwrite`: columns `x0 ..< x1` (x1 > x0) were written.
    @inline(__always)
    func endOverwrite(_ y: Int, from x0: Int, to x1: Int, mustOverwrite: Bool) {
        if mustOverwrite {
            let rightStart = max(dirtyStart[y], x1), end = dirtyEnd[y]
            // Columns lie in 0 ... width (dirty ones, or clipped): no overflow.
            if end > rightStart { PixelBuffer.zero(row(y) + rightStart &* 4, count: end &- rightStart) }
            dirtyStart[y] = x0; dirtyEnd[y] = x1
        } else {
            prepareRow(y, writing: x0, x1)
        }
    }

    /// Zeroes `count` (> 0) pixels. A few pixels (the rim a redrawn shape
    /// leaves of a slightly wider old one) take direct stores instead of a
    /// memset call; raw stores, so they may alias the UInt16 accesses.
    @inline(__always)
    static func zero(_ start: UnsafeMutablePointer<UInt16>, count: Int) {
        // count is a number of pixels in a row (≤ 16384): no overflow.
        guard count <= 4 else { start.update(repeating: 0, count: count &* 4); return }
        let bytes = UnsafeMutableRawPointer(start)
        bytes.storeBytes(of: 0, as: UInt64.self)
        if count > 1 { bytes.storeBytes(of: 0, toByteOffset: 8, as: UInt64.self) }
        if count > 2 { bytes.storeBytes(of: 0, toByteOffset: 16, as: UInt64.self) }
        if count > 3 { bytes.storeBytes(of: 0, toByteOffset: 24, as: UInt64.self) }
    }

    /// Pixel `x` of row `y` packed (as `Canvas.pack`), when the row's
    /// memory holds it as drawn (not stale, inside the dirty columns); nil otherwise.
    @inline(__always)
    func drawnPixel(_ y: Int, _ x: Int) -> UInt64? {
        guard !stale[y], dirtyStart[y] <= x, x < dirtyEnd[y] else { return nil }
        return UnsafeRawPointer(row(y) + 4 &* x).load(as: UInt64.self)
    }

    /// Copies the `count` pixels at `source` over columns `x0 ..<
    /// x0 + count` of row `y` as long as the row holds `background`
    /// (packed) there as drawn: the row not stale and those columns dirty,
    /// so that a drawing would blend there rather than store over
    /// transparent. Returns how many were copied, stopping at the first
    /// pixel that is not the background (0 for a row that is not drawn
    /// there). The caller blends the rest.
    @inline(__always)
    func copy(_ source: UnsafeRawPointer, count: Int, toRow y: Int, at x0: Int, over background: UInt64) -> Int {
        guard !stale[y], dirtyStart[y] <= x0, x0 &+ count <= dirtyEnd[y] else { return 0 }
        let target = UnsafeMutableRawPointer(row(y) + 4 &* x0)
        var offset = 0
        let end = 8 &* count
        #if arch(x86_64)
        // Four pixels a step: two 32-bit compares of 16 bytes each, one test.
        let pair = _mm_set1_epi64x(Int64(bitPattern: background))
        while offset &+ 32 <= end {
            let first = target.loadUnaligned(fromByteOffset: offset, as: SIMD2<Int64>.self)
            let second = target.loadUnaligned(fromByteOffset: offset &+ 16, as: SIMD2<Int64>.self)
            let same = _mm_and_si128(_mm_cmpeq_epi32(first, pair), _mm_cmpeq_epi32(second, pair))
            if _mm_movemask_epi8(same) != 0xFFFF { break }
            target.storeBytes(of: source.loadUnaligned(fromByteOffset: offset, as: SIMD2<Int64>.self), toByteOffset: offset,
                              as: SIMD2<Int64>.self)
            target.storeBytes(of: source.loadUnaligned(fromByteOffset: offset &+ 16, as: SIMD2<Int64>.self),
                              toByteOffset: offset &+ 16, as: SIMD2<Int64>.self)
            offset &+= 32
        }
        #endif
        while offset &+ 16 <= end {
            let first = target.load(fromByteOffset: offset, as: UInt64.self)
            let second = target.load(fromByteOffset: offset &+ 8, as: UInt64.self)
            if (first ^ background) | (second ^ background) != 0 { break }
            target.storeBytes(of: source.loadUnaligned(fromByteOffset: offset, as: SIMD2<UInt64>.self), toByteOffset: offset,
                              as: SIMD2<UInt64>.self)
            offset &+= 16
        }
        if offset &+ 8 <= end, target.load(fromByteOffset: offset, as: UInt64.self) == background {
            target.storeBytes(of: source.load(fromByteOffset: offset, as: UInt64.self), toByteOffset: offset, as: UInt64.self)
            offset &+= 8
        }
        return offset / 8
    }

    /// Makes every row's memory hold its pixels (before reading them all).
    func prepareAll() {
        for y in 0..<height where stale[y] { prepareRow(y, writing: 0, 0) }
    }

    /// The columns of row `y` that may be non-zero, or nil when the row is transparent.
    func nonZeroColumns(_ y: Int) -> Range<Int>? {
        stale[y] || dirtyEnd[y] <= dirtyStart[y] ? nil : dirtyStart[y]..<dirtyEnd[y]
    }

    /// Makes every pixel transparent (lazily: rows with dirty columns become stale).
    func clearToTransparent() {
        for y in 0..<height where dirtyEnd[y] > dirtyStart[y] { stale[y] = true }
    }

    /// Sets every pixel to `pixel` (premultiplied, 0...65535).
    func fill(_ pixel: SIMD4<UInt16>) {
        var index = 0
        while index < count {
            pointer[index] = pixel.x; pointer[index + 1] = pixel.y
            pointer[index + 2] = pixel.z; pointer[index + 3] = pixel.w
            index += 4
        }
        for y in 0..<height { stale[y] = false; dirtyStart[y] = 0; dirtyEnd[y] = width }
    }
}

/// The coverage of a clip path over a rectangle of pixels; outside the
/// rectangle everything is clipped away.
struct ClipMask {
    /// The clip path in device space and its rule, for rows where the
    /// intersection with a shape must be computed exactly.
    var polylines: Polylines
    var rule: FillRule
    var bounds: PixelBounds
    /// Coverage 0...1 per pixel of `bounds`, row-major.
    var coverage: FloatBuffer
    var width: Int { bounds.x1 - bounds.x0 }
    /// The mask value for pixel (x, y), which must lie inside `bounds`.
    func row(y: Int, x: Int) -> UnsafeMutablePointer<Float> {
        coverage.pointer + (y - bounds.y0) * width + (x - bounds.x0)
    }
}

/// A block of floats owned by a clip mask.
final class FloatBuffer {
    let pointer: UnsafeMutablePointer<Float>
    let count: Int
    init(count: Int) {
        self.count = count
        pointer = .allocate(capacity: max(count, 1))
        pointer.initialize(repeating: 0, count: max(count, 1))
    }
    deinit { pointer.deallocate() }
}

/// A bitmap to draw on, with the drawing operations: fill, stroke, clip,
/// layers for group opacity, and shadows.
///
/// Pixels are premultiplied RGBA, **16 bits per channel** (0...65535). Eight
/// bits are not enough for translucent marker colours: rgba(77, 77, 77, 0.8)
/// premultiplies to 61.6, and an 8-bit store makes it 62, which reads back as
/// 77.5 → 78. At 16 bits the same colour is written to PNG as exactly 77.
/// Device space is pixels, origin at the top-left corner, y down; pixel
/// (x, y) is the square [x, x+1] × [y, y+1].
///
/// A canvas is not thread-safe; use one per thread. Drawing reuses scratch
/// buffers held by the canvas, so a warm canvas allocates nothing per fill
/// (layers and clips allocate their masks).
public final class Canvas {
    /// Width and height in pixels.
    public let width: Int, height: Int

    /// No side may exceed 16384 pixels.
    public static let maximumSide = 16384
    /// No canvas may hold more than 16,777,216 pixels (128 MiB at 8 bytes a pixel).
    public static let maximumPixelCount = 1 << 24

    // The tolerances, read by every drawing, skip the dynamic exclusivity
    // checks, as `workLimit` and the rest below do.

    /// The curve flattening tolerance in device pixels for strokes and glyph
    /// outlines; see `defaultFlatteningTolerance`.
    @exclusivity(unchecked) public var flatteningTolerance: Double = defaultFlatteningTolerance
    /// The tolerance in device pixels of the centred flattening that fills,
    /// clips and coverage masks use; see `defaultCentredFlatteningTolerance`.
    @exclusivity(unchecked) public var fillFlatteningTolerance: Double = defaultCentredFlatteningTolerance

    /// The work a canvas's drawings may take together, in units of about
    /// 5.6 instructions (a nanosecond on the project's machines): each
    /// drawing's pixels and segments as the rasterizer counts them, plus
    /// what shading its pixels costs (`PaintShader.workPerPixel`: 16 for a
    /// linear gradient, 20 radial, 40 an image), 16 a pixel of the region a
    /// shadow blurs, 6 a pixel of a layer composited. 2³⁰, about a second
    /// of drawing. Shading, shadows and layers are charged before they
    /// are drawn, and the rasterizer refuses a shape whose estimate is past
    /// what is left, so refused work costs nothing. A marker or an icon
    /// takes well under 10⁷; the limit stops input that is small but asks
    /// for hours (thousands of full-canvas gradients, huge blurred shadows).
    public static let defaultWorkLimit = 1 << 30

    // `workLimit`, `work`, `layers` and `clips` skip the dynamic
    // exclusivity checks (`@exclusivity(unchecked)`), which every drawing
    // would pay several times: a canvas is used from one thread, and its
    // methods never hold an access to one of them across a call that
    // touches it again.

    /// The work limit of this canvas (`defaultWorkLimit` unless set):
    /// once the drawings so far have taken more, the next one throws
    /// `RasterError.outOfRange`. Any value is accepted; 0 or less refuses every drawing.
    @exclusivity(unchecked) public var workLimit = Canvas.defaultWorkLimit {
        // `work` is never negative, so only a limit near Int.min could overflow the difference.
        didSet { rasterizer.workLimit = workLimit > work ? workLimit - work : 0 }
    }

    /// The work the drawings so far have taken, in the units of `defaultWorkLimit`.
    @exclusivity(unchecked) public private(set) var work = 0

    /// Counts `amount` of work spent on something given up (a conflation
    /// redrawing past its budget), up to the limit and not past it: the
    /// drawing stands as it is, so this does not fail, but what the limit
    /// has left shrinks.
    func chargeUpToLimit(_ amount: Int) {
        guard work < workLimit else { return }
        work += min(max(0, amount), workLimit - work)
    }

    /// Adds `amount` to `work`; throws when the total is past `workLimit`.
    /// The rasterizer is told what is left, so that it refuses a shape that
    /// would take more before drawing it (it reports the estimate instead).
    /// Public for work done outside the canvas for one of its drawings (the
    /// text module's halo around a colour glyph), charged before it is done.
    public func charge(_ amount: Int) throws(RasterError) {
        work = work.addingReportingOverflow(max(0, amount)).partialValue
        if work > workLimit || work < 0 {
            throw .outOfRange("the drawing takes more than \(workLimit) units of work (about a second) in all "
                              + "(too many or too large shapes, gradients, pictures, shadows or layers)")
        }
        rasterizer.workLimit = workLimit - work
    }

    /// layers[0] is the canvas itself; `beginLayer` pushes more.
    @exclusivity(unchecked) var layers: [PixelBuffer]
    /// Layers, and their bytes, open on the canvases this one draws a group
    /// for (`drawGroupResolvingConflation`), which count against this one's
    /// `maximumLayerDepth` and `maximumLayerBytes`: nesting groups does not
    /// reset the limits.
    var inheritedLayerCount = 0, inheritedLayerBytes = 0
    @exclusivity(unchecked) var clips: [ClipMask] = []

    // Scratch state reused by every drawing operation; from the previous
    // canvas that was deinitialised, when there was one (see `DrawingScratch`).
    private let scratch: DrawingScratch
    var rasterizer: CoverageRasterizer {
        _read { yield scratch.rasterizer }
        _modify { yield &scratch.rasterizer }
    }
    var polylines: Polylines {
        _read { yield scratch.polylines }
        _modify { yield &scratch.polylines }
    }
    var stroker: Stroker {
        _read { yield scratch.stroker }
        _modify { yield &scratch.stroker }
    }
    var shadeRow: [SIMD4<Float>] {
        _read { yield scratch.shadeRow }
        _modify { yield &scratch.shadeRow }
    }
    var shadowAlpha: [Float] {
        _read { yield scratch.shadowAlpha }
        _modify { yield &scratch.shadowAlpha }
    }
    var shadowScratch: [Float] {
        _read { yield scratch.shadowScratch }
        _modify { yield &scratch.shadowScratch }
    }
    var shadowPoints: [Point] {
        _read { yield scratch.shadowPoints }
        _modify { yield &scratch.shadowPoints }
    }
    /// While `drawResolvingConflation` draws: where each drawing leaves partial coverage.
    var census: CoverageCensus?
    /// Solid unclipped fills write pixels as the rasterizer delivers spans;
    /// false sends them through the span list instead (the reference path, for tests).
    var writesSolidRowsDirectly = true

    /// A transparent canvas. Throws `RasterError.invalidSize` for a side
    /// below 1 or above `maximumSide`, or more than `maximumPixelCount` pixels.
    public init(width: Int, height: Int) throws(RasterError) {
        guard width >= 1, height >= 1 else {
            throw .invalidSize(width: width, height: height, reason: "width and height must be at least 1")
        }
        guard width <= Canvas.maximumSide, height <= Canvas.maximumSide else {
            throw .invalidSize(width: width, height: height, reason: "a side may be at most \(Canvas.maximumSide) pixels")
        }
        guard width * height <= Canvas.maximumPixelCount else {
            throw .invalidSize(width: width, height: height,
                               reason: "at most \(Canvas.maximumPixelCount) pixels are allowed")
        }
        self.width = width
        self.height = height
        layers = [PixelBuffer(width: width, height: height)]
        scratch = DrawingScratch.take()
        scratch.rasterizer.workLimit = workLimit
        scratch.rasterizer.resolvesSharedPixelsExactly = true
        scratch.polylines.maximumPointCount = Canvas.maximumPathPointCount
    }

    deinit {
        DrawingScratch.recycle(scratch)
    }

    /// The pixels of the whole canvas.
    var fullBounds: PixelBounds { PixelBounds(x0: 0, y0: 0, x1: width, y1: height) }

    /// Where drawing can still change pixels: the canvas, narrowed by the clip.
    var drawableBounds: PixelBounds { clips.last?.bounds ?? fullBounds }

    /// Sets every pixel of the current layer to `color` (transparent by
    /// default), ignoring the clip.
    public func clear(_ color: Color = .transparent) {
        let target = layers[layers.count - 1]
        let premultiplied = Canvas.premultiplied16(color)
        if premultiplied == SIMD4<UInt16>(repeating: 0) {
            target.clearToTransparent()
        } else {
            target.fill(premultiplied)
        }
    }

    /// The canvas's pixels (the bottom layer) as an image.
    public func makeImage() -> Image {
        let base = layers[0]
        base.prepareAll()
        return Image(width: width, height: height,
                     premultipliedPixels: Array(UnsafeBufferPointer(start: base.pointer, count: base.count)))
    }

    /// Straight-alpha RGBA8 bytes of the canvas, rounded to nearest: what a PNG stores.
    public func straightRGBA8() -> [UInt8] {
        let base = layers[0]
        base.prepareAll()
        return Image.straightRGBA8(UnsafeBufferPointer(start: base.pointer, count: base.count))
    }

    /// The colour of one pixel, straight alpha. `x` and `y` must be inside
    /// the canvas (0 ..< width, 0 ..< height): a precondition, outside it traps.
    public func pixel(x: Int, y: Int) -> Color {
        // A checked stop, with a message that says which pixel.
        guard x >= 0 && x < width && y >= 0 && y < height else { fatalError("pixel (\(x), \(y)) is outside the canvas") }
        layers[0].prepareRow(y, writing: 0, 0)
        let p = layers[0].row(y) + x * 4
        let alpha = Double(p[3]) / 65535
        guard alpha > 0 else { return .transparent }
        return Color(red: Double(p[0]) / 65535 / alpha, green: Double(p[1]) / 65535 / alpha,
                     blue: Double(p[2]) / 65535 / alpha, alpha: alpha)
    }

    /// A colour premultiplied and scaled to 0...65535.
    static func premultiplied16(_ color: Color, opacity: Double = 1) -> SIMD4<UInt16> {
        let value = premultipliedFloat(color, opacity: opacity)
        return SIMD4<UInt16>((value + 0.5).rounded(.down))
    }

    /// A colour premultiplied, as floats on the 0...65535 scale. Components
    /// and opacity are clamped to 0...1 (NaN as 0), so that a `Color` whose
    /// properties were set out of range cannot overflow the 16-bit stores.
    static func premultipliedFloat(_ color: Color, opacity: Double = 1) -> SIMD4<Float> {
        let alpha = Color.unit(color.alpha) * Color.unit(opacity)
        return SIMD4<Float>(Float(Color.unit(color.red) * alpha * 65535), Float(Color.unit(color.green) * alpha * 65535),
                            Float(Color.unit(color.blue) * alpha * 65535), Float(alpha * 65535))
    }
}
