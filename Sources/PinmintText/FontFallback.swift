/// An ordered list of faces: each grapheme cluster takes its glyphs from
/// the first face that has them all (see `ShapedParagraph`), so "5200萬"
/// takes its digits from a Latin face and 萬 from a CJK face. A chain made
/// by a `FontLibrary` that includes system fonts grows when a character no
/// member has is met: fontconfig's face for it joins the end (`extend`).
/// Characters no face has get the first face's .notdef box.
///
/// A class: layouts refer to members by index, and a chain only ever grows
/// at its end, so indices stay valid. Used by one thread at a time, like
/// the faces in it.
public final class FontFallback {
    /// One face of the chain.
    public struct Member {
        /// The face glyphs are taken from.
        public let face: FontFace
        /// Thicken the outlines (FT_Outline_Embolden) because bold was asked
        /// for and the face is not bold (never for a colour face: emoji are
        /// pictures).
        public let syntheticBold: Bool
        /// A member drawing `face` as it is, or thickened with `syntheticBold`.
        public init(face: FontFace, syntheticBold: Bool = false) {
            self.face = face
            self.syntheticBold = syntheticBold
        }
    }

    // Read for every character and glyph of every label; a chain is used by one
    // thread at a time and only `extend` and `colorMember` change it, so no
    // access overlaps another (the dynamic checks were a runtime call per read).

    /// The faces in the order they are tried. Only grows, at its end (faces
    /// fontconfig finds for characters no member has, or for emoji no member
    /// has in colour), so a `PlacedGlyph.member` index stays valid.
    @exclusivity(unchecked) public private(set) var members: [Member]
    /// Where `extend` finds more faces (nil: the chain is fixed), and the style asked for.
    private let library: FontLibrary?
    private let weight: Int, italic: Bool

    /// A fixed chain of `members`, tried in order: it never grows, so
    /// characters none of them has are drawn as the first face's .notdef box.
    /// Laying out text with an empty chain throws `FontError`.
    public init(members: [Member]) {
        self.members = members
        library = nil
        weight = 400
        italic = false
    }

    /// A fixed chain of `faces`, none of them emboldened; see `init(members:)`.
    public convenience init(faces: [FontFace]) { self.init(members: faces.map { Member(face: $0) }) }

    init(members: [Member], library: FontLibrary?, weight: Int, italic: Bool) {
        self.members = members
        self.library = library
        self.weight = weight
        self.italic = italic
    }

    /// True when the chain has no face at all.
    public var isEmpty: Bool { members.isEmpty }

    /// The index into `members` and the glyph for `scalar`, or nil when no face has it.
    public func resolve(_ scalar: Unicode.Scalar) -> (member: Int, glyph: UInt32)? {
        for (index, member) in members.enumerated() {
            if let glyph = member.face.glyph(for: scalar) { return (index, glyph) }
        }
        return nil
    }

    /// A member that has `scalar`, added from the system's fonts when the
    /// chain has none and its library includes them; nil when no installed
    /// face has it (or the chain is fixed).
    func extend(for scalar: Unicode.Scalar) -> Int? {
        guard let library, let face = library.systemFace(for: scalar.value, weight: weight, italic: italic) else { return nil }
        if let known = members.firstIndex(where: { $0.face === face }) { return known }
        members.append(Member(face: face, syntheticBold: weight >= 600 && !face.isBold && !face.hasColorGlyphs))
        return members.count - 1
    }

    /// A colour member (an emoji font) with a glyph for every one of
    /// `scalars`: the first in the chain, else, when the chain's library
    /// includes system fonts, fontconfig's colour face for the first of
    /// them (which joins the chain's end); nil when there is none.
    func colorMember(for scalars: [Unicode.Scalar]) -> Int? {
        guard let first = scalars.first else { return nil }
        func covers(_ face: FontFace) -> Bool { face.hasColorGlyphs && scalars.allSatisfy { face.glyph(for: $0) != nil } }
        if let member = members.indices.first(where: { covers(members[$0].face) }) { return member }
        guard let library, let face = library.systemFace(for: first.value, weight: weight, italic: italic, color: true),
              covers(face) else { return nil }
        if let known = members.firstIndex(where: { $0.face === face }) { return known }
        members.append(Member(face: face))
        return members.count - 1
    }

    /// Whether characters no member has are looked for among the system's fonts (fontconfig).
    public var searchesSystemFonts: Bool { library != nil }

    /// The families of the faces tried, in chain order without repeats
    /// ("Noto Sans", "Noto Sans CJK SC"), for a message about missing characters.
    public var familyNames: [String] {
        var seen = Set<String>()
        return members.map(\.face.family).filter { seen.insert($0).inserted }
    }

    /// Synthetic bold strength in pixels at `pixelSize`: FreeType's
    /// FT_GlyphSlot_Embolden rule, one 24th of the em.
    public static func emboldenStrength(pixelSize: Double) -> Double { pixelSize / 24 }
}
