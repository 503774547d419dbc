import Dispatch
import Foundation

/// How many pixels may differ before two images count as different.
public enum DiffTolerance: Sendable, Hashable, CustomStringConvertible {
    /// At most this many differing pixels (0 or more).
    case pixels(Int)
    /// At most this percentage (0...100) of all the image's pixels.
    case percent(Double)

    /// No differing pixel at all.
    public static let exact = DiffTolerance.pixels(0)

    /// `at most 3 pixels` or `at most 0.5%`, as reports print it.
    public var description: String {
        switch self {
        case .pixels(let count): return "at most \(count) pixel\(count == 1 ? "" : "s")"
        case .percent(let percent): return "at most \(formatPercent(percent))%"
        }
    }

    /// True when `diffPixels` differing pixels, `diffPercent` (0...100) of
    /// the image, are within the tolerance.
    func allows(diffPixels: Int, diffPercent: Double) -> Bool {
        switch self {
        case .pixels(let count): return diffPixels <= count
        case .percent(let percent): return diffPercent <= percent
        }
    }
}

/// What `PixelDiff.compare` found.
public struct DiffResult: Sendable, Equatable {
    /// Pixels whose colour distance is over the threshold and that are not
    /// anti-aliasing (unless `includeAntiAliasing`) nor ignored: pixelmatch's count.
    public var diffPixels: Int
    /// Pixels over the threshold that were taken for anti-aliasing and not counted.
    public var antiAliasedPixels: Int
    /// Pixels in ignored regions or under the ignore mask (never counted).
    public var ignoredPixels: Int
    /// Every pixel of the image, width × height (ignored ones included).
    public var totalPixels: Int
    /// The diff image (the images' size) when one was asked for.
    public var diffImage: RGBA8Image?

    /// A result with the given counts (e.g. for tests or a report read back); not checked.
    public init(diffPixels: Int, antiAliasedPixels: Int, ignoredPixels: Int, totalPixels: Int, diffImage: RGBA8Image?) {
        self.diffPixels = diffPixels
        self.antiAliasedPixels = antiAliasedPixels
        self.ignoredPixels = ignoredPixels
        self.totalPixels = totalPixels
        self.diffImage = diffImage
    }

    /// 100 × diffPixels / totalPixels (0 for an empty image).
    public var diffPercent: Double { totalPixels == 0 ? 0 : 100 * Double(diffPixels) / Double(totalPixels) }

    /// True when the count is within the tolerance.
    public func isWithin(_ tolerance: DiffTolerance) -> Bool {
        tolerance.allows(diffPixels: diffPixels, diffPercent: diffPercent)
    }
}

/// Pixel comparison that counts exactly what pixelmatch counts.
///
/// A port (written for this project, not copied) of mapbox/pixelmatch's
/// `index.js` (https://github.com/mapbox/pixelmatch, versions 5 and 7; ISC
/// licence): the squared YIQ distance of Kotsarenko and Ramos, "Measuring
/// perceived color difference using YIQ NTSC transmission color space in
/// mobile applications" (2010), with pixelmatch's weights and threshold
/// scale; anti-aliasing detection after Vyšniauskas, "Anti-aliased pixel and
/// intensity slope detector" (2009), as pixelmatch simplifies it; and
/// pixelmatch's compositing of semi-transparent pixels (`DiffOptions.Semantics`).
/// The arithmetic is done in the same order in `Double`, so borderline
/// pixels fall on the same side of the threshold.
///
/// Speed: runs of identical pixels are skipped 4 at a time; bands of rows
/// are compared on all cores, each band counting separately, so the totals
/// (and the diff image) do not depend on timing.
public enum PixelDiff {
    /// Compares `actual` against `expected` (pixelmatch's img2 against img1:
    /// the diff image's grey background shows `expected`).
    ///
    /// - Parameter makesDiffImage: also draw the diff image (pixelmatch's
    ///   `output`): the expected image in grey at `options.alpha`, differing
    ///   pixels in `diffColor` / `alternateDiffColor`, anti-aliased ones in
    ///   `antiAliasingColor`, ignored ones tinted blue; with `diffMask` only the
    ///   differing pixels, on transparent.
    /// - Throws: `DiffError.sizeMismatch` when the sizes differ (or the mask's
    ///   size differs from theirs), `DiffError.invalidOption` for a threshold
    ///   or alpha outside 0...1 or a region outside the image.
    public static func compare(expected: RGBA8Image, actual: RGBA8Image, options: DiffOptions = DiffOptions(),
                               makesDiffImage: Bool = false) throws(DiffError) -> DiffResult {
        guard expected.width == actual.width, expected.height == actual.height else {
            throw .sizeMismatch(expectedWidth: expected.width, expectedHeight: expected.height,
                                actualWidth: actual.width, actualHeight: actual.height)
        }
        guard options.threshold.isFinite, (0...1).contains(options.threshold) else {
            throw .invalidOption("threshold \(options.threshold) is outside 0...1")
        }
        guard options.alpha.isFinite, (0...1).contains(options.alpha) else {
            throw .invalidOption("alpha \(options.alpha) is outside 0...1")
        }
        let width = expected.width, height = expected.height
        let ignored = try ignoredPixelMask(options: options, width: width, height: height)
        let ignoredCount = ignored?.reduce(0) { $0 + Int($1) } ?? 0

        var output: [UInt8]? = makesDiffImage ? [UInt8](repeating: 0, count: width * height * 4) : nil
        var counts = PixelmatchKernel.Counts()
        expected.pixels.withUnsafeBufferPointer { expectedPixels in
            actual.pixels.withUnsafeBufferPointer { actualPixels in
                withOptionalBuffer(ignored) { ignoredPixels in
                    withOptionalMutableBuffer(&output) { outputPixels in
                        guard let expectedBase = expectedPixels.baseAddress, let actualBase = actualPixels.baseAddress else {
                            return
                        }
                        let kernel = PixelmatchKernel(
                            expected: expectedBase, actual: actualBase, ignored: ignoredPixels, output: outputPixels,
                            width: width, height: height, options: options)
                        counts = kernel.runInBands()
                    }
                }
            }
        }
        return DiffResult(diffPixels: counts.diffPixels, antiAliasedPixels: counts.antiAliasedPixels,
                          ignoredPixels: ignoredCount, totalPixels: width * height,
                          diffImage: output.map { RGBA8Image(width: width, height: height, pixels: $0) })
    }

    /// One byte per pixel, 1 where the pixel is ignored; nil when nothing is.
    /// A region must start inside the image; where it reaches past the right
    /// or bottom edge it is clipped (any width and height, up to `Int.max`).
    static func ignoredPixelMask(options: DiffOptions, width: Int, height: Int) throws(DiffError) -> [UInt8]? {
        if options.ignoredRegions.isEmpty && options.ignoreMask == nil { return nil }
        var ignored = [UInt8](repeating: 0, count: width * height)
        for region in options.ignoredRegions {
            guard region.x < width, region.y < height, region.width > 0, region.height > 0, region.x >= 0, region.y >= 0
            else {
                throw .invalidOption("ignored region \(region) lies outside the \(width)x\(height) image")
            }
            // Clipped to the image. Region sizes are the user's numbers (up to Int.max), so the
            // far edges are found without adding origin and size, which could overflow.
            let endX = region.width > width - region.x ? width : region.x + region.width
            let endY = region.height > height - region.y ? height : region.y + region.height
            for y in region.y..<endY {
                for index in (y * width + region.x)..<(y * width + endX) { ignored[index] = 1 }
            }
        }
        if let mask = options.ignoreMask {
            guard mask.width == width, mask.height == height else {
                throw .invalidOption("ignore mask is \(mask.width)x\(mask.height), the images are \(width)x\(height)")
            }
            for index in 0..<(width * height) {
                let position = index * 4
                let light = max(mask.pixels[position], mask.pixels[position + 1], mask.pixels[position + 2]) >= 128
                if light && mask.pixels[position + 3] >= 128 { ignored[index] = 1 }
            }
        }
        return ignored
    }
}

/// `percent` with up to 4 decimals, no trailing zeros ("0.0732", "12.5", "0").
public func formatPercent(_ percent: Double) -> String {
    var text = String(format: "%.4f", percent)
    while text.hasSuffix("0") { text.removeLast() }
    if text.hasSuffix(".") { text.removeLast() }
    return text
}

private func withOptionalBuffer<Result>(_ array: [UInt8]?, _ body: (UnsafePointer<UInt8>?) -> Result) -> Result {
    guard let array else { return body(nil) }
    return array.withUnsafeBufferPointer { body($0.baseAddress) }
}

private func withOptionalMutableBuffer<Result>(_ array: inout [UInt8]?,
                                               _ body: (UnsafeMutablePointer<UInt8>?) -> Result) -> Result {
    guard array != nil else { return body(nil) }
    return array!.withUnsafeMutableBufferPointer { body($0.baseAddress) }
}
