import Foundation
import PinmintDiff
import PinmintGeometry
import PinmintMarkers
import PinmintPNG
import PinmintRaster
import PinmintSVG
import PinmintSprites

/// One parser (or a whole rendering path) fed with arbitrary bytes. A
/// harness returns normally when the input was handled as promised: read,
/// or refused with an error whose message is one non-empty line. It
/// reports a broken promise with `HarnessFailure`; a crash, a hang or a
/// runaway allocation is caught by the process around it (libFuzzer with
/// its sanitizers, or the replay's own process).
struct Harness: Sendable {
    let name: String
    /// What the input is, for `PinmintFuzz --list`.
    let summary: String
    let run: @Sendable ([UInt8]) throws(HarnessFailure) -> Void

    /// Every harness, in the order `make fuzz` runs them.
    static let all: [Harness] = [
        Harness(name: "svg", summary: "an SVG document, read (XML reader, attributes, paint servers)") { bytes throws(HarnessFailure) in
            do { _ = try SVGDocument(data: bytes, file: "fuzz.svg") } catch { try expectOneLine(error) }
        },
        Harness(name: "svg-render", summary: "an SVG document, read and drawn at @1x, @2x or @3x (by its length)") { bytes throws(HarnessFailure) in
            do {
                let document = try SVGDocument(data: bytes, file: "fuzz.svg")
                _ = try document.render(scale: Double(1 + bytes.count % 3))
            } catch { try expectOneLine(error) }
        },
        Harness(name: "path-data", summary: "SVG path data, parsed, flattened and stroked") { bytes throws(HarnessFailure) in
            do {
                let path = try Path(svgPathData: String(decoding: bytes, as: UTF8.self))
                let canvas = try Canvas(width: 64, height: 64)
                try canvas.fill(path, paint: .solid(.black))
                try canvas.stroke(path, style: StrokeStyle(width: 3, dashes: [2, 1]), paint: .solid(.black))
            } catch { try expectOneLine(error) }
        },
        Harness(name: "transform", summary: "an SVG transform list") { bytes throws(HarnessFailure) in
            do { _ = try SVGTransformParser.parse(String(decoding: bytes, as: UTF8.self)) } catch { try expectOneLine(error) }
        },
        Harness(name: "color", summary: "a colour string (CSS names, #hex, rgb(), hsl())") { bytes throws(HarnessFailure) in
            do { _ = try Color(parsing: String(decoding: bytes, as: UTF8.self)) } catch { try expectOneLine(error) }
        },
        Harness(name: "marker-json", summary: "a marker description, read and resolved with its defaults") { bytes throws(HarnessFailure) in
            do {
                let file = try MarkerFile(json: Data(bytes), input: "fuzz.json", baseDirectory: scratchFolder)
                _ = try file.style.resolve(values: file.values)
            } catch { try expectOneLine(error) }
        },
        Harness(name: "marker-render", summary: "a marker description, read and every variant drawn at @1x, @2x or @3x") { bytes throws(HarnessFailure) in
            do {
                let file = try MarkerFile(json: Data(bytes), input: "fuzz.json", baseDirectory: scratchFolder)
                let scale = Double(1 + bytes.count % 3)
                for description in try file.style.resolve(values: file.values) {
                    _ = try markerRenderer().render(description, scale: scale)
                }
            } catch { try expectOneLine(error) }
        },
        Harness(name: "csv", summary: "batch data as CSV, every row read") { bytes throws(HarnessFailure) in
            try readRows(bytes, format: .csv)
        },
        Harness(name: "jsonl", summary: "batch data as JSON lines, every row read") { bytes throws(HarnessFailure) in
            try readRows(bytes, format: .jsonl)
        },
        Harness(name: "geojson", summary: "batch data as a GeoJSON FeatureCollection, every feature read") { bytes throws(HarnessFailure) in
            try readRows(bytes, format: .geojson)
        },
        Harness(name: "png", summary: "a PNG file, decoded within the default limits") { bytes throws(HarnessFailure) in
            do { _ = try PNGDecoder.decode(bytes, name: "fuzz.png") } catch { try expectOneLine(error) }
        },
        Harness(name: "golden-conf", summary: "a golden suite's golden.conf") { bytes throws(HarnessFailure) in
            let folder = scratchFolder + "/golden"
            try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            try writeScratch(bytes, to: folder + "/golden.conf")
            do { _ = try GoldenConfiguration(readingSuite: folder) } catch { try expectOneLine(error) }
        },
    ]

    static func named(_ name: String) -> Harness? { all.first { $0.name == name } }
}

/// A broken promise: an error message that is empty or spans lines, or a
/// reader that does not stop.
struct HarnessFailure: Error, CustomStringConvertible {
    let description: String
}

/// Errors must name the input and the problem on one line: a message that
/// is empty or holds a line break is a failure.
private func expectOneLine(_ error: any Error) throws(HarnessFailure) {
    try expectOneLine(message: String(describing: error), of: "\(type(of: error))")
}

private func expectOneLine(message: String, of kind: String) throws(HarnessFailure) {
    if message.trimmingCharacters(in: .whitespaces).isEmpty {
        throw HarnessFailure(description: "an error without a message (\(kind))")
    }
    if message.contains(where: \.isNewline) {
        throw HarnessFailure(description: "an error message of more than one line: \(message.debugDescription)")
    }
}

/// Where harnesses that read files write their input: one folder per
/// process, in memory where the system has it (/dev/shm).
let scratchFolder: String = {
    let base = FileManager.default.fileExists(atPath: "/dev/shm") ? "/dev/shm" : NSTemporaryDirectory()
    let folder = "\(base)/PinmintFuzz-\(getpid())"
    try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    return folder
}()

private func writeScratch(_ bytes: [UInt8], to path: String) throws(HarnessFailure) {
    guard FileManager.default.createFile(atPath: path, contents: Data(bytes)) else {
        throw HarnessFailure(description: "cannot write the scratch file \(path)")
    }
}

/// Reads every row the way `pinmint batch` does: a malformed row is
/// reported and reading goes on; an error for the whole file ends it.
private func readRows(_ bytes: [UInt8], format: DataFormat) throws(HarnessFailure) {
    let path = scratchFolder + "/rows." + format.rawValue
    try writeScratch(bytes, to: path)
    do {
        let reader = try DataRowReader(path: path, format: format)
        var rows = 0
        while let result = try reader.next() {
            rows += 1
            if case .malformed(_, let problem) = result { try expectOneLine(message: problem, of: "a malformed row") }
            // Every row consumes at least one byte (a line, a record or a feature).
            if rows > bytes.count + 1 { throw HarnessFailure(description: "\(rows) rows from \(bytes.count) bytes: the reader does not advance") }
        }
    } catch let failure as HarnessFailure {
        throw failure
    } catch {
        try expectOneLine(error)
    }
}

/// One renderer for the process (loading the fonts takes milliseconds),
/// over Pinmint's own fonts only, so that every machine draws the same.
nonisolated(unsafe) private var sharedRenderer: MarkerRenderer? = nil
private func markerRenderer() throws -> MarkerRenderer {
    if let sharedRenderer { return sharedRenderer }
    let renderer = try MarkerRenderer(includeSystemFonts: false)
    sharedRenderer = renderer
    return renderer
}
