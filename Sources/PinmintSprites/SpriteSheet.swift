import Foundation
import PinmintPNG
import PinmintRaster

/// A packed sprite sheet at one pixel ratio: the PNG's pixels and the index
/// MapLibre / Mapbox GL read beside it (`NAME.png` + `NAME.json`, or
/// `NAME@2x.png` + `NAME@2x.json`), as the style specification's "Sprite"
/// chapter defines them.
public struct SpriteSheet: Sendable {
    /// One index entry: where an image sits in the sheet (pixels) and its metadata.
    public struct Entry: Hashable, Sendable {
        /// The image's id, the entry's key in the index.
        public var id: String
        /// The image's rectangle in the sheet, pixels (origin top-left, y down).
        public var x: Int, y: Int, width: Int, height: Int
        /// The image's pixel ratio (the sheet's).
        public var pixelRatio: Double
        /// Stretch zones, content box, text fit and SDF flag, in pixels of
        /// the image (not of the sheet).
        public var metadata: SpriteMetadata
    }

    /// The largest sheet side by default (`--max-size`): 4096 is what WebGL
    /// guarantees on nearly every device for a texture side.
    public static let defaultMaximumSize = 4096

    /// The sheet's size, pixels; each side at most the `maximumSize` packed with.
    public let width: Int, height: Int
    /// width × height × 4 bytes, straight alpha.
    public let pixels: [UInt8]
    /// Sorted by id.
    public let entries: [Entry]
    /// Distinct rectangles in the sheet (fewer than `entries` when `unique` shared some).
    public let rectangleCount: Int
    /// Pixels covered by images ÷ sheet pixels (0...1): how tightly the packer filled the sheet.
    public let efficiency: Double

    /// The sheet in a few words for a summary line: `1024x980 (91.2% packed)`,
    /// or `1024x980 (91.2% packed, 812 distinct)` when `unique` shared rectangles.
    public var packingSummary: String {
        let shared = rectangleCount < entries.count ? ", \(rectangleCount) distinct" : ""
        return "\(width)x\(height) (\(String(format: "%.1f", efficiency * 100))% packed\(shared))"
    }

    /// Packs `images` (all at one pixel ratio) into the smallest sheet the
    /// packer finds with no side over `maximumSize`.
    /// - Parameters:
    ///   - spacing: transparent pixels between neighbouring images (0...64).
    ///   - unique: images with identical pixels are stored once; their ids share the rectangle.
    ///   - overflowAdvice: the end of the message when the images do not fit
    ///     ("raise --max-size, lower --spacing, use --unique or ADVICE").
    /// - Throws: `SpriteError` on duplicate ids, empty images, an image with a
    ///   side over `maximumSize`, an image whose `pixels` are not width ×
    ///   height × 4 bytes or whose pixel ratio is not positive and finite (its
    ///   properties are settable), a spacing outside 0...64, or images that
    ///   together do not fit.
    public static func pack(_ images: [SpriteImage], spacing: Int = 0, maximumSize: Int = defaultMaximumSize,
                            unique: Bool = false, name: String = "sprite",
                            overflowAdvice: String = splitAdvice) throws(SpriteError) -> SpriteSheet {
        try validate(images, spacing: spacing, maximumSize: maximumSize, name: name)

        let rectangles = distinctRectangles(images, unique: unique)
        let rectangleOf = rectangles.rectangleOf, owners = rectangles.owners
        let order = rectangles.order, sizes = rectangles.sizes
        let usedArea = sizes.reduce(0) { $0 + $1.width * $1.height }
        guard let layout = bestLayout(sizes, spacing: spacing, maximumSize: maximumSize) else {
            let paddedArea = sizes.reduce(0) { $0 + ($1.width + spacing) * ($1.height + spacing) }
            throw doNotFit(count: owners.count, paddedArea: paddedArea, soFar: false, maximumSize: maximumSize,
                           pixelRatio: images[0].pixelRatio, name: name, advice: overflowAdvice)
        }

        var positions = [(x: Int, y: Int)](repeating: (0, 0), count: owners.count)
        for (slot, rectangle) in order.enumerated() { positions[rectangle] = layout.placements[slot] }
        var pixels = [UInt8](repeating: 0, count: layout.width * layout.height * 4)
        pixels.withUnsafeMutableBufferPointer { sheet in
            for (rectangle, owner) in owners.enumerated() {
                let image = images[owner], origin = positions[rectangle]
                image.pixels.withUnsafeBufferPointer { source in
                    let rowBytes = image.width * 4
                    for row in 0..<image.height {
                        let target = ((origin.y + row) * layout.width + origin.x) * 4
                        UnsafeMutableRawPointer(sheet.baseAddress! + target)
                            .copyMemory(from: source.baseAddress! + row * rowBytes, byteCount: rowBytes)
                    }
                }
            }
        }
        let entries = images.indices.map { index -> Entry in
            let image = images[index], origin = positions[rectangleOf[index]]
            return Entry(id: image.id, x: origin.x, y: origin.y, width: image.width, height: image.height,
                         pixelRatio: image.pixelRatio, metadata: image.metadata)
        }.sorted { $0.id < $1.id }
        let sheetArea = layout.width * layout.height
        return SpriteSheet(width: layout.width, height: layout.height, pixels: pixels, entries: entries,
                           rectangleCount: owners.count, efficiency: sheetArea == 0 ? 1 : Double(usedArea) / Double(sheetArea))
    }

    /// The pixel rectangles that `pack` places and `split` shares out.
    struct Rectangles {
        /// For each image, the index of its rectangle.
        let rectangleOf: [Int]
        /// For each rectangle, the index of the image that holds its pixels.
        let owners: [Int]
        /// The rectangles tallest first, then widest, then by id: the
        /// skyline's best order, and a deterministic one.
        let order: [Int]
        /// The rectangles' sizes, in `order`.
        let sizes: [SkylinePacker.Size]
    }

    /// One rectangle per image, or with `unique` one per set of images with identical pixels.
    static func distinctRectangles(_ images: [SpriteImage], unique: Bool) -> Rectangles {
        struct PixelKey: Hashable { let width: Int, height: Int, pixels: [UInt8] }
        var rectangleOf = [Int](repeating: 0, count: images.count)
        var owners: [Int] = []
        var keys: [PixelKey: Int] = [:]
        for (index, image) in images.enumerated() {
            if unique {
                let key = PixelKey(width: image.width, height: image.height, pixels: image.pixels)
                if let rectangle = keys[key] { rectangleOf[index] = rectangle; continue }
                keys[key] = owners.count
            }
            rectangleOf[index] = owners.count
            owners.append(index)
        }
        let order = owners.indices.sorted { a, b in
            let first = images[owners[a]], second = images[owners[b]]
            if first.height != second.height { return first.height > second.height }
            if first.width != second.width { return first.width > second.width }
            return first.id < second.id
        }
        let sizes = order.map { SkylinePacker.Size(width: images[owners[$0]].width, height: images[owners[$0]].height) }
        return Rectangles(rectangleOf: rectangleOf, owners: owners, order: order, sizes: sizes)
    }

    /// The checks `pack` makes before it packs (see its `Throws`), all but the fit.
    static func validate(_ images: [SpriteImage], spacing: Int, maximumSize: Int, name: String) throws(SpriteError) {
        guard (0...64).contains(spacing) else {
            throw SpriteError(input: name, problem: "spacing \(spacing) is outside 0...64 pixels")
        }
        var seen: [String: Int] = [:]
        for (index, image) in images.enumerated() {
            // Checked first: the copy into the sheet trusts width × height × 4.
            guard Image.valueCount(width: image.width, height: image.height) == image.pixels.count else {
                throw SpriteError(input: image.source.isEmpty ? image.id : image.source,
                                  problem: "'\(image.id)' has \(image.pixels.count) bytes of pixels for \(image.width)x\(image.height) "
                                  + "(width × height × 4 needed)")
            }
            guard image.pixelRatio.isFinite, image.pixelRatio > 0 else {
                throw SpriteError(input: image.source.isEmpty ? image.id : image.source,
                                  problem: "'\(image.id)' has pixel ratio \(image.pixelRatio); it must be positive and finite")
            }
            if let first = seen[image.id] {
                throw SpriteError(input: image.source.isEmpty ? name : image.source,
                                  problem: "duplicate id '\(image.id)' (also from \(images[first].source.isEmpty ? "an earlier input" : images[first].source))")
            }
            seen[image.id] = index
            guard image.width > 0, image.height > 0 else {
                throw SpriteError(input: image.source.isEmpty ? image.id : image.source, problem: "'\(image.id)' is an empty image (\(image.width)x\(image.height))")
            }
            guard image.width <= maximumSize, image.height <= maximumSize else {
                throw tooLarge(image, maximumSize: maximumSize)
            }
            if let problem = image.metadata.problem(width: image.width, height: image.height) {
                throw SpriteError(input: image.source.isEmpty ? image.id : image.source, problem: "'\(image.id)': \(problem)")
            }
        }

    }

    /// `image` has a side over the sheet's.
    static func tooLarge(_ image: SpriteImage, maximumSize: Int) -> SpriteError {
        SpriteError(input: image.source.isEmpty ? image.id : image.source,
                    problem: "'\(image.id)' is \(image.width)x\(image.height) pixels at @\(format(image.pixelRatio))x, "
                    + "larger than the sheet's maximum side of \(maximumSize) (--max-size)")
    }

    /// `count` images do not fit; `soFar`: the first of them, counted while
    /// they are made (`SpriteSheetCapacity`), before the others are.
    /// `sheets` > 1: they do not fit in that many sheets either (`--split`).
    static func doNotFit(count: Int, paddedArea: Int, soFar: Bool, maximumSize: Int, pixelRatio: Double, name: String,
                         advice: String = splitAdvice, sheets: Int = 1) -> SpriteError {
        let room = sheets == 1 ? "a \(maximumSize)x\(maximumSize) sheet" : "\(sheets) sheets of \(maximumSize)x\(maximumSize)"
        let remedy = sheets == 1 ? "raise --max-size, lower --spacing, use --unique or \(advice)"
            : "raise --max-size, lower --spacing or use --unique"
        return SpriteError(input: name, problem: "\(count) images\(soFar ? " so far" : "") (\(paddedArea) pixels with spacing) do not fit "
                           + "in \(room) at @\(format(pixelRatio))x; \(remedy)")
    }

    /// How `pinmint sprite` splits a sprite, said when images do not fit one sheet.
    public static let splitAdvice = "--split to write several sheets (NAME-1, NAME-2 … and NAME.style.json)"

    /// Tries sheet widths around the square root of the area (and the
    /// maximum) and keeps the layout with the smallest sheet; ties go to the
    /// squarer sheet, then the narrower width tried.
    static func bestLayout(_ sizes: [SkylinePacker.Size], spacing: Int, maximumSize: Int)
        -> (width: Int, height: Int, placements: [(x: Int, y: Int)])? {
        guard !sizes.isEmpty else { return (1, 1, []) }
        let widest = sizes.map(\.width).max()!
        let paddedArea = Double(sizes.reduce(0) { $0 + ($1.width + spacing) * ($1.height + spacing) })
        let side = paddedArea.squareRoot()
        var widths = Set([0.8, 0.9, 1.0, 1.1, 1.2, 1.35, 1.5, 1.75, 2.0, 2.5, 3.0].map { Int(($0 * side).rounded(.up)) })
        widths.insert(maximumSize)
        var best: (width: Int, height: Int, placements: [(x: Int, y: Int)])? = nil
        for sheetWidth in widths.map({ min(maximumSize, max(widest, $0)) }).sorted() {
            guard let placements = SkylinePacker.place(sizes, sheetWidth: sheetWidth, maximumHeight: maximumSize, spacing: spacing) else {
                continue
            }
            var usedWidth = 1, usedHeight = 1
            for (index, place) in placements.enumerated() {
                usedWidth = max(usedWidth, place.x + sizes[index].width)
                usedHeight = max(usedHeight, place.y + sizes[index].height)
            }
            if let current = best {
                let area = usedWidth * usedHeight, currentArea = current.width * current.height
                if area > currentArea || (area == currentArea && max(usedWidth, usedHeight) >= max(current.width, current.height)) {
                    continue
                }
            }
            best = (usedWidth, usedHeight, placements)
        }
        return best
    }

    // MARK: Output

    /// The index as JSON text: an object keyed by id (sorted), each entry's
    /// keys sorted. Pretty: one entry per line, `"id": {"height": 38, …}`;
    /// `minified` (`--minify`): no spaces or newlines at all.
    public func indexJSON(minified: Bool = false) -> String {
        let separator = minified ? "," : ", ", colon = minified ? ":" : ": "
        func runs(_ runs: [[Int]]) -> String { "[" + runs.map { "[\($0[0])" + separator + "\($0[1])]" }.joined(separator: separator) + "]" }
        var lines: [String] = []
        for entry in entries {
            var fields: [(String, String)] = [("height", "\(entry.height)"), ("pixelRatio", JSONText.number(entry.pixelRatio)),
                                              ("width", "\(entry.width)"), ("x", "\(entry.x)"), ("y", "\(entry.y)")]
            let metadata = entry.metadata
            if let content = metadata.content { fields.append(("content", "[" + content.map(String.init).joined(separator: separator) + "]")) }
            if let stretchX = metadata.stretchX { fields.append(("stretchX", runs(stretchX))) }
            if let stretchY = metadata.stretchY { fields.append(("stretchY", runs(stretchY))) }
            if let fit = metadata.textFitWidth { fields.append(("textFitWidth", JSONText.quote(fit.rawValue))) }
            if let fit = metadata.textFitHeight { fields.append(("textFitHeight", JSONText.quote(fit.rawValue))) }
            if metadata.sdf { fields.append(("sdf", "true")) }
            let object = "{" + fields.sorted { $0.0 < $1.0 }.map { JSONText.quote($0.0) + colon + $0.1 }.joined(separator: separator) + "}"
            lines.append(JSONText.quote(entry.id) + colon + object)
        }
        if minified { return "{" + lines.joined(separator: ",") + "}" }
        return lines.isEmpty ? "{}\n" : "{\n  " + lines.joined(separator: ",\n  ") + "\n}\n"
    }

    /// The sheet as PNG bytes (pHYs of 72 dpi × the pixel ratio).
    public func pngData(mode: PNGEncoder.Mode = .default) throws(PNGError) -> [UInt8] {
        try PNGEncoder.encode(straightRGBA8: pixels, width: width, height: height,
                              pixelRatio: entries.first?.pixelRatio ?? 1, mode: mode)
    }

    /// What is said of a sprite file's name taken by a folder (the `FileSet`
    /// that writes a sprite's files is made with it).
    public static let folderProblem = "is a folder; the sprite writes a file of this name"

    /// `NAME.png` / `NAME@2x.png` (and `.json`) for `base` = `OUT/NAME`.
    public static func fileBase(_ base: String, pixelRatio: Double) -> String {
        pixelRatio == 1 ? base : "\(base)@\(format(pixelRatio))x"
    }
}

/// A ratio as people write it: 2, 1.5.
func format(_ ratio: Double) -> String {
    ratio == ratio.rounded() && abs(ratio) < 1e9 ? String(Int(ratio)) : String(ratio)
}

