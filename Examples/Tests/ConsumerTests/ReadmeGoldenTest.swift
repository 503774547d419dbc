// README.md, "The library", and docs/testing.md: a Swift Testing golden test.
// `directory` is relative to this file's folder (Tests/Golden).
// `drawPin` is in Markers.swift.
import PinmintTesting
import Testing

@Test func pinMarker() throws {
    let canvas = try drawPin(scale: 2)
    assertImageMatchesGolden(canvas, named: "pin@2x", directory: "../Golden")
}
