import Foundation
import PinmintMarkers
import PinmintSprites
import Testing

/// A solid image of one colour: distinct colours make distinct pixels.
func solidImage(_ id: String, width: Int, height: Int, color: UInt8 = 200, ratio: Double = 1) -> SpriteImage {
    var pixels = [UInt8](repeating: 0, count: width * height * 4)
    for index in 0..<(width * height) {
        pixels[index * 4] = color; pixels[index * 4 + 1] = UInt8(truncatingIfNeeded: Int(color) * 7); pixels[index * 4 + 3] = 255
    }
    return SpriteImage(id: id, width: width, height: height, pixels: pixels, pixelRatio: ratio)
}

/// A fixed pseudo-random sequence (64-bit LCG, Knuth's MMIX constants), so cases are the same on every run.
struct SeededSizes {
    var state: UInt64
    mutating func next(_ range: ClosedRange<Int>) -> Int {
        state = state &* 6364136223846793005 &+ 1442695040888963407
        return range.lowerBound + Int((state >> 33) % UInt64(range.count))
    }
}

struct SpriteSheetTests {
    /// Sizes: many similar tags, mixed icons, one very wide image, squares.
    static let cases: [(name: String, count: Int, widths: ClosedRange<Int>, heights: ClosedRange<Int>, spacing: Int)] = [
        ("price tags", 300, 50...140, 38...38, 0),
        ("mixed icons", 200, 8...120, 8...120, 2),
        ("squares with spacing", 64, 24...24, 24...24, 4),
        ("one image", 1, 300...300, 20...20, 0),
    ]

    @Test(arguments: cases.indices)
    func packedRectanglesDoNotOverlapAndKeepTheirSpacing(_ index: Int) throws {
        let test = Self.cases[index]
        var random = SeededSizes(state: UInt64(index + 1))
        let images = (0..<test.count).map {
            solidImage("image-\($0)", width: random.next(test.widths), height: random.next(test.heights), color: UInt8($0 % 251))
        }
        let sheet = try SpriteSheet.pack(images, spacing: test.spacing)
        #expect(sheet.entries.count == test.count)
        let boxes = sheet.entries
        for (i, a) in boxes.enumerated() {
            #expect(a.x >= 0 && a.y >= 0 && a.x + a.width <= sheet.width && a.y + a.height <= sheet.height, "\(a.id)")
            for b in boxes[(i + 1)...] {
                // Rectangles grown by the spacing on one side must not overlap the other.
                let apart = a.x + a.width + test.spacing <= b.x || b.x + b.width + test.spacing <= a.x
                    || a.y + a.height + test.spacing <= b.y || b.y + b.height + test.spacing <= a.y
                #expect(apart, "\(test.name): \(a.id) and \(b.id) closer than \(test.spacing) px")
            }
        }
        let area = images.reduce(0) { $0 + $1.width * $1.height }
        #expect(abs(sheet.efficiency - Double(area) / Double(sheet.width * sheet.height)) < 1e-12)
        if test.name == "price tags" { #expect(sheet.efficiency > 0.85, "\(sheet.efficiency)") }
        // Pixels land where the index says.
        for entry in boxes.prefix(20) {
            let image = images.first { $0.id == entry.id }!
            let offset = ((entry.y + entry.height / 2) * sheet.width + entry.x + entry.width / 2) * 4
            let source = ((entry.height / 2) * image.width + entry.width / 2) * 4
            #expect(Array(sheet.pixels[offset..<(offset + 4)]) == Array(image.pixels[source..<(source + 4)]))
        }
    }

    @Test func packingIsDeterministic() throws {
        var random = SeededSizes(state: 7)
        let images = (0..<120).map { solidImage("i\($0)", width: random.next(10...90), height: random.next(10...60), color: UInt8($0)) }
        let first = try SpriteSheet.pack(images), second = try SpriteSheet.pack(images.reversed())
        #expect(first.entries == second.entries && first.pixels == second.pixels)
        #expect(first.indexJSON() == second.indexJSON())
    }

    @Test func uniqueStoresIdenticalPixelsOnce() throws {
        let images = [solidImage("a", width: 20, height: 20, color: 9), solidImage("b", width: 20, height: 20, color: 9),
                      solidImage("c", width: 20, height: 20, color: 10)]
        let shared = try SpriteSheet.pack(images, unique: true)
        #expect(shared.rectangleCount == 2)
        let a = shared.entries.first { $0.id == "a" }!, b = shared.entries.first { $0.id == "b" }!
        #expect(a.x == b.x && a.y == b.y)
        let separate = try SpriteSheet.pack(images)
        #expect(separate.rectangleCount == 3 && separate.width * separate.height > shared.width * shared.height)
    }

    @Test func anImageLargerThanTheSheetIsNamed() {
        #expect(throws: SpriteError.self) { try SpriteSheet.pack([solidImage("huge", width: 600, height: 10)], maximumSize: 512) }
        do { _ = try SpriteSheet.pack([solidImage("huge", width: 600, height: 10)], maximumSize: 512) } catch {
            #expect(error.problem.contains("'huge' is 600x10") && error.problem.contains("--max-size"))
        }
    }

    @Test func imagesThatDoNotFitTogetherAreAnError() {
        let images = (0..<20).map { solidImage("i\($0)", width: 100, height: 100, color: UInt8($0)) }
        do {
            _ = try SpriteSheet.pack(images, maximumSize: 256)
            Issue.record("packed 20 100x100 images into 256x256")
        } catch {
            #expect(error.problem.contains("do not fit in a 256x256 sheet"))
        }
    }

    @Test func duplicateIdsAreAnError() {
        #expect(throws: SpriteError.self) {
            try SpriteSheet.pack([solidImage("a", width: 4, height: 4), solidImage("a", width: 5, height: 5)])
        }
    }

    @Test func indexFollowsTheSpecPrettyAndMinified() throws {
        var tag = solidImage("tag", width: 60, height: 76, ratio: 2)
        tag.metadata = SpriteMetadata(content: [48, 11, 48, 45], stretchX: [[50, 54]], stretchY: [[6, 8], [48, 50]],
                                      textFitWidth: .stretchOrShrink, textFitHeight: .stretchOnly, sdf: true)
        let sheet = try SpriteSheet.pack([tag, solidImage("dot", width: 10, height: 10, ratio: 2)])
        let pretty = sheet.indexJSON(), minified = sheet.indexJSON(minified: true)
        #expect(spriteSpecViolations(Data(pretty.utf8), sheetWidth: sheet.width, sheetHeight: sheet.height) == [])
        #expect(!minified.contains(" ") && !minified.contains("\n"))
        let a = try JSONSerialization.jsonObject(with: Data(pretty.utf8)) as! NSDictionary
        let b = try JSONSerialization.jsonObject(with: Data(minified.utf8)) as! NSDictionary
        #expect(a == b)
        #expect(pretty.contains("\"stretchX\": [[50, 54]]") && pretty.contains("\"sdf\": true"))
    }

    @Test func theSpecCheckCatchesBadIndexes() {
        // The validator must be able to fail: each of these breaks one rule.
        let bad = [#"{"a": {"width": 2.5, "height": 2, "x": 0, "y": 0, "pixelRatio": 1}}"#,
                   #"{"a": {"width": 2, "height": 2, "x": 0, "y": 0, "pixelRatio": 1, "sdf": 1}}"#,
                   #"{"a": {"width": 2, "height": 2, "x": 9, "y": 0, "pixelRatio": 1}}"#,
                   #"{"a": {"width": 4, "height": 2, "x": 0, "y": 0, "pixelRatio": 1, "stretchX": [[3, 1]]}}"#,
                   #"{"a": {"width": 4, "height": 2, "x": 0, "y": 0, "pixelRatio": 1, "content": [0, 0, 5, 1]}}"#,
                   #"{"a": {"width": 4, "height": 2, "x": 0, "y": 0, "pixelRatio": 1, "colour": 1}}"#]
        for text in bad { #expect(!spriteSpecViolations(Data(text.utf8), sheetWidth: 8, sheetHeight: 8).isEmpty, "\(text)") }
    }
}
