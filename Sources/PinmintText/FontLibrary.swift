import Foundation
import PinmintGeometry

/// The fonts Pinmint can use: every face of every .ttf, .otf, .ttc and
/// .otc file under the folders the user names (`--font-dir`) and Pinmint's
/// own fonts (see `ShippedFonts`), then every face installed on the
/// system as fontconfig lists it (the way every Linux program finds fonts:
/// installing `fonts-noto-core` or `fonts-noto-cjk` is enough). Folders
/// that do not exist are skipped, except the one `$PINMINT_FONTS` names
/// (`standard` throws).
///
/// A family is the same whoever ships it: asked for "Noto Sans", a chain
/// starts with the face of the first source that has the family (the
/// user's folders, then `Fonts/`, then the system's), then the same style
/// from later sources (a fuller system copy fills the gaps of a shipped
/// subset), then the family's other weights (a bold face's missing
/// characters come from the regular face, emboldened). A face's companions
/// (files of the same family and style in the same source that cover other
/// scripts, such as Pinmint's Hangul file beside its CJK file, split to
/// keep each file under the repository's size limit) come right after it
/// in a chain. After the families
/// asked for come Pinmint's own (`defaultFamilies`), then, character by
/// character, whatever face fontconfig has for what is still missing.
///
/// Scanning the folders reads each face's names, weight and script
/// coverage and closes it again; system faces are described by fontconfig
/// without being opened. Faces are opened for drawing only when asked for,
/// so a system with thousands of fonts does not run out of file handles.
public final class FontLibrary {
    /// Where a face was found.
    public enum Source: Int, Sendable, Comparable, Hashable {
        /// A folder the caller named (`--font-dir`); searched first.
        case user
        /// Pinmint's own fonts folder (`shippedFontsFolder`, which
        /// `$PINMINT_FONTS` overrides); searched second.
        case shipped
        /// A face fontconfig lists; searched last.
        case system
        /// Search order: `user` before `shipped` before `system`.
        public static func < (left: Source, right: Source) -> Bool { left.rawValue < right.rawValue }
    }

    /// The FreeType instance every face of this library belongs to.
    public let freeType: FreeTypeLibrary
    /// The folders searched, in order (system fonts come from fontconfig).
    public let folders: [String]
    /// Whether the system's fonts (fontconfig's) are part of the library.
    public let includesSystemFonts: Bool
    /// Every face found: the folders' in folder order, then by file name
    /// and face index, then the system's. A family and style already found
    /// in the same source is skipped, unless the later face covers other
    /// scripts (see `Script`): that is a companion, not a copy.
    public let descriptors: [FontDescriptor]
    /// Files that could not be read, each with its reason (not fatal).
    public let problems: [FontError]
    private var openFaces: [String: FontFace] = [:]
    /// Faces fontconfig chose for characters no chain member had, by character and style.
    private var systemFaces: [SystemFaceKey: FontFace?] = [:]

    private struct SystemFaceKey: Hashable {
        let scalar: UInt32
        let weight: Int
        let italic: Bool
        var color = false
    }

    /// Pinmint's own fonts folder as `ShippedFonts.current` finds it
    /// (`$PINMINT_FONTS`, else `../share/pinmint/fonts` beside the
    /// executable, else the source checkout's `Fonts/`); when none holds
    /// fonts, the checkout's `Fonts/`, where `FontLibrary(folders:)` then
    /// finds nothing (`standard` throws and says where it looked instead).
    public static var shippedFontsFolder: String {
        ShippedFonts.current.found?.folder ?? ShippedFonts.checkoutFonts
    }

    /// Loads every face under `folders` (`shippedFolder`, when one of them,
    /// is counted as Pinmint's own) and, with `includeSystem`, the system's.
    /// Unreadable files are listed in `problems`.
    public init(folders: [String], shippedFolder: String? = nil, includeSystem: Bool = false,
                library: FreeTypeLibrary? = nil) throws(FontError) {
        let freeType: FreeTypeLibrary
        if let library { freeType = library } else { freeType = try FreeTypeLibrary() }
        self.freeType = freeType
        self.folders = folders
        includesSystemFonts = includeSystem
        var descriptors: [FontDescriptor] = [], problems: [FontError] = []
        var styles = Set<String>()
        for folder in folders {
            let source: Source = folder == shippedFolder ? .shipped : .user
            for file in FontLibrary.fontFiles(in: [folder]) {
                do {
                    let count = try FontFace.faceCount(file: file, library: freeType)
                    for index in 0..<count {
                        let descriptor = FontDescriptor(try FontFace(file: file, index: index, library: freeType), source: source)
                        // Within one source the first copy of a family's style wins; a face of
                        // that style covering other scripts is a companion and stays.
                        let scripts = (descriptor.scripts ?? []).map(\.rawValue).joined(separator: ",")
                        let style = "\(source.rawValue)\u{0}\(descriptor.family.lowercased())\u{0}\(descriptor.style.lowercased())"
                            + "\u{0}\(scripts)"
                        guard styles.insert(style).inserted else { continue }
                        descriptors.append(descriptor)
                    }
                } catch {
                    problems.append(error)
                }
            }
        }
        if includeSystem {
            let scanned = Set(descriptors.map { "\($0.index)\u{0}\($0.file)" })
            for font in Fontconfig.installedFonts() where !scanned.contains("\(font.index)\u{0}\(font.file)") {
                let style = "\(Source.system.rawValue)\u{0}\(font.family.lowercased())\u{0}\(font.style.lowercased())"
                guard !font.family.isEmpty, styles.insert(style).inserted else { continue }
                descriptors.append(FontDescriptor(font))
            }
        }
        self.descriptors = descriptors
        self.problems = problems
    }

    /// The user's folders, then `Fonts/`, then (unless `includeSystem` is
    /// false) the system's fonts.
    /// - Throws: `FontError` (its file `PINMINT_FONTS`) when `$PINMINT_FONTS`
    ///   is set but names no folder (missing, a file, unreadable): a typo
    ///   there would otherwise fall through to other fonts, or none, silently.
    ///   When Pinmint's own fonts are found nowhere (`ShippedFonts`), throws
    ///   `FontError` (its file `fonts`) naming every place looked at, rather
    ///   than rendering with whatever the system has.
    public static func standard(userFolders: [String] = [], includeSystem: Bool = true) throws(FontError) -> FontLibrary {
        try checkFontsVariable()
        let location = ShippedFonts.current
        guard let shipped = location.found?.folder else { throw FontError(file: "fonts", problem: location.description) }
        return try FontLibrary(folders: userFolders + [shipped], shippedFolder: shipped, includeSystem: includeSystem)
    }

    /// Throws when `$PINMINT_FONTS` is set and is not a folder that can be read.
    static func checkFontsVariable() throws(FontError) {
        guard let folder = ProcessInfo.processInfo.environment["PINMINT_FONTS"], !folder.isEmpty else { return }
        var isFolder: ObjCBool = false
        let problem: String
        if !FileManager.default.fileExists(atPath: folder, isDirectory: &isFolder) {
            problem = "no such folder"
        } else if !isFolder.boolValue {
            problem = "a file, not a folder"
        } else if !FileManager.default.isReadableFile(atPath: folder) || !FileManager.default.isExecutableFile(atPath: folder) {
            problem = "a folder that cannot be read"
        } else {
            return
        }
        throw FontError(file: "PINMINT_FONTS", problem: "'\(folder)': \(problem) (it must name a folder of fonts, such as Pinmint's Fonts/)")
    }

    /// Whether a file's name says it is a font file (.ttf, .otf, .ttc, .otc, any case).
    static func isFontFile(_ name: String) -> Bool {
        ["ttf", "otf", "ttc", "otc"].contains(PathName.pathExtension(of: name).lowercased())
    }

    /// Font files under the folders, recursively, sorted by path within each folder.
    static func fontFiles(in folders: [String]) -> [String] {
        var files: [String] = [], seen = Set<String>()
        for folder in folders {
            guard let enumerator = FileManager.default.enumerator(atPath: folder) else { continue }
            var found: [String] = []
            while let relative = enumerator.nextObject() as? String {
                guard isFontFile(relative) else { continue }
                found.append(PathName.appending(relative, to: folder))
            }
            for file in found.sorted() where seen.insert(file).inserted { files.append(file) }
        }
        return files
    }

    /// Family names, in the order first found.
    public var families: [String] {
        var seen = Set<String>()
        return descriptors.map(\.family).filter { seen.insert($0.lowercased()).inserted }
    }

    /// The scripts a face covers (see `Script`): read when the folders were
    /// scanned, or, for a system face, by opening it now.
    public func scripts(of descriptor: FontDescriptor) -> [Script] {
        if let scripts = descriptor.scripts { return scripts }
        return (try? open(descriptor))?.scripts ?? []
    }

    /// The face of `family` (case-insensitive) closest to `weight` (100…900)
    /// and `italic`, from the first source that has the family: an exact
    /// style match first, then the nearest weight (CSS's rule: for bold
    /// requests, heavier first). Nil when the family is unknown. Opens the
    /// face on first use; throws when that fails. A weight outside 1...1000
    /// (OS/2's range) is clamped to it.
    public func face(family: String, weight: Int = 400, italic: Bool = false) throws(FontError) -> FontFace? {
        guard let descriptor = faces(family: family, weight: weight, italic: italic).first else { return nil }
        return try open(descriptor)
    }

    /// The faces of `family` in the order a chain takes them (see the type's
    /// comment): the best match of each source in source order, each
    /// followed by its companions, then the family's other faces by
    /// closeness to `weight`.
    func faces(family: String, weight: Int, italic: Bool) -> [FontDescriptor] {
        let ranked = rankedFaces(family: family, weight: weight, italic: italic)
        return ranked.leading + ranked.others
    }

    /// `faces(family:weight:italic:)` in two parts: `leading`, the best
    /// match of each source with its companions (a chain takes all of them
    /// in turn), and `others`, the family's other faces (gap fillers).
    /// Between faces equally close to the style asked for, the one covering
    /// more scripts comes first, so that a file and its companion are
    /// ordered by what they cover, not by their names.
    func rankedFaces(family: String, weight: Int, italic: Bool) -> (leading: [FontDescriptor], others: [FontDescriptor]) {
        let weight = min(max(weight, 1), 1000)
        let candidates = descriptors.filter { $0.family.caseInsensitiveCompare(family) == .orderedSame }
        guard !candidates.isEmpty else { return ([], []) }
        func before(_ a: FontDescriptor, _ b: FontDescriptor) -> Bool {
            let distanceA = FontLibrary.weightDistance(a.weight, to: weight)
            let distanceB = FontLibrary.weightDistance(b.weight, to: weight)
            if distanceA != distanceB { return distanceA < distanceB }
            return (a.scripts?.count ?? 0) > (b.scripts?.count ?? 0)
        }
        func best(_ pool: [FontDescriptor]) -> FontDescriptor? {
            let styled = pool.filter { $0.isItalic == italic }
            return (styled.isEmpty ? pool : styled).min(by: before)
        }
        var leading: [FontDescriptor] = []
        for source in [Source.user, .shipped, .system] {
            let pool = candidates.filter { $0.source == source }
            guard let face = best(pool) else { continue }
            leading.append(face)
            leading += pool.filter { $0 != face && $0.isCompanion(of: face) }
        }
        let others = candidates.filter { !leading.contains($0) }.sorted(by: before)
        return (leading, others.filter { $0.isItalic == italic } + others.filter { $0.isItalic != italic })
    }

    /// The open face for a descriptor (opened once, then shared).
    public func open(_ descriptor: FontDescriptor) throws(FontError) -> FontFace {
        let key = "\(descriptor.index)\u{0}\(descriptor.file)"
        if let face = openFaces[key] { return face }
        let face = try FontFace(file: descriptor.file, index: descriptor.index, library: freeType)
        openFaces[key] = face
        return face
    }

    private static func weightDistance(_ candidate: Int, to wanted: Int) -> Int {
        let distance = abs(candidate - wanted)
        // Prefer heavier faces for bold requests and lighter ones for light requests.
        let wrongSide = wanted >= 500 ? candidate < wanted : candidate > wanted
        return distance * 2 + (wrongSide ? 1 : 0)
    }

    /// The families Pinmint falls back through after those asked for: the
    /// faces shipped in `Fonts/`, a sans for Latin, Greek and Cyrillic, then
    /// CJK (which has no glyph of the scripts after it, so that a Han
    /// character is found after two faces, not six), Arabic, Hebrew,
    /// Devanagari and Thai.
    public static let defaultFamilies = ["Noto Sans", "Noto Sans CJK SC", "Noto Sans Arabic", "Noto Sans Hebrew",
                                         "Noto Sans Devanagari", "Noto Sans Thai"]

    /// At most this many faces one family lends a chain (its sources and other weights).
    static let maximumFacesPerFamily = 4

    /// A fallback chain: `families` (missing ones are skipped), then
    /// `defaultFamilies`, each with its best face of every source and that
    /// face's companions (a shipped subset and its Hangul file, then a
    /// fuller system copy); then the families' other weights
    /// and styles, which fill rarer gaps (a face lighter than a bold request
    /// is emboldened); then, when the library includes system fonts,
    /// fontconfig's choice for each character still missing
    /// (`FontFallback.extend`). Empty when none of `families` is installed,
    /// so that the caller can say so.
    public func fallback(families: [String] = FontLibrary.defaultFamilies, weight: Int = 400,
                         italic: Bool = false) throws(FontError) -> FontFallback {
        guard families.contains(where: { !faces(family: $0, weight: weight, italic: italic).isEmpty }) else {
            return FontFallback(members: [])
        }
        var members: [FontFallback.Member] = []
        var added = Set<String>(), asked = Set<String>()
        var gapFillers: [FontDescriptor] = []
        func add(_ descriptor: FontDescriptor) throws(FontError) {
            guard added.insert("\(descriptor.index)\u{0}\(descriptor.file)").inserted else { return }
            let face = try open(descriptor)
            members.append(FontFallback.Member(face: face, syntheticBold: weight >= 600 && !face.isBold && !face.hasColorGlyphs))
        }
        for family in families + FontLibrary.defaultFamilies where asked.insert(family.lowercased()).inserted {
            let ranked = rankedFaces(family: family, weight: weight, italic: italic)
            let ordered = (ranked.leading + ranked.others).prefix(FontLibrary.maximumFacesPerFamily)
            let leading = min(ranked.leading.count, ordered.count)
            for descriptor in ordered.prefix(leading) { try add(descriptor) }
            gapFillers += ordered.dropFirst(leading)
        }
        for descriptor in gapFillers { try add(descriptor) }
        return FontFallback(members: members, library: includesSystemFonts ? self : nil, weight: weight, italic: italic)
    }

    /// The face fontconfig chooses for `scalar` at `weight` (nil when no
    /// installed face has it, or it cannot be opened); with `color`, the
    /// colour face it chooses (an emoji font). Asked once per character and style.
    func systemFace(for scalar: UInt32, weight: Int, italic: Bool, color: Bool = false) -> FontFace? {
        let key = SystemFaceKey(scalar: scalar, weight: weight, italic: italic, color: color)
        if let known = systemFaces[key] { return known }
        var found: FontFace? = nil
        if let match = Fontconfig.font(for: scalar, weight: weight, italic: italic, color: color) {
            let descriptor = descriptors.first { $0.file == match.file && $0.index == match.index } ?? FontDescriptor(match)
            if let face = try? open(descriptor), let character = Unicode.Scalar(scalar), face.glyph(for: character) != nil,
               !color || face.hasColorGlyphs {
                found = face
            }
        }
        systemFaces[key] = .some(found)
        return found
    }
}

/// What a scan learned about one face, without keeping it open.
public struct FontDescriptor: Sendable, Hashable {
    /// The font file's path, as found (folder scans) or as fontconfig gives it.
    public let file: String
    /// The face's index inside the file (0 for TTF and OTF).
    public let index: Int
    /// Family name from the font, e.g. "Noto Sans CJK SC"; matched
    /// case-insensitively.
    public let family: String
    /// Style name from the font, e.g. "Bold".
    public let style: String
    /// OS/2 weight class, 100…900 (see `FontFace.weight`).
    public let weight: Int
    /// True when the font flags the face italic or oblique.
    public let isItalic: Bool
    /// Where it was found.
    public let source: FontLibrary.Source
    /// The scripts the face covers (see `Script`), when its folder was
    /// scanned; nil for a system face, which is not opened to describe it
    /// (`FontLibrary.scripts(of:)` opens it).
    public let scripts: [Script]?

    /// Describes an open face (its scripts included) as found in `source`.
    public init(_ face: FontFace, source: FontLibrary.Source = .user) {
        file = face.file
        index = face.index
        family = face.family
        style = face.style
        weight = face.weight
        isItalic = face.isItalic
        self.source = source
        scripts = face.scripts
    }

    /// Whether this face is a companion of `face`: another face of the same
    /// family, style, weight and slant from the same source, kept because
    /// it covers other scripts (see `FontLibrary`).
    func isCompanion(of face: FontDescriptor) -> Bool {
        source == face.source && weight == face.weight && isItalic == face.isItalic
            && family.caseInsensitiveCompare(face.family) == .orderedSame
            && style.caseInsensitiveCompare(face.style) == .orderedSame
            && (file != face.file || index != face.index)
    }

    /// A system face as fontconfig describes it.
    init(_ font: SystemFont) {
        file = font.file
        index = font.index
        family = font.family
        style = font.style
        weight = font.weight
        isItalic = font.isItalic
        source = .system
        scripts = nil
    }
}
