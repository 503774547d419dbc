import Foundation
import PinmintSprites
import Testing

/// Issue 23: 5,000 tags @2x did not fit one 4096² sheet and nothing could split
/// them. `SpriteSheet.split` shares images out over sheets.
struct SpriteSplitTests {
    static func tags(_ count: Int, ratio: Double = 1, seed: UInt64 = 7) -> [SpriteImage] {
        var random = SeededSizes(state: seed)
        return (0..<count).map {
            solidImage(String(format: "tag-%04d", $0), width: Int(Double(random.next(40...120)) * ratio),
                       height: Int(38 * ratio), color: UInt8($0 % 251), ratio: ratio)
        }
    }

    @Test(arguments: [(200, 256, 0), (500, 512, 2), (60, 256, 4)])
    func everyImageIsInExactlyOneSheetAndEverySheetPacks(count: Int, maximumSize: Int, spacing: Int) throws {
        let images = Self.tags(count)
        let sheets = try SpriteSheet.split(images, spacing: spacing, maximumSize: maximumSize)
        #expect(sheets.count > 1)
        let ids = sheets.flatMap { $0 }
        #expect(ids.count == images.count)
        #expect(Set(ids) == Set(images.map(\.id)))
        let byID = Dictionary(uniqueKeysWithValues: images.map { ($0.id, $0) })
        for sheetIDs in sheets {
            #expect(sheetIDs == sheetIDs.sorted())
            let sheet = try SpriteSheet.pack(sheetIDs.map { byID[$0]! }, spacing: spacing, maximumSize: maximumSize)
            #expect(sheet.width <= maximumSize && sheet.height <= maximumSize)
        }
        // Greedy, but not wasteful: no more sheets than twice the area bound, plus one.
        let area = images.reduce(0) { $0 + ($1.width + spacing) * ($1.height + spacing) }
        let bound = (area + (maximumSize + spacing) * (maximumSize + spacing) - 1) / ((maximumSize + spacing) * (maximumSize + spacing))
        #expect(sheets.count <= 2 * bound + 1, "\(sheets.count) sheets for an area bound of \(bound)")
    }

    @Test func imagesThatFitOneSheetStayInOne() throws {
        let images = Self.tags(20)
        #expect(try SpriteSheet.split(images) == [images.map(\.id).sorted()])
    }

    @Test func theSplitIsDeterministic() throws {
        let images = Self.tags(300)
        #expect(try SpriteSheet.split(images, maximumSize: 512) == SpriteSheet.split(images.reversed(), maximumSize: 512))
    }

    @Test func identicalImagesStayTogetherWithUnique() throws {
        var images = Self.tags(150)
        // Every tag twice, under a second id: with `unique` each pair shares one rectangle, so one sheet.
        images += images.map { var copy = $0; copy.id += "-again"; return copy }
        let sheets = try SpriteSheet.split(images, maximumSize: 256, unique: true)
        for sheet in sheets {
            for id in sheet where !id.hasSuffix("-again") { #expect(sheet.contains(id + "-again")) }
        }
    }

    @Test func moreThanTheSheetLimitIsRefused() throws {
        let images = Self.tags(400)
        do {
            _ = try SpriteSheet.split(images, maximumSize: 128, name: "out/tags", maximumSheets: 3)
            Issue.record("split into more than 3 sheets")
        } catch {
            #expect(error.description.contains("do not fit in 3 sheets of 128x128 at @1x; raise --max-size, lower --spacing or use --unique"),
                    "\(error.description)")
        }
    }

    @Test func theStyleSnippetListsTheSheetsAndEachIDsName() throws {
        let snippet = SpriteSheet.styleSnippet(name: "tags", sheets: [["a", "c"], ["b"]])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(snippet.utf8)) as? [String: Any])
        let sprites = try #require(object["sprite"] as? [[String: String]])
        #expect(sprites == [["id": "tags-1", "url": "tags-1"], ["id": "tags-2", "url": "tags-2"]])
        #expect(object["icon-image"] as? [String: String] == ["a": "tags-1:a", "b": "tags-2:b", "c": "tags-1:c"])
    }
}

/// `SpriteSheet.packSplit`: one split for every ratio.
struct SpritePackSplitTests {
    @Test func eachIDIsInTheSameSheetAtEveryRatio() throws {
        let atOne = SpriteSplitTests.tags(300, ratio: 1), atTwo = SpriteSplitTests.tags(300, ratio: 2)
        let packed = try SpriteSheet.packSplit([1: atOne, 2: atTwo], maximumSize: 1024)
        #expect(packed.ids.count > 1)
        for ratio in [1.0, 2.0] {
            let sheets = try #require(packed.sheets[ratio])
            #expect(sheets.map { $0.entries.map(\.id) } == packed.ids, "@\(ratio)x")
            #expect(sheets.allSatisfy { $0.width <= 1024 && $0.height <= 1024 && $0.entries.allSatisfy { $0.pixelRatio == ratio } })
        }
    }

    @Test func ratiosWithOtherIDsAreRefused() throws {
        let atOne = SpriteSplitTests.tags(30, ratio: 1), atTwo = Array(SpriteSplitTests.tags(30, ratio: 2).dropLast())
        #expect(throws: SpriteError.self) { try SpriteSheet.packSplit([1: atOne, 2: atTwo], maximumSize: 512) }
    }
}
