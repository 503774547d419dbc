import Foundation
import PinmintGeometry
import PinmintPNG

/// The images of a golden run's cases that did not pass, as files a CI job
/// keeps (`pinmint golden --artifacts DIR`): per case `NAME@Sx.expected.png`
/// (the accepted image it was compared with), `NAME@Sx.actual.png` (the
/// rendering) and `NAME@Sx.diff.png` (pixelmatch's diff image), those that
/// exist: a case without an expected image has only its rendering, one of
/// another size no diff, an error none.
package enum GoldenArtifacts {
    /// One case's artifact files (nil: not written for this case).
    package struct Paths: Sendable, Equatable {
        package var expected: String?
        package var actual: String?
        package var diff: String?

        package init(expected: String? = nil, actual: String? = nil, diff: String? = nil) {
            self.expected = expected
            self.actual = actual
            self.diff = diff
        }
    }

    /// The files `write` writes for each case (by identifier), without writing them.
    package static func paths(for run: GoldenRun, in folder: String) -> [String: Paths] {
        var paths: [String: Paths] = [:]
        for result in run.results where !result.status.passes {
            func path(_ role: String) -> String { PathName.appending("\(result.identifier).\(role).png", to: folder) }
            let entry = Paths(expected: result.expected == nil ? nil : path("expected"),
                              actual: result.actual == nil ? nil : path("actual"),
                              diff: result.diffImage == nil ? nil : path("diff"))
            if entry != Paths() { paths[result.identifier] = entry }
        }
        return paths
    }

    /// Writes every failing case's artifacts into `folder` (created when some
    /// case has one; nothing is created when every case passed), all or nothing.
    ///
    /// - Returns: the files written, by case identifier.
    /// - Throws: `PNGError` naming the file that could not be written (then none is).
    @discardableResult
    package static func write(_ run: GoldenRun, to folder: String) throws -> [String: Paths] {
        let paths = paths(for: run, in: folder)
        var files: [(bytes: [UInt8], path: String)] = []
        for result in run.results {
            guard let entry = paths[result.identifier] else { continue }
            let scale = Double(max(1, result.scale))
            for (image, path) in [(result.expected, entry.expected), (result.actual, entry.actual), (result.diffImage, entry.diff)] {
                guard let image, let path else { continue }
                files.append((try image.pngData(pixelRatio: scale), path))
            }
        }
        guard !files.isEmpty else { return [:] }
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try PNGEncoder.writeAtomically(files)
        return paths
    }
}
