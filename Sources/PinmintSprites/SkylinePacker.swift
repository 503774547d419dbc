/// Places rectangles in a sheet: the skyline bottom-left packer of
/// J. Jylänki, "A Thousand Ways to Pack the Bin" (2010), §4 (SKYLINE-BL).
///
/// The sheet's filled outline is kept as a skyline, a list of horizontal
/// segments; each rectangle goes where its top edge ends lowest, ties to
/// the left. MaxRects packs a little tighter on mixed sizes but keeps a
/// list of free rectangles that grows quadratically; marker sprites are
/// many similar, wide-and-short images, where the skyline wastes little
/// and stays O(n × segments). Deterministic: the same sizes in the same
/// order give the same placements.
public enum SkylinePacker {
    /// A rectangle to place, in pixels.
    public struct Size: Hashable, Sendable {
        /// The rectangle's sides, pixels (without spacing).
        public var width: Int, height: Int
        /// A `width` × `height` pixel rectangle; not checked here
        /// (`SpriteSheet.pack` refuses empty images before placing any).
        public init(width: Int, height: Int) { self.width = width; self.height = height }
    }

    /// The top-left corners of `sizes` (in their order) in a sheet
    /// `sheetWidth` pixels wide, or nil when they do not fit in `maximumHeight`.
    /// `spacing` pixels are kept free to the right of and below every rectangle
    /// (not at the sheet's right and bottom edges).
    public static func place(_ sizes: [Size], sheetWidth: Int, maximumHeight: Int, spacing: Int = 0) -> [(x: Int, y: Int)]? {
        struct Segment { var x: Int, y: Int, width: Int }
        // The skyline spans the sheet plus the spacing, so that a rectangle
        // may touch the right edge without its spacing.
        var skyline = [Segment(x: 0, y: 0, width: sheetWidth + spacing)]
        var placements = [(x: Int, y: Int)](repeating: (0, 0), count: sizes.count)
        for (index, size) in sizes.enumerated() {
            let paddedWidth = size.width + spacing
            var bestTop = Int.max, bestX = 0, bestY = 0, bestSegment = -1
            for start in skyline.indices {
                let x = skyline[start].x
                guard x + size.width <= sheetWidth else { break }
                // The rectangle rests on the highest segment it spans.
                var y = 0, covered = 0, segment = start
                while covered < paddedWidth && segment < skyline.count {
                    y = max(y, skyline[segment].y)
                    covered += skyline[segment].width
                    segment += 1
                }
                guard covered >= paddedWidth, y + size.height <= maximumHeight else { continue }
                if y + size.height < bestTop {
                    bestTop = y + size.height; bestX = x; bestY = y; bestSegment = start
                }
            }
            guard bestSegment >= 0 else { return nil }
            placements[index] = (bestX, bestY)

            // Raise the skyline under the new rectangle (and its spacing).
            let newSegment = Segment(x: bestX, y: bestY + size.height + spacing, width: paddedWidth)
            var remaining = paddedWidth
            let position = bestSegment
            while remaining > 0 && position < skyline.count {
                if skyline[position].width <= remaining {
                    remaining -= skyline[position].width
                    skyline.remove(at: position)
                } else {
                    skyline[position].x += remaining
                    skyline[position].width -= remaining
                    remaining = 0
                }
            }
            skyline.insert(newSegment, at: bestSegment)
            // Merge neighbours of equal height.
            var merged: [Segment] = []
            merged.reserveCapacity(skyline.count)
            for segment in skyline {
                if let last = merged.last, last.y == segment.y {
                    merged[merged.count - 1].width += segment.width
                } else {
                    merged.append(segment)
                }
            }
            skyline = merged
        }
        return placements
    }
}
