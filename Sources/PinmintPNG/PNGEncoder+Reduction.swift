/// Lossless colour-type reduction: the same pixels in fewer bytes per pixel.
///
/// One pass over straight RGBA8 finds whether every pixel is opaque, whether
/// every pixel is grey (r = g = b) and, when asked, the distinct colours up
/// to 257. Then the pixels are packed as a palette (RGBA palette + tRNS,
/// 1/2/4/8 bits per index), grey, grey+alpha, RGB or RGBA. Every choice
/// keeps every pixel exactly: decoding gives back the input bytes.
/// (The same reductions oxipng and OptiPNG try; written from the PNG spec.)
extension PNGEncoder {
    /// What one pass over the pixels found.
    struct ColorAnalysis {
        var isOpaque = true
        var isGrey = true
        /// Distinct RGBA colours (r << 24 | g << 16 | b << 8 | a), or `nil` when
        /// there are more than 256 or colours were not counted.
        var colors: [UInt32]? = nil
        /// With `colors`: each pixel's colour as its index in `colors` (the order
        /// colours first appear in), written while counting, so that packing a
        /// palette only maps these through the palette's order instead of
        /// looking every colour change up again.
        var firstSeenIndices: [UInt8]? = nil
    }

    /// A small open-addressing map of at most 256 colours to the order they
    /// were first seen in.
    final class ColorTable {
        static let slotCount = 1024  // power of two, 4× the largest palette
        /// Open addressing in raw memory: the table is probed once per colour
        /// change of every row, so no copy-on-write checks on the way.
        private let keys: UnsafeMutablePointer<UInt64>
        private let values: UnsafeMutablePointer<UInt8>

        init() {
            keys = .allocate(capacity: Self.slotCount)
            keys.initialize(repeating: .max, count: Self.slotCount)
            values = .allocate(capacity: Self.slotCount)
            values.initialize(repeating: 0, count: Self.slotCount)
        }
        deinit {
            keys.deallocate()
            values.deallocate()
        }

        @inline(__always) static func slot(_ color: UInt32) -> Int { Int((color &* 0x9E37_79B1) >> 22) }

        /// The index stored with `color`; when absent, inserts it with `next` (and `inserted` is true).
        @inline(__always) func index(inserting color: UInt32, next: UInt8) -> (index: UInt8, inserted: Bool) {
            var slot = Self.slot(color)
            while true {
                if keys[slot] == UInt64(color) { return (values[slot], false) }
                if keys[slot] == .max {
                    keys[slot] = UInt64(color)
                    values[slot] = next
                    return (next, true)
                }
                slot = (slot &+ 1) & (Self.slotCount - 1)
            }
        }
    }

    /// Stops early once nothing more can be learnt: more than 256 colours
    /// (or not counting), a translucent pixel and a non-grey pixel seen.
    static func analyse(_ bytes: [UInt8], countColors: Bool) -> ColorAnalysis {
        var analysis = ColorAnalysis()
        let table = ColorTable()
        var colors: [UInt32] = []
        colors.reserveCapacity(countColors ? 257 : 0)
        var counting = countColors
        let pixelCount = bytes.count / 4
        // Filled while counting; dropped if counting stops (more than 256 colours).
        var indices = [UInt8](repeating: 0, count: countColors ? pixelCount : 0)
        bytes.withUnsafeBytes { raw in
            // One 32-bit load per pixel; r is the low byte after `littleEndian`.
            guard pixelCount > 0 else { return }
            func word(_ pixel: Int) -> UInt32 { UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: pixel &* 4, as: UInt32.self)) }
            var previous = ~word(0)
            var index = 0
            func note(_ word: UInt32) {
                if word >> 24 != 0xff { analysis.isOpaque = false }
                let red = word & 0xff
                if red != (word >> 8) & 0xff || red != (word >> 16) & 0xff { analysis.isGrey = false }
            }
            if counting {
                indices.withUnsafeMutableBufferPointer { target in
                    var previousIndex: UInt8 = 0
                    while index < pixelCount {
                        let current = word(index)
                        if current != previous {  // flat runs (most of a marker) repeat the index
                            previous = current
                            note(current)
                            let color = current.byteSwapped  // r << 24 | g << 16 | b << 8 | a
                            let found = table.index(inserting: color, next: UInt8(truncatingIfNeeded: colors.count))
                            if found.inserted {
                                colors.append(color)
                                if colors.count > 256 { counting = false; index += 1; return }
                            }
                            previousIndex = found.index
                        }
                        target[index] = previousIndex
                        index += 1
                    }
                }
            }
            while index < pixelCount {
                let current = word(index)
                index += 1
                if current == previous { continue }
                previous = current
                note(current)
                if !analysis.isOpaque && !analysis.isGrey { break }  // nothing left to find
            }
        }
        if countColors && colors.count <= 256 {
            analysis.colors = colors
            analysis.firstSeenIndices = indices
        }
        return analysis
    }

    /// The smallest bit depth holding `count` palette indices.
    static func indexBitDepth(forColorCount count: Int) -> Int {
        count <= 2 ? 1 : count <= 4 ? 2 : count <= 16 ? 4 : 8
    }

    /// Packs the pixels as an indexed image. Palette order: translucent
    /// entries first (so tRNS stays short), by alpha, then opaque ones by
    /// brightness; a fixed order, so identical input gives identical bytes.
    /// `colors` and `firstSeenIndices` are `analyse`'s (each pixel as its colour's position in `colors`).
    static func packPalette(width: Int, height: Int, colors: [UInt32], firstSeenIndices: [UInt8]) -> LibPNG.PackedImage {
        // One integer key per colour, sorted as integers: translucent before
        // opaque, then by alpha, then by brightness (r + g + b), then by the
        // colour; below it, the colour's position in `colors` (at most 255; it
        // cannot change the order, colours being distinct).
        let keys = colors.enumerated().map { seen, color -> UInt64 in
            let alpha = UInt64(color & 0xff)
            let sum = UInt64(color >> 24) + UInt64(color >> 16 & 0xff) + UInt64(color >> 8 & 0xff)
            return (alpha == 0xff ? 1 : 0) << 58 | alpha << 50 | sum << 40 | UInt64(color) << 8 | UInt64(seen & 0xff)
        }.sorted()
        var paletteRGB: [UInt8] = []
        var paletteAlpha: [UInt8] = []
        // Byte by byte into reserved room: `+= [r, g, b]` allocated an array per colour.
        paletteRGB.reserveCapacity(keys.count * 3)
        paletteAlpha.reserveCapacity(keys.count)
        for key in keys {
            let color = UInt32(truncatingIfNeeded: key >> 8)
            paletteRGB.append(UInt8(color >> 24))
            paletteRGB.append(UInt8(color >> 16 & 0xff))
            paletteRGB.append(UInt8(color >> 8 & 0xff))
            if color & 0xff != 0xff { paletteAlpha.append(UInt8(color & 0xff)) }
        }
        let bitDepth = indexBitDepth(forColorCount: keys.count)
        let rowBytes = (width * bitDepth + 7) / 8
        // First-seen index → palette index, then one table step per pixel.
        var palettePosition = [UInt8](repeating: 0, count: 256)
        for (index, key) in keys.enumerated() { palettePosition[Int(key & 0xff)] = UInt8(index) }
        var rows = [UInt8](repeating: 0, count: rowBytes * height)
        firstSeenIndices.withUnsafeBufferPointer { seen in
            palettePosition.withUnsafeBufferPointer { position in
                rows.withUnsafeMutableBufferPointer { target in
                    if bitDepth == 8 {  // 8-bit rows have no padding: row bytes = width
                        for pixel in 0..<(width * height) { target[pixel] = position[Int(seen[pixel])] }
                        return
                    }
                    let depth = UInt8(bitDepth)
                    for y in 0..<height {
                        var byte = y * rowBytes, shift = 8 &- depth
                        for x in 0..<width {
                            target[byte] |= position[Int(seen[y * width + x])] &<< shift
                            if shift == 0 { shift = 8 &- depth; byte += 1 } else { shift &-= depth }
                        }
                    }
                }
            }
        }
        return LibPNG.PackedImage(width: width, height: height, colorType: 3, bitDepth: Int32(bitDepth),
                                  rowBytes: rowBytes, rows: rows, paletteRGB: paletteRGB, paletteAlpha: paletteAlpha)
    }

    /// Packs the pixels as grey (opaque) or grey+alpha; every pixel must be grey.
    static func packGrey(_ bytes: [UInt8], width: Int, height: Int, opaque: Bool) -> LibPNG.PackedImage {
        let channels = opaque ? 1 : 2
        var rows = [UInt8](repeating: 0, count: width * height * channels)
        bytes.withUnsafeBufferPointer { pixels in
            rows.withUnsafeMutableBufferPointer { target in
                for pixel in 0..<(width * height) {
                    target[pixel * channels] = pixels[pixel * 4]
                    if !opaque { target[pixel * 2 + 1] = pixels[pixel * 4 + 3] }
                }
            }
        }
        return LibPNG.PackedImage(width: width, height: height, colorType: opaque ? 0 : 4, bitDepth: 8,
                                  rowBytes: width * channels, rows: rows)
    }

    /// Packs the pixels as RGB (opaque: alpha dropped) or RGBA (as they are).
    static func packTrueColor(_ bytes: [UInt8], width: Int, height: Int, opaque: Bool) -> LibPNG.PackedImage {
        guard opaque else {
            return LibPNG.PackedImage(width: width, height: height, colorType: 6, bitDepth: 8, rowBytes: width * 4, rows: bytes)
        }
        var rows = [UInt8](repeating: 0, count: width * height * 3)
        bytes.withUnsafeBufferPointer { pixels in
            rows.withUnsafeMutableBufferPointer { target in
                for pixel in 0..<(width * height) {
                    target[pixel * 3] = pixels[pixel * 4]
                    target[pixel * 3 + 1] = pixels[pixel * 4 + 1]
                    target[pixel * 3 + 2] = pixels[pixel * 4 + 2]
                }
            }
        }
        return LibPNG.PackedImage(width: width, height: height, colorType: 2, bitDepth: 8, rowBytes: width * 3, rows: rows)
    }
}
