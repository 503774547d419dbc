import Foundation
import PinmintGeometry
import PinmintMarkers
import PinmintPNG
import PinmintRaster
import PinmintSVG

/// What goes into a sprite, gathered from the command line's inputs:
///
/// - **Folders**, walked recursively (hidden files skipped): every `.svg`
///   and `.png` is an icon whose id is its path below the folder without
///   the extension, so sub-folder names become id prefixes (`food/cafe`),
///   as spreet names them. `NAME@2x.png` beside `NAME.png` is used at @2x.
/// - **SVG files**: drawn at each ratio exactly as `pinmint render ICON.svg --scale R`.
/// - **PNG files**: `NAME.png`, and `NAME@Rx.png` for @Rx when present (else
///   `NAME.png` resampled, with a warning); `NAME@Rx.png` must be R times
///   `NAME.png`'s size (within a pixel when that is not whole).
/// - **Marker descriptions** (`.json`): one marker (a preset with options or
///   a style), or a list of them, each with an optional `"id"` and
///   `"sprite"` object (`stretchable`, `content`, `stretchX`, `stretchY`,
///   `textFitWidth`, `textFitHeight`, `sdf`). A style's variants add
///   `-VARIANT` to the id.
/// - **A sidecar** (`.json` with an `"icons"` object): per-id metadata for
///   any icon, in @1x pixels (scaled by the ratio).
public struct SpriteInputs: Sendable {
    /// One image source, rendered at each ratio.
    public enum Source: Sendable {
        /// An SVG file, drawn at each ratio as `pinmint render` draws it.
        case svg(id: String, path: String)
        /// `files[ratio]`: the PNG for that ratio; `files[1]` always exists.
        case png(id: String, files: [Double: String])
        /// A marker description (`input` is the file it came from), drawn
        /// at each ratio, one image per variant; `options` carries its
        /// `"sprite"` object.
        case marker(id: String, file: MarkerFile, input: String, options: MarkerSpriteOptions)

        /// The id (a marker's default variant; others add `-VARIANT`).
        public var id: String {
            switch self {
            case .svg(let id, _), .png(let id, _), .marker(let id, _, _, _): return id
            }
        }
    }

    /// Every image source in the order the inputs were given (a folder's
    /// files sorted by path); their ids are valid and unique.
    public private(set) var sources: [Source] = []

    /// Every file the sources read (SVGs, PNGs, marker lists), so that no
    /// output is written over one of them.
    public var inputFiles: [String] {
        sources.flatMap { source -> [String] in
            switch source {
            case .svg(_, let path): return [path]
            case .png(_, let files): return Array(files.values)
            case .marker(_, _, let input, _): return [input]
            }
        }
    }
    /// Per-id metadata from sidecars and marker lists, in @1x pixels.
    public private(set) var overrides: [String: SpriteMetadataOverride] = [:]

    /// Collects the sources named by `paths` (files and folders).
    /// - Throws: `SpriteError` naming the file for a missing path, an
    ///   unsupported file, a malformed description or sidecar, an id that
    ///   `SpriteID` refuses (from a file name as from a list's `"id"`), a
    ///   duplicate id, metadata for one id in two sidecars, or sidecar
    ///   metadata for an id no input has.
    public init(paths: [String]) throws(SpriteError) {
        var sidecarEntries: [(file: String, id: String)] = []
        var sidecarFiles: [String: String] = [:]     // id → the sidecar that gives its metadata
        for path in paths {
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) else {
                throw SpriteError(input: path, problem: "no such file or folder")
            }
            if isFolder.boolValue {
                try addFolder(path)
                continue
            }
            let name = PathName.lastComponent(of: path)
            let id = Self.stem(name)
            switch PathName.pathExtension(of: name).lowercased() {
            case "svg": sources.append(.svg(id: id, path: path))
            case "png":
                guard Self.ratioSuffix(of: id) == nil else {
                    throw SpriteError(input: path, problem: "give the @1x file (\(Self.stripRatio(id).name).png); its @Nx files are found beside it")
                }
                sources.append(.png(id: id, files: Self.ratioFiles(base: path)))
            case "json":
                // One sidecar per id: which of two would win is not something to guess from the order of the arguments.
                for entry in try addJSON(path) {
                    if let earlier = sidecarFiles[entry.id] {
                        throw SpriteError(input: path, problem: "icons.\(entry.id): \(earlier) gives metadata for '\(entry.id)' too; "
                                          + "give each id's metadata in one sidecar")
                    }
                    sidecarFiles[entry.id] = path
                    sidecarEntries.append(entry)
                }
            default:
                throw SpriteError(input: path, problem: "not an input a sprite takes (.svg, .png, a marker .json, a sidecar .json, or a folder)")
            }
        }
        // Ids that cannot be ids (one made from a file name with a newline
        // or an ESC in it, as a marker list's "id" would be refused), duplicate
        // ids across inputs, then sidecar ids that name nothing.
        var seen: [String: Int] = [:]
        for (index, source) in sources.enumerated() {
            for id in Self.ids(of: source) {
                if let problem = SpriteID.problem(id) {
                    throw SpriteError(input: Self.origin(of: source), problem: problem)
                }
                if let first = seen[id] {
                    throw SpriteError(input: Self.origin(of: source), problem: "duplicate id '\(id)' (also from \(Self.origin(of: sources[first])))")
                }
                seen[id] = index
            }
        }
        for entry in sidecarEntries where seen[entry.id] == nil {
            let hint = JSONValue.closest(to: entry.id, in: Array(seen.keys)).map { " (did you mean '\($0)'?)" } ?? ""
            throw SpriteError(input: entry.file, problem: "icons.\(entry.id): no input has this id\(hint)")
        }
    }

    /// Every id `source` produces (a marker: one per variant).
    static func ids(of source: Source) -> [String] {
        switch source {
        case .marker(let id, let file, _, _):
            return file.style.variantNames.map { $0 == "default" ? id : "\(id)-\($0)" }
        default:
            return [source.id]
        }
    }

    static func origin(of source: Source) -> String {
        switch source {
        case .svg(_, let path): return path
        case .png(_, let files): return files[1] ?? source.id
        case .marker(_, _, let input, _): return input
        }
    }

    // MARK: Folders

    private mutating func addFolder(_ folder: String) throws(SpriteError) {
        guard let walker = FileManager.default.enumerator(atPath: folder) else {
            throw SpriteError(input: folder, problem: "cannot read the folder")
        }
        var files: [String] = []
        while let relative = walker.nextObject() as? String {
            if relative.split(separator: "/").contains(where: { $0.hasPrefix(".") }) { continue }
            if relative.unicodeScalars.contains("\u{FFFD}") { try Self.checkName(relative, in: folder) }
            let lowered = relative.lowercased()
            if lowered.hasSuffix(".svg") || lowered.hasSuffix(".png") { files.append(relative) }
        }
        let before = sources.count
        for relative in files.sorted() {
            let path = PathName.appending(relative, to: folder)
            let id = Self.stem(relative)
            if relative.lowercased().hasSuffix(".svg") {
                sources.append(.svg(id: id, path: path))
            } else if let suffix = Self.ratioSuffix(of: id) {
                let base = Self.stripRatio(id).name
                guard files.contains(where: { Self.stem($0) == base && $0.lowercased().hasSuffix(".png") }) else {
                    throw SpriteError(input: path, problem: "@\(format(suffix))x icon without its @1x file \(base).png")
                }
            } else {
                sources.append(.png(id: id, files: Self.ratioFiles(base: path)))
            }
        }
        if sources.count == before {
            throw SpriteError(input: folder, problem: "no .svg or .png icons in the folder")
        }
    }

    /// Foundation lists a name that is not valid UTF-8 with U+FFFD in place
    /// of the bad bytes, a name under which the file cannot be opened: an
    /// icon (or a folder, which may hold icons) named so is refused, naming
    /// the bad byte, rather than reported as unreadable. Ids are made from
    /// names, and one with U+FFFD in it could not be asked for in a style.
    static func checkName(_ relative: String, in folder: String) throws(SpriteError) {
        let path = PathName.appending(relative, to: folder)
        var status = stat()
        guard lstat(path, &status) != 0 else { return }      // a real U+FFFD in a valid name
        let parent = PathName.folder(of: path), name = PathName.lastComponent(of: path)
        var raw: [UInt8]? = nil
        if let directory = opendir(parent) {
            while let entry = readdir(directory) {
                let bytes = withUnsafeBytes(of: entry.pointee.d_name) { Array($0.prefix(while: { $0 != 0 })) }
                if TextBytes.problem(bytes) != nil && String(decoding: bytes, as: UTF8.self) == name { raw = bytes; break }
            }
            closedir(directory)
        }
        guard let raw else { return }                          // gone since the listing: nothing to report
        let rawPath = (Array((parent.isEmpty ? "" : parent + "/").utf8) + raw).map { CChar(bitPattern: $0) } + [0]
        let isFolder = lstat(rawPath, &status) == 0 && (status.st_mode & S_IFMT) == S_IFDIR
        let lowered = name.lowercased()
        guard isFolder || lowered.hasSuffix(".svg") || lowered.hasSuffix(".png") else { return }
        throw SpriteError(input: (parent.isEmpty ? "" : parent + "/") + TextBytes.shown(raw),
                          problem: "the \(isFolder ? "folder" : "file") name \(TextBytes.problem(raw)!); "
                          + "sprite ids are made from names: rename it")
    }

    /// `a/b.svg` → `a/b`.
    static func stem(_ path: String) -> String {
        let folder = PathName.folder(of: path)
        let name = PathName.deletingExtension(PathName.lastComponent(of: path))
        return folder.isEmpty ? name : "\(folder)/\(name)"
    }

    /// 2 for `name@2x`, nil without a ratio suffix.
    static func ratioSuffix(of stem: String) -> Double? { stripRatio(stem).ratio }

    static func stripRatio(_ stem: String) -> (name: String, ratio: Double?) {
        guard let at = stem.range(of: "@", options: .backwards), stem.hasSuffix("x"),
              let ratio = Double(stem[at.upperBound...].dropLast()), ratio > 0 else { return (stem, nil) }
        return (String(stem[..<at.lowerBound]), ratio)
    }

    /// `NAME.png` and every `NAME@Nx.png` beside it.
    static func ratioFiles(base path: String) -> [Double: String] {
        var files: [Double: String] = [1: path]
        let folder = PathName.folder(of: path)
        let name = PathName.deletingExtension(PathName.lastComponent(of: path))
        let siblings = (try? FileManager.default.contentsOfDirectory(atPath: folder.isEmpty ? "." : folder)) ?? []
        for sibling in siblings where sibling.hasPrefix(name + "@") && sibling.lowercased().hasSuffix(".png") {
            let stripped = stripRatio(PathName.deletingExtension(sibling))
            if stripped.name == name, let ratio = stripped.ratio {
                files[ratio] = PathName.appending(sibling, to: folder)
            }
        }
        return files
    }

    /// The width and height in a PNG file's header (its first 24 bytes),
    /// or nil when the file does not start as a PNG does: an @Nx file is
    /// checked against its @1x file's size without decoding it.
    static func pngSize(_ path: String) -> (width: Int, height: Int)? {
        guard let file = fopen(path, "rb") else { return nil }
        defer { fclose(file) }
        var header = [UInt8](repeating: 0, count: 24)
        guard fread(&header, 1, 24, file) == 24, header[0..<8] == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A],
              header[12..<16] == Array("IHDR".utf8)[...] else { return nil }
        func number(_ offset: Int) -> Int { header[offset..<(offset + 4)].reduce(0) { $0 << 8 | Int($1) } }
        return (number(16), number(20))
    }

    // MARK: JSON inputs

    /// Adds a marker description, a list of them, or a sidecar; returns the sidecar's ids.
    private mutating func addJSON(_ path: String) throws(SpriteError) -> [(file: String, id: String)] {
        let root: JSONValue
        do { root = try JSONValue.parse(try JSONValue.descriptionData(atPath: path), name: path) } catch {
            throw SpriteError(input: path, problem: error.problem)
        }
        let folder = PathName.folder(of: path)
        let baseID = Self.stem(PathName.lastComponent(of: path))
        switch root {
        case .object(let members) where members["icons"] != nil:
            guard case .object(let icons)? = members["icons"], members.count == 1 else {
                throw SpriteError(input: path, problem: "a sidecar is {\"icons\": {\"ID\": {metadata}}} and nothing else")
            }
            var ids: [(String, String)] = []
            for id in icons.keys.sorted() {
                let override = try SpriteMetadataOverride(icons[id]!, place: "icons.\(id)", input: path, allowsStretchable: false)
                overrides[id] = override    // the same id in an earlier sidecar is refused by `init`
                ids.append((path, id))
            }
            return ids
        case .object:
            try addMarker(root, id: baseID, input: path, folder: folder)
        case .array(let items):
            guard !items.isEmpty, items.count <= 10_000 else {
                throw SpriteError(input: path, problem: "a marker list holds 1 to 10000 markers, this one \(items.count)")
            }
            for (index, item) in items.enumerated() {
                try addMarker(item, id: "\(baseID)-\(index + 1)", input: "\(path)[\(index)]", folder: folder, isListItem: true)
            }
        default:
            throw SpriteError(input: path, problem: "expected a marker description, a list of them or a sidecar, found \(root.typeName)")
        }
        return []
    }

    private mutating func addMarker(_ value: JSONValue, id defaultID: String, input: String, folder: String,
                                    isListItem: Bool = false) throws(SpriteError) {
        guard case .object(var members) = value else {
            throw SpriteError(input: input, problem: "expected a marker description (an object), found \(value.typeName)")
        }
        var id = defaultID
        if let given = members.removeValue(forKey: "id") {
            guard case .string(let text) = given, SpriteID.problem(text) == nil else {
                throw SpriteError(input: input, problem: "id: \(SpriteID.problem(given.stringValue ?? "") ?? "expected a string")")
            }
            id = text
        } else if isListItem, case .string(let name)? = members["name"] {
            id = name
        }
        var options = MarkerSpriteOptions()
        if let sprite = members.removeValue(forKey: "sprite") {
            options.metadata = try SpriteMetadataOverride(sprite, place: "sprite", input: input, allowsStretchable: true)
        }
        let file: MarkerFile
        do {
            file = try MarkerFile(json: Data(JSONText.serialize(.object(members)).utf8), input: input, baseDirectory: folder)
        } catch {
            throw SpriteError(input: input, problem: error.path.isEmpty ? error.problem : "\(error.path): \(error.problem)")
        }
        sources.append(.marker(id: id, file: file, input: input, options: options))
    }

    // MARK: Rendering

    /// Draws every source at `ratio` on `jobs` threads (one `MarkerRenderer`
    /// per thread), in source order, and applies the sidecar metadata, then
    /// `prepare` (a distance field, say) to each image.
    /// Warnings (missing glyphs, resampled PNGs) go to `warn`. Throws
    /// `SpriteError` for a ratio outside `MarkerLimits.scaleRange` (0.25...8,
    /// what `--ratio` accepts) or not finite.
    ///
    /// With a `capacity`, each prepared image is counted into it as it is
    /// made, and the first image that does not fit (too large, or more than
    /// a sheet can hold) stops the rendering: its error is thrown once the
    /// images in progress are done, so no more than about a sheet's worth of
    /// pixels is ever held.
    public func render(ratio: Double, jobs: Int = 1, fontFolders: [String] = [],
                       capacity: SpriteSheetCapacity? = nil,
                       prepare: @Sendable (SpriteImage) -> SpriteImage = { $0 },
                       warn: @Sendable (String) -> Void = { _ in }) throws(SpriteError) -> [SpriteImage] {
        // Checked here once: a resampled PNG converts its scaled size to Int, which a NaN or huge ratio trapped.
        guard ratio.isFinite, MarkerLimits.scaleRange.contains(ratio) else {
            throw SpriteError(input: "ratio", problem: "\(ratio) is out of range (\(format(MarkerLimits.scaleRange.lowerBound))..."
                              + "\(format(MarkerLimits.scaleRange.upperBound)))")
        }
        let results = ResultSlots<[SpriteImage]>(count: sources.count)
        let sources = self.sources, overrides = self.overrides
        let workers = max(1, min(jobs, sources.count))
        let next = AtomicCounter()
        DispatchQueue.concurrentPerform(iterations: workers) { _ in
            let renderer = LazyRenderer(fontFolders: fontFolders)
            while true {
                let index = next.increment()
                guard index < sources.count, !results.hasFailure(before: index) else { return }
                if let overflow = capacity?.overflow {
                    // Another worker's image did not fit: nothing more is drawn.
                    results.set(index, .failure(overflow))
                    return
                }
                results.set(index, Result { () throws(SpriteError) -> [SpriteImage] in
                    var images = try Self.render(sources[index], ratio: ratio, renderer: renderer,
                                                 maximumSide: capacity?.maximumSize, warn: warn)
                    for position in images.indices {
                        if let override = overrides[images[position].id] {
                            images[position].metadata = try override.applied(to: images[position], input: Self.origin(of: sources[index]))
                        }
                        images[position] = prepare(images[position])
                        try capacity?.add(images[position])
                    }
                    return images
                })
            }
        }
        var images: [SpriteImage] = []
        for index in 0..<sources.count {
            switch results.get(index) {
            case .success(let rendered)?: images += rendered
            case .failure(let error)?: throw error
            case nil: break
            }
        }
        return images
    }

    /// Draws one source. With `maximumSide` (the sheet's), an SVG or PNG
    /// whose image would be larger is refused from its size alone, before
    /// it is drawn or decoded (a 16384x1024 PNG marked for a distance field
    /// was decoded and distance-fielded, 367 MB and 2 s, first).
    private static func render(_ source: Source, ratio: Double, renderer: LazyRenderer, maximumSide: Int?,
                               warn: (String) -> Void) throws(SpriteError) -> [SpriteImage] {
        func checkSize(id: String, width: Double, height: Double, path: String) throws(SpriteError) {
            guard let maximumSide, width > Double(maximumSide) || height > Double(maximumSide) else { return }
            throw SpriteError(input: path, problem: "'\(id)' is \(width.plainDescription)x\(height.plainDescription) pixels at "
                              + "@\(format(ratio))x, larger than the sheet's maximum side of \(maximumSide) (--max-size)")
        }
        switch source {
        case .svg(let id, let path):
            let canvas: Canvas
            do {
                let document = try SVGDocument(contentsOfFile: path)
                try checkSize(id: id, width: (document.width * ratio).rounded(.up), height: (document.height * ratio).rounded(.up), path: path)
                if ratio == 1 { for warning in document.warnings { warn("\(path): \(warning)") } }
                canvas = try document.render(scale: ratio)
            } catch let error as SpriteError {
                throw error
            } catch let error as SVGError {
                throw SpriteError(input: path, problem: error.problem)
            } catch {
                throw SpriteError(input: path, problem: "\(error)")
            }
            return [SpriteImage(id: id, width: canvas.width, height: canvas.height, pixels: canvas.straightRGBA8(),
                                pixelRatio: ratio, source: path)]
        case .png(let id, let files):
            let path = files[ratio] ?? files[1]!
            if let size = Self.pngSize(path) {
                let scale = files[ratio] != nil ? 1 : ratio
                try checkSize(id: id, width: max(1, (Double(size.width) * scale).rounded()),
                              height: max(1, (Double(size.height) * scale).rounded()), path: path)
            }
            let decoded: PNGDecoder.Decoded
            do { decoded = try PNGDecoder.decode(contentsOfFile: path) } catch {
                throw SpriteError(input: path, problem: "not a usable PNG: \(error.problem)")
            }
            if files[ratio] != nil {
                if ratio != 1, let base = files[1], let size = Self.pngSize(base),
                   abs(Double(decoded.width) - Double(size.width) * ratio) >= 1 || abs(Double(decoded.height) - Double(size.height) * ratio) >= 1 {
                    throw SpriteError(input: path, problem: "is \(decoded.width)x\(decoded.height) pixels; an @\(format(ratio))x file must be "
                                      + "\(format(ratio)) times the \(size.width)x\(size.height) of \(PathName.lastComponent(of: base)) "
                                      + "(\(format(Double(size.width) * ratio))x\(format(Double(size.height) * ratio)))")
                }
                return [SpriteImage(id: id, width: decoded.width, height: decoded.height, pixels: decoded.straightRGBA8,
                                    pixelRatio: ratio, source: path)]
            }
            let name = stripRatio(stem(PathName.lastComponent(of: path))).name
            warn("\(path): no \(name)@\(format(ratio))x.png beside it; the @1x image is resampled (blurrier)")
            let width = max(1, Int((Double(decoded.width) * ratio).rounded())), height = max(1, Int((Double(decoded.height) * ratio).rounded()))
            let pattern = ImagePattern(image: decoded.image, transform: .scale(Double(width) / Double(decoded.width), Double(height) / Double(decoded.height)))
            var rectangle = Path()
            rectangle.addRect(Rect(x: 0, y: 0, width: Double(width), height: Double(height)))
            let canvas: Canvas
            do {
                canvas = try Canvas(width: width, height: height)
                try canvas.fill(rectangle, paint: .image(pattern))
            } catch {
                throw SpriteError(input: path, problem: "cannot resample to @\(format(ratio))x: \(error)")
            }
            return [SpriteImage(id: id, width: width, height: height, pixels: canvas.straightRGBA8(), pixelRatio: ratio, source: path)]
        case .marker(let id, let file, let input, let options):
            let markerRenderer = try renderer.get()
            var images: [SpriteImage] = []
            do {
                for description in try file.style.resolve(values: file.values) {
                    let marker = try markerRenderer.render(description, scale: ratio)
                    if ratio == 1 { for warning in marker.warnings { warn("\(input): \(warning)") } }
                    let variantID = description.variant == "default" ? id : "\(id)-\(description.variant)"
                    images.append(SpriteImage(marker: marker, id: variantID, stretchable: options.metadata.stretchable, source: input))
                }
            } catch {
                throw SpriteError(input: input, problem: error.path.isEmpty ? error.problem : "\(error.path): \(error.problem)")
            }
            if !options.metadata.isEmpty {
                for index in images.indices {
                    images[index].metadata = try options.metadata.applied(to: images[index], input: input)
                }
            }
            return images
        }
    }
}

/// A worker thread's `MarkerRenderer`, made when the first marker needs it.
final class LazyRenderer {
    private let fontFolders: [String]
    private var renderer: MarkerRenderer?

    init(fontFolders: [String]) { self.fontFolders = fontFolders }

    func get() throws(SpriteError) -> MarkerRenderer {
        if let renderer { return renderer }
        do {
            let made = try MarkerRenderer(fontFolders: fontFolders)
            renderer = made
            return made
        } catch {
            throw SpriteError(input: error.input, problem: error.problem)
        }
    }
}

/// What a marker-list entry's `"sprite"` object says.
public struct MarkerSpriteOptions: Sendable {
    /// Metadata given by hand, in @1x pixels, put over what the marker computes.
    public var metadata = SpriteMetadataOverride()
    /// No override: the marker's computed metadata is used as it is.
    public init() {}
}

extension SpriteImage {
    /// A rendered marker as a sprite image. A marker whose content box is
    /// empty (a bubble or tag drawn without text) is stretchable: it gets
    /// `content`, `stretchX` and `stretchY` from its layout (see
    /// `MarkerStretch`: the label area, and runs of its body MapLibre can
    /// stretch, one each side of a centred pointer). `stretchable` true or
    /// false overrides that choice; a marker whose shape has no flat run
    /// (a pin) then gets its content box and the runs of identical columns
    /// and rows found in its pixels (`RenderedMarker.stretchZones`).
    public init(marker: RenderedMarker, id: String, stretchable: Bool? = nil, source: String = "") {
        var metadata = SpriteMetadata()
        let box = marker.metadata.contentBox
        let isStretchable = stretchable ?? (box.map { $0.width == 0 || $0.height == 0 } ?? false)
        if isStretchable, let stretch = marker.stretch {
            metadata.content = stretch.content
            if !stretch.stretchX.isEmpty { metadata.stretchX = stretch.stretchX }
            if !stretch.stretchY.isEmpty { metadata.stretchY = stretch.stretchY }
        } else if isStretchable, let box {
            let zones = marker.stretchZones()
            metadata.content = [box.x, box.y, box.x + box.width, box.y + box.height]
            if !zones.x.isEmpty { metadata.stretchX = zones.x }
            if !zones.y.isEmpty { metadata.stretchY = zones.y }
        }
        self.init(id: id, width: marker.metadata.width, height: marker.metadata.height, pixels: marker.canvas.straightRGBA8(),
                  pixelRatio: marker.metadata.pixelRatio, metadata: metadata, source: source)
    }
}
