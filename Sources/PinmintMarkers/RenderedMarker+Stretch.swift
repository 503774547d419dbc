import PinmintRaster

/// Where a marker image can be stretched without changing how it looks:
/// what MapLibre / Mapbox GL need (`stretchX`, `stretchY`) to grow a bubble
/// or tag around any label with `icon-text-fit`.
///
/// Found in the pixels and the geometry together: a run of columns that are
/// all identical (every row) can be widened by repeating them without a
/// visible change, so corners and anti-aliased curves are never inside a
/// zone, whatever shape drew them; and columns crossing a part that must
/// keep its proportions (a badge, a picture, an icon, text, a pointer) are
/// left out even where a flat illustration repeats a column. The same goes
/// for rows. Fully transparent columns and rows (shadow margins) are left out.
public struct StretchZones: Hashable, Sendable {
    /// `[from, to]` pixel edges of the image: columns `from ..< to` are identical.
    public var x: [[Int]]
    /// `[from, to]` pixel edges: rows `from ..< to` are identical.
    public var y: [[Int]]
}

extension RenderedMarker {
    /// The stretchable column and row runs of the image, at least
    /// `minimumLength` pixels long (default 2).
    public func stretchZones(minimumLength: Int = 2) -> StretchZones {
        let width = metadata.width, height = metadata.height
        let pixels = canvas.makeImage().pixels
        func column(_ x: Int, equals other: Int) -> Bool {
            for y in 0..<height {
                let a = (y * width + x) * 4, b = (y * width + other) * 4
                if pixels[a] != pixels[b] || pixels[a + 1] != pixels[b + 1] || pixels[a + 2] != pixels[b + 2]
                    || pixels[a + 3] != pixels[b + 3] { return false }
            }
            return true
        }
        func row(_ y: Int, equals other: Int) -> Bool {
            let a = y * width * 4, b = other * width * 4
            for i in 0..<(width * 4) where pixels[a + i] != pixels[b + i] { return false }
            return true
        }
        var fixedColumns = [Bool](repeating: false, count: width), fixedRows = [Bool](repeating: false, count: height)
        for box in fixedRegions {
            for x in box.x..<(box.x + box.width) { fixedColumns[x] = true }
            for y in box.y..<(box.y + box.height) { fixedRows[y] = true }
        }
        func columnIsTransparent(_ x: Int) -> Bool { (0..<height).allSatisfy { pixels[($0 * width + x) * 4 + 3] == 0 } }
        func rowIsTransparent(_ y: Int) -> Bool { (0..<width).allSatisfy { pixels[(y * width + $0) * 4 + 3] == 0 } }

        func runs(count: Int, same: (Int, Int) -> Bool, transparent: (Int) -> Bool) -> [[Int]] {
            var zones: [[Int]] = []
            var start = 0
            for index in 1...max(1, count) {
                if index < count && same(index - 1, index) { continue }
                // `start ..< index` are identical.
                if index - start >= minimumLength && !transparent(start) { zones.append([start, index]) }
                start = index
            }
            return zones
        }
        return StretchZones(x: runs(count: width, same: { !fixedColumns[$0] && !fixedColumns[$1] && column($0, equals: $1) },
                                    transparent: columnIsTransparent),
                            y: runs(count: height, same: { !fixedRows[$0] && !fixedRows[$1] && row($0, equals: $1) },
                                    transparent: rowIsTransparent))
    }
}
