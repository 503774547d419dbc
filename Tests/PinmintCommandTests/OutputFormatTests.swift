import Foundation
import Testing

/// Issue 23: `-o x.webp` wrote PNG bytes under a WebP name. Every command
/// that writes PNGs refuses an output named for another format (or for none)
/// with one line naming the file and saying only PNG is written, the exit
/// code of bad input, and writes nothing.
struct OutputFormatTests {
    /// The command with OUT standing for the refused name; the option that names it;
    /// the exit code of bad input (`pinmint diff` uses 3 for it).
    static let commands: [(arguments: [String], option: String, status: Int32)] = [
        (["render", "price-tag", "--label", "1", "-o", "OUT"], "-o", 2),
        (["render", "ICON", "-o", "OUT"], "-o", 2),
        (["render", "pin", "--scale", "1,2", "-o", "OUT", "--meta", "META"], "-o", 2),
        (["png", "convert", "PNG", "-o", "OUT"], "-o", 2),
        (["diff", "PNG", "PNG", "--diff", "OUT"], "--diff", 3),
    ]

    @Test(arguments: commands, ["x.webp", "x.svg", "x.jpg", "x", "x.png.gz", "x.PNG.webp"])
    func imageOutputsNotNamedPNGAreRefused(command: (arguments: [String], option: String, status: Int32), name: String) throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let png = folder.appendingPathComponent("in.png")
        #expect(try runPinmint(["render", "pin", "-o", png.path]).status == 0)
        let icon = folder.appendingPathComponent("icon.svg")
        try FileManager.default.copyItem(at: repositoryRoot.appendingPathComponent("Golden/scenes/pin.svg"), to: icon)
        let out = folder.appendingPathComponent(name).path
        let arguments = command.arguments.map { argument -> String in
            switch argument {
            case "OUT": return out
            case "PNG": return png.path
            case "ICON": return icon.path
            case "META": return folder.appendingPathComponent("meta.json").path
            default: return argument
            }
        }
        let result = try runPinmint(arguments)
        #expect(result.status == command.status, "\(arguments)")
        let lines = result.standardError.split(separator: "\n")
        #expect(lines.count == 1, "\(result.standardError)")
        #expect(result.standardError.contains("\(command.option) '\(out)': only PNG is written"), "\(result.standardError)")
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
        #expect(files == ["icon.svg", "in.png"], "\(arguments) wrote \(files)")
    }

    /// `.png` in any case, and standard output, still write.
    @Test(arguments: ["x.png", "X.PNG", "-"])
    func pngNamesAndStandardOutputAreWritten(name: String) throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let out = name == "-" ? "-" : folder.appendingPathComponent(name).path
        let result = try runPinmint(["render", "pin", "-o", out])
        #expect(result.status == 0, "\(result.standardError)")
        if name != "-" { #expect(FileManager.default.fileExists(atPath: out)) }
    }

    /// A sprite's name has no extension (the sheets are NAME.png, NAME@2x.png), but
    /// `-o out/icons.webp` wrote `icons.webp.png`: another image format's extension is refused.
    @Test(arguments: ["icons.webp", "icons.svg", "icons.JPG", "icons.avif"])
    func spriteNamesOfOtherFormatsAreRefused(name: String) throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let icons = folder.appendingPathComponent("icons")
        try FileManager.default.createDirectory(at: icons, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: repositoryRoot.appendingPathComponent("Golden/scenes/pin.svg"), to: icons.appendingPathComponent("pin.svg"))
        let out = folder.appendingPathComponent("out/" + name).path
        let sprite = try runPinmint(["sprite", icons.path, "-o", out])
        #expect(sprite.status == 2)
        #expect(sprite.standardError.split(separator: "\n").count == 1, "\(sprite.standardError)")
        #expect(sprite.standardError.contains("-o '\(out)': only PNG is written"), "\(sprite.standardError)")
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("out").path))

        let data = folder.appendingPathComponent("d.csv")
        try Data("id,n\na,1\n".utf8).write(to: data)
        let batch = try runPinmint(["batch", data.path, "-o", folder.appendingPathComponent("b").path, "--style", "pin",
                                    "--set", "label={n}", "--sprite", name])
        #expect(batch.status == 2)
        #expect(batch.standardError.contains("--sprite '\(name)': only PNG is written"), "\(batch.standardError)")
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("b").path))
    }

    /// A sprite name with a dot that is not an image format stays a name.
    @Test func spriteNamesWithOtherDotsAreKept() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let icons = folder.appendingPathComponent("icons")
        try FileManager.default.createDirectory(at: icons, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: repositoryRoot.appendingPathComponent("Golden/scenes/pin.svg"), to: icons.appendingPathComponent("pin.svg"))
        let result = try runPinmint(["sprite", icons.path, "-o", folder.appendingPathComponent("icons.v2").path, "--ratio", "1", "-q"])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent("icons.v2.png").path))
    }
}
