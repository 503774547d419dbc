import Foundation

/// How `PixelDiff.compare` decides that two pixels differ, and how it draws the
/// diff image. Every default is pixelmatch's.
public struct DiffOptions: Sendable, Equatable {
    /// Which pixelmatch release's arithmetic to follow. They differ only where
    /// a pixel is semi-transparent (and in rounding at the last bit of a few
    /// colour distances); for opaque images both give the same counts.
    public enum Semantics: String, Sendable, CaseIterable {
        /// mapbox/pixelmatch 6 and 7 (and pixelmatch-fast on PyPI): a
        /// semi-transparent pair is composited over a background that changes
        /// with the pixel's position (48 or 207 per channel), and the sign of
        /// the distance says whether the actual pixel is darker (`alternateDiffColor`).
        case version7 = "7"
        /// mapbox/pixelmatch 5 (and `pixelmatch` 0.4 on PyPI): semi-transparent
        /// pixels are composited over white; every difference is drawn in `diffColor`.
        case version5 = "5"
    }

    /// Matching threshold, 0...1 (default 0.1): the largest accepted YIQ
    /// distance is 35215 × threshold² (35215 is the largest possible
    /// distance, black against white). Smaller is more sensitive.
    public var threshold: Double
    /// When true, anti-aliased pixels are counted as differences too; when
    /// false (the default) a differing pixel that looks like anti-aliasing in
    /// either image (Vyšniauskas 2009) is not counted and is drawn in `antiAliasingColor`.
    public var includeAntiAliasing: Bool
    /// Opacity of the expected image, 0...1 (default 0.1), in the grey
    /// background of the diff image.
    public var alpha: Double
    /// Colour of anti-aliased pixels in the diff image (default yellow).
    public var antiAliasingColor: RGB8
    /// Colour of differing pixels in the diff image (default red).
    public var diffColor: RGB8
    /// Colour of differing pixels where the actual image is darker than the
    /// expected one (pixelmatch's diffColorAlt; default: `diffColor`). Only
    /// `Semantics.version7` tells the two apart.
    public var alternateDiffColor: RGB8?
    /// Draw only the marks, over a transparent background (default false).
    public var diffMask: Bool
    /// Pixelmatch release to follow (default `.version7`).
    public var semantics: Semantics
    /// Rectangles (pixels, origin top left) whose pixels are never counted.
    /// Anti-aliasing detection still reads them as neighbours, so the counts
    /// outside equal pixelmatch's. They must start inside the image; past its right or
    /// bottom edge they are clipped (a width or height up to `Int.max` is fine).
    public var ignoredRegions: [PixelRegion]
    /// A mask of the images' size: where it is light and opaque (red, green or
    /// blue ≥ 128 and alpha ≥ 128) pixels are not counted; where it is dark or
    /// transparent they are compared.
    public var ignoreMask: RGBA8Image?

    /// Options with pixelmatch's defaults unless given. Not checked here:
    /// `PixelDiff.compare` throws `DiffError.invalidOption` for a threshold
    /// or alpha outside 0...1, a region outside the image or a mask of
    /// another size.
    public init(threshold: Double = 0.1, includeAntiAliasing: Bool = false, alpha: Double = 0.1,
                antiAliasingColor: RGB8 = .yellow, diffColor: RGB8 = .red, alternateDiffColor: RGB8? = nil,
                diffMask: Bool = false, semantics: Semantics = .version7, ignoredRegions: [PixelRegion] = [],
                ignoreMask: RGBA8Image? = nil) {
        self.threshold = threshold
        self.includeAntiAliasing = includeAntiAliasing
        self.alpha = alpha
        self.antiAliasingColor = antiAliasingColor
        self.diffColor = diffColor
        self.alternateDiffColor = alternateDiffColor
        self.diffMask = diffMask
        self.semantics = semantics
        self.ignoredRegions = ignoredRegions
        self.ignoreMask = ignoreMask
    }

    /// The largest accepted squared YIQ distance: 35215 × threshold².
    public var maximumDelta: Double { 35215 * threshold * threshold }
}

/// A rectangle of whole pixels: origin (x, y) from the top left, size width × height.
public struct PixelRegion: Sendable, Hashable, CustomStringConvertible {
    /// The top-left corner and the size, pixels.
    public var x: Int, y: Int, width: Int, height: Int

    /// A region as given; `PixelDiff.compare` refuses one that does not start
    /// inside the image, and clips what runs past its right or bottom edge.
    public init(x: Int, y: Int, width: Int, height: Int) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    /// `X,Y,W,H` in pixels: X and Y ≥ 0, W and H ≥ 1.
    public init(parsing text: String) throws(DiffError) {
        let fields = text.split(separator: ",", omittingEmptySubsequences: false)
            .map { Int($0.trimmingCharacters(in: .whitespaces)) }
        guard fields.count == 4, let x = fields[0], let y = fields[1], let width = fields[2], let height = fields[3] else {
            throw DiffError.invalidOption("region '\(text)' is not X,Y,W,H (four whole numbers of pixels)")
        }
        guard x >= 0, y >= 0, width >= 1, height >= 1 else {
            throw DiffError.invalidOption("region '\(text)': X and Y must be ≥ 0, W and H ≥ 1")
        }
        self.init(x: x, y: y, width: width, height: height)
    }

    /// `X,Y,W,H`.
    public var description: String { "\(x),\(y),\(width),\(height)" }
}

/// Why two images could not be compared.
public enum DiffError: Error, Equatable, CustomStringConvertible {
    /// The images (or the ignore mask) have different sizes; sizes in pixels.
    case sizeMismatch(expectedWidth: Int, expectedHeight: Int, actualWidth: Int, actualHeight: Int)
    /// An option is out of range or malformed; the text names it and its value.
    case invalidOption(String)

    /// One line for a person: `sizes differ: expected 40x28, actual 42x28`,
    /// or the option problem as it was worded.
    public var description: String {
        switch self {
        case let .sizeMismatch(expectedWidth, expectedHeight, actualWidth, actualHeight):
            return "sizes differ: expected \(expectedWidth)x\(expectedHeight), actual \(actualWidth)x\(actualHeight)"
        case .invalidOption(let problem):
            return problem
        }
    }
}
