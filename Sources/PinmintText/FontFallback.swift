/// An ordered list of faces: each character takes its glyph from the first
/// face that has one, so "5200萬" takes its digits from a Latin face and 萬
/// from a CJK face. Characters no face has get the first face's .notdef box.
public struct FontFallback {
    /// One face of the chain.
    public struct Member {
        public let face: FontFace
        /// Thicken the outlines (FT_Outline_Embolden) because bold was asked
        /// for and the family has no bold face.
        public let syntheticBold: Bool
        public init(face: FontFace, syntheticBold: Bool = false) {
            self.face = face
            self.syntheticBold = syntheticBold
        }
    }

    public let members: [Member]

    public init(members: [Member]) { self.members = members }
    public init(faces: [FontFace]) { members = faces.map { Member(face: $0) } }

    public var isEmpty: Bool { members.isEmpty }

    /// The index into `members` and the glyph for `scalar`, or nil when no face has it.
    public func resolve(_ scalar: Unicode.Scalar) -> (member: Int, glyph: UInt32)? {
        for (index, member) in members.enumerated() {
            if let glyph = member.face.glyph(for: scalar) { return (index, glyph) }
        }
        return nil
    }

    /// Synthetic bold strength in pixels at `pixelSize`: FreeType's
    /// FT_GlyphSlot_Embolden rule, one 24th of the em.
    public static func emboldenStrength(pixelSize: Double) -> Double { pixelSize / 24 }
}
