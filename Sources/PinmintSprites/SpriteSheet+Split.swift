import Foundation

/// Sprites beyond one sheet (`pinmint sprite --split`): the images are
/// shared out over sheets `NAME-1`, `NAME-2` …, each a sprite of its own,
/// which one MapLibre style loads together as multiple sprites
/// (`"sprite": [{"id": "NAME-1", "url": …}, …]`, images then named
/// `NAME-1:ID`); `styleSnippet` writes that list and each id's name.
///
/// The split is decided once, at the largest pixel ratio (where images are
/// largest), and the same ids go into the same sheet at every ratio: a
/// multiple-sprite style loads `NAME-1@2x` for `NAME-1`, so an id must not
/// move between sheets from one ratio to the next.
extension SpriteSheet {
    /// The most sheets a split makes: 16 sheets of 4096² are 1 GiB of pixels.
    public static let maximumSheetCount = 16

    /// Shares `images` (one pixel ratio) out over as few sheets as a greedy
    /// split finds: in the packer's order (tallest first, then widest, then
    /// by id), each sheet takes the longest run of the images left that
    /// the skyline fits in a sheet of the full width (searched from the
    /// area bound down; a run that fits stays fitting when shortened, as the
    /// skyline places the same images in the same places); `pack` then
    /// finds each sheet's smallest layout. With `unique`, identical images
    /// stay in one sheet. Deterministic.
    /// - Returns: the ids of each sheet, each list sorted; one list when
    ///   everything fits one sheet.
    /// - Throws: `SpriteError` as `pack` does (bad images, an image over
    ///   `maximumSize`), and when more than `maximumSheets` sheets would be needed.
    public static func split(_ images: [SpriteImage], spacing: Int = 0, maximumSize: Int = defaultMaximumSize,
                             unique: Bool = false, name: String = "sprite",
                             maximumSheets: Int = maximumSheetCount) throws(SpriteError) -> [[String]] {
        try validate(images, spacing: spacing, maximumSize: maximumSize, name: name)
        guard !images.isEmpty else { return [[]] }

        // Rectangles in the order `pack` places them; identical images (with `unique`) share one.
        let rectangles = distinctRectangles(images, unique: unique)
        let sizes = rectangles.sizes

        let sheetArea = (maximumSize + spacing) * (maximumSize + spacing)
        var sheets: [[String]] = []
        var start = 0
        while start < sizes.count {
            guard sheets.count < maximumSheets else {
                let paddedArea = sizes.reduce(0) { $0 + ($1.width + spacing) * ($1.height + spacing) }
                throw doNotFit(count: sizes.count, paddedArea: paddedArea, soFar: false, maximumSize: maximumSize,
                               pixelRatio: images[0].pixelRatio, name: name, sheets: maximumSheets)
            }
            // No run longer than a sheet's area can hold can fit: the search's upper end.
            var area = 0, longest = 0
            while start + longest < sizes.count {
                let size = sizes[start + longest]
                area += (size.width + spacing) * (size.height + spacing)
                if area > sheetArea { break }
                longest += 1
            }
            // fits: a run length known to fit (one image always does: validate checked its sides);
            // tooMany: one known not to. The area bound is near the answer (the skyline fills 98-99.9 %
            // of a sheet with markers), so the search gallops down from it, then halves the gap.
            func fitsOneSheet(_ length: Int) -> Bool {
                SkylinePacker.place(Array(sizes[start..<(start + length)]), sheetWidth: maximumSize,
                                    maximumHeight: maximumSize, spacing: spacing) != nil
            }
            var fits = 1, tooMany = longest + 1
            var step = 1
            while tooMany - step > fits {
                if fitsOneSheet(tooMany - step) { fits = tooMany - step; break }
                tooMany -= step
                step *= 2
            }
            while tooMany - fits > 1 {
                let middle = (fits + tooMany) / 2
                if fitsOneSheet(middle) { fits = middle } else { tooMany = middle }
            }
            let taken = Set(rectangles.order[start..<(start + fits)])
            sheets.append(images.indices.filter { taken.contains(rectangles.rectangleOf[$0]) }.map { images[$0].id }.sorted())
            start += fits
        }
        return sheets
    }

    /// Splits images made at several pixel ratios (the same ids at each) the
    /// same way at every ratio: `split` at the largest, then `pack` of each
    /// sheet's ids at each ratio.
    /// - Returns: the ids of each sheet, and for each ratio its packed sheets in that order.
    /// - Throws: `SpriteError` as `split` and `pack` do, and when a ratio's ids are not the largest's.
    public static func packSplit(_ imagesByRatio: [Double: [SpriteImage]], spacing: Int = 0, maximumSize: Int = defaultMaximumSize,
                                 unique: Bool = false, name: String = "sprite", maximumSheets: Int = maximumSheetCount)
        throws(SpriteError) -> (ids: [[String]], sheets: [Double: [SpriteSheet]]) {
        guard let largest = imagesByRatio.keys.max() else { return ([], [:]) }
        let ids = try split(imagesByRatio[largest]!, spacing: spacing, maximumSize: maximumSize, unique: unique, name: name,
                            maximumSheets: maximumSheets)
        var sheets: [Double: [SpriteSheet]] = [:]
        for (ratio, images) in imagesByRatio {
            let byID = Dictionary(images.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
            guard byID.count == images.count, Set(byID.keys) == Set(ids.joined()) else {
                throw SpriteError(input: name, problem: "the images at @\(format(ratio))x are not those at @\(format(largest))x")
            }
            var packed: [SpriteSheet] = []
            for sheetIDs in ids {
                packed.append(try pack(sheetIDs.map { byID[$0]! }, spacing: spacing, maximumSize: maximumSize, unique: unique, name: name))
            }
            sheets[ratio] = packed
        }
        return (ids, sheets)
    }

    /// `NAME-1`, `NAME-2` … for sheet `index` (0-based) of `base` = `OUT/NAME`.
    public static func splitBase(_ base: String, sheet index: Int) -> String { "\(base)-\(index + 1)" }

    /// The style snippet written beside split sheets (`NAME.style.json`):
    /// `sprite`, the list a MapLibre style takes for multiple sprites, each
    /// `url` relative to the snippet's folder (make it absolute where the
    /// style is served); and `icon-image`, each id's name in such a style
    /// (`NAME-2:cafe`), for the layers' `icon-image`.
    /// - Parameters:
    ///   - name: the sprite's file name (`NAME`, no folder).
    ///   - sheets: the ids of each sheet, as `split` returns them.
    public static func styleSnippet(name: String, sheets: [[String]]) -> String {
        var lines = ["{", "  \"sprite\": ["]
        let sprites = sheets.indices.map { index -> String in
            let id = JSONText.quote(splitBase(name, sheet: index))
            return "    {\"id\": \(id), \"url\": \(id)}"
        }
        lines.append(sprites.joined(separator: ",\n"))
        lines.append("  ],")
        var names: [(String, String)] = []
        for (index, ids) in sheets.enumerated() {
            for id in ids { names.append((id, splitBase(name, sheet: index) + ":" + id)) }
        }
        names.sort { $0.0 < $1.0 }
        if names.isEmpty {
            lines.append("  \"icon-image\": {}")
        } else {
            lines.append("  \"icon-image\": {")
            lines.append(names.map { "    \(JSONText.quote($0.0)): \(JSONText.quote($0.1))" }.joined(separator: ",\n"))
            lines.append("  }")
        }
        lines.append("}")
        return lines.joined(separator: "\n") + "\n"
    }
}
