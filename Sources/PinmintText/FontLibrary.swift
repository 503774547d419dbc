import Foundation
import PinmintGeometry

/// The fonts Pinmint can use: every face of every .ttf, .otf, .ttc and
/// .otc file under a list of folders (searched recursively, in order).
///
/// Folders, in the order `standard(userFolders:)` searches them: the folders
/// the user names (`--font-dir`), Pinmint's own `Fonts/` (see
/// `shippedFontsFolder`), then the system folders `/usr/share/fonts`,
/// `/usr/local/share/fonts` and `~/.fonts`. Earlier folders win when two
/// faces have the same family and style. Folders that do not exist are
/// skipped, except the one `$PINMINT_FONTS` names (`standard` throws).
///
/// Scanning reads each face's names, weight and script coverage and closes
/// it again (`descriptors`); faces are opened for drawing only when asked
/// for, so a system with thousands of fonts does not run out of file handles.
public final class FontLibrary {
    /// The FreeType instance every face of this library belongs to.
    public let freeType: FreeTypeLibrary
    /// The folders searched, in order.
    public let folders: [String]
    /// Every face found, in folder order, then by file name and face index;
    /// a family and style already found in an earlier folder is skipped.
    public let descriptors: [FontDescriptor]
    /// Files that could not be read, each with its reason (not fatal).
    public let problems: [FontError]
    private var openFaces: [String: FontFace] = [:]

    /// The system font folders searched by `standard`.
    public static var systemFolders: [String] {
        ["/usr/share/fonts", "/usr/local/share/fonts", NSString(string: "~/.fonts").expandingTildeInPath]
    }

    /// Pinmint's `Fonts/` folder: `$PINMINT_FONTS` when set, else the
    /// `Fonts/` folder of the source checkout this module was built from,
    /// else `Fonts` in the current directory.
    public static var shippedFontsFolder: String {
        if let folder = ProcessInfo.processInfo.environment["PINMINT_FONTS"], !folder.isEmpty { return folder }
        let checkout = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Fonts").path
        if FileManager.default.fileExists(atPath: checkout) { return checkout }
        return "Fonts"
    }

    /// Loads every face under `folders`. Unreadable files are listed in `problems`.
    public init(folders: [String], library: FreeTypeLibrary? = nil) throws(FontError) {
        let freeType: FreeTypeLibrary
        if let library { freeType = library } else { freeType = try FreeTypeLibrary() }
        self.freeType = freeType
        self.folders = folders
        var descriptors: [FontDescriptor] = [], problems: [FontError] = []
        var styles = Set<String>()
        for file in FontLibrary.fontFiles(in: folders) {
            do {
                let count = try FontFace.faceCount(file: file, library: freeType)
                for index in 0..<count {
                    let descriptor = FontDescriptor(try FontFace(file: file, index: index, library: freeType))
                    // The first folder to hold a family's style wins; later copies are skipped.
                    let style = "\(descriptor.family.lowercased())\u{0}\(descriptor.style.lowercased())"
                    guard styles.insert(style).inserted else { continue }
                    descriptors.append(descriptor)
                }
            } catch {
                problems.append(error)
            }
        }
        self.descriptors = descriptors
        self.problems = problems
    }

    /// The user's folders, then `Fonts/`, then (unless `includeSystem` is
    /// false) the system font folders.
    /// - Throws: `FontError` (its file `PINMINT_FONTS`) when `$PINMINT_FONTS`
    ///   is set but names no folder (missing, a file, unreadable): a typo
    ///   there would otherwise fall through to other fonts, or none, silently.
    public static func standard(userFolders: [String] = [], includeSystem: Bool = true) throws(FontError) -> FontLibrary {
        try checkFontsVariable()
        return try FontLibrary(folders: userFolders + [shippedFontsFolder] + (includeSystem ? systemFolders : []))
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

    /// Font files under the folders, recursively, sorted by path within each folder.
    static func fontFiles(in folders: [String]) -> [String] {
        let extensions: Set<String> = ["ttf", "otf", "ttc", "otc"]
        var files: [String] = [], seen = Set<String>()
        for folder in folders {
            guard let enumerator = FileManager.default.enumerator(atPath: folder) else { continue }
            var found: [String] = []
            while let relative = enumerator.nextObject() as? String {
                guard extensions.contains(PathName.pathExtension(of: relative).lowercased()) else { continue }
                found.append(PathName.appending(relative, to: folder))
            }
            for file in found.sorted() where seen.insert(file).inserted { files.append(file) }
        }
        return files
    }

    /// Family names, in the order first found.
    public var families: [String] {
        var seen = Set<String>()
        return descriptors.map(\.family).filter { seen.insert($0).inserted }
    }

    /// The face of `family` (case-insensitive) closest to `weight` (100…900)
    /// and `italic`: an exact style match first, then the nearest weight
    /// (CSS's rule: for bold requests, heavier first). Nil when the family is
    /// unknown. Opens the face on first use; throws when that fails. A
    /// weight outside 1...1000 (OS/2's range) is clamped to it.
    public func face(family: String, weight: Int = 400, italic: Bool = false) throws(FontError) -> FontFace? {
        // Clamped so that the distances below cannot overflow (Int.min trapped).
        let weight = min(max(weight, 1), 1000)
        let candidates = descriptors.filter { $0.family.caseInsensitiveCompare(family) == .orderedSame }
        guard !candidates.isEmpty else { return nil }
        let styled = candidates.filter { $0.isItalic == italic }
        let pool = styled.isEmpty ? candidates : styled
        let best = pool.min { a, b in
            FontLibrary.weightDistance(a.weight, to: weight) < FontLibrary.weightDistance(b.weight, to: weight)
        }!
        return try open(best)
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

    /// The families Pinmint falls back through by default: a Latin sans,
    /// then a CJK sans (the fonts shipped in `Fonts/`).
    public static let defaultFamilies = ["Noto Sans", "Noto Sans CJK SC"]

    /// A fallback chain of the given families (missing ones are skipped) at
    /// `weight`. A family without a face of that weight lends its nearest
    /// face, emboldened when bold was asked for and the face is not bold.
    public func fallback(families: [String] = FontLibrary.defaultFamilies, weight: Int = 400,
                         italic: Bool = false) throws(FontError) -> FontFallback {
        var members: [FontFallback.Member] = []
        for family in families {
            guard let face = try face(family: family, weight: weight, italic: italic) else { continue }
            members.append(FontFallback.Member(face: face, syntheticBold: weight >= 600 && !face.isBold))
        }
        return FontFallback(members: members)
    }
}

/// What a scan learned about one face, without keeping it open.
public struct FontDescriptor: Sendable, Hashable {
    public let file: String
    /// The face's index inside the file (0 for TTF and OTF).
    public let index: Int
    public let family: String
    public let style: String
    /// OS/2 weight class, 100…900 (see `FontFace.weight`).
    public let weight: Int
    public let isItalic: Bool
    /// The scripts the face covers (see `Script`).
    public let scripts: [Script]

    public init(_ face: FontFace) {
        file = face.file
        index = face.index
        family = face.family
        style = face.style
        weight = face.weight
        isItalic = face.isItalic
        scripts = face.scripts
    }
}
