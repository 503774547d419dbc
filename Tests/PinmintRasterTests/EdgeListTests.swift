@testable import PinmintRaster
import Testing

/// `EdgeList` against an array of the same appends.
struct EdgeListTests {
    static func edge(_ index: Int) -> CoverageRasterizer.Edge {
        CoverageRasterizer.Edge(xTop: Float(index), yTop: 0, xBottom: Float(index), yBottom: 1, direction: 1,
                                chain: Int32(index))
    }

    @Test(arguments: [0, 1, 63, 64, 65, 1000])
    func appendsMatchAnArray(_ count: Int) {
        var list = EdgeList()
        list.removeAll()
        var reference: [CoverageRasterizer.Edge] = []
        for index in 0..<count { list.append(EdgeListTests.edge(index)); reference.append(EdgeListTests.edge(index)) }
        #expect(list.count == count)
        #expect(list.buffer.map(\.chain) == reference.map(\.chain))
    }

    /// A copy keeps its edges when the original starts a new batch.
    @Test func copiesDoNotShareNewBatches() {
        var list = EdgeList()
        list.reserve(3)
        for index in 0..<3 { list.append(EdgeListTests.edge(index)) }
        let copy = list
        list.removeAll()
        list.reserve(2)
        list.append(EdgeListTests.edge(7))
        #expect(copy.buffer.map(\.chain) == [0, 1, 2])
        #expect(list.buffer.map(\.chain) == [7])
    }
}
