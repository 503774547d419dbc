import Foundation

// PinmintFuzz: every parser's fuzz harness in one program (Harness.swift).
//
//   PinmintFuzz --list                      the harnesses
//   PinmintFuzz replay HARNESS PATH...      runs files, or every file in folders, through HARNESS
//   PinmintFuzz HARNESS [libFuzzer flags]   fuzzes HARNESS (a build with -DFUZZING; see Fuzz/README.md)
//
// `make test` replays Fuzz/regressions/HARNESS/ with the release build, the
// flags users get; `make fuzz` builds this with libFuzzer and AddressSanitizer.
// Exit codes: 0 every input handled, 1 a harness failure, 2 bad usage.

/// Writes to standard error at once (a crash must not lose what came before it).
func printError(_ text: String) {
    FileHandle.standardError.write(Data((text + "\n").utf8))
}

func usage() -> Never {
    printError("usage: PinmintFuzz --list | replay HARNESS PATH... | HARNESS [libFuzzer flags]")
    exit(2)
}

/// The files under `path`: the file itself, or a folder's files (not hidden), sorted.
func inputFiles(_ path: String) -> [String] {
    var isFolder: ObjCBool = false
    guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) else {
        printError("PinmintFuzz: \(path): no such file or folder")
        exit(2)
    }
    guard isFolder.boolValue else { return [path] }
    let names = (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
    return names.filter { !$0.hasPrefix(".") }.sorted().map { path + "/" + $0 }
}

/// Runs every input through `harness`; returns how many broke a promise.
func replay(_ harness: Harness, paths: [String]) -> Int {
    var failures = 0, count = 0
    for path in paths.flatMap(inputFiles) {
        guard let data = FileManager.default.contents(atPath: path) else {
            printError("PinmintFuzz: \(path): cannot read")
            exit(2)
        }
        // Named before it runs: a crash's output then ends with the input that caused it.
        printError("\(harness.name): \(path)")
        do throws(HarnessFailure) { try harness.run([UInt8](data)) } catch {
            printError("\(harness.name): \(path): FAILED: \(error)")
            failures += 1
        }
        count += 1
    }
    print("\(harness.name): \(count) inputs replayed, \(failures) failed")
    return failures
}

let arguments = Array(CommandLine.arguments.dropFirst())
switch arguments.first {
case "--list":
    for harness in Harness.all { print("\(harness.name)\t\(harness.summary)") }
case "replay":
    guard arguments.count >= 3 else { usage() }
    guard let harness = Harness.named(arguments[1]) else {
        printError("PinmintFuzz: no harness '\(arguments[1])' (see PinmintFuzz --list)")
        exit(2)
    }
    exit(replay(harness, paths: Array(arguments.dropFirst(2))) == 0 ? 0 : 1)
case let name?:
    guard let harness = Harness.named(name) else {
        printError("PinmintFuzz: no harness '\(name)' (see PinmintFuzz --list)")
        exit(2)
    }
    exit(fuzz(harness, flags: Array(arguments.dropFirst())))
case nil:
    usage()
}
