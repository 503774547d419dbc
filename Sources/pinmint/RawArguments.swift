import Foundation
import PinmintSprites

/// Swift hands the command line over as `String`s, with U+FFFD in place of
/// bytes that are not UTF-8: a file name so written would be looked up
/// under a name it does not have ("no such file"), a template would draw
/// the wrong text (or a file written under the wrong name). Every command
/// that takes file names (`render`, `sprite`, `batch`, `diff`, `png`,
/// `golden`) refuses such an argument first, naming it with the bad byte
/// shown as `\xFF`.
func checkArgumentsAreUTF8(command: String) throws(UsageError) {
    for index in 1..<Int(CommandLine.argc) {
        guard let pointer = CommandLine.unsafeArgv[index] else { continue }
        let bytes = Array(UnsafeBufferPointer(start: pointer, count: strlen(pointer))).map { UInt8(bitPattern: $0) }
        if let problem = TextBytes.problem(bytes) {
            throw UsageError(message: "\(TextBytes.shown(bytes)): the argument \(problem); \(command) reads names and text as UTF-8: "
                             + "rename the file or fix the text")
        }
    }
}
