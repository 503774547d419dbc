/// How far a rendering is from an independent reference image, in 8-bit
/// premultiplied units over every channel of every pixel: the measure of the
/// engine's reference gate (Golden/reference: skia at 16 × 16 supersampling,
/// box-filtered), which every scene must pass with a largest difference of at
/// most 8 and a mean of at most 0.15.
///
/// Premultiplied, so that a colour difference counts as much as the pixel
/// shows it: a channel's difference is weighed by its own pixel's alpha.
public struct ReferenceDifference: Sendable, Equatable, CustomStringConvertible {
    /// The largest difference of one channel of one pixel.
    public var maximum: Double
    /// The mean over every channel of every pixel.
    public var mean: Double

    /// The gate: `maximum` ≤ 8 and `mean` ≤ 0.15.
    public static let gateMaximum = 8.0, gateMean = 0.15

    /// Whether the difference is within the gate.
    public var passesGate: Bool { maximum <= ReferenceDifference.gateMaximum && mean <= ReferenceDifference.gateMean }

    /// "max M, mean N", as the reference tests report it.
    public var description: String { String(format: "max %.2f, mean %.4f", maximum, mean) }

    /// The difference of two straight-alpha RGBA8 pixel arrays of the same
    /// length, a multiple of 4 (a precondition: anything else traps).
    public init(actual: [UInt8], expected: [UInt8]) {
        precondition(actual.count == expected.count && actual.count % 4 == 0,
                     "images of \(actual.count) and \(expected.count) bytes")
        // One row of pixels: the measure needs no width, only whole pixels.
        let row = { (pixels: [UInt8]) in RGBA8Image(width: pixels.count / 4, height: 1, pixels: pixels) }
        let difference = ChannelDifference.measure(expected: row(expected), actual: row(actual), alpha: .premultiplied)
        self.maximum = difference.maximum
        self.mean = difference.mean
    }

    /// The difference of two images of the same size (a precondition).
    public init(_ actual: RGBA8Image, _ expected: RGBA8Image) {
        precondition(actual.width == expected.width && actual.height == expected.height,
                     "images of \(actual.width)x\(actual.height) and \(expected.width)x\(expected.height)")
        self.init(actual: actual.pixels, expected: expected.pixels)
    }
}
