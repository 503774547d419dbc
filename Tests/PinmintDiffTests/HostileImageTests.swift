import PinmintDiff
import Testing

/// Untrusted sizes for diff images throw instead of trapping.
struct HostileImageTests {
    @Test(arguments: [(2, 2, 15), (-1, -1, 4), (1 << 40, 1 << 40, 0), (Int.max, 1, 4)])
    func theCheckingInitialiserThrows(_ width: Int, _ height: Int, _ byteCount: Int) {
        #expect(throws: DiffError.self) {
            try RGBA8Image(width: width, height: height, checkingPixels: [UInt8](repeating: 0, count: byteCount))
        }
    }

    @Test func theCheckingInitialiserAcceptsAMatchingBuffer() throws {
        #expect(try RGBA8Image(width: 1, height: 2, checkingPixels: [UInt8](repeating: 7, count: 8)).pixelCount == 2)
        #expect(try RGBA8Image(width: 0, height: 3, checkingPixels: []).pixelCount == 0)
    }
}
