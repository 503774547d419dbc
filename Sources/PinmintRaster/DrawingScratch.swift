import PinmintGeometry
import Synchronization

/// The scratch buffers a canvas draws with: the rasterizer's cells and
/// edges, flattened paths, the stroker's vertices, shading rows. They only
/// hold data during one drawing call, so a canvas that is done with them
/// (deinitialised) hands them to the next canvas made, through a small
/// shared pool. A program that makes one canvas per marker (the marker
/// renderer, a batch) would otherwise allocate and initialise every buffer
/// again for each marker: for a price tag at @2x that was about 5 % of its
/// instructions, before counting the page faults of fresh memory.
///
/// A class, so that a canvas takes a set from the pool and gives it back
/// as one reference: as a struct, moving its two dozen arrays in and out of
/// the canvas's own properties took about a hundred atomic retains and
/// releases per canvas (a marker renders on a new canvas every time).
///
/// `@unchecked Sendable`: a set is owned by one canvas at a time (its
/// buffers referenced by nothing else) and moves whole between threads
/// through the pool's lock.
final class DrawingScratch: @unchecked Sendable {
    // The buffers skip Swift's dynamic exclusivity checks
    // (`@exclusivity(unchecked)`): every drawing reaches them several
    // times, and a set is used by one canvas, on one thread, whose
    // accessors (`Canvas.rasterizer` and the rest) never overlap two
    // accesses to one buffer.
    @exclusivity(unchecked) var rasterizer = CoverageRasterizer()
    @exclusivity(unchecked) var polylines = Polylines()
    @exclusivity(unchecked) var stroker = Stroker()
    @exclusivity(unchecked) var shadeRow: [SIMD4<Float>] = []
    @exclusivity(unchecked) var shadowAlpha: [Float] = []
    @exclusivity(unchecked) var shadowScratch: [Float] = []
    /// A shape's points moved by its shadow's offset, while the shadow is rasterized.
    @exclusivity(unchecked) var shadowPoints: [Point] = []

    /// Roughly the memory the buffers hold, bytes.
    var retainedBytes: Int {
        rasterizer.retainedBytes + polylines.retainedBytes + stroker.retainedBytes
            + shadeRow.capacity * MemoryLayout<SIMD4<Float>>.stride
            + (shadowAlpha.capacity + shadowScratch.capacity) * MemoryLayout<Float>.stride
            + shadowPoints.capacity * MemoryLayout<Point>.stride
    }

    /// Scratch for a new canvas: a returned one when the pool has one, else fresh.
    static func take() -> DrawingScratch {
        pool.withLock { $0.popLast() } ?? DrawingScratch()
    }

    /// Gives a canvas's scratch back for the next canvas. The pool keeps at
    /// most `poolSize` sets and none over `maximumPooledBytes`, so a huge
    /// drawing's buffers are freed rather than kept for the process's life.
    static func recycle(_ scratch: DrawingScratch) {
        guard scratch.retainedBytes <= maximumPooledBytes else { return }
        pool.withLock { sets in
            if sets.count < poolSize { sets.append(scratch) }
        }
    }

    /// One set per thread drawing at once is enough (a batch uses one canvas per job).
    static let poolSize = 8
    static let maximumPooledBytes = 8 << 20
    private static let pool = Mutex<[DrawingScratch]>([])
}
