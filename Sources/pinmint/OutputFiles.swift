import Foundation
import PinmintGeometry
import PinmintPNG

/// Where a command's outputs go: checks made before anything is rendered or
/// written, so a bad output name writes nothing. Writing itself is a
/// `FileSet` (or `PNGEncoder.writeAtomically`, one set), all files of one
/// call or none.

/// Refuses an output path that cannot name a file: empty, ending in `/`, an
/// existing folder, device, pipe or socket. `-` (standard output) passes.
/// - Parameter option: the option that gave the path, for the message (e.g. "--meta").
func checkOutputPath(_ path: String, option: String, command: String) throws(UsageError) {
    guard !path.isEmpty else { throw UsageError(message: "\(command): \(option) '' is not a file name") }
    guard path != "-" else { return }
    if let reason = PNGEncoder.reasonPathIsNotWritable(path) {
        throw UsageError(message: "\(command): \(option) '\(path)' \(reason)")
    }
}

/// Refuses a call whose outputs would overwrite each other or an input:
/// two outputs naming the same file (after `..`, `.` and symbolic links, or
/// the same existing file by device and inode), or an output that is one of
/// the files the call reads. Standard output (`-`) is checked by the caller.
/// - Parameters:
///   - outputs: each output path with the option that named it (e.g. "-o", "--meta").
///   - inputs: the files the call reads (a marker or SVG file, data, a
///     style, input images); `-` (standard input) is skipped.
///   - drawn: the pictures and icons a marker draws, named as such.
func refuseClashingOutputs(_ outputs: [(path: String, option: String)], inputs: [String], drawn: [String] = [],
                           command: String) throws(UsageError) {
    let files = outputs.filter { $0.path != "-" }
    let inputs = inputs.filter { $0 != "-" }
    for (index, output) in files.enumerated() {
        if inputs.contains(where: { sameFile(output.path, $0) }) {
            throw UsageError(message: "\(command): \(output.option) '\(output.path)' is the input file; write the output elsewhere")
        }
        if drawn.contains(where: { sameFile(output.path, $0) }) {
            throw UsageError(message: "\(command): \(output.option) '\(output.path)' is a picture or icon the marker draws; "
                             + "write the output elsewhere")
        }
        if let earlier = files[..<index].first(where: { sameFile($0.path, output.path) }) {
            throw UsageError(message: "\(command): '\(output.path)' would be written twice "
                             + "(by \(earlier.option) and \(output.option)); give each output its own name")
        }
    }
}

/// Whether two paths name the same file, existing or not.
func sameFile(_ first: String, _ second: String) -> Bool {
    func canonical(_ path: String) -> String {
        URL(fileURLWithPath: path).standardizedFileURL.resolvingSymlinksInPath().path
    }
    if canonical(first) == canonical(second) { return true }
    var firstStatus = stat(), secondStatus = stat()
    return stat(first, &firstStatus) == 0 && stat(second, &secondStatus) == 0
        && firstStatus.st_dev == secondStatus.st_dev && firstStatus.st_ino == secondStatus.st_ino
}

/// Writes text to standard output after anything `print` buffered; a failed
/// write (a full disk, a closed descriptor) throws "standard output: PROBLEM".
func writeStandardOutput(_ text: String) throws(PNGError) {
    try PNGEncoder.writeToStandardOutput(Array(text.utf8))
}

/// Refuses an image output whose name does not end in `.png` (any case):
/// Pinmint writes PNG only, and `x.webp`, `x.svg` or a bare `x` would hold
/// PNG bytes under a name that says otherwise. `-` (standard output) passes.
/// - Parameter option: the option that gave the path, for the message (e.g. "-o", "--diff").
func refuseNonPNGName(_ path: String, option: String, command: String) throws(UsageError) {
    guard path != "-", !path.lowercased().hasSuffix(".png") else { return }
    let stem = PathName.deletingExtension(PathName.lastComponent(of: path))
    throw UsageError(message: "\(command): \(option) '\(path)': only PNG is written; "
                     + "give a name ending in .png (e.g. \(stem.isEmpty ? "out" : stem).png)")
}

/// Image formats a sprite name (`-o OUT/NAME`, `--sprite NAME`) may not end
/// in: the sheets are always `NAME.png` (and `NAME@2x.png` …), so
/// `-o out/icons.webp` would write `out/icons.webp.png`.
let otherImageExtensions: Set<String> = ["webp", "svg", "svgz", "jpg", "jpeg", "gif", "avif", "bmp", "tif", "tiff",
                                         "heic", "heif", "ico", "jxl", "pdf"]

/// Refuses a sprite name ending in another image format's extension.
func refuseOtherImageFormat(spriteName name: String, option: String, command: String) throws(UsageError) {
    let last = PathName.lastComponent(of: name)
    guard let dot = last.lastIndex(of: "."), otherImageExtensions.contains(last[last.index(after: dot)...].lowercased()) else {
        return
    }
    throw UsageError(message: "\(command): \(option) '\(name)': only PNG is written (the sheets are "
                     + "\(last[..<dot]).png, \(last[..<dot])@2x.png …); give the name without '\(last[dot...])'")
}
