// docs/golden.md, "The assertion": a Swift Testing golden test with the
// default golden folder, Goldens/GoldenDocTests/ beside this file.
import PinmintSVG
import PinmintTesting
import Testing

let pinIcon = """
<svg xmlns="http://www.w3.org/2000/svg" width="24" height="32">
  <path d="M12 31 C4 20 2 16 2 12 A10 10 0 0 1 22 12 C22 16 20 20 12 31 Z" fill="#E53935"/>
</svg>
"""

@Test func pin() throws {
    let canvas = try SVGDocument(data: Array(pinIcon.utf8)).render(scale: 2)
    assertImageMatchesGolden(canvas, named: "pin@2x")   // Goldens/<this file's name>/pin@2x.png
}
