import Foundation
import PinmintDiff
import Testing

/// pixelmatch 7's index.js written out plainly over arrays: the reference the
/// optimised kernel (bands on several cores, runs of equal pixels skipped) is checked against.
struct ReferencePixelmatch {
    let image1: [UInt8], image2: [UInt8], width: Int, height: Int

    func colorDelta(_ first: [UInt8], _ second: [UInt8], _ k: Int, _ m: Int, _ yOnly: Bool) -> Double {
        let r1 = Double(first[k]), g1 = Double(first[k + 1]), b1 = Double(first[k + 2]), a1 = Double(first[k + 3])
        let r2 = Double(second[m]), g2 = Double(second[m + 1]), b2 = Double(second[m + 2]), a2 = Double(second[m + 3])
        var dr = r1 - r2, dg = g1 - g2, db = b1 - b2
        let da = a1 - a2
        if dr == 0 && dg == 0 && db == 0 && da == 0 { return 0 }
        if a1 < 255 || a2 < 255 {
            let rb = Double(48 + 159 * (k % 2))
            let gb = Double(48 + 159 * (Int(Double(k) / 1.618033988749895) % 2))
            let bb = Double(48 + 159 * (Int(Double(k) / 2.618033988749895) % 2))
            dr = (r1 * a1 - r2 * a2 - rb * da) / 255
            dg = (g1 * a1 - g2 * a2 - gb * da) / 255
            db = (b1 * a1 - b2 * a2 - bb * da) / 255
        }
        let y = dr * 0.29889531 + dg * 0.58662247 + db * 0.11448223
        if yOnly { return y }
        let i = dr * 0.59597799 - dg * 0.27417610 - db * 0.32180189
        let q = dr * 0.21147017 - dg * 0.52261711 + db * 0.31114694
        let delta = 0.5053 * y * y + 0.299 * i * i + 0.1957 * q * q
        return y > 0 ? -delta : delta
    }

    func pixel(_ image: [UInt8], _ x: Int, _ y: Int) -> ArraySlice<UInt8> {
        image[((y * width + x) * 4)..<((y * width + x) * 4 + 4)]
    }

    func hasManySiblings(_ image: [UInt8], _ x1: Int, _ y1: Int) -> Bool {
        var zeroes = x1 == max(x1 - 1, 0) || x1 == min(x1 + 1, width - 1) || y1 == max(y1 - 1, 0) || y1 == min(y1 + 1, height - 1) ? 1 : 0
        for x in max(x1 - 1, 0)...min(x1 + 1, width - 1) {
            for y in max(y1 - 1, 0)...min(y1 + 1, height - 1) where x != x1 || y != y1 {
                if pixel(image, x, y) == pixel(image, x1, y1) { zeroes += 1 }
                if zeroes > 2 { return true }
            }
        }
        return false
    }

    func antialiased(_ image: [UInt8], _ x1: Int, _ y1: Int, _ other: [UInt8]) -> Bool {
        var zeroes = x1 == max(x1 - 1, 0) || x1 == min(x1 + 1, width - 1) || y1 == max(y1 - 1, 0) || y1 == min(y1 + 1, height - 1) ? 1 : 0
        var minimum = 0.0, maximum = 0.0, minX = 0, minY = 0, maxX = 0, maxY = 0
        for x in max(x1 - 1, 0)...min(x1 + 1, width - 1) {
            for y in max(y1 - 1, 0)...min(y1 + 1, height - 1) where x != x1 || y != y1 {
                let delta = colorDelta(image, image, (y1 * width + x1) * 4, (y * width + x) * 4, true)
                if delta == 0 {
                    zeroes += 1
                    if zeroes > 2 { return false }
                } else if delta < minimum {
                    minimum = delta; minX = x; minY = y
                } else if delta > maximum {
                    maximum = delta; maxX = x; maxY = y
                }
            }
        }
        if minimum == 0 || maximum == 0 { return false }
        return (hasManySiblings(image, minX, minY) && hasManySiblings(other, minX, minY))
            || (hasManySiblings(image, maxX, maxY) && hasManySiblings(other, maxX, maxY))
    }

    /// The count and the per-pixel marks: 0 similar, 1 anti-aliased, 2 differs.
    func run(threshold: Double, includeAA: Bool) -> (count: Int, marks: [UInt8]) {
        let maxDelta = 35215 * threshold * threshold
        var count = 0
        var marks = [UInt8](repeating: 0, count: width * height)
        for y in 0..<height {
            for x in 0..<width {
                let position = (y * width + x) * 4
                let delta = colorDelta(image1, image2, position, position, false)
                if abs(delta) > maxDelta {
                    if !includeAA && (antialiased(image1, x, y, image2) || antialiased(image2, x, y, image1)) {
                        marks[y * width + x] = 1
                    } else {
                        marks[y * width + x] = 2
                        count += 1
                    }
                }
            }
        }
        return (count, marks)
    }
}

struct PixelDiffTests {
    /// Large enough for several bands of rows on several cores.
    @Test(arguments: [(640, 480, 1 as UInt64), (257, 1031, 2), (1500, 100, 3)])
    func kernelMatchesTheReferenceImplementation(_ width: Int, _ height: Int, _ seed: UInt64) throws {
        let (expected, actual) = syntheticPair(width: width, height: height, seed: seed, changes: width * height / 50)
        let reference = ReferencePixelmatch(image1: expected.pixels, image2: actual.pixels, width: width, height: height)
        for (threshold, includeAA) in [(0.1, false), (0.0, false), (0.05, true)] {
            let (count, marks) = reference.run(threshold: threshold, includeAA: includeAA)
            let options = DiffOptions(threshold: threshold, includeAntiAliasing: includeAA, diffMask: true)
            let result = try PixelDiff.compare(expected: expected, actual: actual, options: options, makesDiffImage: true)
            #expect(result.diffPixels == count, "threshold \(threshold), includeAA \(includeAA)")
            #expect(result.antiAliasedPixels == marks.filter { $0 == 1 }.count)
            let drawn = try #require(result.diffImage).pixels
            let differing = (0..<(width * height)).filter { drawn[$0 * 4 + 3] != 0 }
            #expect(differing == (0..<(width * height)).filter { marks[$0] == 2 })
            #expect(try PixelDiff.compare(expected: expected, actual: actual, options: options).diffPixels == count)
            #expect(count > 0)
        }
    }

    @Test func sameImagesGiveTheSameCountEveryTime() throws {
        let (expected, actual) = syntheticPair(width: 1024, height: 512, seed: 9, changes: 20_000)
        let first = try PixelDiff.compare(expected: expected, actual: actual)
        for _ in 0..<5 { #expect(try PixelDiff.compare(expected: expected, actual: actual) == first) }
    }

    /// Ignoring never changes how the other pixels are judged: the count with a
    /// region ignored is the count without, minus the differing pixels inside.
    @Test(arguments: ["flat-edits", "rasterizers-thin-lines-3x", "noise-semi-transparent", "star-aliased-vs-supersampled"])
    func ignoredRegionsRemoveExactlyTheirPixels(_ pair: String) throws {
        let (expected, actual) = try imagePair(pair)
        let marks = try #require(try PixelDiff.compare(expected: expected, actual: actual,
                                                       options: DiffOptions(threshold: 0.02, diffMask: true),
                                                       makesDiffImage: true).diffImage)
        let regions = [PixelRegion(x: 0, y: 0, width: expected.width / 2, height: expected.height / 3),
                       PixelRegion(x: expected.width - 5, y: expected.height / 2, width: 50, height: 50)]
        var inside = Set<Int>()
        for region in regions {
            for y in region.y..<min(expected.height, region.y + region.height) {
                for x in region.x..<min(expected.width, region.x + region.width) { inside.insert(y * expected.width + x) }
            }
        }
        let differingInside = inside.filter { marks.pixels[$0 * 4 + 3] != 0 }.count
        let all = try PixelDiff.compare(expected: expected, actual: actual, options: DiffOptions(threshold: 0.02))
        let ignoring = try PixelDiff.compare(expected: expected, actual: actual,
                                             options: DiffOptions(threshold: 0.02, ignoredRegions: regions))
        #expect(ignoring.diffPixels == all.diffPixels - differingInside)
        #expect(ignoring.ignoredPixels == inside.count)
        #expect(ignoring.totalPixels == expected.pixelCount)
        // The same pixels through a mask: white and opaque means ignored.
        var mask = [UInt8](repeating: 0, count: expected.pixelCount * 4)
        for index in inside { mask[index * 4] = 255; mask[index * 4 + 1] = 255; mask[index * 4 + 2] = 255; mask[index * 4 + 3] = 255 }
        let masked = try PixelDiff.compare(
            expected: expected, actual: actual,
            options: DiffOptions(threshold: 0.02, ignoreMask: RGBA8Image(width: expected.width, height: expected.height, pixels: mask)))
        #expect(masked.diffPixels == ignoring.diffPixels)
    }

    @Test func ignoredPixelsAreTintedInTheDiffImage() throws {
        let (expected, actual) = try imagePair("flat-edits")
        let result = try PixelDiff.compare(expected: expected, actual: actual,
                                           options: DiffOptions(ignoredRegions: [PixelRegion(x: 0, y: 0, width: 2, height: 1)]),
                                           makesDiffImage: true)
        let pixels = try #require(result.diffImage).pixels
        #expect(pixels[2] > pixels[0] && pixels[0] == pixels[1])   // blue-tinted grey
        #expect(pixels[4 * 5] == pixels[4 * 5 + 2])                 // plain grey outside
    }

    /// Regression: `--ignore 1,0,9223372036854775807,1` overflowed x + w and wrote past the
    /// mask (a crash). Sizes up to Int.max are clipped at the image's right and bottom edges.
    static let hugeRegions: [(region: PixelRegion, ignored: Int)] = [
        (PixelRegion(x: 1, y: 0, width: Int.max, height: 1), 69),
        (PixelRegion(x: 0, y: 1, width: 1, height: Int.max), 49),
        (PixelRegion(x: 69, y: 49, width: Int.max, height: Int.max), 1),
        (PixelRegion(x: 0, y: 0, width: Int.max, height: Int.max), 70 * 50),
    ]

    @Test(arguments: hugeRegions.indices)
    func hugeRegionsAreClippedWithoutOverflow(_ index: Int) throws {
        let (expected, actual) = try imagePair("flat-edits")
        let (region, ignored) = PixelDiffTests.hugeRegions[index]
        let result = try PixelDiff.compare(expected: expected, actual: actual, options: DiffOptions(ignoredRegions: [region]))
        #expect(result.ignoredPixels == ignored, "\(region)")
    }

    static let badOptions: [(DiffOptions, String)] = [
        (DiffOptions(threshold: 1.5), "threshold 1.5"),
        (DiffOptions(threshold: .nan), "threshold nan"),
        (DiffOptions(alpha: -0.1), "alpha -0.1"),
        (DiffOptions(ignoredRegions: [PixelRegion(x: 500, y: 0, width: 4, height: 4)]), "500,0,4,4"),
        (DiffOptions(ignoreMask: RGBA8Image(width: 1, height: 1, pixels: [0, 0, 0, 0])), "ignore mask is 1x1"),
    ]

    @Test(arguments: badOptions.indices)
    func badOptionsAreRefusedWithTheirValue(_ index: Int) throws {
        let (expected, actual) = try imagePair("flat-edits")
        let (options, message) = PixelDiffTests.badOptions[index]
        #expect {
            try PixelDiff.compare(expected: expected, actual: actual, options: options)
        } throws: { error in
            "\(error)".contains(message)
        }
    }

    @Test func differentSizesAreRefusedWithBothSizes() throws {
        let small = RGBA8Image(width: 2, height: 3, pixels: [UInt8](repeating: 0, count: 24))
        let large = RGBA8Image(width: 3, height: 2, pixels: [UInt8](repeating: 0, count: 24))
        #expect(throws: DiffError.sizeMismatch(expectedWidth: 2, expectedHeight: 3, actualWidth: 3, actualHeight: 2)) {
            try PixelDiff.compare(expected: small, actual: large)
        }
    }

    @Test(arguments: [("ff0000", RGB8(255, 0, 0)), ("#00ff80", RGB8(0, 255, 128)), ("#fff", RGB8(255, 255, 255)),
                      ("abc", RGB8(0xaa, 0xbb, 0xcc)), ("yellow", RGB8(255, 255, 0))])
    func colorsParse(_ text: String, _ color: RGB8) throws {
        #expect(try RGB8(parsing: text) == color)
    }

    @Test func tolerances() {
        let result = DiffResult(diffPixels: 5, antiAliasedPixels: 0, ignoredPixels: 0, totalPixels: 1000, diffImage: nil)
        #expect(result.diffPercent == 0.5)
        #expect(result.isWithin(.pixels(5)) && !result.isWithin(.pixels(4)))
        #expect(result.isWithin(.percent(0.5)) && !result.isWithin(.percent(0.49)))
        #expect(!result.isWithin(.exact))
    }

    @Test(arguments: [("1,2,3,4", PixelRegion(x: 1, y: 2, width: 3, height: 4))])
    func regionsParse(_ text: String, _ region: PixelRegion) throws {
        #expect(try PixelRegion(parsing: text) == region)
    }

    @Test(arguments: ["1,2,3", "a,b,c,d", "0,0,0,5", "-1,0,2,2", "1,2,3,4,5"])
    func badRegionsAreRefused(_ text: String) {
        #expect(throws: DiffError.self) { try PixelRegion(parsing: text) }
    }
}
