import Foundation
import PinmintRaster
import PinmintSVG

/// `PinmintBench svg [--scene NAME-PREFIX]`: what resolving conflation costs
/// `SVGDocument.render(scale:)`. Per scene of Golden/scenes at @1x/@2x/@3x,
/// the median µs of `render(scale:)` against drawing the same document onto
/// a new canvas element by element (`render(on:scale:)`, no resolution),
/// measured alternately in the same run, how many pixels differ, and the
/// work (`Canvas.work`) of drawing in turn and of the redrawing.
enum SVGBench {
    static func main(_ arguments: [String]) throws {
        var only: String?
        var index = 0
        while index < arguments.count {
            switch arguments[index] {
            case "--scene" where index + 1 < arguments.count: only = arguments[index + 1]; index += 2
            default: print("PinmintBench svg: unknown argument \(arguments[index])"); exit(2)
            }
        }
        let folder = "Golden/scenes"
        let names = try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasSuffix(".svg") }
            .map { String($0.dropLast(4)) }.filter { only == nil || $0.hasPrefix(only!) }.sorted()
        print("SVGDocument.render(scale:) with conflation resolved, against the elements composited in turn; median µs")
        print("scene".padding(toLength: 24, withPad: " ", startingAt: 0), "in turn µs   resolved µs   ratio   pixels changed   work in turn   redrawing")
        var logRatio = 0.0
        for name in names {
            let document = try SVGDocument(contentsOfFile: "\(folder)/\(name).svg")
            for scale in [1.0, 2.0, 3.0] {
                let resolved = try document.render(scale: scale)
                func inTurn() throws -> Canvas {
                    let canvas = try Canvas(width: resolved.width, height: resolved.height)
                    try document.render(on: canvas, scale: scale)
                    return canvas
                }
                let plainCanvas = try inTurn()
                let plain = plainCanvas.straightRGBA8(), exact = resolved.straightRGBA8()
                let changed = stride(from: 0, to: plain.count, by: 4).filter { plain[$0 ..< $0 + 4] != exact[$0 ..< $0 + 4] }.count
                // Alternate the two, so that both see the same machine state.
                var plainTimes: [Double] = [], resolvedTimes: [Double] = []
                let start = DispatchTime.now().uptimeNanoseconds
                while plainTimes.count < 5 || (plainTimes.count < 200 && DispatchTime.now().uptimeNanoseconds - start < 400_000_000) {
                    var begin = DispatchTime.now().uptimeNanoseconds
                    _ = try inTurn()
                    plainTimes.append(Double(DispatchTime.now().uptimeNanoseconds - begin) / 1000)
                    begin = DispatchTime.now().uptimeNanoseconds
                    _ = try document.render(scale: scale)
                    resolvedTimes.append(Double(DispatchTime.now().uptimeNanoseconds - begin) / 1000)
                }
                let plainMedian = plainTimes.sorted()[plainTimes.count / 2]
                let resolvedMedian = resolvedTimes.sorted()[resolvedTimes.count / 2]
                logRatio += log(resolvedMedian / plainMedian)
                print("\(name)@\(Int(scale))x".padding(toLength: 24, withPad: " ", startingAt: 0),
                      String(format: "%10.1f   %11.1f   %5.2f   %14d   %12d   %9d", plainMedian, resolvedMedian, resolvedMedian / plainMedian, changed,
                             plainCanvas.work, resolved.work - plainCanvas.work))
            }
        }
        print(String(format: "geometric mean of the ratios over %d renders: %.2f", names.count * 3,
                     exp(logRatio / Double(max(1, names.count * 3)))))
    }
}
