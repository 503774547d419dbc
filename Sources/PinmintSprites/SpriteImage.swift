import PinmintRaster

/// One image of a sprite sheet before packing: straight-alpha RGBA8 pixels
/// and what the sprite index says about it beside its place in the sheet.
public struct SpriteImage: Sendable {
    /// The key in the sprite index (`icon-image` in a style), e.g. `food/cafe`.
    public var id: String
    /// The image's size, pixels (at `pixelRatio`).
    public var width: Int, height: Int
    /// width × height × 4 bytes, straight alpha, rows top to bottom.
    public var pixels: [UInt8]
    /// 1 for @1x, 2 for @2x …
    public var pixelRatio: Double
    /// The optional index fields (stretch zones, content box, SDF, text fit), in pixels of this image.
    public var metadata: SpriteMetadata
    /// Where the image came from (a file, `data.csv:12`), for error messages.
    public var source: String

    /// `pixels.count` must be width × height × 4 with no negative side (a
    /// precondition: anything else traps; `SpriteSheet.pack` checks images
    /// whose properties were changed afterwards).
    public init(id: String, width: Int, height: Int, pixels: [UInt8], pixelRatio: Double,
                metadata: SpriteMetadata = SpriteMetadata(), source: String = "") {
        // Overflow-safe: `width * height * 4` would trap on its own before the message could say why.
        precondition(Image.valueCount(width: width, height: height) == pixels.count,
                     "pixel count \(pixels.count) does not match size \(width)x\(height)")
        self.id = id
        self.width = width
        self.height = height
        self.pixels = pixels
        self.pixelRatio = pixelRatio
        self.metadata = metadata
        self.source = source
    }
}

/// How MapLibre / Mapbox GL fit a stretchable image around text on one axis
/// (`textFitWidth`, `textFitHeight` in the sprite index; MapLibre only,
/// Mapbox GL ignores them). The map's default is `stretchOrShrink`.
public enum TextFit: String, Sendable, CaseIterable {
    /// The image is stretched or shrunk on this axis to the text's size.
    case stretchOrShrink
    /// The image is stretched to the text's size but never shrunk below its own.
    case stretchOnly
    /// This axis is scaled to keep the image's aspect ratio after the other
    /// axis is fitted to the text.
    case proportional
}

/// The optional fields of one sprite-index entry, in pixels of the image
/// (origin top-left), as the MapLibre style specification defines them.
public struct SpriteMetadata: Hashable, Sendable {
    /// `[x1, y1, x2, y2]`: where `icon-text-fit` puts the text.
    public var content: [Int]?
    /// `[from, to]` column runs that may be stretched, increasing, not overlapping.
    public var stretchX: [[Int]]?
    /// `[from, to]` row runs that may be stretched.
    public var stretchY: [[Int]]?
    /// How the width follows the text with `icon-text-fit`; nil leaves
    /// the field out (the map's default, `stretchOrShrink`).
    public var textFitWidth: TextFit?
    /// How the height follows the text; nil leaves the field out.
    public var textFitHeight: TextFit?
    /// The image is a signed distance field (alpha: inside ≥ 192); the map recolours it with `icon-color`.
    public var sdf: Bool

    /// Metadata with the given fields; nil fields are left out of the index.
    /// Not checked here: `problem(width:height:)` and `SpriteSheet.pack` check
    /// them against the image's size.
    public init(content: [Int]? = nil, stretchX: [[Int]]? = nil, stretchY: [[Int]]? = nil,
                textFitWidth: TextFit? = nil, textFitHeight: TextFit? = nil, sdf: Bool = false) {
        self.content = content
        self.stretchX = stretchX
        self.stretchY = stretchY
        self.textFitWidth = textFitWidth
        self.textFitHeight = textFitHeight
        self.sdf = sdf
    }

    /// The same metadata moved by `(dx, dy)` pixels (an SDF's buffer shifts everything).
    public func offsetBy(dx: Int, dy: Int) -> SpriteMetadata {
        var moved = self
        moved.content = content.map { [$0[0] + dx, $0[1] + dy, $0[2] + dx, $0[3] + dy] }
        moved.stretchX = stretchX.map { $0.map { [$0[0] + dx, $0[1] + dx] } }
        moved.stretchY = stretchY.map { $0.map { [$0[0] + dy, $0[1] + dy] } }
        return moved
    }

    /// Checks the fields against an image of `width` × `height` pixels as the
    /// specification requires (inside the image, runs increasing and apart);
    /// the message names the field.
    public func problem(width: Int, height: Int) -> String? {
        if let content {
            guard content.count == 4, content[0] >= 0, content[1] >= 0, content[0] <= content[2], content[1] <= content[3],
                  content[2] <= width, content[3] <= height else {
                return "content \(content) is not [x1, y1, x2, y2] inside the \(width)x\(height) image"
            }
        }
        for (name, runs, limit) in [("stretchX", stretchX, width), ("stretchY", stretchY, height)] {
            guard let runs else { continue }
            var previousEnd = 0
            for run in runs {
                guard run.count == 2, run[0] >= previousEnd, run[0] < run[1], run[1] <= limit else {
                    return "\(name) \(runs) is not increasing, non-overlapping [from, to] runs within 0...\(limit)"
                }
                previousEnd = run[1]
            }
        }
        return nil
    }
}
