// README.md, "Snapshot tests on Linux": a Swift Testing golden test, run
// from the package's folder (`directory` is relative to it). `drawPin` is
// in Markers.swift.
import PinmintDiff
import Testing

@Test func pinMarker() throws {
    let canvas = try drawPin(scale: 2)
    try assertImageMatchesGolden(canvas, named: "pin@2x", directory: "Tests/Golden",
                                 tolerance: .pixels(0), options: DiffOptions(threshold: 0.1))
}
