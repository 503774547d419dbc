import PinmintGeometry
import PinmintRaster

/// Turns a golden case's input file into pixels: one render function per
/// file extension. The diff module knows no input format itself; the
/// `pinmint` command registers SVG and marker descriptions (JSON, with
/// their variants) with one line each:
///
///     var renderers = GoldenRenderers()
///     renderers.register(fileExtension: "svg") { path, scale in try SVGDocument(contentsOfFile: path).render(scale: scale) }
public struct GoldenRenderers: Sendable {
    /// Draws the input file at `scale` (a pixel ratio: 2 draws @2x) and returns the canvas.
    public typealias Render = @Sendable (_ inputPath: String, _ scale: Double) throws -> Canvas

    /// Extensions a golden suite treats as case inputs even when no renderer
    /// is registered for them (they then fail with "unsupported input").
    public static let knownInputExtensions: Set<String> = ["svg", "json"]

    /// Draws one variant of an input (e.g. a marker's `selected` state); nil is the default.
    public typealias VariantRender = @Sendable (_ inputPath: String, _ scale: Double, _ variant: String?) throws -> Canvas
    /// The names of an input's other variants (not the default), in order.
    public typealias VariantNames = @Sendable (_ inputPath: String) throws -> [String]

    private var renderers: [String: VariantRender] = [:]
    private var variantNames: [String: VariantNames] = [:]

    /// No renderer registered: every input fails as unsupported until
    /// `register` adds its extension.
    public init() {}

    /// Registers (or replaces) the renderer for files ending in `.fileExtension` (case-insensitive, no dot).
    public mutating func register(fileExtension: String, _ render: @escaping Render) {
        renderers[fileExtension.lowercased()] = { path, scale, _ in try render(path, scale) }
        variantNames[fileExtension.lowercased()] = nil
    }

    /// Registers a format whose inputs have variants: `NAME.json` with a
    /// `selected` variant is also the case `NAME-selected`, whose expected
    /// images are `NAME-selected@Sx.png`.
    public mutating func register(fileExtension: String, variants: @escaping VariantNames,
                                  _ render: @escaping VariantRender) {
        renderers[fileExtension.lowercased()] = render
        variantNames[fileExtension.lowercased()] = variants
    }

    /// The other variants of an input (none for formats without variants).
    public func variants(of inputPath: String) throws -> [String] {
        let fileExtension = inputPath.split(separator: ".").last.map { $0.lowercased() } ?? ""
        return try variantNames[fileExtension]?(inputPath) ?? []
    }

    /// Lowercase extensions with a renderer, sorted.
    public var registeredExtensions: [String] { renderers.keys.sorted() }

    /// Extensions that make a file a case input: the known ones and every registered one.
    public var inputExtensions: Set<String> { GoldenRenderers.knownInputExtensions.union(renderers.keys) }

    /// Renders one input at one scale, as straight RGBA8.
    ///
    /// - Throws: `GoldenError.unsupportedInput` when no renderer is registered
    ///   for the file's extension; otherwise whatever the renderer throws.
    public func render(inputPath: String, scale: Double, variant: String? = nil) throws -> RGBA8Image {
        let fileExtension = inputPath.split(separator: ".").last.map { $0.lowercased() } ?? ""
        guard let render = renderers[fileExtension] else {
            throw GoldenError.unsupportedInput(path: inputPath, supported: registeredExtensions)
        }
        return RGBA8Image(try render(inputPath, scale, variant))
    }
}

/// Why a golden suite (or one of its cases) could not be run.
public enum GoldenError: Error, Equatable, CustomStringConvertible {
    /// No renderer for the input's extension in this build.
    case unsupportedInput(path: String, supported: [String])
    /// The suite folder or its inputs folder does not exist or cannot be listed.
    case unreadableFolder(path: String, problem: String)
    /// A line of golden.conf is malformed; `line` counts from 1, and is 0
    /// (and not printed) when the problem is the whole file (a folder, unreadable).
    case configuration(path: String, line: Int, problem: String)
    /// A case named in golden.conf (or an expected image) has no input file.
    case missingInput(name: String, looked: String)
    /// An input that cannot be read (e.g. a malformed marker description); the message names it.
    case badInput(message: String)

    /// One line naming the path (or the case) and the problem.
    public var description: String { MessageText.oneLine(text) }

    private var text: String {
        switch self {
        case let .unsupportedInput(path, supported):
            let fileExtension = path.split(separator: ".").last.map(String.init) ?? ""
            return "\(path): unsupported input (no renderer for .\(fileExtension) files in this build; supported: "
                + supported.map { "." + $0 }.joined(separator: ", ") + ")"
        case let .unreadableFolder(path, problem): return "\(path): \(problem)"
        case let .configuration(path, line, problem): return line > 0 ? "\(path):\(line): \(problem)" : "\(path): \(problem)"
        case let .missingInput(name, looked): return "\(name): no input file (looked for \(looked))"
        case let .badInput(message): return message
        }
    }
}
