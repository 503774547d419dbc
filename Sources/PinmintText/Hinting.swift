/// How glyph outlines are fitted to the pixel grid before we rasterize them.
///
/// - `none`: the designer's outlines, scaled (FT_LOAD_NO_HINTING). Blurriest
///   stems at small sizes, exact shapes and advances.
/// - `light`: FreeType's auto-hinter, vertical only (FT_LOAD_TARGET_LIGHT):
///   stems and x-height snap to whole pixel rows, widths stay as designed.
///   The default: see `Hinting.default`.
/// - `normal`: full hinting (FT_LOAD_TARGET_NORMAL); advances are whole pixels.
public enum Hinting: String, Sendable, CaseIterable, Hashable {
    case none, light, normal

    /// `light`. Measured by the crispness tests (Tests/PinmintTextTests):
    /// it keeps horizontal stems on whole pixel rows at 12 px, where
    /// unhinted CJK strokes smear over two rows, and unlike `normal` it does
    /// not distort glyph widths, so layout widths stay those of the design.
    public static let `default` = Hinting.light
}
