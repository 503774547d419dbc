import Foundation

/// The fonts Pinmint can use: every face of every .ttf, .otf, .ttc and
/// .otc file under a list of folders (searched recursively, in order).
///
/// Folders, in the order `standard(userFolders:)` searches them: the folders
/// the user names (`--font-dir`), Pinmint's own `Fonts/` (see
/// `shippedFontsFolder`), then the system folders `/usr/share/fonts`,
/// `/usr/local/share/fonts` and `~/.fonts`. Earlier folders win when two
/// faces have the same family and style. Folders that do not exist are skipped.
public final class FontLibrary {
    /// The FreeType instance every face of this library belongs to.
    public let freeType: FreeTypeLibrary
    /// The folders searched, in order.
    public let folders: [String]
    /// Every face found, in folder order, then by file name and face index;
    /// a family and style already found in an earlier folder is skipped.
    public let faces: [FontFace]
    /// Files that could not be read, each with its reason (not fatal).
    public let problems: [FontError]

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
        var faces: [FontFace] = [], problems: [FontError] = []
        var styles = Set<String>()
        for file in FontLibrary.fontFiles(in: folders) {
            do {
                let count = try FontFace.faceCount(file: file, library: freeType)
                for index in 0..<count {
                    let face = try FontFace(file: file, index: index, library: freeType)
                    // The first folder to hold a family's style wins; later copies are skipped.
                    guard styles.insert("\(face.family.lowercased())\u{0}\(face.style.lowercased())").inserted else { continue }
                    faces.append(face)
                }
            } catch {
                problems.append(error)
            }
        }
        self.faces = faces
        self.problems = problems
    }

    /// The user's folders, then `Fonts/`, then (unless `includeSystem` is
    /// false) the system font folders.
    public static func standard(userFolders: [String] = [], includeSystem: Bool = true) throws(FontError) -> FontLibrary {
        try FontLibrary(folders: userFolders + [shippedFontsFolder] + (includeSystem ? systemFolders : []))
    }

    /// Font files under the folders, recursively, sorted by path within each folder.
    static func fontFiles(in folders: [String]) -> [String] {
        let extensions: Set<String> = ["ttf", "otf", "ttc", "otc"]
        var files: [String] = [], seen = Set<String>()
        for folder in folders {
            guard let enumerator = FileManager.default.enumerator(atPath: folder) else { continue }
            var found: [String] = []
            while let relative = enumerator.nextObject() as? String {
                guard extensions.contains((relative as NSString).pathExtension.lowercased()) else { continue }
                found.append((folder as NSString).appendingPathComponent(relative))
            }
            for file in found.sorted() where seen.insert(file).inserted { files.append(file) }
        }
        return files
    }

    /// Family names, in the order first found.
    public var families: [String] {
        var seen = Set<String>()
        return faces.map(\.family).filter { seen.insert($0).inserted }
    }

    /// The face of `family` (case-insensitive) closest to `weight` (100…900)
    /// and `italic`: an exact style match first, then the nearest weight
    /// (CSS's rule: for bold requests, heavier first). Nil when the family is unknown.
    public func face(family: String, weight: Int = 400, italic: Bool = false) -> FontFace? {
        let candidates = faces.filter { $0.family.caseInsensitiveCompare(family) == .orderedSame }
        guard !candidates.isEmpty else { return nil }
        let styled = candidates.filter { $0.isItalic == italic }
        let pool = styled.isEmpty ? candidates : styled
        return pool.min { a, b in
            FontLibrary.weightDistance(a.weight, to: weight) < FontLibrary.weightDistance(b.weight, to: weight)
        }
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
                         italic: Bool = false) -> FontFallback {
        var members: [FontFallback.Member] = []
        for family in families {
            guard let face = face(family: family, weight: weight, italic: italic) else { continue }
            members.append(FontFallback.Member(face: face, syntheticBold: weight >= 600 && !face.isBold))
        }
        return FontFallback(members: members)
    }
}
