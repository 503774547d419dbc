import Foundation

/// A file read through a 64 KiB buffer, a byte at a time, counting lines:
/// what the row readers scan, so that a file of any length takes the same memory.
final class ByteStream {
    private let descriptor: Int32
    private let ownsDescriptor: Bool
    private var buffer: [UInt8]
    private var position = 0, end = 0
    /// File offset of `buffer[0]`.
    private var bufferStart = 0
    /// The file's size when it is a regular file (for progress).
    let size: Int?
    private var atEnd = false
    /// 1-based line of the next byte.
    private(set) var line = 1
    let input: String

    static let bufferSize = 64 * 1024

    init(path: String) throws(SpriteError) {
        input = path
        if path == "-" {
            descriptor = 0; ownsDescriptor = false
        } else {
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) else {
                throw SpriteError(input: path, problem: "no such file")
            }
            guard !isFolder.boolValue else { throw SpriteError(input: path, problem: "is a folder, not a data file") }
            descriptor = open(path, O_RDONLY)
            guard descriptor >= 0 else { throw SpriteError(input: path, problem: "cannot open: \(String(cString: strerror(errno)))") }
            ownsDescriptor = true
        }
        var status = stat()
        size = fstat(descriptor, &status) == 0 && (status.st_mode & S_IFMT) == S_IFREG ? Int(status.st_size) : nil
        buffer = [UInt8](repeating: 0, count: Self.bufferSize)
    }

    deinit { if ownsDescriptor { close(descriptor) } }

    /// Refills the buffer behind the unread bytes; false at the end of the file.
    private func refill() -> Bool {
        if atEnd { return false }
        let unread = end - position
        if unread > 0 && position > 0 {
            buffer.withUnsafeMutableBytes { bytes in
                bytes.baseAddress!.copyMemory(from: bytes.baseAddress! + position, byteCount: unread)
            }
        }
        bufferStart += position
        end = unread; position = 0
        while end < buffer.count {
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress! + end, $0.count - end) }
            if count < 0 && errno == EINTR { continue }
            if count <= 0 { atEnd = true; break }
            end += count
            if end - unread > 0 { break }
        }
        return end > position
    }

    /// Bytes consumed so far: the file offset of the next byte.
    var offset: Int { bufferStart + position }

    @inline(__always) func nextByte() -> UInt8? {
        if position == end && !refill() { return nil }
        let byte = buffer[position]
        position += 1
        if byte == 0x0A { line += 1 }
        return byte
    }

    @inline(__always) func peekByte() -> UInt8? {
        if position == end && !refill() { return nil }
        return buffer[position]
    }

    /// Up to `count` bytes from the start, without consuming them (for guessing the format).
    func peek(_ count: Int) -> [UInt8] {
        if end - position < count { _ = refill() }
        return Array(buffer[position..<min(end, position + count)])
    }

    func skipByteOrderMark() {
        if peek(3) == [0xEF, 0xBB, 0xBF] { position += 3 }
    }

    /// The bytes up to the next line feed (consumed, not returned), or nil
    /// when the line is longer than `maximumBytes` (then skipped).
    func readLine(maximumBytes: Int) -> [UInt8]? {
        var abandoned = false
        return readLine(maximumBytes: maximumBytes, abandonAfter: .max, abandoned: &abandoned)
    }

    /// `readLine(maximumBytes:)` that stops reading after `abandonAfter`
    /// bytes of one line, setting `abandoned` (the line's end is not sought).
    func readLine(maximumBytes: Int, abandonAfter: Int, abandoned: inout Bool) -> [UInt8]? {
        var bytes: [UInt8] = []
        var tooLong = false, count = 0
        while let byte = nextByte() {
            if byte == 0x0A { break }
            count += 1
            if count > abandonAfter { abandoned = true; return nil }
            if bytes.count < maximumBytes { bytes.append(byte) } else { tooLong = true }
        }
        return tooLong ? nil : bytes
    }
}
