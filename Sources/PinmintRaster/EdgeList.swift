/// The rasterizer's edges, appended to through a pointer.
///
/// `Array.append` checks uniqueness (a runtime call) and capacity on every
/// call, about half of what building an edge costs. Here uniqueness is
/// checked once per batch (`removeAll`, `reserve`), and `append` only
/// compares the count with the capacity. Copy-on-write like an array: a
/// copy shares the memory until one of them calls `removeAll` or `reserve`,
/// which is what every batch of appends starts with.
struct EdgeList {
    /// Owns the memory: a class so that it is freed when the last list sharing it goes.
    private final class Storage {
        let pointer: UnsafeMutablePointer<CoverageRasterizer.Edge>
        let capacity: Int
        init(capacity: Int) {
            self.capacity = capacity
            pointer = .allocate(capacity: capacity)
        }
        deinit { pointer.deallocate() }
    }

    private var storage = Storage(capacity: 64)
    /// The number of edges.
    private(set) var count = 0
    var isEmpty: Bool { count == 0 }
    /// The edges the memory has room for.
    var capacity: Int { storage.capacity }

    /// The edges, valid until the next mutation.
    var buffer: UnsafeBufferPointer<CoverageRasterizer.Edge> { UnsafeBufferPointer(start: storage.pointer, count: count) }

    /// Removes every edge, keeping the memory (unless it is shared).
    mutating func removeAll() {
        if !isKnownUniquelyReferenced(&storage) { storage = Storage(capacity: storage.capacity) }
        count = 0
    }

    /// Makes room for `additional` more edges, in memory of this list's own.
    mutating func reserve(_ additional: Int) {
        let needed = count + additional
        if needed > storage.capacity || !isKnownUniquelyReferenced(&storage) {
            grow(to: max(needed, storage.capacity))
        }
    }

    /// Appends `edge`; call `removeAll` or `reserve` before a batch of appends.
    @inline(__always)
    mutating func append(_ edge: CoverageRasterizer.Edge) {
        if count == storage.capacity { grow(to: count * 2) }
        (storage.pointer + count).initialize(to: edge)
        count &+= 1
    }

    /// Where the next edge goes. After `reserve(n)`, up to `n` edges may be
    /// initialized from here on through the pointer (no check per edge),
    /// then `commit(upTo:)` counts them in. Valid until the next mutation.
    var appendPointer: UnsafeMutablePointer<CoverageRasterizer.Edge> { storage.pointer + count }

    /// Counts in the edges initialized through `appendPointer`, up to `end`.
    mutating func commit(upTo end: UnsafeMutablePointer<CoverageRasterizer.Edge>) {
        count = end - storage.pointer
    }

    private mutating func grow(to capacity: Int) {
        let grown = Storage(capacity: capacity)
        grown.pointer.initialize(from: storage.pointer, count: count)
        storage = grown
    }
}
