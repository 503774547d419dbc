import Foundation
import PinmintPNG
import Testing

struct PNGCommandTests {
    let reference = repositoryRoot.appendingPathComponent("Golden/reference/pin@1x.png").path

    @Test func infoAsJSON() throws {
        let result = try runPinmint(["png", "info", reference, "--json"])
        #expect(result.status == 0, "\(result.standardError)")
        let info = try JSONSerialization.jsonObject(with: result.standardOutput) as? [String: Any]
        #expect(info?["width"] as? Int == 60 && info?["height"] as? Int == 80)
        #expect(info?["bitDepth"] as? Int == 8)
        let chunks = (info?["chunks"] as? [[String: Any]] ?? []).compactMap { $0["type"] as? String }
        #expect(chunks.first == "IHDR" && chunks.last == "IEND")
    }

    /// A PNG read from a pipe (`png info <(generate)`, `/dev/stdin` fed by
    /// `cat`) is read as a stream; it said "permission denied or unreadable".
    @Test func infoReadsAPipe() throws {
        let result = try runPinmintInShell("cat \"$1\" | exec \"$0\" png info /dev/stdin --json", arguments: [reference])
        #expect(result.status == 0, "\(result.standardError)")
        let info = try JSONSerialization.jsonObject(with: result.standardOutput) as? [String: Any]
        #expect(info?["width"] as? Int == 60 && info?["height"] as? Int == 80)
    }

    @Test(arguments: ["fast", "default", "small"])
    func convertIsLossless(_ mode: String) throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let output = folder.appendingPathComponent("out.png").path
        let result = try runPinmint(["png", "convert", reference, "-o", output, "--png", mode])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(try PNGDecoder.decode(contentsOfFile: output).straightRGBA8
                == PNGDecoder.decode(contentsOfFile: reference).straightRGBA8)
    }

    /// `png convert A -o A` is refused: an output is never the input.
    /// Re-encoding in place is safe (the input is read whole, the output
    /// written atomically): the file becomes the converted PNG, same pixels.
    @Test func convertInPlaceReplacesTheFileWhole() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let copy = folder.appendingPathComponent("pin.png").path
        try FileManager.default.copyItem(atPath: reference, toPath: copy)
        let result = try runPinmint(["png", "convert", copy, "-o", folder.appendingPathComponent("./pin.png").path,
                                     "--png", "small"])
        #expect(result.status == 0, "\(result.standardError)")
        let before = try PNGDecoder.decode(try PNGDecoder.readFile(reference), name: "reference").image
        let after = try PNGDecoder.decode(try PNGDecoder.readFile(copy), name: "copy").image
        #expect(before.pixels == after.pixels)
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: folder.path)
        #expect(leftovers == ["pin.png"])
    }

    @Test(arguments: [
        (["png", "info", "/nonexistent.png"], "/nonexistent.png"),
        (["png", "convert", "README.md", "-o", "OUT"], "README.md"),
        (["png", "convert", "PNG", "-o", "OUT", "--png", "tiny"], "tiny"),
        (["png", "frobnicate"], "frobnicate"),
        // Said "pinmint: : cannot move the finished file into place: Is a directory".
        (["png", "convert", "PNG", "-o", ""], "-o '' is not a file name"),
        (["png", "convert", "PNG", "-o", "FOLDER"], "is a directory"),
        (["png", "convert", "PNG", "-o", "FIFO"], "fifo' is not a regular file"),
    ])
    func badInputIsOneLineAndExitCodeTwo(_ arguments: [String], _ named: String) throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let output = folder.appendingPathComponent("out.png").path
        // A rename would replace a pipe (or a device), not write into it.
        let fifo = folder.appendingPathComponent("fifo").path
        if arguments.contains("FIFO") { #expect(mkfifo(fifo, 0o644) == 0) }
        let resolved = arguments.map { argument -> String in
            switch argument {
            case "OUT": return output
            case "PNG": return reference
            case "README.md": return repositoryRoot.appendingPathComponent("README.md").path
            case "FOLDER": return folder.path
            case "FIFO": return fifo
            default: return argument
            }
        }
        let result = try runPinmint(resolved)
        #expect(result.status == 2, "\(arguments): \(result.standardError)")
        #expect(result.standardError.split(separator: "\n").count == 1, "\(result.standardError)")
        #expect(result.standardError.contains(named), "\(result.standardError)")
        #expect(!FileManager.default.fileExists(atPath: output))
    }
}

/// Closed or odd standard streams: one line and exit code 2, never a trap.
@Suite struct StandardStreamTests {
    func shell(_ script: String, _ arguments: [String] = []) throws -> (status: Int32, standardError: String) {
        let result = try runPinmintInShell(script, arguments: arguments)
        return (result.status, result.standardError)
    }

    @Test func aClosedStandardInputIsAnError() throws {
        let result = try shell("exec \"$0\" png info - <&-")
        #expect(result.status == 2)
        #expect(result.standardError.hasPrefix("pinmint: -: cannot read standard input"), "\(result.standardError)")
    }

    @Test func aClosedStandardErrorStillGivesTheExitCode() throws {
        let result = try shell("exec \"$0\" render no-such-preset -o /tmp/never-written.png 2>&-")
        #expect(result.status == 2)
        #expect(!FileManager.default.fileExists(atPath: "/tmp/never-written.png"))
    }

    @Test func controlCharactersInAnErrorAreEscapedOnOneLine() throws {
        let result = try shell("exec \"$0\" render \"$(printf 'a\\nb')\" -o /tmp/never-written.png")
        #expect(result.status == 2)
        #expect(result.standardError.split(separator: "\n").count == 1 && result.standardError.contains("a\\nb"),
                "\(result.standardError)")
    }
}

extension StandardStreamTests {
    /// diff and golden reported success or a difference with their output lost.
    @Test func diffToAFullStandardOutputIsAnError() throws {
        let image = repositoryRoot.appendingPathComponent("Golden/markers/pin-short@2x.png").path
        let result = try shell("exec \"$0\" diff \"$1\" \"$1\" >/dev/full", [image])
        #expect(result.status == 3)
        #expect(result.standardError.hasPrefix("pinmint: standard output: "), "\(result.standardError)")
    }
}
