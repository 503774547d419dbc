import Foundation

/// A file read through a 64 KiB buffer, a byte at a time, counting lines:
/// what the row readers scan, so that a file of any length takes the same memory.
final class ByteStream {
    private let descriptor: Int32
    private let ownsDescriptor: Bool
    /// Allocated once, freed with the stream: scanned through without an array's checks per span.
    private let buffer: UnsafeMutableBufferPointer<UInt8>
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
        buffer = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: Self.bufferSize)
        buffer.initialize(repeating: 0)
    }

    deinit {
        if ownsDescriptor { close(descriptor) }
        buffer.deallocate()
    }

    /// Refills the buffer behind the unread bytes; false at the end of the file.
    private func refill() -> Bool {
        if atEnd { return false }
        let unread = end - position
        if unread > 0 && position > 0 {
            UnsafeMutableRawPointer(buffer.baseAddress!).copyMemory(from: buffer.baseAddress! + position, byteCount: unread)
        }
        bufferStart += position
        end = unread; position = 0
        while end < buffer.count {
            let count = read(descriptor, buffer.baseAddress! + end, buffer.count - end)
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

    /// Reads the bytes before the next one in `stops`, handing them to
    /// `body` a buffered span at a time (so a long field is copied, not
    /// read a byte at a time), and returns that stop byte, not consumed;
    /// nil at the end of the file. Line feeds in the spans are counted.
    func readSpan(until stops: ByteSet, _ body: (UnsafeBufferPointer<UInt8>) -> Void) -> UInt8? {
        while true {
            if position == end && !refill() { return nil }
            let start = position, limit = end
            var lineFeeds = 0
            var found = start
            var stop: UInt8? = nil
            while found < limit {
                let byte = buffer[found]
                if stops.contains(byte) { stop = byte; break }
                if byte == 0x0A { lineFeeds += 1 }
                found += 1
            }
            line += lineFeeds
            position = found
            body(UnsafeBufferPointer(rebasing: buffer[start..<found]))
            if let stop { return stop }
        }
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
        while true {
            let stop = readSpan(until: ByteStream.lineFeed) { span in
                count += span.count
                let room = maximumBytes - bytes.count
                if span.count <= room { bytes.append(contentsOf: span) } else {
                    bytes.append(contentsOf: span.prefix(room))
                    tooLong = true
                }
            }
            if count > abandonAfter { abandoned = true; return nil }
            if stop == nil { break }
            _ = nextByte()
            break
        }
        return tooLong ? nil : bytes
    }

    private static let lineFeed = ByteSet([0x0A])
}

/// A set of bytes, tested with two shifts and a mask (for `readSpan`).
struct ByteSet {
    private var words: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)

    init(_ bytes: [UInt8]) {
        for byte in bytes {
            let bit = UInt64(1) << UInt64(byte & 63)
            switch byte >> 6 {
            case 0: words.0 |= bit
            case 1: words.1 |= bit
            case 2: words.2 |= bit
            default: words.3 |= bit
            }
        }
    }

    @inline(__always) func contains(_ byte: UInt8) -> Bool {
        let word: UInt64
        switch byte >> 6 {
        case 0: word = words.0
        case 1: word = words.1
        case 2: word = words.2
        default: word = words.3
        }
        return word >> UInt64(byte & 63) & 1 != 0
    }
}
