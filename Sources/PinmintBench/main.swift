import Foundation
import PinmintGeometry
import PinmintRaster

/// `PinmintBench export FILE`: writes the scenes as a replay file for the cairo program.
/// `PinmintBench run --baseline CAIRO.txt [--iterations N]`: times Pinmint on the same scenes
/// and prints both, the ratios and their geometric mean.
///
/// Timing is render-only (clear, build the paths, fill/stroke; no PNG), per
/// iteration, median of N after warm-up; cairo is timed the same way in C.

let scales = [1.0, 2.0, 3.0]

func format(_ value: Double) -> String { String(format: "%.3f", value) }

func writeReplay(to file: String) throws {
    var text = "# pinmint replay v1: device pixels, straight-alpha colours\n"
    var path = Path()
    for scene in BenchScenes.all {
        for scale in scales {
            let size = scene.pixelSize(scale: scale)
            text += "scene \(scene.name)@\(Int(scale))x \(size.width) \(size.height)\n"
            for operation in scene.operations {
                let c = operation.color
                switch operation.kind {
                case .fill(let rule):
                    text += "fill \(rule == .evenOdd ? "evenodd" : "nonzero") \(c.red) \(c.green) \(c.blue) \(c.alpha)\n"
                case .stroke(let style):
                    text += "stroke \(style.width * scale) \(style.cap.rawValue) \(style.join.rawValue) \(style.miterLimit) "
                    text += "\(c.red) \(c.green) \(c.blue) \(c.alpha)\n"
                }
                path.removeAll()
                operation.build(&path)
                for element in path.transformed(by: .scale(scale)).elements {
                    switch element {
                    case .move(let p): text += "M \(p.x) \(p.y)\n"
                    case .line(let p): text += "L \(p.x) \(p.y)\n"
                    case .quad(let c, let p): text += "Q \(c.x) \(c.y) \(p.x) \(p.y)\n"
                    case .cubic(let c1, let c2, let p): text += "C \(c1.x) \(c1.y) \(c2.x) \(c2.y) \(p.x) \(p.y)\n"
                    case .close: text += "Z\n"
                    }
                }
                text += "draw\n"
            }
            text += "end\n"
        }
    }
    try text.write(toFile: file, atomically: true, encoding: .utf8)
}

/// Median render time in microseconds of one scene at one scale; fills
/// flattened at `fillTolerance` when given (see `BenchScene.makeCanvas`).
func timeScene(_ scene: BenchScene, scale: Double, iterations: Int, fillTolerance: Double? = nil) throws -> Double {
    let size = scene.pixelSize(scale: scale)
    let canvas = try BenchScene.makeCanvas(width: size.width, height: size.height, fillTolerance: fillTolerance)
    var path = Path()
    var samples: [Double] = []
    samples.reserveCapacity(iterations)
    for iteration in 0..<(iterations + 20) {
        let start = DispatchTime.now().uptimeNanoseconds
        canvas.clear()
        try scene.draw(on: canvas, scale: scale, path: &path)
        let elapsed = DispatchTime.now().uptimeNanoseconds - start
        if iteration >= 20 { samples.append(Double(elapsed) / 1000) }
    }
    samples.sort()
    return samples[samples.count / 2]
}

/// `PinmintBench checksum`: one FNV-1a hash of the 16-bit pixels per scene,
/// to check that an optimisation leaves every pixel value unchanged.
func printChecksums() throws {
    var path = Path()
    for scene in BenchScenes.all {
        for scale in scales {
            let size = scene.pixelSize(scale: scale)
            let canvas = try Canvas(width: size.width, height: size.height)
            // Twice, so a clear after drawing is checked too.
            for _ in 0..<2 {
                canvas.clear()
                try scene.draw(on: canvas, scale: scale, path: &path)
            }
            var hash: UInt64 = 0xcbf2_9ce4_8422_2325
            for value in canvas.makeImage().pixels { hash = (hash ^ UInt64(value)) &* 0x100_0000_01b3 }
            print("\(scene.name)@\(Int(scale))x", String(hash, radix: 16))
        }
    }
}

func run(baselineFile: String?, iterations: Int, only: String?) throws {
    var cairo: [String: Double] = [:]
    if let baselineFile { cairo = parseCairoMedians(try String(contentsOfFile: baselineFile, encoding: .utf8)) }
    print("Render-only time per scene (clear, build paths, fill/stroke; no PNG), median of \(iterations) runs")
    print("scene                      pinmint µs    cairo µs    ratio")
    var logSum = 0.0, count = 0, slower: [String] = []
    for scene in BenchScenes.all {
        for scale in scales {
            let name = "\(scene.name)@\(Int(scale))x"
            if let only, !name.hasPrefix(only) { continue }
            let ours = try timeScene(scene, scale: scale, iterations: iterations)
            if let theirs = cairo[name] {
                let ratio = ours / theirs
                logSum += log(ratio); count += 1
                if ratio > 1 { slower.append(name) }
                print(name.padding(toLength: 24, withPad: " ", startingAt: 0),
                      String(format: "%12.2f %11.2f %8.3f", ours, theirs, ratio))
            } else {
                print(name.padding(toLength: 24, withPad: " ", startingAt: 0), String(format: "%12.2f", ours))
            }
        }
    }
    if count > 0 {
        print("geometric mean of pinmint/cairo over \(count) marker scenes: \(format(exp(logSum / Double(count)))) (target ≤ 0.45)")
        print(slower.isEmpty ? "no scene slower than cairo" : "slower than cairo: \(slower.joined(separator: ", "))")
    }
}

/// Medians per scene from the cairo program's output ("NAME MEDIAN_µs" lines).
func parseCairoMedians(_ text: String) -> [String: Double] {
    var medians: [String: Double] = [:]
    for line in text.split(separator: "\n") {
        let fields = line.split(separator: " ")
        if fields.count >= 2, let median = Double(fields[1]) { medians[String(fields[0])] = median }
    }
    return medians
}

/// Runs a program that prints "NAME MEDIAN …" lines (the cairo program:
/// `command` = its path, the replay file, iterations; or `PinmintBench times`) and parses the medians.
func measureProcess(_ command: [String]) throws -> [String: Double] {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: command[0])
    process.arguments = Array(command.dropFirst())
    let pipe = Pipe()
    process.standardOutput = pipe
    try process.run()
    let output = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    guard process.terminationStatus == 0 else { throw BenchError("\(command[0]) exited with \(process.terminationStatus)") }
    return parseCairoMedians(String(decoding: output, as: UTF8.self))
}

struct BenchError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// This program's own path, for measuring in a fresh process of itself.
func ownExecutable() -> String {
    let path = CommandLine.arguments[0]
    if path.hasPrefix("/") { return path }
    if path.contains("/") { return FileManager.default.currentDirectoryPath + "/" + path }
    return (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? path
}

/// `times [--iterations N] [--scene PREFIX] [--tolerance PX]`: every scene's
/// median µs, one "NAME MEDIAN" line each (`bench_cairo` prints its minimum
/// after them); with `--tolerance`, fills flattened at PX (strokes at half).
func printTimes(iterations: Int, only: String?, fillTolerance: Double? = nil) throws {
    for scene in BenchScenes.all {
        for scale in scales {
            let name = "\(scene.name)@\(Int(scale))x"
            if let only, !name.hasPrefix(only) { continue }
            let median = try timeScene(scene, scale: scale, iterations: iterations, fillTolerance: fillTolerance)
            print(name, String(format: "%.2f", median))
        }
    }
}

/// `run --cairo BIN REPLAY [--rounds N]`: cairo and Pinmint measured in
/// alternation, `rounds` times, each side in a process of its own every
/// round (cairo's whole replay, then `PinmintBench times`).
///
/// These machines run a whole process at one of two speeds, about a factor
/// of two apart (cairo's price tag @2x: 19.7 µs in one process, 34–37 µs
/// in the next, minutes apart, with address randomisation off too), so a
/// ratio of two processes compares the speeds as often as the programs.
/// The ratio reported is therefore each side's fastest round against the
/// other's (both at the fast speed when each side had a fast process, which
/// five rounds make likely); the median of the rounds' ratios is printed
/// beside it. (Until December 2026 Pinmint was timed inside this process
/// against cairo's rounds: its ratios mixed the two speeds.)
///
/// With `blend2d` (the Blend2D program on the same replay, `bench_blend2d`),
/// Blend2D runs in each round too, after cairo, and a second table gives
/// its fastest round against cairo's and Pinmint's against Blend2D's: the
/// speed target (0.45 of cairo) is where Blend2D was expected to stand.
func runInterleaved(cairo command: [String], blend2d: [String]?, rounds: Int, iterations: Int,
                    only: String?) throws {
    var ours: [String: [Double]] = [:], theirs: [String: [Double]] = [:], blends: [String: [Double]] = [:]
    var names: [String] = []
    var pinmint = [ownExecutable(), "times", "--iterations", String(iterations)]
    if let only { pinmint += ["--scene", only] }
    for _ in 0..<rounds {
        let cairo = try measureProcess(command)
        let blend = try blend2d.map(measureProcess) ?? [:]
        let own = try measureProcess(pinmint)
        for scene in BenchScenes.all {
            for scale in scales {
                let name = "\(scene.name)@\(Int(scale))x"
                if let only, !name.hasPrefix(only) { continue }
                guard let baseline = cairo[name], let time = own[name] else { throw BenchError("no time for \(name)") }
                if ours[name] == nil { names.append(name) }
                ours[name, default: []].append(time); theirs[name, default: []].append(baseline)
                if blend2d != nil {
                    guard let time = blend[name] else { throw BenchError("no Blend2D time for \(name)") }
                    blends[name, default: []].append(time)
                }
            }
        }
    }
    func median(_ values: [Double]) -> Double { let sorted = values.sorted(); return sorted[sorted.count / 2] }
    print("Render-only time per scene (clear, build paths, fill/stroke; no PNG), median of \(iterations) runs;")
    print("cairo and Pinmint alternated \(rounds) times, each in a process of its own; ratio = fastest round / fastest round")
    print("scene                    pinmint µs (fastest)  cairo µs (fastest)   ratio   median of the rounds' ratios")
    var logFastest = 0.0, logMedian = 0.0, slower: [String] = []
    for name in names {
        let fastest = ours[name]!.min()! / theirs[name]!.min()!
        let roundRatios = zip(ours[name]!, theirs[name]!).map { $0 / $1 }
        logFastest += log(fastest); logMedian += log(median(roundRatios))
        if fastest > 1 { slower.append(name) }
        let each = roundRatios.map { String(format: "%.2f", $0) }.joined(separator: " ")
        print(name.padding(toLength: 24, withPad: " ", startingAt: 0),
              String(format: "%10.2f (%6.2f) %10.2f (%6.2f) %8.3f   %.3f (%@)", median(ours[name]!), ours[name]!.min()!,
                     median(theirs[name]!), theirs[name]!.min()!, fastest, median(roundRatios), each))
    }
    let count = Double(max(names.count, 1))
    print("geometric mean of pinmint/cairo over \(names.count) marker scenes: \(format(exp(logFastest / count))) "
          + "(target ≤ 0.45); of the rounds' medians: \(format(exp(logMedian / count)))")
    print(slower.isEmpty ? "no scene slower than cairo" : "slower than cairo: \(slower.joined(separator: ", "))")
    guard blend2d != nil else { return }
    print("")
    print("Blend2D (its default tolerance 0.2 px, JIT pipelines) in the same rounds; ratios of fastest rounds")
    print("scene                    Blend2D µs (fastest)  Blend2D/cairo   pinmint/Blend2D")
    var logBlendCairo = 0.0, logOursBlend = 0.0
    for name in names {
        let fastest = blends[name]!.min()!
        let blendCairo = fastest / theirs[name]!.min()!, oursBlend = ours[name]!.min()! / fastest
        logBlendCairo += log(blendCairo); logOursBlend += log(oursBlend)
        print(name.padding(toLength: 24, withPad: " ", startingAt: 0),
              String(format: "%10.2f (%6.2f) %14.3f %17.3f", median(blends[name]!), fastest, blendCairo, oursBlend))
    }
    print("geometric mean of Blend2D/cairo: \(format(exp(logBlendCairo / count))); "
          + "of pinmint/Blend2D: \(format(exp(logOursBlend / count)))")
}

let arguments = Array(CommandLine.arguments.dropFirst())
do {
    switch arguments.first {
    case "png": try PNGBench.main(Array(arguments.dropFirst()))
    case "svg": try SVGBench.main(Array(arguments.dropFirst()))
    case "exactness": try ExactnessBench.main(Array(arguments.dropFirst()))
    case "frontier": try FrontierBench.main(Array(arguments.dropFirst()))
    case "export" where arguments.count == 2:
        try writeReplay(to: arguments[1])
    case "checksum":
        try printChecksums()
    case "times":
        var iterations = 400, only: String? = nil, fillTolerance: Double? = nil, index = 1
        while index + 1 < arguments.count {
            switch arguments[index] {
            case "--iterations": iterations = Int(arguments[index + 1]) ?? 400
            case "--scene": only = arguments[index + 1]
            case "--tolerance": fillTolerance = try FrontierBench.tolerance(arguments[index + 1])
            default: print("PinmintBench: unknown argument \(arguments[index])"); exit(2)
            }
            index += 2
        }
        try printTimes(iterations: iterations, only: only, fillTolerance: fillTolerance)
    case "text": try runTextBench(Array(arguments.dropFirst()))
    case "markers": try runMarkerBench(Array(arguments.dropFirst()))
    case "diff": try DiffBench.main(Array(arguments.dropFirst()))
    case "batch": try BatchBench.main(Array(arguments.dropFirst()))
    case "run":
        var baseline: String? = nil, iterations = 400, only: String? = nil, cairo: [String]? = nil, rounds = 5
        var blend2d: String? = nil
        var index = 1
        while index < arguments.count {
            switch arguments[index] {
            case "--baseline" where index + 1 < arguments.count: baseline = arguments[index + 1]; index += 2
            case "--cairo" where index + 2 < arguments.count:
                cairo = [arguments[index + 1], arguments[index + 2], "300"]; index += 3
            case "--blend2d" where index + 1 < arguments.count: blend2d = arguments[index + 1]; index += 2
            case "--rounds" where index + 1 < arguments.count: rounds = max(1, Int(arguments[index + 1]) ?? 5); index += 2
            case "--scene" where index + 1 < arguments.count: only = arguments[index + 1]; index += 2
            case "--iterations" where index + 1 < arguments.count: iterations = Int(arguments[index + 1]) ?? 400; index += 2
            default: print("PinmintBench: unknown argument \(arguments[index])"); exit(2)
            }
        }
        if blend2d != nil && cairo == nil {
            print("PinmintBench run: --blend2d runs in cairo's rounds; give --cairo BIN REPLAY too"); exit(2)
        }
        if let cairo {
            let blend2dCommand = blend2d.map { [$0] + cairo.dropFirst() }
            try runInterleaved(cairo: cairo, blend2d: blend2dCommand, rounds: rounds, iterations: iterations, only: only)
        } else {
            try run(baselineFile: baseline, iterations: iterations, only: only)
        }
    default:
        print("usage: PinmintBench export FILE | checksum | text | markers [--baseline CAIRO.txt] | diff [--write DIR] | batch [--work DIR] [--repeat N] | png [--write DIR] | svg [--scene NAME-PREFIX] | exactness [--cairo BIN] [--blend2d BIN] REPLAY | frontier --cairo BIN REPLAY [--rounds N] [--tolerances PX,PX,…] | run [--baseline CAIRO.txt | --cairo BIN REPLAY [--blend2d BIN] [--rounds N]] [--iterations N] [--scene NAME-PREFIX] | times [--iterations N] [--scene NAME-PREFIX] [--tolerance PX]")
        exit(2)
    }
} catch {
    print("PinmintBench: \(error)")
    exit(1)
}
