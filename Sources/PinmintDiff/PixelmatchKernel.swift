import Dispatch
import Foundation

/// The per-pixel loop of pixelmatch over raw RGBA8 buffers (see `PixelDiff`).
///
/// Pointers are taken once per comparison; bands of rows read both images
/// (and their neighbours' rows) and write only their own rows of `output`,
/// which is why the kernel may be shared across threads.
struct PixelmatchKernel: @unchecked Sendable {
    struct Counts {
        var diffPixels = 0
        var antiAliasedPixels = 0
    }

    /// pixelmatch's img1 and img2, straight RGBA8.
    let expected: UnsafePointer<UInt8>
    let actual: UnsafePointer<UInt8>
    /// One byte per pixel, non-zero where the pixel is ignored.
    let ignored: UnsafePointer<UInt8>?
    /// The diff image, zero-filled by the caller, or nil for counting only.
    let output: UnsafeMutablePointer<UInt8>?
    let width: Int, height: Int
    let maximumDelta: Double
    let includeAntiAliasing: Bool
    let diffMask: Bool
    let usesVersion5: Bool
    let alpha: Double
    let antiAliasingColor: RGB8, diffColor: RGB8, alternateDiffColor: RGB8

    init(expected: UnsafePointer<UInt8>, actual: UnsafePointer<UInt8>, ignored: UnsafePointer<UInt8>?,
         output: UnsafeMutablePointer<UInt8>?, width: Int, height: Int, options: DiffOptions) {
        self.expected = expected
        self.actual = actual
        self.ignored = ignored
        self.output = output
        self.width = width
        self.height = height
        maximumDelta = options.maximumDelta
        includeAntiAliasing = options.includeAntiAliasing
        diffMask = options.diffMask
        usesVersion5 = options.semantics == .version5
        alpha = options.alpha
        antiAliasingColor = options.antiAliasingColor
        diffColor = options.diffColor
        alternateDiffColor = options.semantics == .version5 ? options.diffColor
            : (options.alternateDiffColor ?? options.diffColor)
    }

    /// Rows in bands of at least this many pixels go to other cores.
    static let pixelsPerBand = 1 << 16

    /// Every row, split into bands compared concurrently; counts summed in band order.
    func runInBands() -> Counts {
        let pixelCount = width * height
        let cores = max(1, ProcessInfo.processInfo.activeProcessorCount)
        let bandCount = min(height, max(1, min(cores * 4, pixelCount / PixelmatchKernel.pixelsPerBand)))
        if bandCount <= 1 { return run(rows: 0..<height) }
        let rowsPerBand = (height + bandCount - 1) / bandCount
        let results = UnsafeMutableBufferPointer<Counts>.allocate(capacity: bandCount)
        results.initialize(repeating: Counts())
        defer { results.deallocate() }
        let resultsBase = results.baseAddress!
        let kernel = self
        nonisolated(unsafe) let target = resultsBase
        DispatchQueue.concurrentPerform(iterations: bandCount) { band in
            let start = band * rowsPerBand
            let end = min(kernel.height, start + rowsPerBand)
            if start < end { target[band] = kernel.run(rows: start..<end) }
        }
        var total = Counts()
        for counts in results {
            total.diffPixels += counts.diffPixels
            total.antiAliasedPixels += counts.antiAliasedPixels
        }
        return total
    }

    /// pixelmatch's main loop over some rows.
    func run(rows: Range<Int>) -> Counts {
        var counts = Counts()
        let expectedRaw = UnsafeRawPointer(expected), actualRaw = UnsafeRawPointer(actual)
        for y in rows {
            let rowStart = y * width
            var x = 0
            while x < width {
                if output == nil {
                    // Counting only: skip identical pixels four at a time.
                    while x + 4 <= width {
                        let offset = (rowStart + x) * 4
                        let first = expectedRaw.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
                            ^ actualRaw.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
                        let second = expectedRaw.loadUnaligned(fromByteOffset: offset + 8, as: UInt64.self)
                            ^ actualRaw.loadUnaligned(fromByteOffset: offset + 8, as: UInt64.self)
                        if first | second != 0 { break }
                        x += 4
                    }
                    if x >= width { break }
                }
                let index = rowStart + x
                let position = index * 4
                if word(expected, index) == word(actual, index) {
                    if output != nil && !diffMask { drawBackground(index: index) }
                    x += 1
                    continue
                }
                if let ignored, ignored[index] != 0 {
                    if output != nil && !diffMask { drawBackground(index: index) }
                    x += 1
                    continue
                }
                let delta = colorDelta(expected, actual, position, position, brightnessOnly: false)
                if abs(delta) > maximumDelta {
                    let isAntiAliased = !includeAntiAliasing
                        && (isAntiAliasedPixel(expected, other: actual, x: x, y: y)
                            || isAntiAliasedPixel(actual, other: expected, x: x, y: y))
                    if isAntiAliased {
                        counts.antiAliasedPixels += 1
                        if let output, !diffMask { draw(antiAliasingColor, at: position, in: output) }
                    } else {
                        counts.diffPixels += 1
                        if let output { draw(delta < 0 ? alternateDiffColor : diffColor, at: position, in: output) }
                    }
                } else if output != nil && !diffMask {
                    drawBackground(index: index)
                }
                x += 1
            }
        }
        return counts
    }

    @inline(__always)
    func word(_ image: UnsafePointer<UInt8>, _ index: Int) -> UInt32 {
        UnsafeRawPointer(image).loadUnaligned(fromByteOffset: index * 4, as: UInt32.self)
    }

    /// pixelmatch's colorDelta: the squared YIQ distance between pixel `k` of
    /// `first` and pixel `m` of `second` (byte offsets), or with
    /// `brightnessOnly` the signed difference of their Y. Version 7 returns the
    /// distance negated where the first pixel is brighter.
    @inline(__always)
    func colorDelta(_ first: UnsafePointer<UInt8>, _ second: UnsafePointer<UInt8>, _ k: Int, _ m: Int,
                    brightnessOnly: Bool) -> Double {
        var red1 = Double(first[k]), green1 = Double(first[k + 1]), blue1 = Double(first[k + 2])
        var alpha1 = Double(first[k + 3])
        var red2 = Double(second[m]), green2 = Double(second[m + 1]), blue2 = Double(second[m + 2])
        var alpha2 = Double(second[m + 3])
        if usesVersion5 {
            if alpha1 == alpha2 && red1 == red2 && green1 == green2 && blue1 == blue2 { return 0 }
            // Semi-transparent colours blended with white: 255 + (c - 255) × a.
            if alpha1 < 255 {
                alpha1 /= 255
                red1 = 255 + (red1 - 255) * alpha1
                green1 = 255 + (green1 - 255) * alpha1
                blue1 = 255 + (blue1 - 255) * alpha1
            }
            if alpha2 < 255 {
                alpha2 /= 255
                red2 = 255 + (red2 - 255) * alpha2
                green2 = 255 + (green2 - 255) * alpha2
                blue2 = 255 + (blue2 - 255) * alpha2
            }
            let y = luma(red1, green1, blue1) - luma(red2, green2, blue2)
            if brightnessOnly { return y }
            let i = inPhase(red1, green1, blue1) - inPhase(red2, green2, blue2)
            let q = quadrature(red1, green1, blue1) - quadrature(red2, green2, blue2)
            return 0.5053 * y * y + 0.299 * i * i + 0.1957 * q * q
        }
        var redDifference = red1 - red2, greenDifference = green1 - green2, blueDifference = blue1 - blue2
        let alphaDifference = alpha1 - alpha2
        if redDifference == 0 && greenDifference == 0 && blueDifference == 0 && alphaDifference == 0 { return 0 }
        if alpha1 < 255 || alpha2 < 255 {
            // Both composited over a background of 48 or 207 per channel,
            // chosen from the byte offset as pixelmatch 7 does.
            let redBackground = Double(48 + 159 * (k % 2))
            let greenBackground = Double(48 + 159 * (Int(Double(k) / 1.618033988749895) % 2))
            let blueBackground = Double(48 + 159 * (Int(Double(k) / 2.618033988749895) % 2))
            redDifference = (red1 * alpha1 - red2 * alpha2 - redBackground * alphaDifference) / 255
            greenDifference = (green1 * alpha1 - green2 * alpha2 - greenBackground * alphaDifference) / 255
            blueDifference = (blue1 * alpha1 - blue2 * alpha2 - blueBackground * alphaDifference) / 255
        }
        let y = redDifference * 0.29889531 + greenDifference * 0.58662247 + blueDifference * 0.11448223
        if brightnessOnly { return y }
        let i = redDifference * 0.59597799 - greenDifference * 0.27417610 - blueDifference * 0.32180189
        let q = redDifference * 0.21147017 - greenDifference * 0.52261711 + blueDifference * 0.31114694
        let delta = 0.5053 * y * y + 0.299 * i * i + 0.1957 * q * q
        return y > 0 ? -delta : delta
    }

    @inline(__always) func luma(_ red: Double, _ green: Double, _ blue: Double) -> Double {
        red * 0.29889531 + green * 0.58662247 + blue * 0.11448223
    }
    @inline(__always) func inPhase(_ red: Double, _ green: Double, _ blue: Double) -> Double {
        red * 0.59597799 - green * 0.27417610 - blue * 0.32180189
    }
    @inline(__always) func quadrature(_ red: Double, _ green: Double, _ blue: Double) -> Double {
        red * 0.21147017 - green * 0.52261711 + blue * 0.31114694
    }

    /// pixelmatch's `antialiased`: the pixel has both a darker and a brighter
    /// neighbour, at most two neighbours equal to it, and its darkest or
    /// brightest neighbour sits in a flat area (3+ equal neighbours) in both images.
    func isAntiAliasedPixel(_ image: UnsafePointer<UInt8>, other: UnsafePointer<UInt8>, x centerX: Int, y centerY: Int)
        -> Bool {
        let left = max(centerX - 1, 0), top = max(centerY - 1, 0)
        let right = min(centerX + 1, width - 1), bottom = min(centerY + 1, height - 1)
        let position = (centerY * width + centerX) * 4
        var equalNeighbours = centerX == left || centerX == right || centerY == top || centerY == bottom ? 1 : 0
        var darkest = 0.0, brightest = 0.0
        var darkestX = 0, darkestY = 0, brightestX = 0, brightestY = 0
        // Columns outside, rows inside, as pixelmatch: ties keep the first found.
        for x in left...right {
            for y in top...bottom where x != centerX || y != centerY {
                let delta = colorDelta(image, image, position, (y * width + x) * 4, brightnessOnly: true)
                if delta == 0 {
                    equalNeighbours += 1
                    if equalNeighbours > 2 { return false }
                } else if delta < darkest {
                    darkest = delta
                    darkestX = x
                    darkestY = y
                } else if delta > brightest {
                    brightest = delta
                    brightestX = x
                    brightestY = y
                }
            }
        }
        if darkest == 0 || brightest == 0 { return false }
        return (hasManySiblings(image, x: darkestX, y: darkestY) && hasManySiblings(other, x: darkestX, y: darkestY))
            || (hasManySiblings(image, x: brightestX, y: brightestY) && hasManySiblings(other, x: brightestX, y: brightestY))
    }

    /// pixelmatch's `hasManySiblings`: 3 or more of the 8 neighbours (an image
    /// edge counts as one) have exactly the pixel's RGBA value.
    func hasManySiblings(_ image: UnsafePointer<UInt8>, x centerX: Int, y centerY: Int) -> Bool {
        let left = max(centerX - 1, 0), top = max(centerY - 1, 0)
        let right = min(centerX + 1, width - 1), bottom = min(centerY + 1, height - 1)
        let value = word(image, centerY * width + centerX)
        var equalNeighbours = centerX == left || centerX == right || centerY == top || centerY == bottom ? 1 : 0
        for x in left...right {
            for y in top...bottom where x != centerX || y != centerY {
                if word(image, y * width + x) == value { equalNeighbours += 1 }
                if equalNeighbours > 2 { return true }
            }
        }
        return false
    }

    /// The grey background pixel: the expected pixel's Y blended with white at
    /// `alpha` × its opacity, truncated to 8 bits; ignored pixels tinted blue.
    @inline(__always)
    func drawBackground(index: Int) {
        guard let output else { return }
        let position = index * 4
        let brightness = luma(Double(expected[position]), Double(expected[position + 1]), Double(expected[position + 2]))
        let opacity = Double(expected[position + 3])
        let value = usesVersion5 ? 255 + (brightness - 255) * (alpha * opacity / 255)
            : 255 + (brightness - 255) * alpha * opacity / 255
        let grey = UInt8(min(255, max(0, value)))
        if let ignored, ignored[index] != 0 {
            draw(RGB8(grey - grey / 4, grey - grey / 4, grey), at: position, in: output)
        } else {
            draw(RGB8(grey, grey, grey), at: position, in: output)
        }
    }

    @inline(__always)
    func draw(_ color: RGB8, at position: Int, in output: UnsafeMutablePointer<UInt8>) {
        output[position] = color.red
        output[position + 1] = color.green
        output[position + 2] = color.blue
        output[position + 3] = 255
    }
}
