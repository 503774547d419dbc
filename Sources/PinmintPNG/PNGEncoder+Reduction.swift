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
        /// The set that found `colors` (each of them inserted), handed on to
        /// `packPalette` as its colour-to-index map instead of building another.
        var table: ColorTable? = nil
    }

    /// A small open-addressing set of at most 256 colours, reused as the
    /// colour-to-index map when packing a palette image.
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

        /// Inserts `color`; returns false when it was already present.
        @inline(__always) func insert(_ color: UInt32) -> Bool {
            var slot = Self.slot(color)
            while true {
                if keys[slot] == UInt64(color) { return false }
                if keys[slot] == .max { keys[slot] = UInt64(color); return true }
                slot = (slot &+ 1) & (Self.slotCount - 1)
            }
        }

        @inline(__always) func index(of color: UInt32) -> UInt8 {
            var slot = Self.slot(color)
            while keys[slot] != UInt64(color) { slot = (slot &+ 1) & (Self.slotCount - 1) }
            return values[slot]
        }

        func setIndex(_ index: UInt8, of color: UInt32) {
            var slot = Self.slot(color)
            while keys[slot] != UInt64(color) { slot = (slot &+ 1) & (Self.slotCount - 1) }
            values[slot] = index
        }
    }

    /// Stops early once nothing more can be learnt: more than 256 colours
    /// (or not counting), a translucent pixel and a non-grey pixel seen.
    static func analyse(_ bytes: [UInt8], countColors: Bool) -> ColorAnalysis {
        var analysis = ColorAnalysis()
        let table = ColorTable()
        var colors: [UInt32] = []
        var counting = countColors
        bytes.withUnsafeBytes { raw in
            // One 32-bit load per pixel; r is the low byte after `littleEndian`.
            let count = raw.count / 4
            guard count > 0 else { return }
            var previous = ~UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: 0, as: UInt32.self))
            var index = 0
            while index < count {
                let word = UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: index * 4, as: UInt32.self))
                index += 1
                if word == previous { continue }  // flat runs: most of a marker
                previous = word
                if word >> 24 != 0xff { analysis.isOpaque = false }
                let red = word & 0xff
                if red != (word >> 8) & 0xff || red != (word >> 16) & 0xff { analysis.isGrey = false }
                if counting {
                    let color = word.byteSwapped  // r << 24 | g << 16 | b << 8 | a
                    if table.insert(color) {
                        colors.append(color)
                        if colors.count > 256 { counting = false }
                    }
                } else if !analysis.isOpaque && !analysis.isGrey {
                    break  // nothing left to find
                }
            }
        }
        if countColors && colors.count <= 256 {
            analysis.colors = colors
            analysis.table = table
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
    /// `table`, when given, must hold exactly `colors` (`analyse`'s); its indices are set here.
    static func packPalette(_ bytes: [UInt8], width: Int, height: Int, colors: [UInt32],
                            table given: ColorTable? = nil) -> LibPNG.PackedImage {
        // One integer key per colour, sorted as integers: translucent before
        // opaque, then by alpha, then by brightness (r + g + b), then by the colour.
        let ordered = colors.map { color -> UInt64 in
            let alpha = UInt64(color & 0xff)
            let sum = UInt64(color >> 24) + UInt64(color >> 16 & 0xff) + UInt64(color >> 8 & 0xff)
            return (alpha == 0xff ? 1 : 0) << 51 | alpha << 43 | sum << 32 | UInt64(color)
        }.sorted().map { UInt32(truncatingIfNeeded: $0) }
        let table = given ?? ColorTable()
        var paletteRGB: [UInt8] = []
        var paletteAlpha: [UInt8] = []
        // Byte by byte into reserved room: `+= [r, g, b]` allocated an array per colour.
        paletteRGB.reserveCapacity(ordered.count * 3)
        paletteAlpha.reserveCapacity(ordered.count)
        for (index, color) in ordered.enumerated() {
            if given == nil { _ = table.insert(color) }
            table.setIndex(UInt8(index), of: color)
            paletteRGB.append(UInt8(color >> 24))
            paletteRGB.append(UInt8(color >> 16 & 0xff))
            paletteRGB.append(UInt8(color >> 8 & 0xff))
            if color & 0xff != 0xff { paletteAlpha.append(UInt8(color & 0xff)) }
        }
        let bitDepth = indexBitDepth(forColorCount: ordered.count)
        let rowBytes = (width * bitDepth + 7) / 8
        var rows = [UInt8](repeating: 0, count: rowBytes * height)
        bytes.withUnsafeBytes { raw in
            rows.withUnsafeMutableBufferPointer { target in
                // One 32-bit load per pixel, as in `analyse`; the table's key is the byte-swapped word.
                func word(_ pixel: Int) -> UInt32 { UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: pixel &* 4, as: UInt32.self)) }
                var previousWord = word(0), previousIndex = table.index(of: previousWord.byteSwapped)
                if bitDepth == 8 {
                    for pixel in 0..<(width * height) {
                        let current = word(pixel)
                        if current != previousWord { previousWord = current; previousIndex = table.index(of: current.byteSwapped) }
                        target[pixel] = previousIndex  // 8-bit rows have no padding: row bytes = width
                    }
                    return
                }
                let depth = UInt8(bitDepth)
                for y in 0..<height {
                    // Sub-byte depths: the byte and the shift advance with x (no division per pixel).
                    var byte = y * rowBytes, shift = 8 &- depth
                    for x in 0..<width {
                        let current = word(y * width + x)
                        if current != previousWord { previousWord = current; previousIndex = table.index(of: current.byteSwapped) }
                        target[byte] |= previousIndex &<< shift
                        if shift == 0 { shift = 8 &- depth; byte += 1 } else { shift &-= depth }
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
