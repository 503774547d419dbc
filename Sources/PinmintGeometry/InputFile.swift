import Foundation

/// Whole input files read with a size limit: marker descriptions, style
/// files, SVG icons and PNGs. Links are followed; a regular file over the
/// limit is refused from its size before any byte is read; a pipe, device
/// or socket (`render <(generate)`, `/dev/stdin`) is read as a stream, with
/// read(2) (FileHandle traps on a closed descriptor), never more than the
/// limit and one byte, so `/dev/zero` ends there; callers that need a file
/// (pictures) refuse streams outright. `-` is standard input.
///
/// In the geometry module, the lowest one, so that every reader of files
/// (SVG, PNG, markers, golden suites) shares it.
package enum InputFile {
    /// Why a file could not be read; callers word it for their own errors.
    package enum Failure: Error, Equatable {
        case noSuchFile
        case folder
        /// Over the limit: `size` when the file said so up front (a regular
        /// file), nil when a stream passed it.
        case tooLarge(size: Int?)
        /// The system's reason (strerror), e.g. "Permission denied".
        case unreadable(String)
        /// Not a regular file, where one is required: what it is instead
        /// ("a character device", "a pipe", "a socket", "a block device").
        case notRegularFile(String)
    }

    /// Whether `path` (links followed) is a pipe, device or socket: read as
    /// it comes, with no folder of its own to resolve relative names against.
    package static func isStream(_ path: String) -> Bool {
        if path == "-" { return true }
        var status = stat()
        guard stat(path, &status) == 0 else { return false }
        let type = status.st_mode & S_IFMT
        return type == S_IFIFO || type == S_IFCHR || type == S_IFSOCK
    }

    /// The bytes of `path` (or of standard input for `-`), at most `limit`;
    /// with `regularFileOnly`, anything but a regular file is refused
    /// before it is opened.
    package static func read(_ path: String, limit: Int, regularFileOnly: Bool = false) throws(Failure) -> [UInt8] {
        if path == "-" {
            if regularFileOnly { throw .notRegularFile("standard input") }
            return try readStream(0, limit: limit)
        }
        var status = stat()
        guard stat(path, &status) == 0 else {
            throw errno == ENOENT || errno == ENOTDIR ? .noSuchFile : .unreadable(String(cString: strerror(errno)))
        }
        let type = status.st_mode & S_IFMT
        if type == S_IFDIR { throw .folder }
        if regularFileOnly && type != S_IFREG {
            switch type {
            case S_IFCHR: throw .notRegularFile("a character device")
            case S_IFBLK: throw .notRegularFile("a block device")
            case S_IFIFO: throw .notRegularFile("a pipe")
            case S_IFSOCK: throw .notRegularFile("a socket")
            default: throw .notRegularFile("not a regular file")
            }
        }
        if type == S_IFREG && Int(status.st_size) > limit { throw .tooLarge(size: Int(status.st_size)) }
        let descriptor = open(path, O_RDONLY)
        guard descriptor >= 0 else { throw .unreadable(String(cString: strerror(errno))) }
        defer { close(descriptor) }
        return try readStream(descriptor, limit: limit)
    }

    /// `descriptor` to its end; `.tooLarge(size: nil)` once it passes
    /// `limit`, having read at most `limit + 1` bytes (a regular file may
    /// grow, and /proc files say they have none).
    private static func readStream(_ descriptor: Int32, limit: Int) throws(Failure) -> [UInt8] {
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let wanted = min(chunk.count, limit + 1 - bytes.count)
            let count = chunk.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress!, wanted) }
            if count < 0 {
                if errno == EINTR { continue }
                throw .unreadable(String(cString: strerror(errno)))
            }
            if count == 0 { return bytes }
            guard bytes.count + count <= limit else { throw .tooLarge(size: nil) }
            bytes.append(contentsOf: chunk[0..<count])
        }
    }
}
