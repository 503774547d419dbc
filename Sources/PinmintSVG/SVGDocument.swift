import Foundation
import PinmintGeometry
import PinmintRaster

/// An SVG file read, checked and resolved, ready to draw with Pinmint's
/// rasterizer.
///
/// Reading does all the parsing: a document that initialises draws without
/// errors other than canvas limits. Supported: `svg`, `g`, `defs`, the basic
/// shapes and `path`, linear and radial gradients, `clipPath`, `filter` with
/// one `feDropShadow`, presentation attributes and `style=""`, transforms.
/// Unsupported elements and attributes are skipped and listed in `warnings`.
///
/// Limits: files up to 16 MiB (`SVGLimits`); elements, depth, attributes,
/// names and entities as `XMLLimits` says. The XML is read by `XMLReader`.
public struct SVGDocument: Sendable {
    /// Width and height in CSS pixels (user units at scale 1): from the
    /// `width` and `height` attributes (px, unitless, pt, pc, mm, cm, in at
    /// 96 dpi), else the viewBox size. `width` is the horizontal one.
    public var width: Double
    /// The vertical size, CSS pixels, found as `width` is (y down).
    public var height: Double
    /// The `viewBox`, or nil when the document has none.
    public var viewBox: Rect?
    /// Each unsupported element or attribute, once, in document order.
    public var warnings: [SVGWarning]

    /// The file name used in error messages.
    let file: String?
    /// The viewBox-to-viewport mapping of `preserveAspectRatio`.
    let viewBoxTransform: AffineMap
    let root: SVGRenderNode

    /// Reads a document from the bytes of an SVG file. `file` names it in
    /// error messages. Throws `SVGError` for malformed XML, a root that is not
    /// `<svg>`, unreadable values, a non-positive size or a file over the limits.
    public init(data: [UInt8], file: String? = nil) throws(SVGError) {
        self.file = file
        guard data.count <= SVGLimits.maximumFileSize else {
            throw SVGError(file: file, problem: "the file is \(data.count) bytes; at most \(SVGLimits.maximumFileSize) are read")
        }
        let element: SVGElement
        switch SVGTreeReader.read(data) {
        case .success(let root): element = root
        case .failure(let problem): throw SVGError(file: file, problem: problem.message)
        }
        guard element.name == "svg" else {
            throw SVGError(file: file, problem: "\(element.location()): the root element must be <svg>")
        }
        let size = try SVGDocument.readSize(element, file: file)
        width = size.width
        height = size.height
        viewBox = size.viewBox
        let fail = { (attribute: String, message: String) in
            SVGError(file: file, problem: "\(element.location(attribute)): \(message)")
        }
        let alignment = try SVGAspectRatio(element["preserveAspectRatio"] ?? "xMidYMid meet")
            .orThrow(fail("preserveAspectRatio", "expected none or xMinYMin...xMaxYMax, optionally followed by meet or slice"))
        viewBoxTransform = size.viewBox.map { alignment.transform(from: $0, toWidth: size.width, height: size.height) }
            ?? .identity
        let viewport = size.viewBox.map { ($0.width, $0.height) } ?? (size.width, size.height)
        var builder = SVGBuilder(file: file, viewport: viewport, root: element)
        builder.checkSupport(element)
        root = try builder.buildRoot(element)
        warnings = builder.warnings
    }

    /// Reads the SVG file at `path` (`-` or a pipe as a stream, never more
    /// than the 16 MiB limit and a byte); the path names it in error messages.
    public init(contentsOfFile path: String) throws(SVGError) {
        let limit = SVGLimits.maximumFileSize
        let bytes: [UInt8]
        do { bytes = try InputFile.read(path, limit: limit) } catch {
            switch error {
            case .noSuchFile: throw SVGError(file: path, problem: "cannot read the file: no such file")
            case .folder: throw SVGError(file: path, problem: "cannot read the file: it is a folder")
            case .tooLarge(let size?): throw SVGError(file: path, problem: "the file is \(size) bytes; at most \(limit) are read")
            case .tooLarge(nil): throw SVGError(file: path, problem: "the input holds more than \(limit) bytes; at most that many are read")
            case .unreadable(let reason): throw SVGError(file: path, problem: "cannot read the file: \(reason)")
            case .notRegularFile(let kind): throw SVGError(file: path, problem: "\(kind), not a file")
            }
        }
        try self.init(data: bytes, file: path)
    }

    /// The document size from width, height and viewBox.
    private static func readSize(_ svg: SVGElement, file: String?) throws(SVGError)
        -> (width: Double, height: Double, viewBox: Rect?) {
        func fail(_ attribute: String, _ message: String) -> SVGError {
            SVGError(file: file, problem: "\(svg.location(attribute)): \(message)")
        }
        var viewBox: Rect?
        if let text = svg["viewBox"] {
            let numbers: [Double]
            do { numbers = try SVGValueParser.numberList(text) } catch { throw fail("viewBox", error.message) }
            guard numbers.count == 4 else { throw fail("viewBox", "expected 4 numbers, found \(numbers.count)") }
            guard numbers[2] > 0, numbers[3] > 0 else {
                throw fail("viewBox", "width and height must be positive, found '\(text)'")
            }
            viewBox = Rect(x: numbers[0], y: numbers[1], width: numbers[2], height: numbers[3])
        }
        /// An absolute length, or nil when absent, `auto` or a percentage (then the viewBox decides).
        func dimension(_ attribute: String) throws(SVGError) -> Double? {
            guard let text = svg[attribute]?.trimmingWhitespace(), text != "auto", !text.hasSuffix("%") else { return nil }
            let value: Double
            do { value = try SVGValueParser.length(text, axis: .horizontal, viewport: (0, 0)) } catch {
                throw fail(attribute, error.message)
            }
            guard value > 0, value.isFinite else { throw fail(attribute, "must be positive, found '\(text)'") }
            return value
        }
        var width = try dimension("width"), height = try dimension("height")
        if let viewBox {
            // A missing side keeps the viewBox's aspect ratio.
            switch (width, height) {
            case (nil, nil): width = viewBox.width; height = viewBox.height
            case (let w?, nil): height = w * viewBox.height / viewBox.width
            case (nil, let h?): width = h * viewBox.width / viewBox.height
            default: break
            }
        }
        guard let width, let height else {
            let attribute = width == nil ? "width" : "height"
            switch svg[attribute]?.trimmingWhitespace() {
            case nil:
                throw fail(attribute, "missing, and there is no viewBox to take it from")
            case let text? where text.hasSuffix("%"):
                throw fail(attribute, "'\(text)': a percentage is not supported without a viewBox "
                           + "(give a length, e.g. 24, or a viewBox)")
            case let text?:
                throw fail(attribute, "'\(text)' takes the size from the viewBox, and there is none "
                           + "(give a length, e.g. 24, or a viewBox)")
            }
        }
        guard width.isFinite, height.isFinite else { throw fail("width", "the size is not finite") }
        return (width, height, viewBox)
    }
}

private extension Optional {
    func orThrow(_ error: SVGError) throws(SVGError) -> Wrapped {
        guard let self else { throw error }
        return self
    }
}

/// `preserveAspectRatio`: how the viewBox is fitted into the viewport.
struct SVGAspectRatio {
    /// 0, 0.5 or 1: min, mid or max; nil for `none` (stretch).
    var alignX: Double?, alignY: Double?
    var slice: Bool

    init?(_ text: String) {
        var words = text.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" }).map(String.init)
        if words.first == "defer" { words.removeFirst() }
        guard let align = words.first, words.count <= 2 else { return nil }
        slice = false
        if words.count == 2 {
            guard words[1] == "meet" || words[1] == "slice" else { return nil }
            slice = words[1] == "slice"
        }
        if align == "none" { alignX = nil; alignY = nil; return }
        let positions = ["Min": 0.0, "Mid": 0.5, "Max": 1.0]
        guard align.count == 8, align.hasPrefix("x"),
              let x = positions[String(align.dropFirst().prefix(3))],
              align.dropFirst(4).hasPrefix("Y"),
              let y = positions[String(align.suffix(3))] else { return nil }
        alignX = x; alignY = y
    }

    /// The viewBox-to-viewport transform (SVG 1.1 7.8).
    func transform(from viewBox: Rect, toWidth width: Double, height: Double) -> AffineMap {
        var scaleX = width / viewBox.width, scaleY = height / viewBox.height
        var translateX = 0.0, translateY = 0.0
        if let alignX, let alignY {
            let uniform = slice ? max(scaleX, scaleY) : min(scaleX, scaleY)
            scaleX = uniform; scaleY = uniform
            translateX = (width - viewBox.width * uniform) * alignX
            translateY = (height - viewBox.height * uniform) * alignY
        }
        return AffineMap.translation(-viewBox.minX, -viewBox.minY)
            .concatenating(.scale(scaleX, scaleY))
            .concatenating(.translation(translateX, translateY))
    }
}
