import Foundation
import PinmintDiff
import PinmintGeometry

/// `PinmintBench frontier --cairo BIN REPLAY [--blend2d BIN] [--rounds N]
/// [--tolerances PX,PX,…]`: what the flattening tolerance trades between
/// speed and exactness on the speed benchmark's 15 scene-scale pairs.
///
/// For each fill tolerance (centred, device pixels; strokes at half of it,
/// the defaults' ratio), Pinmint draws every scene as it is timed and is
/// compared with the references by the gate's measure (how many of the 15
/// pairs stay within max ≤ 8 and mean ≤ 0.15, the largest max and mean),
/// and is timed against cairo as `run` times it: in every round cairo's
/// whole replay, then Blend2D's when given, then `PinmintBench times
/// --tolerance PX` once per tolerance (each in a process of its own, the
/// tolerances' order rotated from round to round), and the geometric mean
/// of each side's fastest round against cairo's. The default tolerances
/// run from the gate's (0.01, the default) to Blend2D's (0.2): the line
/// for 0.2 says what the issue's speed target would ask of an engine that
/// flattened as coarsely as Blend2D does.
enum FrontierBench {
    static let defaultTolerances = [0.01, 0.02, 0.05, 0.1, 0.2]
    /// The tolerances accepted, in device pixels: finer than 0.001 px makes
    /// thousands of chords per curve, coarser than 1 px is no longer a curve.
    static let toleranceRange = 0.001...1.0

    /// Parses one tolerance in device pixels, within `toleranceRange`.
    static func tolerance(_ text: String) throws -> Double {
        guard let value = Double(text), toleranceRange.contains(value) else {
            throw BenchError("tolerance \(text) is not a number of device pixels in "
                             + "\(toleranceRange.plainDescription)")
        }
        return value
    }

    static func main(_ arguments: [String]) throws {
        var cairo: [String]?, blend2d: String?, rounds = 20, tolerances = defaultTolerances
        var index = 0
        while index < arguments.count {
            switch arguments[index] {
            case "--cairo" where index + 2 < arguments.count:
                cairo = [arguments[index + 1], arguments[index + 2], "300"]; index += 3
            case "--blend2d" where index + 1 < arguments.count: blend2d = arguments[index + 1]; index += 2
            case "--rounds" where index + 1 < arguments.count:
                guard let count = Int(arguments[index + 1]), (1...1000).contains(count) else {
                    throw BenchError("--rounds \(arguments[index + 1]) is not a whole number in 1...1000")
                }
                rounds = count; index += 2
            case "--tolerances" where index + 1 < arguments.count:
                tolerances = try arguments[index + 1].split(separator: ",").map { try tolerance(String($0)) }
                guard !tolerances.isEmpty, tolerances.count <= 20 else {
                    throw BenchError("--tolerances takes 1 to 20 tolerances, separated by commas")
                }
                index += 2
            default: print("PinmintBench frontier: unknown argument \(arguments[index])"); exit(2)
            }
        }
        guard let cairo else {
            print("usage: PinmintBench frontier --cairo BIN REPLAY [--blend2d BIN] [--rounds N] [--tolerances PX,PX,…]")
            exit(2)
        }

        // Exactness, in this process: how many pairs pass, the largest max and mean.
        let references = try ExactnessBench.referencePairs()
        typealias GateSummary = (within: Int, maximum: Double, mean: Double)
        func summary(drawnBy renderer: String, _ draw: (ExactnessBench.ReferencePair) throws -> RGBA8Image)
            throws -> GateSummary {
            var result: GateSummary = (0, 0, 0)
            for pair in references {
                let difference = try pair.difference(try draw(pair), drawnBy: renderer)
                if difference.passesGate { result.within += 1 }
                result.maximum = max(result.maximum, difference.maximum); result.mean = max(result.mean, difference.mean)
            }
            return result
        }
        let exactness = try tolerances.map { tolerance in
            try summary(drawnBy: "Pinmint") { try $0.drawPinmint(fillTolerance: tolerance) }
        }
        var blendExactness: GateSummary?
        if let blend2d {
            let folder = "Benchmarks/.work/exactness/Blend2D"
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            _ = try measureProcess([blend2d, cairo[1], "1", folder])
            blendExactness = try summary(drawnBy: "Blend2D") { try RGBA8Image(contentsOfFile: "\(folder)/\($0.name).png") }
        }

        // Time, alternated with cairo (and Blend2D) in every round.
        let names = references.map(\.name)
        var cairoTimes: [String: Double] = [:], blendTimes: [String: Double] = [:]
        var ownTimes = [[String: Double]](repeating: [:], count: tolerances.count)
        func keepFastest(_ measured: [String: Double], into fastest: inout [String: Double], from program: String) throws {
            for name in names {
                guard let time = measured[name] else { throw BenchError("\(program) printed no time for \(name)") }
                fastest[name] = min(fastest[name] ?? .infinity, time)
            }
        }
        for round in 0..<rounds {
            try keepFastest(try measureProcess(cairo), into: &cairoTimes, from: "cairo")
            if let blend2d {
                try keepFastest(try measureProcess([blend2d] + cairo.dropFirst()), into: &blendTimes, from: "Blend2D")
            }
            for step in 0..<tolerances.count {
                let column = (step + round) % tolerances.count
                let command = [ownExecutable(), "times", "--iterations", "400",
                               "--tolerance", String(tolerances[column])]
                try keepFastest(try measureProcess(command), into: &ownTimes[column], from: "PinmintBench times")
            }
        }
        func geometricMean(_ times: [String: Double]) -> Double {
            exp(names.map { log(times[$0]! / cairoTimes[$0]!) }.reduce(0, +) / Double(names.count))
        }

        print("Speed against exactness on the \(names.count) scene-scale pairs of the speed benchmark: fills flattened")
        print("at each tolerance (centred, device pixels; strokes at half of it); time as `run` measures it")
        print("(\(rounds) round\(rounds == 1 ? "" : "s"), fastest round against cairo's fastest, geometric mean; target ≤ 0.45); exactness as")
        print("`exactness` measures it (gate: max ≤ 8 and mean ≤ 0.15, 8-bit premultiplied units)")
        print("fill tolerance px   time / cairo's   pairs within the gate   largest max   largest mean")
        func line(_ label: String, _ time: Double, _ row: GateSummary) {
            print(label.padding(toLength: 19, withPad: " ", startingAt: 0)
                  + String(format: "%15.3f", time)
                  + "\(row.within) of \(names.count)".leftPadded(to: 24)
                  + String(format: "%14.2f %14.3f", row.maximum, row.mean))
        }
        for (column, tolerance) in tolerances.enumerated() {
            line(tolerance.plainDescription, geometricMean(ownTimes[column]), exactness[column])
        }
        if let blendExactness { line("Blend2D (0.2)", geometricMean(blendTimes), blendExactness) }
    }
}

private extension String {
    func leftPadded(to length: Int) -> String {
        count >= length ? self : String(repeating: " ", count: length - count) + self
    }
}
