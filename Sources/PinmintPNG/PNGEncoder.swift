import CPNGShim
import Foundation
import PinmintRaster

/// PNG output through libpng (reached only through `LibPNG`).
///
/// Input is straight-alpha RGBA8. Output is lossless (decoding gives back
/// every input byte) and byte-identical for identical input: no time, text
/// or other varying chunks. A pHYs chunk records the pixel ratio as
/// 72 dpi × scale.
///
/// Marker images are flat colours with anti-aliased edges: few distinct
/// colours, long runs. So every mode but `fast` first reduces the colour
/// type losslessly (palette + tRNS when at most 256 colours, grey when grey,
/// no alpha when opaque), and indexed rows go unfiltered (the PNG spec's
/// advice; filters rarely help indices). Measured trade-offs: `make bench`.
public enum PNGEncoder {
    /// How hard to compress. All three are lossless.
    public enum Mode: String, CaseIterable, Sendable {
        /// Least time: `default` without choosing a filter (rows of images
        /// over 256 colours stay unfiltered; palette images are unfiltered
        /// in both modes, so their bytes are the same). It used to be zlib
        /// level 1 on RGBA rows, which the shim's own deflate on a palette
        /// beats in both time and size (`make bench`).
        case fast
        /// The balance used unless asked otherwise: colour reduction (palette
        /// when ≤ 256 colours, unfiltered; grey and true colour rows get none
        /// or Up, estimated from sampled rows), compressed by the shim's own
        /// image deflate (`parallelDeflate`: matches against the previous
        /// pixel, the row above and a small hash table; two halves on two
        /// threads when over 1 MiB). Measured against libpng's defaults
        /// (`make bench`): every marker scene 6–13× faster at 0.42–0.93×
        /// the size (callout @2x 11×, 0.42×); a 2048² sprite sheet of 792
        /// colours 17× faster at 0.98×.
        case `default`
        /// Smallest file: tries every lossless colour type, three filter
        /// choices (none, Sub, libpng's adaptive) and two zlib strategies at
        /// level 9, and keeps the smallest (fewer trials above 512×512
        /// pixels). Up, Average and Paeth alone never won on the marker
        /// scenes (`PinmintBench png --tune`). Many times slower than `default`.
        case small
    }

    /// One encoding attempt's choices; `Mode` picks these for you.
    package struct Settings: Hashable, Sendable {
        /// Which lossless colour types may be written.
        package enum ColorReduction: Sendable {
            /// Always RGBA8, as given (libpng's defaults do this).
            case none
            /// RGB when opaque, grey or grey+alpha when grey; no palette (one cheap pass).
            case channels
            /// `channels`, and palette + tRNS when at most 256 colours.
            case palette
        }

        /// Row filters as a set; several let libpng choose per row (minimum sum of absolute differences).
        package struct Filters: OptionSet, Hashable, Sendable {
            package let rawValue: Int32
            package init(rawValue: Int32) { self.rawValue = rawValue }
            package static let none = Filters(rawValue: Int32(pinmint_png_filter_none))
            package static let sub = Filters(rawValue: Int32(pinmint_png_filter_sub))
            package static let up = Filters(rawValue: Int32(pinmint_png_filter_up))
            package static let average = Filters(rawValue: Int32(pinmint_png_filter_average))
            package static let paeth = Filters(rawValue: Int32(pinmint_png_filter_paeth))
            package static let all: Filters = [.none, .sub, .up, .average, .paeth]
        }

        /// zlib's match strategy.
        package enum Strategy: Int32, Sendable {
            case `default` = 0, filtered = 1, huffmanOnly = 2, runLength = 3
        }

        package var colorReduction: ColorReduction
        /// zlib level 0 (store) ... 9 (smallest).
        package var level: Int
        package var strategy: Strategy
        /// Filters for grey and true-colour rows.
        package var filters: Filters
        /// Filters for indexed (palette) rows; default `.none`.
        package var indexedFilters: Filters
        /// For images of up to 8 bits per sample whose `filters` are `.none`,
        /// `.up` or both: the shim filters the rows and compresses them with
        /// its own deflate (`image_deflate.c`: matches at the previous pixel,
        /// the row above and four hashed earlier positions, one-step lazy,
        /// dynamic Huffman blocks) instead of libpng and zlib, so `level` and
        /// `strategy` are not used. With both filters, none or Up is chosen
        /// once per image by an entropy estimate on 32 sampled rows. An image
        /// of 1 MiB of rows or more is compressed in two halves, the second
        /// on a helper thread unless the caller gets to it first; the second
        /// half matches into the first, so the bytes do not depend on timing.
        package var parallelDeflate: Bool

        package init(colorReduction: ColorReduction, level: Int, strategy: Strategy, filters: Filters,
                     indexedFilters: Filters = .none, parallelDeflate: Bool = false) {
            self.colorReduction = colorReduction
            self.level = min(9, max(0, level))
            self.strategy = strategy
            self.filters = filters
            self.indexedFilters = indexedFilters
            self.parallelDeflate = parallelDeflate
        }

        /// libpng's own defaults: RGBA8, adaptive filters, level 6, default strategy (the benchmark baseline).
        package static let libpngDefaults = Settings(colorReduction: .none, level: 6, strategy: .default,
                                                     filters: .all, indexedFilters: .all)
    }

    /// The settings each mode tries for an image of `pixelCount` pixels; the smallest result wins.
    package static func trials(for mode: Mode, pixelCount: Int) -> [Settings] {
        switch mode {
        case .fast:
            return [Settings(colorReduction: .palette, level: 1, strategy: .runLength, filters: .none,
                             parallelDeflate: true)]
        case .default:
            return [Settings(colorReduction: .palette, level: 4, strategy: .default, filters: [.none, .up],
                             parallelDeflate: true)]
        case .small:
            let filters: [Settings.Filters] = pixelCount <= 512 * 512
                ? [.none, .sub, .all] : [.none, .all]
            let strategies: [Settings.Strategy] = pixelCount <= 512 * 512 ? [.default, .filtered] : [.default]
            return strategies.flatMap { strategy in
                filters.map { Settings(colorReduction: .palette, level: 9, strategy: strategy, filters: $0, indexedFilters: $0) }
            }
        }
    }

    /// Encodes straight-alpha RGBA8 pixels (width × height × 4 bytes).
    /// - Parameters:
    ///   - pixelRatio: written to pHYs as 72 dpi × pixelRatio; 0, negative or not finite writes no pHYs.
    ///   - mode: how hard to compress (default `.default`).
    /// - Throws: `PNGError` (file "memory") when the buffer does not match the size.
    public static func encode(straightRGBA8 bytes: [UInt8], width: Int, height: Int,
                              pixelRatio: Double = 1, mode: Mode = .default) throws(PNGError) -> [UInt8] {
        try encode(straightRGBA8: bytes, width: width, height: height, pixelRatio: pixelRatio,
                   trying: trials(for: mode, pixelCount: Image.valueCount(width: width, height: height).map { $0 / 4 } ?? Int.max))
    }

    /// Encodes with explicit settings; with several, keeps the smallest
    /// result (the first one on a tie, so output stays deterministic).
    package static func encode(straightRGBA8 bytes: [UInt8], width: Int, height: Int, pixelRatio: Double = 1,
                               trying settings: [Settings]) throws(PNGError) -> [UInt8] {
        // Overflow-safe (2³¹ × 2³¹ × 4 does not fit in an Int).
        guard width > 0, height > 0, width <= Int(UInt32.max >> 1), height <= Int(UInt32.max >> 1),
              Image.valueCount(width: width, height: height) == bytes.count else {
            throw PNGError(file: "memory", problem: "pixel buffer of \(bytes.count) bytes does not match \(width)x\(height)")
        }
        guard !settings.isEmpty else { throw PNGError(file: "memory", problem: "no encoder settings given") }
        // 72 dpi is 2834.6 pixels per metre.
        // A ratio that is not a positive finite number writes no pHYs chunk.
        let pixelsPerMeter = pixelRatio.isFinite && pixelRatio > 0
            ? UInt32(min(Double(UInt32.max >> 1), (72 / 0.0254 * pixelRatio).rounded())) : 0
        let widest = settings.map(\.colorReduction).max { rank($0) < rank($1) } ?? .none
        let analysis = widest == .none ? nil : analyse(bytes, countColors: widest == .palette)

        // Pack each colour type once; each setting then picks its candidates.
        var packed: [String: LibPNG.PackedImage] = [:]
        func candidates(_ reduction: Settings.ColorReduction, everyType: Bool) -> [LibPNG.PackedImage] {
            guard let analysis, reduction != .none else {
                return [cached("rgba") { packTrueColor(bytes, width: width, height: height, opaque: false) }]
            }
            var result: [LibPNG.PackedImage] = []
            // Grey and opaque with 8-bit indices: grey8 stores the same bytes without a PLTE.
            if reduction == .palette, let colors = analysis.colors, let firstSeenIndices = analysis.firstSeenIndices,
               everyType || !(analysis.isGrey && analysis.isOpaque && indexBitDepth(forColorCount: colors.count) == 8) {
                result.append(cached("palette") { packPalette(width: width, height: height, colors: colors,
                                                           firstSeenIndices: firstSeenIndices) })
                if !everyType { return result }
            }
            if analysis.isGrey {
                result.append(cached("grey") { packGrey(bytes, width: width, height: height, opaque: analysis.isOpaque) })
            } else {
                result.append(cached("true") { packTrueColor(bytes, width: width, height: height, opaque: analysis.isOpaque) })
            }
            return result
        }
        func cached(_ key: String, _ make: () -> LibPNG.PackedImage) -> LibPNG.PackedImage {
            if let image = packed[key] { return image }
            let image = make()
            packed[key] = image
            return image
        }

        var best: [UInt8]? = nil
        for setting in settings {
            for image in candidates(setting.colorReduction, everyType: settings.count > 1) {
                let indexed = image.colorType == 3 || image.bitDepth < 8
                let filters = indexed ? setting.indexedFilters : setting.filters
                var compression = LibPNG.Compression(level: Int32(setting.level), strategy: setting.strategy.rawValue,
                                                     filters: filters.rawValue == 0 ? Settings.Filters.none.rawValue : filters.rawValue)
                compression.ownDeflate = setting.parallelDeflate && Settings.Filters([.none, .up]).isSuperset(of: filters)
                let encoded = try LibPNG.encode(image, compression: compression, pixelsPerMeter: pixelsPerMeter)
                if best == nil || encoded.count < best!.count { best = encoded }
            }
        }
        return best!
    }

    private static func rank(_ reduction: Settings.ColorReduction) -> Int {
        switch reduction { case .none: 0; case .channels: 1; case .palette: 2 }
    }

    /// Encodes a canvas's pixels (converted to straight alpha, rounded to 8 bits).
    public static func encode(_ canvas: Canvas, pixelRatio: Double = 1, mode: Mode = .default) throws(PNGError) -> [UInt8] {
        try encode(straightRGBA8: canvas.straightRGBA8(), width: canvas.width, height: canvas.height,
                   pixelRatio: pixelRatio, mode: mode)
    }

    /// Writes `bytes` to `path` atomically: into a temporary file in the same
    /// folder, then renamed over the target, so a reader never sees half a
    /// file and a failure leaves no file behind. `-` writes to standard output.
    ///
    /// - Throws: `PNGError` naming the path (or "standard output") and the
    ///   problem: an empty path, a folder, a write or rename that failed.
    public static func writeAtomically(_ bytes: [UInt8], to path: String) throws(PNGError) {
        try writeAtomically([(bytes, path)])
    }

    /// Writes several files all or nothing, as one `FileSet`: every file
    /// goes into a temporary file beside its target first; then the bytes
    /// for a path `-` go to standard output; only when all of that worked
    /// are the temporary files renamed into place, in order. Any failure
    /// leaves every target as it was (new files absent, existing ones
    /// untouched, a rename that failed half-way undone) and no temporary
    /// file behind.
    ///
    /// - Throws: `PNGError` naming the first path that failed and why: an
    ///   empty path, a folder, a device, a write or rename that failed.
    public static func writeAtomically(_ files: [(bytes: [UInt8], path: String)]) throws(PNGError) {
        let set = FileSet()
        for file in files { try set.stage(file.bytes, for: file.path) }
        try set.commit()
    }

    /// Writes `bytes` to standard output (file descriptor 1), after whatever
    /// `print` has buffered, retrying short and interrupted writes.
    ///
    /// - Throws: `PNGError` with file "standard output" when a write fails
    ///   (a full disk, a closed descriptor, a broken pipe when SIGPIPE is ignored).
    package static func writeToStandardOutput(_ bytes: [UInt8]) throws(PNGError) {
        if let error = writeToStandardOutputReportingError(bytes) { throw error }
    }

    private static func writeToStandardOutputReportingError(_ bytes: [UInt8]) -> PNGError? {
        // Every stdio stream first: what `print` buffered goes before these bytes.
        guard fflush(nil) == 0 else { return PNGError(file: "standard output", problem: String(cString: strerror(errno))) }
        return writeAll(bytes, to: STDOUT_FILENO).map { PNGError(file: "standard output", problem: String(cString: strerror($0))) }
    }

    /// Writes all of `bytes` to `descriptor` with write(2), again after short
    /// and interrupted writes: nil when done, else the error number (ENOSPC
    /// when nothing more could be written; `strerror` gives the reason, "No
    /// space left on device"). The one write loop of the package (files,
    /// standard output, standard error).
    package static func writeAll(_ bytes: [UInt8], to descriptor: Int32) -> Int32? {
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
            if written < 0 {
                if errno == EINTR { continue }
                return errno
            }
            if written == 0 { return ENOSPC }
            offset += written
        }
        return nil
    }

    /// Why `path` should not be an output, or nil when it can: it is empty,
    /// names a folder (or ends in `/`), or is an existing device, pipe or
    /// socket (which a rename would replace, not write into). Follows
    /// symbolic links, unlike `FileSet`, which replaces a link: the commands
    /// check their outputs with this before rendering anything.
    package static func reasonPathIsNotWritable(_ path: String) -> String? {
        if path.isEmpty { return "the file name is empty" }
        if path.hasSuffix("/") { return "is a directory" }
        var status = stat()
        guard stat(path, &status) == 0 else { return nil }
        switch status.st_mode & S_IFMT {
        case S_IFREG: return nil
        case S_IFDIR: return "is a directory"
        default: return "is not a regular file (a device, pipe or socket); use - for standard output"
        }
    }

    /// libpng's version, e.g. "1.6.39".
    package static var libpngVersion: String { LibPNG.version }
}
