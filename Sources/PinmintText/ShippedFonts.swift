import Foundation
import PinmintGeometry

/// Where Pinmint's own fonts (the `Fonts/` folder of the source: Noto Sans
/// and its Arabic, Hebrew, Devanagari, Thai and CJK SC faces) are found,
/// and every place looked at.
///
/// The places, in order:
/// 1. `$PINMINT_FONTS` when it is set and not empty: then nothing else is
///    searched (`FontLibrary.standard` refuses a value that names no folder).
/// 2. `../share/pinmint/fonts` beside the running executable (its real
///    path, `/proc/self/exe`): where `make install PREFIX=…` puts the fonts
///    next to `bin/pinmint`, so an installed binary finds them from any
///    folder, and a prefix moved as a whole keeps working.
/// 3. The `Fonts/` folder of the source checkout this module was compiled
///    from (`#filePath`): for `swift run`, the tests, and packages that
///    depend on Pinmint (their checkout in `.build/checkouts` holds it).
///
/// A place counts only when it is a folder holding at least one font file
/// (.ttf, .otf, .ttc, .otc), so that an empty or half-removed install falls
/// through to the next place rather than rendering without Pinmint's fonts.
///
/// SwiftPM resources (`Bundle.module`) were the alternative, rejected: on
/// Linux the generated accessor stops the process (`fatalError`) when the
/// bundle is not beside the executable, which a copied binary would hit;
/// the bundle has to sit in `bin/` rather than `share/`; and the 20 MB of
/// fonts would be copied into every build folder of every package that
/// depends on Pinmint, used or not.
public struct ShippedFonts: Sendable, Equatable, CustomStringConvertible {
    /// How a place was found.
    public enum Origin: String, Sendable, Equatable {
        /// The folder `$PINMINT_FONTS` names.
        case variable
        /// `../share/pinmint/fonts` relative to the executable's folder.
        case installed
        /// `Fonts/` in the source checkout the module was compiled from.
        case checkout
    }

    /// One place looked at.
    public struct Place: Sendable, Equatable {
        /// The folder, an absolute path (or `$PINMINT_FONTS` as given).
        public let folder: String
        /// Which of the three places it is.
        public let origin: Origin
        /// What the place is, for messages: "$PINMINT_FONTS", "installed
        /// beside /usr/local/bin/pinmint", "the checkout it was built from".
        public let explanation: String

        /// A place with its folder, kind and explanation (see the properties).
        public init(folder: String, origin: Origin, explanation: String) {
            self.folder = folder
            self.origin = origin
            self.explanation = explanation
        }
    }

    /// Every place looked at, in order (just `$PINMINT_FONTS` when it is set).
    public let places: [Place]
    /// The first place that holds fonts; nil when none does.
    public let found: Place?

    /// Looks for the fonts. `environment`, `executable` (nil when it cannot
    /// be told) and `checkoutFonts` are parameters so that tests can point
    /// them elsewhere; `current` passes the process's own.
    public static func locate(environment: [String: String], executable: String?,
                              checkoutFonts: String) -> ShippedFonts {
        if let folder = environment["PINMINT_FONTS"], !folder.isEmpty {
            let place = Place(folder: folder, origin: .variable, explanation: "$PINMINT_FONTS")
            return ShippedFonts(places: [place], found: place)
        }
        var places: [Place] = []
        if let executable, executable.hasPrefix("/") {
            let prefix = PathName.folder(of: PathName.folder(of: executable))
            places.append(Place(folder: PathName.appending("share/pinmint/fonts", to: prefix), origin: .installed,
                                explanation: "installed beside \(executable)"))
        }
        places.append(Place(folder: checkoutFonts, origin: .checkout, explanation: "the checkout it was built from"))
        return ShippedFonts(places: places, found: places.first(where: { holdsFonts($0.folder) }))
    }

    /// The fonts of this process: its environment, its executable and the
    /// checkout this module was compiled from. Looked up on every call (a
    /// few `stat` calls), so that a test can change `PINMINT_FONTS`.
    public static var current: ShippedFonts {
        locate(environment: ProcessInfo.processInfo.environment, executable: executablePath, checkoutFonts: checkoutFonts)
    }

    /// `Fonts/` of the checkout this file was compiled from.
    public static let checkoutFonts = PathName.appending(
        "Fonts", to: PathName.folder(of: PathName.folder(of: PathName.folder(of: #filePath))))

    /// The running executable's real path (symbolic links resolved), from
    /// `/proc/self/exe`; nil where that cannot be read.
    static var executablePath: String? {
        guard let path = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"),
              path.hasPrefix("/"), !path.hasSuffix(" (deleted)") else {
            return nil
        }
        return path
    }

    /// True when `folder` is a folder with a font file directly inside it.
    static func holdsFonts(_ folder: String) -> Bool {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder) else { return false }
        return names.contains(where: FontLibrary.isFontFile)
    }

    /// The folder and where it came from ("/usr/local/share/pinmint/fonts
    /// (installed beside /usr/local/bin/pinmint)"), or, when no place holds
    /// fonts, one line naming every place looked at and what to do.
    public var description: String {
        if let found { return "\(found.folder) (\(found.explanation))" }
        let looked = places.map { "\($0.folder) (\($0.explanation))" }.joined(separator: ", ")
        return "Pinmint's fonts not found: looked in \(looked); install them with "
            + "'make install PREFIX=…' or set PINMINT_FONTS to a folder of fonts"
    }
}
