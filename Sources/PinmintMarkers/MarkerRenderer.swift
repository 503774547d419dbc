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
    // The caches below skip Swift's dynamic exclusivity checks
    // (`@exclusivity(unchecked)`): a renderer is used by one thread, no
    // access to one of them overlaps another (each is a lookup or a store),
    // and the checks, a runtime call on every access, were about 3 % of a
    // warm price tag with the layout nodes' and the font faces' own.
    @exclusivity(unchecked) private var fallbacks: [FallbackKey: FontFallback] = [:]
    @exclusivity(unchecked) private var pictures: [String: Image] = [:]
    @exclusivity(unchecked) private var icons: [String: SVGDocument] = [:]
    /// Text set before: markers in a batch repeat most of theirs (a badge,
    /// a unit), so each distinct text is laid out once. Bounded.
    @exclusivity(unchecked) private var textLayouts: [TextKey: TextLayout] = [:]
    /// Pictures area-averaged to the size they are drawn at, by file and size.
    @exclusivity(unchecked) private var shrunkPictures: [String: Image] = [:]
    /// Background outlines drawn before: markers in a batch repeat their
    /// shapes (a badge circle; a tag as wide as the last price's). Bounded.
    @exclusivity(unchecked) private var outlines: [OutlineKey: ShapeOutline] = [:]
    /// Coverage masks of background shapes filled with a plain colour, by
    /// shape, frame, scale and flattening tolerance; bounded by their bytes.
    @exclusivity(unchecked) private var shapeMasks: [ShapeMaskKey: CoverageMask] = [:]
    @exclusivity(unchecked) private var shapeMaskBytes = 0
    /// The masks of bubbles at their narrowest, which wider ones are stretched
    /// from (see `BubbleGeometry.stretch`); within the bytes of `shapeMasks`.
    @exclusivity(unchecked) private var narrowBubbleMasks: [NarrowBubbleKey: CoverageMask] = [:]
    /// Shapes asked for once and not yet kept as masks (see `shapeMask`).
    /// Bounded by count: a key holds its shape, path data included.
    @exclusivity(unchecked) private var shapesSeenOnce: Set<ShapeMaskKey> = []
    static let maximumShapesSeenOnce = 256
    /// Whether plain-colour background shapes are composited from the masks
    /// kept above (the default). When false every shape is rasterized on each
    /// render, for measuring what the masks save: the same pixels, but for
    /// bubbles stretched from a narrower mask, whose premultiplied values may
    /// differ by a few 16-bit steps (at most 1 in 8 bits; see `BubbleStretchTests`).
    package var reusesShapeMasks = true
    /// Memory the shape masks may take (8 MiB: a price tag's is about 40 KiB at @2x).
    static let maximumShapeMaskBytes = 8 << 20
    /// Shapes larger than this many pixels (512 × 512) are filled as paths:
    /// their masks would take megabytes, and markers that size are rare.
    static let maximumShapeMaskPixels = 512.0 * 512.0

    /// A renderer over the fonts in `fontFolders`, then Pinmint's own
    /// `Fonts/`, then (unless `includeSystemFonts` is false) the system's,
    /// as fontconfig lists them. Pinmint's faces come before the system's
    /// for every character they have, so text they cover renders to the
    /// same bytes on every machine; system faces fill what they lack.
    public init(fontFolders: [String] = [], includeSystemFonts: Bool = true) throws(MarkerError) {
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

    /// A renderer for the calling thread over `fontFolders`, the shipped
    /// fonts and (unless `includeSystemFonts` is false) the system's, made
    /// on first use and kept in the thread's dictionary: for work spread
    /// over threads (golden suites, batches) without sharing a renderer.
    public static func forCurrentThread(fontFolders: [String] = [], includeSystemFonts: Bool = true) throws(MarkerError) -> MarkerRenderer {
        let key = "PinmintMarkers.MarkerRenderer\u{0}\(includeSystemFonts)\u{0}" + fontFolders.joined(separator: "\u{0}")
        if let renderer = Thread.current.threadDictionary[key] as? MarkerRenderer { return renderer }
        let renderer = try MarkerRenderer(fontFolders: fontFolders, includeSystemFonts: includeSystemFonts)
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
    /// Throws `MarkerError` for a scale outside `MarkerLimits.scaleRange` and
    /// for a description built in Swift with numbers the JSON format would
    /// refuse (see `MarkerDescription.validate()`).
    public func render(_ description: MarkerDescription, scale: Double) throws(MarkerError) -> RenderedMarker {
        guard scale.isFinite, MarkerLimits.scaleRange.contains(scale) else {
            throw MarkerError(input: "scale", problem: "\(scale.plainDescription) is out of range "
                              + "(\(MarkerLimits.scaleRange.plainDescription))")
        }
        try description.validate()
        var layout = MarkerLayout(scale: scale, renderer: self, source: description.source)
        let root = try layout.build(description.body, path: "marker")
        _ = try layout.measure(root, limit: nil)
        layout.place(root, at: .zero)
        return try layout.draw(root, anchor: description.anchor, variant: description.variant, source: description.source)
    }

    // MARK: Resources

    /// The font chain for `requested` families (nil: the defaults) at
    /// `weight`, kept for next time. When none of them is installed the
    /// error names `input` (the description) and `place` (its `font` key).
    func fallback(families requested: [String]?, weight: Int, input: String, place: String) throws(MarkerError) -> FontFallback {
        let key = FallbackKey(families: requested, weight: weight)
        if let cached = fallbacks[key] { return cached }
        let families = requested ?? FontLibrary.defaultFamilies
        let chain: FontFallback
        do { chain = try fonts.fallback(families: families, weight: weight) } catch {
            throw MarkerError(input: error.file, problem: error.problem)
        }
        guard !chain.isEmpty else {
            throw MarkerError(input: input, path: place, problem: "none of the families \(families.joined(separator: ", ")) is installed; "
                              + "available: \(fonts.families.prefix(8).joined(separator: ", "))")
        }
        fallbacks[key] = chain
        return chain
    }

    /// The picture at `file`, decoded once; `input` and `place` (the
    /// description and the JSON path that name it) lead the error when there is no such file.
    func picture(_ file: String, input: String, place: String) throws(MarkerError) -> Image {
        if let cached = pictures[file] { return cached }
        guard FileManager.default.fileExists(atPath: file) else {
            throw MarkerError(input: input, path: place, problem: "no such picture file: \(file)")
        }
        let image: Image
        let side = MarkerLimits.maximumPictureSide
        do {
            image = try PNGDecoder.decode(regularFile: file, maximumBytes: MarkerLimits.maximumPictureBytes,
                                          limits: PNGDecoder.Limits(maximumSide: side, maximumPixelCount: side * side)).image
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
    func prepared(_ image: Image, file: String?, drawnWith transform: AffineMap) -> Image {
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

    /// The coverage mask of `outline` (`shape`'s outline in `frame` at
    /// `scale`) as `canvas` would fill it, kept per shape, frame, scale and
    /// flattening tolerance. A bubble with its arrow at the bottom or top is
    /// stretched from its narrowest self (see `BubbleGeometry.stretch`);
    /// other shapes are kept the second time they are asked for: the first
    /// time this returns nil and the caller fills the path, so a shape drawn
    /// once costs one fill, not a mask and its compositing. Past
    /// `maximumShapeMaskBytes` the caches start again empty.
    func shapeMask(_ outline: ShapeOutline, of shape: Shape, in frame: Rect, scale: Double,
                   on canvas: Canvas) throws(RasterError) -> CoverageMask? {
        let key = ShapeMaskKey(shape: OutlineKey(shape: shape, frame: frame, scale: scale), tolerance: canvas.fillFlatteningTolerance)
        if let cached = shapeMasks[key] {
            guard cached.isStretched else { return cached }
            // A stretched mask asked for again: written out, it composites
            // faster from now on (the same values, so the same pixels).
            let plain = cached.materialized()
            shapeMaskBytes -= cached.byteCount
            keep(plain, for: key)
            return plain
        }
        if case .bubble(let radius, let arrow) = shape,
           let stretch = BubbleGeometry(body: outline.body, radius: radius * scale, arrow: arrow, scale: scale)?.stretch() {
            // A bubble is its narrowest self with straight columns repeated (a
            // tag of a width not drawn before costs no rasterization). Always
            // so, even the first time, so that a bubble's pixels do not depend
            // on what the renderer drew before.
            let narrowKey = NarrowBubbleKey(geometry: stretch.narrow, tolerance: canvas.fillFlatteningTolerance)
            let cached = narrowBubbleMasks[narrowKey]
            let narrow: CoverageMask
            if let cached { narrow = cached } else {
                narrow = try canvas.makeCoverageMask(stretch.narrow.localPath(), transform: stretch.narrow.toDevice)
            }
            let insertions = stretch.insertions.map { (column: $0.column - narrow.originX, count: $0.count) }
            if let mask = narrow.stretched(inserting: insertions, dx: stretch.dx, dy: stretch.dy) {
                // Kept too: it shares the narrow mask's coverage, so it costs only its row extents.
                // Room for both first, so that making room cannot drop the narrow mask just kept.
                makeRoom(for: mask.byteCount + (cached == nil ? narrow.byteCount : 0))
                if cached == nil { narrowBubbleMasks[narrowKey] = narrow; shapeMaskBytes += narrow.byteCount }
                keep(mask, for: key)
                return mask
            }
        }
        guard shapesSeenOnce.remove(key) != nil else {
            if shapesSeenOnce.count >= MarkerRenderer.maximumShapesSeenOnce { shapesSeenOnce.removeAll(keepingCapacity: true) }
            shapesSeenOnce.insert(key)
            return nil
        }
        let mask = try canvas.makeCoverageMask(outline.path)
        keep(mask, for: key)
        return mask
    }

    /// Keeps `mask` as `key`'s, within `maximumShapeMaskBytes`.
    private func keep(_ mask: CoverageMask, for key: ShapeMaskKey) {
        makeRoom(for: mask.byteCount)
        shapeMasks[key] = mask
        shapeMaskBytes += mask.byteCount
    }

    /// Empties both mask caches when `bytes` more would take them past `maximumShapeMaskBytes`.
    private func makeRoom(for bytes: Int) {
        guard shapeMaskBytes + bytes > MarkerRenderer.maximumShapeMaskBytes else { return }
        shapeMasks.removeAll(keepingCapacity: true)
        narrowBubbleMasks.removeAll(keepingCapacity: true)
        shapeMaskBytes = 0
    }

    /// The SVG icon at `file`, read once; `input` and `place` lead the error when there is no such file.
    func icon(_ file: String, input: String, place: String) throws(MarkerError) -> SVGDocument {
        if let cached = icons[file] { return cached }
        guard FileManager.default.fileExists(atPath: file) else {
            throw MarkerError(input: input, path: place, problem: "no such icon file: \(file)")
        }
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
        // The text first: the keys of one batch mostly differ only there.
        KeyFold.sameBytes(left.text, right.text) && left.weight == right.weight && left.scale == right.scale
            && left.style == right.style && left.families == right.families
    }

    /// The text and the fields that vary most (size, width limit, lines),
    /// folded into one word; the rest is left to `==`.
    func hash(into hasher: inout Hasher) {
        var fold = KeyFold()
        for byte in text.utf8 { fold.add(UInt64(byte)) }
        fold.add(style.fontSize)
        fold.add(style.maxWidth ?? -1)
        fold.add(UInt64(bitPattern: Int64(style.maxLines ?? -1)))
        fold.add(UInt64(bitPattern: Int64(weight)))
        fold.add(scale)
        hasher.combine(fold.value)
    }
}

/// A shape laid over a frame at a scale: what its outline depends on.
private struct OutlineKey: Hashable {
    let shape: Shape
    let frame: Rect
    let scale: Double

    /// The frame and the scale folded into one word; shapes are told apart by `==`.
    func hash(into hasher: inout Hasher) {
        var fold = KeyFold()
        fold.add(frame.minX)
        fold.add(frame.minY)
        fold.add(frame.width)
        fold.add(frame.height)
        fold.add(scale)
        hasher.combine(fold.value)
    }
}

/// A shape's outline (see `OutlineKey`) flattened at a tolerance.
private struct ShapeMaskKey: Hashable {
    let shape: OutlineKey
    let tolerance: Double
}

/// A narrowest bubble (in device pixels) flattened at a tolerance.
private struct NarrowBubbleKey: Hashable {
    let geometry: BubbleGeometry
    let tolerance: Double
}

/// Families asked for (nil: the defaults) and a weight.
private struct FallbackKey: Hashable {
    let families: [String]?
    let weight: Int

    /// The weight and how many families (nil: none) folded; the names are left to `==`.
    func hash(into hasher: inout Hasher) {
        var fold = KeyFold()
        fold.add(UInt64(bitPattern: Int64(weight)))
        fold.add(UInt64(bitPattern: Int64(families?.count ?? -1)))
        hasher.combine(fold.value)
    }
}

/// Cache keys' fields folded into one 64-bit word (FNV-1a, a word at a
/// time), which the `Hasher` then takes in one `combine`: feeding it a dozen
/// fields one by one cost more than the lookups it served. Equal keys fold
/// alike; different keys that fold alike only cost `==` a comparison.
struct KeyFold {
    private(set) var value: UInt64 = 0xcbf2_9ce4_8422_2325

    mutating func add(_ word: UInt64) { value = (value ^ word) &* 0x100_0000_01b3 }

    /// A length by its bits, with 0 and -0 (equal) folded alike.
    mutating func add(_ length: Double) { add(length == 0 ? 0 : length.bitPattern) }

    /// Whether two strings hold the same UTF-8 bytes (not Unicode equivalence).
    static func sameBytes(_ left: String, _ right: String) -> Bool {
        guard left.utf8.count == right.utf8.count else { return false }
        let compared = left.utf8.withContiguousStorageIfAvailable { leftBytes in
            right.utf8.withContiguousStorageIfAvailable { rightBytes in
                leftBytes.count == 0 || memcmp(leftBytes.baseAddress!, rightBytes.baseAddress!, leftBytes.count) == 0
            }
        }
        if case let equal?? = compared { return equal }
        return left.utf8.elementsEqual(right.utf8)
    }
}

/// A drawn marker: pixels and what a map client needs to place it.
public struct RenderedMarker {
    /// "default", or the variant's name ("selected").
    public let variant: String
    /// Premultiplied pixels, `metadata.width` × `metadata.height`.
    public let canvas: Canvas
    /// Size, pixel ratio, anchor, hit boxes and content box, in pixels of
    /// `canvas` (origin top-left, y down).
    public let metadata: MarkerMetadata
    /// Things worth telling a person (e.g. characters no font has).
    public let warnings: [String]
    /// Characters of the text no font has, drawn as .notdef boxes: in the
    /// order met, without repeats (`warnings` names them and the fonts tried).
    public let missingCharacters: [Unicode.Scalar]
    /// Pixel boxes of the parts that must keep their size when the image is
    /// stretched (see `stretchZones`).
    let fixedRegions: [PixelBox]
    /// How the marker's body stretches around a label (see `MarkerStretch`),
    /// worked out whether or not it has text: `metadata.stretch` has it only
    /// for a marker drawn without text. Nil for shapes without a flat run.
    /// Worked out when first asked for (most markers never are: finding the
    /// runs cost a warm price tag a fifth of its render).
    public var stretch: MarkerStretch? { lazyStretch.value }
    let lazyStretch: LazyStretch

    /// The marker as PNG bytes (with a pHYs chunk for the pixel ratio).
    public func pngData(mode: PNGEncoder.Mode = .default) throws(PNGError) -> [UInt8] {
        try PNGEncoder.encode(canvas, pixelRatio: metadata.pixelRatio, mode: mode)
    }
}

/// A marker's `MarkerStretch`, worked out the first time it is read.
/// Belongs to one `RenderedMarker` and its copies, used by one thread at a time.
final class LazyStretch {
    private var make: (() -> MarkerStretch?)?
    private var made: MarkerStretch?

    init(_ make: @escaping () -> MarkerStretch?) { self.make = make }

    var value: MarkerStretch? {
        if let make {
            made = make()
            self.make = nil
        }
        return made
    }
}
