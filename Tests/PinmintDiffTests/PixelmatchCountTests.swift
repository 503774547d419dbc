import Foundation
import PinmintDiff
import Testing

/// Counts and diff images against pixelmatch itself: the table
/// Resources/pixelmatch-counts.tsv was written by tools/pixelmatch_counts.py
/// with PyPI's `pixelmatch` 0.4.0 (semantics 5) and `pixelmatch-fast` 1.3.4
/// (semantics 7) on the committed pairs, for every option.
struct PixelmatchCountTests {
    struct Row: Sendable, CustomStringConvertible {
        var pair: String
        var semantics: DiffOptions.Semantics
        var optionsText: String
        var diffPixels: Int
        var diffImageHash: String
        var description: String { "\(pair) [pixelmatch \(semantics.rawValue)] \(optionsText)" }

        var options: DiffOptions {
            get throws {
                var options = DiffOptions(semantics: semantics)
                func color(_ text: Substring) throws -> RGB8 {
                    let parts = text.split(separator: ",").compactMap { UInt8($0) }
                    try #require(parts.count == 3, "bad colour \(text)")
                    return RGB8(parts[0], parts[1], parts[2])
                }
                for setting in optionsText.split(separator: " ") where setting != "default" {
                    let keyValue = setting.split(separator: "=", maxSplits: 1)
                    let key = keyValue[0], value = keyValue[1]
                    switch key {
                    case "threshold": options.threshold = try #require(Double(value))
                    case "includeAA": options.includeAntiAliasing = value == "1"
                    case "alpha": options.alpha = try #require(Double(value))
                    case "aaColor": options.antiAliasingColor = try color(value)
                    case "diffColor": options.diffColor = try color(value)
                    case "diffColorAlt": options.alternateDiffColor = try color(value)
                    case "diffMask": options.diffMask = value == "1"
                    default: Issue.record("unknown option \(key) in the table")
                    }
                }
                return options
            }
        }
    }

    static let rows: [Row] = {
        let text = (try? String(contentsOf: resources.appendingPathComponent("pixelmatch-counts.tsv"), encoding: .utf8)) ?? ""
        return text.split(separator: "\n").filter { !$0.hasPrefix("#") }.compactMap { line in
            let fields = line.split(separator: "\t").map(String.init)
            guard fields.count == 5, let semantics = DiffOptions.Semantics(rawValue: fields[1]), let count = Int(fields[3])
            else { return nil }
            return Row(pair: fields[0], semantics: semantics, optionsText: fields[2], diffPixels: count, diffImageHash: fields[4])
        }
    }()

    static var pairs: [String] { Array(Set(rows.map(\.pair))).sorted() }

    @Test func tableCoversEveryPairOptionAndSemantics() {
        #expect(PixelmatchCountTests.rows.count >= 800)
        #expect(PixelmatchCountTests.pairs.count >= 30)
        #expect(PixelmatchCountTests.pairs.filter { $0.hasPrefix("rasterizers-") }.count >= 15)
        // Anti-aliasing detection has to matter somewhere, or the table tests little.
        let counts = Dictionary(PixelmatchCountTests.rows.map { ("\($0.pair) \($0.semantics) \($0.optionsText)", $0.diffPixels) },
                                uniquingKeysWith: { first, _ in first })
        #expect(counts["rasterizers-thin-lines-3x version7 threshold=0 includeAA=1"]! > 5 * counts["rasterizers-thin-lines-3x version7 threshold=0"]!)
        // Semi-transparent pixels are where the two releases part.
        #expect(counts["noise-semi-transparent version5 default"] != counts["noise-semi-transparent version7 default"])
    }

    @Test(arguments: pairs)
    func countsAndDiffImagesMatchPixelmatch(_ pair: String) throws {
        let (expected, actual) = try imagePair(pair)
        for row in PixelmatchCountTests.rows where row.pair == pair {
            let result = try PixelDiff.compare(expected: expected, actual: actual, options: try row.options, makesDiffImage: true)
            #expect(result.diffPixels == row.diffPixels, "\(row): \(result.diffPixels), pixelmatch \(row.diffPixels)")
            let hash = fnv1a64(try #require(result.diffImage).pixels)
            #expect(hash == row.diffImageHash, "\(row): diff image differs from pixelmatch's")
            // Counting without a diff image takes another path (runs of equal pixels skipped).
            let countOnly = try PixelDiff.compare(expected: expected, actual: actual, options: try row.options)
            #expect(countOnly.diffPixels == row.diffPixels, "\(row) without a diff image: \(countOnly.diffPixels)")
        }
    }
}
