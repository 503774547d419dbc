import Foundation

/// What one sheet of each pixel ratio (or `sheets` of them) can hold, counted while the images
/// are made, so that a sprite that cannot fit stops after about one sheet's
/// worth of images instead of after rendering (and holding) them all.
///
/// Every image is counted as the packer places it: its width and height
/// plus the spacing, an area that no other image's overlaps. A sheet of
/// `maximumSize` × `maximumSize` pixels (the spacing beyond its right and
/// bottom edges included) holds at most (`maximumSize` + `spacing`)² of
/// it, so images whose areas add up to more cannot fit, whatever the
/// packer does. Images that pass may still not fit: `SpriteSheet.pack`
/// decides. With `unique`, an image with the pixels of one already counted
/// is not counted again (a hash of its pixels; two different images with
/// the same hash count once, which only leaves the decision to `pack`).
///
/// Safe to use from several threads at once.
public final class SpriteSheetCapacity: @unchecked Sendable {
    /// The largest sheet side, pixels, as `SpriteSheet.pack` takes it.
    public let maximumSize: Int
    /// Transparent pixels between images, counted with each image's area.
    public let spacing: Int
    /// Whether images with identical pixels are counted once.
    public let unique: Bool
    /// The sprite's name in messages (`-o OUT/NAME`, `--sprite NAME`).
    public let name: String
    /// How many sheets each ratio may fill (`--split`: `SpriteSheet.maximumSheetCount`).
    public let sheets: Int
    /// The end of the message when the images do not fit (`SpriteSheet.pack`'s `overflowAdvice`).
    public let overflowAdvice: String

    private struct Total { var count = 0, area = 0 }
    private struct PixelKey: Hashable { let pixelRatio: Double, width: Int, height: Int, hash: Int }
    private let lock = NSLock()
    private var totals: [Double: Total] = [:]
    private var counted: Set<PixelKey> = []
    private var firstOverflow: SpriteError?

    /// The same parameters as `SpriteSheet.pack`'s.
    public init(maximumSize: Int = SpriteSheet.defaultMaximumSize, spacing: Int = 0, unique: Bool = false, name: String = "sprite",
                sheets: Int = 1, overflowAdvice: String = SpriteSheet.splitAdvice) {
        self.maximumSize = maximumSize
        self.spacing = spacing
        self.unique = unique
        self.name = name
        self.sheets = max(1, sheets)
        self.overflowAdvice = overflowAdvice
    }

    /// The error of the first image that did not fit, once one has not:
    /// workers check it to stop before they draw the next image.
    public var overflow: SpriteError? {
        lock.lock(); defer { lock.unlock() }
        return firstOverflow
    }

    /// Counts `image` into the sheet of its pixel ratio.
    /// - Throws: `SpriteError`, with the message `SpriteSheet.pack` would
    ///   give, for an image with a side over `maximumSize` or when the
    ///   images counted at its ratio cover more than one sheet can hold.
    ///   Every later call throws too (the image is counted either way).
    public func add(_ image: SpriteImage) throws(SpriteError) {
        if image.width > maximumSize || image.height > maximumSize {
            let error = SpriteSheet.tooLarge(image, maximumSize: maximumSize)
            lock.lock(); defer { lock.unlock() }
            if firstOverflow == nil { firstOverflow = error }
            throw error
        }
        var key: PixelKey? = nil
        if unique {
            var hasher = Hasher()
            image.pixels.withUnsafeBytes { hasher.combine(bytes: $0) }
            key = PixelKey(pixelRatio: image.pixelRatio, width: image.width, height: image.height, hash: hasher.finalize())
        }
        let side = maximumSize + spacing
        lock.lock(); defer { lock.unlock() }
        if let key, !counted.insert(key).inserted {
            if let firstOverflow { throw firstOverflow }
            return
        }
        var total = totals[image.pixelRatio, default: Total()]
        total.count += 1
        total.area += (max(0, image.width) + spacing) * (max(0, image.height) + spacing)
        totals[image.pixelRatio] = total
        if total.area > side * side * sheets {
            let error = SpriteSheet.doNotFit(count: total.count, paddedArea: total.area, soFar: true, maximumSize: maximumSize,
                                             pixelRatio: image.pixelRatio, name: name, advice: overflowAdvice, sheets: sheets)
            if firstOverflow == nil { firstOverflow = error }
        }
        if let firstOverflow { throw firstOverflow }
    }
}
