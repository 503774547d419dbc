import Foundation
import PinmintMarkers
import PinmintSprites
import Testing

/// Images that cannot fit in one sheet stop the rendering as soon as their
/// pixels pass what a sheet holds: `sprite` and `batch --sprite` rendered
/// (and held) every image first, 2.9 GB for forty 512-point boxes at @8x,
/// before the packer said they did not fit.
struct SpriteSheetCapacityTests {
    /// A marker list of `count` boxes of `side` points, its path.
    static func boxList(count: Int, side: Int, in folder: String) throws -> String {
        let item = ##"{"marker": {"type": "box", "fill": "#f00", "width": \##(side), "height": \##(side)}}"##
        let path = folder + "/boxes.json"
        try Data(("[" + Array(repeating: item, count: count).joined(separator: ",") + "]").utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    static func makeFolder() throws -> String {
        let folder = NSTemporaryDirectory() + "pinmint-capacity-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        return folder
    }

    /// Counts calls from worker threads.
    final class Counter: @unchecked Sendable {
        private let lock = NSLock()
        private var value = 0
        func add() { lock.lock(); value += 1; lock.unlock() }
        var count: Int { lock.lock(); defer { lock.unlock() }; return value }
    }

    /// 64-point boxes in a 128-pixel sheet: four fit; the fifth stops the
    /// rendering (with 2 pixels of spacing, the fourth: 4 × 66² > 130²).
    @Test(arguments: [(0, 5), (2, 4)])
    func renderingStopsAtTheImageThatPassesOneSheet(_ spacing: Int, _ stoppedAt: Int) throws {
        let folder = try Self.makeFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let inputs = try SpriteInputs(paths: [try Self.boxList(count: 60, side: 64, in: folder)])
        for jobs in [1, 2] {
            let drawn = Counter()
            let capacity = SpriteSheetCapacity(maximumSize: 128, spacing: spacing, name: "out/boxes")
            let area = stoppedAt * (64 + spacing) * (64 + spacing)
            #expect(throws: SpriteError(input: "out/boxes", problem: "\(stoppedAt) images so far (\(area) pixels with spacing) do not fit "
                                        + "in a 128x128 sheet at @1x; raise --max-size, lower --spacing, use --unique or " + SpriteSheet.splitAdvice)) {
                _ = try inputs.render(ratio: 1, jobs: jobs, capacity: capacity, prepare: { drawn.add(); return $0 })
            }
            // The images being drawn when the sheet filled finish; no other is started.
            #expect(drawn.count <= stoppedAt + jobs - 1, "\(drawn.count) images drawn with \(jobs) job(s)")
        }
        // Images that pass the count go to `pack`, which decides (with spacing, three boxes pass and do not fit).
        guard spacing == 0 else { return }
        let fitting = try SpriteInputs(paths: [try Self.boxList(count: stoppedAt - 1, side: 64, in: folder)])
        let images = try fitting.render(ratio: 1, capacity: SpriteSheetCapacity(maximumSize: 128, spacing: spacing))
        #expect(try SpriteSheet.pack(images, spacing: spacing, maximumSize: 128).entries.count == stoppedAt - 1)
    }

    @Test func identicalImagesCountOnceWithUniqueAndAnImageLargerThanTheSheetStops() throws {
        let folder = try Self.makeFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let inputs = try SpriteInputs(paths: [try Self.boxList(count: 20, side: 64, in: folder)])
        let images = try inputs.render(ratio: 1, jobs: 2, capacity: SpriteSheetCapacity(maximumSize: 128, unique: true))
        #expect(try SpriteSheet.pack(images, maximumSize: 128, unique: true).rectangleCount == 1)
        // The message `pack` gives for an image over --max-size, at the image.
        let large = try SpriteInputs(paths: [try Self.boxList(count: 3, side: 200, in: folder)])
        let error = #expect(throws: SpriteError.self) { try large.render(ratio: 1, capacity: SpriteSheetCapacity(maximumSize: 128)) }
        #expect(error?.problem.hasSuffix("is 200x200 pixels at @1x, larger than the sheet's maximum side of 128 (--max-size)") == true,
                "\(String(describing: error))")
    }

    /// `batch --sprite` stops reading rows once its images pass one sheet.
    @Test(arguments: [1, 2])
    func aBatchSpriteStopsAtTheRowThatPassesOneSheet(_ jobs: Int) throws {
        let folder = try Self.makeFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let data = folder + "/d.csv"
        try Data(("id,price\n" + (1...300).map { "r\($0),\($0)\n" }.joined()).utf8).write(to: URL(fileURLWithPath: data))
        var configuration = try BatchConfiguration(file: MarkerFile(style: try #require(MarkerStyle.preset(named: "price-tag"))),
                                                   settings: ["label": FieldTemplate("{price}", input: "label")], idTemplate: nil,
                                                   scales: [1], outputFolder: folder + "/out", jobs: jobs)
        var sprite = BatchConfiguration.SpriteOutput(name: "tags")
        sprite.maximumSize = 128
        configuration.sprite = sprite
        let rows = Counter()
        let error = #expect(throws: SpriteError.self) {
            try BatchRenderer(configuration: configuration).run(try DataRowReader(path: data, format: nil), progress: { _ in rows.add() })
        }
        #expect(error?.input == "tags")
        #expect(error?.problem.contains("images so far") == true && error?.problem.contains("do not fit in a 128x128 sheet") == true,
                "\(String(describing: error))")
        // A few rows fill a 128² sheet; the window of rows in flight (32 a job) bounds the rest.
        #expect(rows.count < 100, "\(rows.count) rows done")
        #expect(!FileManager.default.fileExists(atPath: folder + "/out/tags.png"))
    }
}
