import Foundation
import PinmintGeometry
import PinmintRaster
import PinmintText

/// The shipped fonts only (no system folders), so results do not depend on the machine.
func shippedLibrary() throws -> FontLibrary {
    try FontLibrary(folders: [FontLibrary.shippedFontsFolder])
}

func latinAndCJK(weight: Int = 400) throws -> (library: FontLibrary, fallback: FontFallback) {
    let library = try shippedLibrary()
    return (library, try library.fallback(weight: weight))
}

/// Alpha channel of a canvas as 8-bit values.
func alpha8(_ canvas: Canvas) -> [UInt8] {
    let rgba = canvas.straightRGBA8()
    return stride(from: 3, to: rgba.count, by: 4).map { rgba[$0] }
}
