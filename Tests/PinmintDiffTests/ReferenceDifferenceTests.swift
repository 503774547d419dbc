import PinmintDiff
import Testing

/// The reference gate's measure: 8-bit premultiplied differences, largest and mean.
struct ReferenceDifferenceTests {
    /// Two pixels, straight RGBA8.
    func image(_ first: [UInt8], _ second: [UInt8]) -> RGBA8Image {
        RGBA8Image(width: 2, height: 1, pixels: first + second)
    }

    @Test func identicalImagesDifferByNothing() {
        let picture = image([77, 77, 77, 204], [0, 0, 0, 0])
        let difference = ReferenceDifference(picture, picture)
        #expect(difference.maximum == 0 && difference.mean == 0 && difference.passesGate)
    }

    /// The translucent-colour trap: 78 instead of 77 at alpha 204 is 0.8
    /// premultiplied, under the gate's maximum, but a whole body of it
    /// breaks the mean.
    @Test func colourIsWeighedByItsAlpha() {
        let difference = ReferenceDifference(image([78, 77, 77, 204], [78, 78, 78, 204]),
                                             image([77, 77, 77, 204], [77, 77, 77, 204]))
        #expect(abs(difference.maximum - 0.8) < 1e-9)
        #expect(abs(difference.mean - 4 * 0.8 / 8) < 1e-9)
        #expect(!difference.passesGate)
    }

    /// A transparent pixel's colour does not count; its alpha does.
    @Test func transparentColourDoesNotCount() {
        let difference = ReferenceDifference(image([255, 0, 0, 0], [0, 0, 0, 255]),
                                             image([0, 255, 0, 0], [0, 0, 0, 246]))
        #expect(difference.maximum == 9)
        #expect(difference.mean == 9.0 / 8)
    }

    /// The gate holds only when both the largest difference and the mean are within it.
    @Test func gateNeedsBothFigures() {
        var expected = [UInt8](repeating: 0, count: 100 * 4), actual = expected
        for index in stride(from: 3, to: expected.count, by: 4) { expected[index] = 255; actual[index] = 255 }
        actual[3] = 247
        let small = ReferenceDifference(actual: actual, expected: expected)
        #expect(small.maximum == 8 && small.mean == 8.0 / 400 && small.passesGate)
        actual[3] = 246
        #expect(!ReferenceDifference(actual: actual, expected: expected).passesGate)
        actual[3] = 255
        for index in stride(from: 7, to: 7 + 4 * 20, by: 4) { actual[index] = 252 }
        let wide = ReferenceDifference(actual: actual, expected: expected)
        #expect(wide.maximum == 3 && wide.mean == 60.0 / 400 && wide.passesGate)
        actual[7 + 4 * 20] = 254
        #expect(!ReferenceDifference(actual: actual, expected: expected).passesGate)
    }
}
