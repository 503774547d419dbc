/// What `pinmint png info` reports about a PNG file: its header and the
/// chunks in file order. Reading it also decodes the image once (within
/// the decoder's default limits), so a corrupt file is refused.
public struct PNGInfo: Sendable {
    /// One chunk: its four-letter type and its data length in bytes.
    public struct Chunk: Sendable, Equatable {
        /// The chunk type as written, e.g. "IHDR", "PLTE", "tRNS", "IDAT".
        public let type: String
        /// Bytes of chunk data (not counting the length, type and CRC fields).
        public let length: Int
    }

    /// Width in pixels, from IHDR (within the decoder's limits).
    public let width: Int
    /// Height in pixels, from IHDR.
    public let height: Int
    /// 0 grey, 2 RGB, 3 palette, 4 grey+alpha, 6 RGBA.
    public let colorType: Int
    /// Bits per sample (per palette index for colour type 3), from IHDR: 1, 2, 4, 8 or 16.
    public let bitDepth: Int
    /// Whether the image is stored Adam7-interlaced.
    public let interlaced: Bool
    /// Every chunk up to and including IEND, in file order.
    public let chunks: [Chunk]

    /// The colour type's name, e.g. "palette" or "RGBA".
    public var colorTypeName: String {
        switch colorType {
        case 0: "grey"
        case 2: "RGB"
        case 3: "palette"
        case 4: "grey+alpha"
        case 6: "RGBA"
        default: "unknown (\(colorType))"
        }
    }

    /// Reads the header and chunk list of `bytes`; `name` is used in errors.
    /// - Throws: `PNGError` when the bytes are not a readable PNG.
    public init(_ bytes: [UInt8], name: String = "memory", limits: PNGDecoder.Limits = .init()) throws(PNGError) {
        let decoded = try PNGDecoder.decode(bytes, name: name, limits: limits)
        width = decoded.width
        height = decoded.height
        colorType = decoded.colorType
        bitDepth = decoded.bitDepth
        interlaced = decoded.interlaced
        // The decoder has checked the structure; walk it for the chunk list.
        var chunks: [Chunk] = []
        var offset = 8
        while offset + 12 <= bytes.count {
            let length = bytes[offset..<(offset + 4)].reduce(0) { $0 << 8 | Int($1) }
            let type = String(decoding: bytes[(offset + 4)..<(offset + 8)], as: UTF8.self)
            chunks.append(Chunk(type: type, length: length))
            offset += 12 + length
            if type == "IEND" { break }
        }
        self.chunks = chunks
    }
}
