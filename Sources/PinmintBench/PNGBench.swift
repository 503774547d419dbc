import Foundation
import PinmintPNG
import PinmintSVG

/// `PinmintBench png [--iterations N] [--write DIR] [--only NAME-PREFIX] [--profile N]`: PNG encode and decode
/// time (µs, median) and size (bytes) per image, for each `PNGEncoder.Mode`
/// against libpng's defaults (RGBA8, adaptive filters, zlib level 6)
/// measured in the same run. Images: the marker scenes rendered from
/// Golden/scenes at @1x/@2x/@3x, and a 2048×2048 sprite-like sheet of
/// tiled marker renders. `--write DIR` saves each image's libpng-defaults
/// and `small` PNGs for tools/oxipng_compare.py. `--tune` lists, per image,
/// which of `small`'s trials win (for choosing them).
enum PNGBench {
    static let sceneNames = ["callout", "price-tag", "pin", "ring", "callout-shadow"]

    struct Picture {
        let name: String
        let width: Int
        let height: Int
        let rgba: [UInt8]
    }

    static func pictures() throws -> [Picture] {
        var result: [Picture] = []
        for name in sceneNames {
            let document = try SVGDocument(contentsOfFile: "Golden/scenes/\(name).svg")
            for scale in [1, 2, 3] {
                let canvas = try document.render(scale: Double(scale))
                result.append(Picture(name: "\(name)@\(scale)x", width: canvas.width, height: canvas.height,
                                      rgba: canvas.straightRGBA8()))
            }
        }
        return result + [try sheet(from: result)]
    }

    /// Tiles the @1x and @2x renders row by row, 4 px apart, into 2048×2048 (left to right, wrapping).
    static func sheet(from tiles: [Picture]) throws -> Picture {
        let side = 2048, gap = 4
        var rgba = [UInt8](repeating: 0, count: side * side * 4)
        let sources = tiles.filter { !$0.name.hasSuffix("@3x") }
        var x = 0, y = 0, rowHeight = 0, index = 0
        while true {
            let tile = sources[index % sources.count]
            index += 1
            if x + tile.width > side { x = 0; y += rowHeight + gap; rowHeight = 0 }
            if y + tile.height > side { break }
            for row in 0..<tile.height {
                let target = ((y + row) * side + x) * 4, source = row * tile.width * 4
                rgba.replaceSubrange(target..<(target + tile.width * 4), with: tile.rgba[source..<(source + tile.width * 4)])
            }
            x += tile.width + gap
            rowHeight = max(rowHeight, tile.height)
        }
        return Picture(name: "sheet-2048x2048", width: side, height: side, rgba: rgba)
    }

    /// Median µs of `work`, repeated until `budget` seconds or `maximum` runs (at least 3).
    static func time(budget: Double, maximum: Int, _ work: () throws -> Void) rethrows -> Double {
        var samples: [Double] = []
        let start = DispatchTime.now().uptimeNanoseconds
        try work()  // warm-up
        while samples.count < 3 || (samples.count < maximum
                                    && Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9 < budget) {
            let begin = DispatchTime.now().uptimeNanoseconds
            try work()
            samples.append(Double(DispatchTime.now().uptimeNanoseconds - begin) / 1000)
        }
        samples.sort()
        return samples[samples.count / 2]
    }

    static func run(iterations: Int, writeFolder: String?, only: String?) throws {
        if let writeFolder { try FileManager.default.createDirectory(atPath: writeFolder, withIntermediateDirectories: true) }
        print("PNG encode/decode per image, libpng \(PNGEncoder.libpngVersion); median µs; baseline = libpng defaults "
              + "(RGBA8, adaptive filters, level 6) in the same run.")
        print("speed = baseline µs / mode µs (higher is faster); size = mode bytes / baseline bytes (lower is smaller)")
        let header = ["image", "libpng µs", "bytes"] + PNGEncoder.Mode.allCases.flatMap { ["\($0) µs", "bytes", "speed", "size"] }
            + ["decode µs"]  // decoding the `default` output
        print(header.map { $0.padding(toLength: $0 == "image" ? 22 : 10, withPad: " ", startingAt: 0) }.joined())
        var logSpeed: [PNGEncoder.Mode: Double] = [:], logSize: [PNGEncoder.Mode: Double] = [:]
        var count = 0, verdict = ""
        for picture in try pictures() where only.map({ picture.name.hasPrefix($0) }) ?? true {
            let big = picture.width * picture.height > 1_000_000
            let budget = big ? 2.0 : 0.3, maximum = big ? 5 : iterations
            var baseline: [UInt8] = []
            let baselineTime = try time(budget: budget, maximum: maximum) {
                baseline = try PNGEncoder.encode(straightRGBA8: picture.rgba, width: picture.width, height: picture.height,
                                                 trying: [.libpngDefaults])
            }
            var cells = [String(format: "%.0f", baselineTime), "\(baseline.count)"]
            var defaultBytes = baseline, defaultSpeed: Double? = nil, defaultSize: Double? = nil
            for mode in PNGEncoder.Mode.allCases {
                var bytes: [UInt8] = []
                let elapsed = try time(budget: budget, maximum: mode == .small ? max(3, maximum / 10) : maximum) {
                    bytes = try PNGEncoder.encode(straightRGBA8: picture.rgba, width: picture.width, height: picture.height,
                                                  mode: mode)
                }
                let decoded = try PNGDecoder.decode(bytes)
                guard decoded.straightRGBA8 == picture.rgba else { throw PNGError(file: picture.name, problem: "\(mode) is not lossless") }
                let speed = baselineTime / elapsed, size = Double(bytes.count) / Double(baseline.count)
                logSpeed[mode, default: 0] += log(speed); logSize[mode, default: 0] += log(size)
                cells += [String(format: "%.0f", elapsed), "\(bytes.count)", String(format: "%.2fx", speed), String(format: "%.3f", size)]
                if mode == .default { defaultBytes = bytes; defaultSpeed = speed; defaultSize = size }
                if mode == .small, let writeFolder {
                    try Data(bytes).write(to: URL(fileURLWithPath: "\(writeFolder)/\(picture.name).small.png"))
                    try Data(baseline).write(to: URL(fileURLWithPath: "\(writeFolder)/\(picture.name).libpng.png"))
                }
            }
            if picture.name == "callout@2x", let speed = defaultSpeed, let size = defaultSize {
                verdict = String(format: "callout@2x, default vs libpng defaults: %.2fx faster, %.3f of the size (target: ≥ 3x, ≤ 1) ", speed, size)
                    + (speed >= 3 && size <= 1 ? "met" : "NOT met")
            }
            let decodeTime = try time(budget: budget, maximum: maximum) { _ = try PNGDecoder.decode(defaultBytes) }
            cells.append(String(format: "%.0f", decodeTime))
            count += 1
            print(picture.name.padding(toLength: 22, withPad: " ", startingAt: 0)
                  + cells.map { $0.padding(toLength: 10, withPad: " ", startingAt: 0) }.joined())
        }
        for mode in PNGEncoder.Mode.allCases {
            print("geometric mean over \(count) images, \(mode): speed \(String(format: "%.2fx", exp(logSpeed[mode]! / Double(count)))), "
                  + "size \(String(format: "%.3f", exp(logSize[mode]! / Double(count)))) of libpng defaults")
        }
        print(verdict)
    }

    static func main(_ arguments: [String]) throws {
        var iterations = 200, writeFolder: String? = nil, only: String? = nil, profileRuns = 0, profileLibPNG = false
        var index = 0
        while index < arguments.count {
            switch arguments[index] {
            case "--iterations" where index + 1 < arguments.count: iterations = Int(arguments[index + 1]) ?? 200; index += 2
            case "--write" where index + 1 < arguments.count: writeFolder = arguments[index + 1]; index += 2
            case "--only" where index + 1 < arguments.count: only = arguments[index + 1]; index += 2
            case "--profile" where index + 1 < arguments.count: profileRuns = Int(arguments[index + 1]) ?? 1; index += 2
            case "--libpng": profileLibPNG = true; index += 1
            case "--tune": try tune(); return
            default: print("PinmintBench png: unknown argument \(arguments[index])"); exit(2)
            }
        }
        if profileRuns > 0 { try profile(runs: profileRuns, only: only, libpngDefaults: profileLibPNG); return }
        try run(iterations: iterations, writeFolder: writeFolder, only: only)
    }

    /// `PinmintBench png --profile N [--only NAME] [--libpng]`: only
    /// `default`-mode (or libpng-defaults) encodes, N per image, no timing
    /// (for callgrind); prints the sizes.
    static func profile(runs: Int, only: String?, libpngDefaults: Bool) throws {
        for picture in try pictures() where only.map({ picture.name.hasPrefix($0) }) ?? true {
            var bytes: [UInt8] = []
            for _ in 0..<runs {
                bytes = libpngDefaults
                    ? try PNGEncoder.encode(straightRGBA8: picture.rgba, width: picture.width, height: picture.height,
                                            trying: [.libpngDefaults])
                    : try PNGEncoder.encode(straightRGBA8: picture.rgba, width: picture.width, height: picture.height)
            }
            print(picture.name, picture.width, picture.height, bytes.count)
        }
    }
}

extension PNGBench {
    /// `PinmintBench png --tune`: the four smallest of `small`'s trials per
    /// image (index, zlib strategy, filter mask, bytes); a development aid.
    static func tune() throws {
        for picture in try pictures() {
            let trials = PNGEncoder.trials(for: .small, pixelCount: picture.width * picture.height)
            let sizes = try trials.map { setting in
                try PNGEncoder.encode(straightRGBA8: picture.rgba, width: picture.width, height: picture.height, trying: [setting]).count
            }
            let ranked = zip(trials.indices, sizes).sorted { $0.1 < $1.1 }.prefix(4)
                .map { "#\($0.0) \(trials[$0.0].strategy) \(trials[$0.0].filters.rawValue) \($0.1)" }
            print(picture.name.padding(toLength: 22, withPad: " ", startingAt: 0), ranked.joined(separator: " | "))
        }
    }
}
