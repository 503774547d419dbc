import CPNGShim
import Foundation
import PinmintRaster

/// Why a PNG could not be written.
public struct PNGError: Error, CustomStringConvertible {
    /// The file (or "-" for standard output, "memory" for in-memory encoding).
    public let file: String
    public let problem: String
    public var description: String { "\(file): \(problem)" }
}

/// PNG output through libpng (reached only through the CPNGShim C target).
///
/// Output is straight-alpha RGBA8, byte-identical for identical input: no
/// timestamps or other varying chunks. A pHYs chunk records the pixel ratio
/// as 72 dpi × scale.
public enum PNGEncoder {
    /// Encodes straight-alpha RGBA8 pixels (width × height × 4 bytes).
    public static func encode(straightRGBA8 bytes: [UInt8], width: Int, height: Int,
                              pixelRatio: Double = 1) throws(PNGError) -> [UInt8] {
        guard width > 0, height > 0, bytes.count == width * height * 4 else {
            throw PNGError(file: "memory", problem: "pixel buffer of \(bytes.count) bytes does not match \(width)x\(height)")
        }
        // 72 dpi is 2834.6 pixels per metre.
        let pixelsPerMeter = UInt32(max(0, (72 / 0.0254 * pixelRatio).rounded()))
        var data: UnsafeMutablePointer<UInt8>? = nil
        var size = 0
        var message = [CChar](repeating: 0, count: Int(PINMINT_PNG_MESSAGE_CAPACITY))
        // Level 6 with libpng's adaptive filters; tuning the encoder belongs to the PNG issue.
        let status = bytes.withUnsafeBufferPointer { pixels in
            pinmint_png_encode_rgba8(pixels.baseAddress, UInt32(width), UInt32(height), pixelsPerMeter, 6, 0,
                                     &data, &size, &message)
        }
        guard status == Int32(pinmint_png_ok), let data else {
            throw PNGError(file: "memory", problem: String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
        }
        defer { pinmint_png_free(data) }
        return Array(UnsafeBufferPointer(start: data, count: size))
    }

    /// Encodes a canvas's pixels.
    public static func encode(_ canvas: Canvas, pixelRatio: Double = 1) throws(PNGError) -> [UInt8] {
        try encode(straightRGBA8: canvas.straightRGBA8(), width: canvas.width, height: canvas.height,
                   pixelRatio: pixelRatio)
    }

    /// Writes `bytes` to `path` atomically: into a temporary file in the same
    /// folder, then renamed over the target, so a reader never sees half a
    /// file and a failure leaves no file behind. `-` writes to standard output.
    public static func writeAtomically(_ bytes: [UInt8], to path: String) throws(PNGError) {
        if path == "-" {
            FileHandle.standardOutput.write(Data(bytes))
            return
        }
        let url = URL(fileURLWithPath: path)
        let folder = url.deletingLastPathComponent()
        let temporary = folder.appendingPathComponent(".\(url.lastPathComponent).\(getpid()).tmp")
        do {
            try Data(bytes).write(to: temporary)
        } catch {
            throw PNGError(file: path, problem: "cannot write: \(Self.reason(error))")
        }
        if rename(temporary.path, url.path) != 0 {
            let problem = String(cString: strerror(errno))
            unlink(temporary.path)
            throw PNGError(file: path, problem: "cannot move the finished file into place: \(problem)")
        }
    }

    static func reason(_ error: Error) -> String {
        if let cocoa = error as? CocoaError, let underlying = cocoa.underlying as? POSIXError {
            return String(cString: strerror(underlying.code.rawValue))
        }
        let nsError = error as NSError
        if let underlying = nsError.userInfo[NSUnderlyingErrorKey] as? NSError, underlying.domain == NSPOSIXErrorDomain {
            return String(cString: strerror(Int32(underlying.code)))
        }
        return nsError.localizedDescription
    }

    /// libpng's version, e.g. "1.6.39".
    public static var libpngVersion: String { String(cString: pinmint_png_version()) }
}
