import Foundation
import PinmintGeometry
import PinmintPNG
import PinmintRaster
import PinmintSVG
import PinmintText

/// Lays out and draws markers. Keeps the fonts, decoded pictures and parsed
/// SVG icons it has used, so rendering many markers with one renderer does
/// the loading once. Not thread-safe: use one renderer per thread.
public final class MarkerRenderer {
    /// The fonts text is set in.
    public let fonts: FontLibrary
    private var fallbacks: [FallbackKey: FontFallback] = [:]
    private var pictures: [String: Image] = [:]
    private var icons: [String: SVGDocument] = [:]
    /// Text set before: markers in a batch repeat most of theirs (a badge,
    /// a unit), so each distinct text is laid out once. Bounded.
    private var textLayouts: [TextKey: TextLayout] = [:]
    /// Pictures area-averaged to the size they are drawn at, by file and size.
    private var shrunkPictures: [String: Image] = [:]
    /// Background outlines drawn before: markers in a batch repeat their
    /// shapes (a badge circle; a tag as wide as the last price's). Bounded.
    private var outlines: [OutlineKey: ShapeOutline] = [:]

    /// A renderer over the fonts in `fontFolders`, then Pinmint's own
    /// `Fonts/`, then (only when `includeSystemFonts`) the system's. The
    /// default leaves system fonts out, so that a marker renders to the same
    /// bytes on every machine.
    public init(fontFolders: [String] = [], includeSystemFonts: Bool = false) throws(MarkerError) {
        do {
            fonts = try FontLibrary.standard(userFolders: fontFolders, includeSystem: includeSystemFonts)
        } catch {
            throw MarkerError(input: error.file, problem: error.problem)
        }
        guard !fonts.descriptors.isEmpty else {
            throw MarkerError(input: "fonts", problem: "no fonts found (looked in \(fonts.folders.joined(separator: ", "))); "
                              + "set PINMINT_FONTS to Pinmint's Fonts/ folder")
        }
    }

    /// A renderer for the calling thread over the shipped fonts, made on
    /// first use and kept in the thread's dictionary: for work spread over
    /// threads (golden suites, batches) without sharing a renderer.
    public static func forCurrentThread() throws(MarkerError) -> MarkerRenderer {
        let key = "PinmintMarkers.MarkerRenderer"
        if let renderer = Thread.current.threadDictionary[key] as? MarkerRenderer { return renderer }
        let renderer = try MarkerRenderer()
        Thread.current.threadDictionary[key] = renderer
        return renderer
    }

    /// Renders every variant of `style` with `options` (command-line text).
    public func render(style: MarkerStyle, options: [String: String] = [:], scale: Double) throws(MarkerError) -> [RenderedMarker] {
        var rendered: [RenderedMarker] = []
        for description in try style.resolve(options: options) {
            rendered.append(try render(description, scale: scale))
        }
        return rendered
    }

    /// Lays out and draws one marker at `scale` (pixel ratio: 2 renders @2x).
    public func render(_ description: MarkerDescription, scale: Double) throws(MarkerError) -> RenderedMarker {
        guard scale.isFinite, MarkerLimits.scaleRange.contains(scale) else {
            throw MarkerError(input: "scale", problem: "\(scale) is out of range (\(MarkerLimits.scaleRange.lowerBound)...\(MarkerLimits.scaleRange.upperBound))")
        }
        var layout = MarkerLayout(scale: scale, renderer: self)
        let root = try layout.build(description.body, path: "marker")
        _ = try layout.measure(root, limit: nil)
        layout.place(root, at: .zero)
        return try layout.draw(root, anchor: description.anchor, variant: description.variant, source: description.source)
    }

    // MARK: Resources

    func fallback(families requested: [String]?, weight: Int) throws(MarkerError) -> FontFallback {
        let key = FallbackKey(families: requested, weight: weight)
        if let cached = fallbacks[key] { return cached }
        let families = requested ?? FontLibrary.defaultFamilies
        let chain: FontFallback
        do { chain = try fonts.fallback(families: families, weight: weight) } catch {
            throw MarkerError(input: error.file, problem: error.problem)
        }
        guard !chain.isEmpty else {
            throw MarkerError(input: "font", problem: "none of the families \(families.joined(separator: ", ")) is installed; "
                              + "available: \(fonts.families.prefix(8).joined(separator: ", "))")
        }
        fallbacks[key] = chain
        return chain
    }

    func picture(_ file: String) throws(MarkerError) -> Image {
        if let cached = pictures[file] { return cached }
        guard FileManager.default.fileExists(atPath: file) else { throw MarkerError(input: file, problem: "no such picture file") }
        let image: Image
        do {
            image = try PNGDecoder.decode(contentsOfFile: file, limits: PNGDecoder.Limits(maximumSide: 4096, maximumPixelCount: 4096 * 4096)).image
        } catch {
            throw MarkerError(input: file, problem: "not a usable PNG picture: \(error.problem)")
        }
        pictures[file] = image
        return image
    }

    /// `text` set with `style` at `scale` in the chain for `families` and
    /// `weight` (which `fallback` is): laid out once, then reused.
    func textLayout(_ text: String, style: TextStyle, families: [String]?, weight: Int, fallback: FontFallback,
                    scale: Double) throws(FontError) -> TextLayout {
        let key = TextKey(text: text, style: style, families: families, weight: weight, scale: scale)
        if let cached = textLayouts[key] { return cached }
        let layout = try TextLayout(text: text, style: style, fallback: fallback, scale: scale)
        if textLayouts.count >= 1024 { textLayouts.removeAll(keepingCapacity: true) }
        textLayouts[key] = layout
        return layout
    }

    /// `image` (from `file`) ready to be drawn with `transform`: shrunk
    /// first when drawn small (see `ImageResampling`), kept for next time.
    func prepared(_ image: Image, file: String?, drawnWith transform: AffineTransform) -> Image {
        guard let file else { return ImageResampling.prepared(image, drawnWith: transform) }
        let size = ImageResampling.drawnSize(image, drawnWith: transform)
        let key = "\(size.width)x\(size.height)|\(file)"
        if let cached = shrunkPictures[key] { return cached }
        let prepared = ImageResampling.prepared(image, drawnWith: transform)
        if shrunkPictures.count >= 256 { shrunkPictures.removeAll() }
        shrunkPictures[key] = prepared
        return prepared
    }

    /// `shape`'s outline in `frame` at `scale` (see `Shape.outline`), made
    /// once per shape, frame and scale. Shapes from SVG path data are made
    /// every time (hashing their path would cost about as much).
    func outline(of shape: Shape, in frame: Rect, scale: Double) -> ShapeOutline {
        if case .path = shape { return shape.outline(in: frame, scale: scale) }
        let key = OutlineKey(shape: shape, frame: frame, scale: scale)
        if let cached = outlines[key] { return cached }
        let outline = shape.outline(in: frame, scale: scale)
        if outlines.count >= 256 { outlines.removeAll(keepingCapacity: true) }
        outlines[key] = outline
        return outline
    }

    func icon(_ file: String) throws(MarkerError) -> SVGDocument {
        if let cached = icons[file] { return cached }
        guard FileManager.default.fileExists(atPath: file) else { throw MarkerError(input: file, problem: "no such icon file") }
        let document: SVGDocument
        do { document = try SVGDocument(contentsOfFile: file) } catch {
            throw MarkerError(input: file, problem: "not a usable SVG icon: \(error.problem)")
        }
        icons[file] = document
        return document
    }
}

/// A text and everything its layout depends on.
///
/// The text is compared and hashed by its UTF-8 bytes, not as a `String`:
/// String's hash and `==` normalise non-ASCII text first (most of a lookup's
/// cost for "5200萬"), and two spellings that normalise alike (é as one
/// scalar or as e and a combining accent) are set from different scalars,
/// so they must not share a layout.
private struct TextKey: Hashable {
    let text: String
    let style: TextStyle
    let families: [String]?
    let weight: Int
    let scale: Double

    static func == (left: TextKey, right: TextKey) -> Bool {
        left.weight == right.weight && left.scale == right.scale && left.style == right.style
            && left.families == right.families && left.text.utf8.elementsEqual(right.text.utf8)
    }

    func hash(into hasher: inout Hasher) {
        let hashed: Void? = text.utf8.withContiguousStorageIfAvailable { bytes in
            hasher.combine(bytes.count)
            hasher.combine(bytes: UnsafeRawBufferPointer(bytes))
        }
        if hashed == nil {
            hasher.combine(text.utf8.count)
            for byte in text.utf8 { hasher.combine(byte) }
        }
        hasher.combine(style)
        hasher.combine(families)
        hasher.combine(weight)
        hasher.combine(scale)
    }
}

/// A shape laid over a frame at a scale: what its outline depends on.
private struct OutlineKey: Hashable {
    let shape: Shape
    let frame: Rect
    let scale: Double
}

/// Families asked for (nil: the defaults) and a weight.
private struct FallbackKey: Hashable {
    let families: [String]?
    let weight: Int
}

/// A drawn marker: pixels and what a map client needs to place it.
public struct RenderedMarker {
    /// "default", or the variant's name ("selected").
    public let variant: String
    /// Premultiplied pixels, `metadata.width` × `metadata.height`.
    public let canvas: Canvas
    public let metadata: MarkerMetadata
    /// Things worth telling a person (e.g. characters no font has).
    public let warnings: [String]
    /// Pixel boxes of the parts that must keep their size when the image is
    /// stretched (see `stretchZones`).
    let fixedRegions: [PixelBox]

    /// The marker as PNG bytes (with a pHYs chunk for the pixel ratio).
    public func pngData(mode: PNGEncoder.Mode = .default) throws(PNGError) -> [UInt8] {
        try PNGEncoder.encode(canvas, pixelRatio: metadata.pixelRatio, mode: mode)
    }
}
