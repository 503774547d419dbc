import Foundation
import PinmintPNG
import Testing

/// Straight RGBA8 pixels of a rectangle of a decoded PNG.
func crop(_ png: PNGDecoder.Decoded, x: Int, y: Int, width: Int, height: Int) -> [UInt8] {
    var bytes: [UInt8] = []
    for row in y..<(y + height) {
        let start = (row * png.width + x) * 4
        bytes += png.straightRGBA8[start..<(start + width * 4)]
    }
    return bytes
}

func jsonObject(_ path: String) throws -> [String: Any] {
    try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path))) as? [String: Any])
}

/// `pinmint sprite`: files, ids, pixels, metadata, exit codes and messages are contracts.
struct SpriteCommandTests {
    /// icons/pin.svg, icons/food/cafe.svg, icons/dot.png + dot@2x.png.
    func iconFolder(in folder: URL) throws -> URL {
        let icons = folder.appendingPathComponent("icons")
        try FileManager.default.createDirectory(at: icons.appendingPathComponent("food"), withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: repositoryRoot.appendingPathComponent("Golden/scenes/pin.svg"), to: icons.appendingPathComponent("pin.svg"))
        try FileManager.default.copyItem(at: repositoryRoot.appendingPathComponent("Golden/scenes/star-evenodd.svg"),
                                         to: icons.appendingPathComponent("food/cafe.svg"))
        for (name, side, value) in [("dot.png", 8, UInt8(40)), ("dot@2x.png", 16, UInt8(90))] {
            let pixels = [UInt8]((0..<(side * side)).flatMap { _ in [value, 0, 0, 255] })
            try Data(try PNGEncoder.encode(straightRGBA8: pixels, width: side, height: side)).write(to: icons.appendingPathComponent(name))
        }
        return icons
    }

    @Test func folderOfIconsAtTwoRatios() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let icons = try iconFolder(in: folder)
        let out = folder.appendingPathComponent("out/sprite").path
        let result = try runPinmint(["sprite", icons.path, "-o", out, "--ratio", "1,2"])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardError.contains("% packed"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.appendingPathComponent("out").path).sorted()
            == ["sprite.json", "sprite.png", "sprite@2x.json", "sprite@2x.png"])
        for (suffix, ratio) in [("", 1), ("@2x", 2)] {
            let index = try jsonObject(out + suffix + ".json")
            #expect(index.keys.sorted() == ["dot", "food/cafe", "pin"])
            let sheet = try PNGDecoder.decode(contentsOfFile: out + suffix + ".png")
            // An SVG icon's pixels are those of `pinmint render ICON.svg --scale R`.
            let single = folder.appendingPathComponent("pin\(suffix).png").path
            #expect(try runPinmint(["render", icons.appendingPathComponent("pin.svg").path, "--scale", "\(ratio)", "-o", single]).status == 0)
            let rendered = try PNGDecoder.decode(contentsOfFile: single)
            let pin = try #require(index["pin"] as? [String: Int])
            #expect(pin["width"] == rendered.width && pin["height"] == rendered.height && pin["pixelRatio"] == ratio)
            #expect(crop(sheet, x: pin["x"]!, y: pin["y"]!, width: pin["width"]!, height: pin["height"]!) == rendered.straightRGBA8)
            // The PNG's @2x file is used at @2x.
            let dot = try #require(index["dot"] as? [String: Int])
            #expect(dot["width"] == 8 * ratio)
            #expect(crop(sheet, x: dot["x"]!, y: dot["y"]!, width: 1, height: 1)[0] == (ratio == 1 ? 40 : 90))
        }
    }

    @Test func stretchableMarkersAndSidecar() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let icons = try iconFolder(in: folder)
        let markers = folder.appendingPathComponent("markers.json")
        try Data(#"[{"id": "tag", "preset": "price-tag", "options": {"label": ""}}, {"id": "tag-5200", "preset": "price-tag", "options": {"label": "5200萬"}}, {"id": "bubble", "preset": "avatar", "options": {"name": "张三"}}]"#.utf8).write(to: markers)
        let sidecar = folder.appendingPathComponent("sidecar.json")
        try Data(#"{"icons": {"dot": {"content": [2, 2, 6, 6], "stretchX": [[3, 5]], "textFitWidth": "stretchOnly"}}}"#.utf8).write(to: sidecar)
        let out = folder.appendingPathComponent("s").path
        let result = try runPinmint(["sprite", icons.path, markers.path, sidecar.path, "-o", out, "--ratio", "2", "--spacing", "2"])
        #expect(result.status == 0, "\(result.standardError)")
        let index = try jsonObject(out + "@2x.json")
        #expect(index.keys.sorted() == ["bubble", "bubble-selected", "dot", "food/cafe", "pin", "tag", "tag-5200"])
        let tag = try #require(index["tag"] as? [String: Any])
        #expect((tag["content"] as? [Int])?.count == 4 && tag["stretchX"] != nil)
        #expect((index["tag-5200"] as? [String: Any])?["stretchX"] == nil)
        let dot = try #require(index["dot"] as? [String: Any])
        #expect(dot["content"] as? [Int] == [4, 4, 12, 12] && dot["stretchX"] as? [[Int]] == [[6, 10]])
        #expect(dot["textFitWidth"] as? String == "stretchOnly")
    }

    @Test func sdfUniqueAndMinify() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let icons = try iconFolder(in: folder)
        try FileManager.default.copyItem(at: icons.appendingPathComponent("pin.svg"), to: icons.appendingPathComponent("pin-copy.svg"))
        let out = folder.appendingPathComponent("sdf").path
        let result = try runPinmint(["sprite", icons.path, "-o", out, "--ratio", "1", "--sdf", "--unique", "--minify"])
        #expect(result.status == 0, "\(result.standardError)")
        let text = try String(contentsOfFile: out + ".json", encoding: .utf8)
        #expect(!text.contains(" ") && !text.contains("\n"))
        let index = try jsonObject(out + ".json")
        let pin = try #require(index["pin"] as? [String: Any]), copy = try #require(index["pin-copy"] as? [String: Any])
        #expect(pin["x"] as? Int == copy["x"] as? Int && pin["y"] as? Int == copy["y"] as? Int)
        #expect(pin["sdf"] as? Bool == true)
        #expect(pin["width"] as? Int == 60 + 6)        // the 60-point pin plus a 3-pixel buffer each side
        #expect(result.standardError.contains("distinct"))
    }

    @Test(arguments: [
        (["--max-size", "64"], "larger than the sheet's maximum side of 64 (--max-size)"),
        (["MISSING"], "MISSING: no such file or folder"),
        (["DUPLICATE"], "duplicate id 'pin'"),
        (["BADSIDECAR"], "icons.nope: no input has this id"),
    ])
    func badInputWritesNothing(_ extra: [String], _ message: String) throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let icons = try iconFolder(in: folder)
        var arguments = ["sprite", icons.path, "-o", folder.appendingPathComponent("out/x").path]
        for argument in extra {
            switch argument {
            case "MISSING": arguments.append("MISSING")
            case "DUPLICATE": arguments.append(icons.appendingPathComponent("pin.svg").path)
            case "BADSIDECAR":
                let sidecar = folder.appendingPathComponent("side.json")
                try Data(#"{"icons": {"nope": {"sdf": true}}}"#.utf8).write(to: sidecar)
                arguments.append(sidecar.path)
            default: arguments.append(argument)
            }
        }
        let result = try runPinmint(arguments)
        #expect(result.status == 2)
        #expect(result.standardError.contains(message), "\(result.standardError)")
        #expect(result.standardError.split(separator: "\n").count == 1)
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("out").path))
    }
}

/// `pinmint batch`: files, the index, exit codes, skipping and row errors are contracts.
struct BatchCommandTests {
    static let csv = #"""
    id,price,name
    a1,5200,"Smith, J"
    a2,"38""",x
    a3,120
    a1,99,dup
    a5,77,"multi
    line"
    a6,88,"oops"x
    a7,66,ok

    """#

    @Test func csvRowsFilesIndexAndFailures() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let data = folder.appendingPathComponent("d.csv")
        try Data(Self.csv.utf8).write(to: data)
        let out = folder.appendingPathComponent("out").path
        let result = try runPinmint(["batch", data.path, "-o", out, "--style", "price-tag", "--set", "label={price}萬", "--scale", "1,2"])
        #expect(result.status == 1)
        let lines = result.standardError.split(separator: "\n").map(String.init)
        #expect(lines == ["pinmint: \(data.path):4: 2 field(s), the header has 3",
                          "pinmint: \(data.path):5: duplicate id 'a1' (first on line 2)",
                          "pinmint: \(data.path):8: text after a closing quote (a quote inside a quoted field is written \"\")"])
        #expect(try FileManager.default.contentsOfDirectory(atPath: out).sorted()
            == ["a1.png", "a1@2x.png", "a2.png", "a2@2x.png", "a5.png", "a5@2x.png", "a7.png", "a7@2x.png", "index.json"])
        let index = try jsonObject(out + "/index.json")
        #expect(index["failed"] as? Int == 3 && index["style"] as? String == "price-tag")
        let markers = try #require(index["markers"] as? [[String: Any]])
        #expect(markers.map { $0["file"] as? String } == ["a1.png", "a1@2x.png", "a2.png", "a2@2x.png", "a5.png", "a5@2x.png", "a7.png", "a7@2x.png"])
        #expect(markers.map { $0["row"] as? Int } == [2, 2, 3, 3, 6, 6, 9, 9])
        // The metadata is what `pinmint render --meta` writes for the same marker.
        let meta = try runPinmint(["render", "price-tag", "--label", "38\"萬", "--scale", "2", "-o", folder.appendingPathComponent("r.png").path, "--meta", "-"])
        var expected = try #require(try JSONSerialization.jsonObject(with: meta.standardOutput) as? [String: Any])
        var actual = markers[3]
        for key in ["id", "file"] { expected[key] = nil; actual[key] = nil }
        for key in ["row", "recipe", "png"] { actual[key] = nil }
        #expect(NSDictionary(dictionary: expected) == NSDictionary(dictionary: actual))
        let png = try PNGDecoder.decode(contentsOfFile: out + "/a2@2x.png")
        #expect(png.width == markers[3]["width"] as? Int)
    }

    @Test func rerunSkipsUpToDateMarkersAndRedoesChangedOnes() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let data = folder.appendingPathComponent("d.jsonl")
        try Data("{\"id\": \"x\", \"price\": 1}\n{\"id\": \"y\", \"price\": 2}\n{\"id\": \"z\", \"price\": 3}\n".utf8).write(to: data)
        let out = folder.appendingPathComponent("out").path
        let arguments = ["batch", data.path, "-o", out, "--style", "price-tag", "--set", "label={price}萬"]
        #expect(try runPinmint(arguments).status == 0)
        let index = try String(contentsOfFile: out + "/index.json", encoding: .utf8)
        func inode(_ name: String) throws -> Int { try FileManager.default.attributesOfItem(atPath: out + "/" + name)[.systemFileNumber] as! Int }
        let before = try ["x.png", "y.png", "z.png"].map(inode)
        // Damage y.png; change z's price.
        try Data([1, 2, 3]).write(to: URL(fileURLWithPath: out + "/y.png"))
        let damaged = try inode("y.png")
        try Data("{\"id\": \"x\", \"price\": 1}\n{\"id\": \"y\", \"price\": 2}\n{\"id\": \"z\", \"price\": 4}\n".utf8).write(to: data)
        #expect(try runPinmint(arguments).status == 0)
        #expect(try inode("x.png") == before[0])                  // untouched
        #expect(try inode("y.png") != damaged)                    // rewritten
        #expect(try inode("z.png") != before[2])                  // new recipe
        #expect(try PNGDecoder.decode(contentsOfFile: out + "/y.png").width > 0)
        let rerun = try String(contentsOfFile: out + "/index.json", encoding: .utf8)
        #expect(rerun.components(separatedBy: "\n").filter { $0.contains("\"file\":\"x.png\"") }
            == index.components(separatedBy: "\n").filter { $0.contains("\"file\":\"x.png\"") })
        // --force renders everything again.
        #expect(try runPinmint(arguments + ["--force"]).status == 0)
        #expect(try inode("x.png") != before[0])
    }

    @Test func geoJSONIntoASprite() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let data = folder.appendingPathComponent("shops.geojson")
        try Data("""
        {"type": "FeatureCollection", "features": [
          {"type": "Feature", "id": "s1", "geometry": {"type": "Point", "coordinates": [121.5, 25.03]}, "properties": {"price": 5200}},
          {"type": "Feature", "id": "s2", "geometry": {"type": "Point", "coordinates": [121.6, 25.04]}, "properties": {"price": 99}}
        ]}
        """.utf8).write(to: data)
        let out = folder.appendingPathComponent("out").path
        let result = try runPinmint(["batch", data.path, "-o", out, "--style", "price-tag", "--set", "label={price}", "--scale", "1,2",
                                     "--sprite", "shops", "--minify"])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: out).sorted()
            == ["index.json", "shops.json", "shops.png", "shops@2x.json", "shops@2x.png"])
        let sprite = try jsonObject(out + "/shops@2x.json")
        #expect(sprite.keys.sorted() == ["s1", "s2"])
        let markers = try #require(try jsonObject(out + "/index.json")["markers"] as? [[String: Any]])
        #expect(markers.first?["coordinates"] as? [Double] == [121.5, 25.03])
        #expect(markers.map { $0["file"] as? String } == ["shops.png", "shops@2x.png", "shops.png", "shops@2x.png"])
    }

    @Test(arguments: [
        (["--set", "label={cost}"], "--set label: no field 'cost' in"),
        (["--set", "lable={price}"], "--set lable: price-tag has no option 'lable' (did you mean 'label'?)"),
        (["--set", "label={price"], "a '{' is never closed"),
        (["--style", "nope"], "--style 'nope' is not a preset"),
    ])
    func badUsageRendersNothing(_ extra: [String], _ message: String) throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let data = folder.appendingPathComponent("d.csv")
        try Data("id,price\na,1\n".utf8).write(to: data)
        var arguments = ["batch", data.path, "-o", folder.appendingPathComponent("out").path]
        if !extra.contains("--style") { arguments += ["--style", "price-tag"] }
        let result = try runPinmint(arguments + extra)
        #expect(result.status == 2)
        #expect(result.standardError.contains(message), "\(result.standardError)")
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("out").path))
    }

    @Test func brokenGeoJSONStopsWithCodeTwoAndKeepsThePreviousIndex() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let data = folder.appendingPathComponent("d.geojson")
        try Data(#"{"type": "FeatureCollection", "features": [{"type": "Feature", "properties": {"id": "a", "price": 1}}, {"type": "Feature""#.utf8)
            .write(to: data)
        let out = folder.appendingPathComponent("out").path
        let result = try runPinmint(["batch", data.path, "-o", out, "--style", "price-tag", "--set", "label={price}"])
        #expect(result.status == 2)
        #expect(result.standardError.contains("\(data.path):1: the file ends inside the feature"), "\(result.standardError)")
        #expect(!FileManager.default.fileExists(atPath: out + "/index.json"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: out).allSatisfy { !$0.hasPrefix(".") })
    }

    @Test func standardInputDefaultIdsAndIndexName() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let out = folder.appendingPathComponent("out").path
        let process = Process()
        process.executableURL = pinmintBinary
        process.arguments = ["batch", "-", "--format", "csv", "-o", out, "--style", "pin", "--set", "label={n}", "--index", "pins.json"]
        let input = Pipe(), error = Pipe()
        process.standardInput = input
        process.standardError = error
        try process.run()
        input.fileHandleForWriting.write(Data("n\n1\n2\n".utf8))
        input.fileHandleForWriting.closeFile()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        #expect(try FileManager.default.contentsOfDirectory(atPath: out).sorted() == ["pins.json", "row-2.png", "row-3.png"])
        let markers = try #require(try jsonObject(out + "/pins.json")["markers"] as? [[String: Any]])
        #expect(markers.map { $0["id"] as? String } == ["row-2", "row-3"])
        // Standard input needs --format.
        let missing = try runPinmint(["batch", "-", "-o", out, "--style", "pin"])
        #expect(missing.status == 2 && missing.standardError.contains("needs --format"))
    }
}

struct SpritePNGInputTests {
    @Test func aMissingRetinaFileIsResampledWithAWarning() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let icon = folder.appendingPathComponent("dot.png")
        let pixels = [UInt8]((0..<(6 * 4)).flatMap { _ in [200, 10, 10, 255] as [UInt8] })
        try Data(try PNGEncoder.encode(straightRGBA8: pixels, width: 6, height: 4)).write(to: icon)
        let out = folder.appendingPathComponent("s").path
        let result = try runPinmint(["sprite", icon.path, "-o", out, "--ratio", "1,3", "--jobs", "1"])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardError.contains("dot.png: no dot@3x.png beside it; the @1x image is resampled"))
        let entry = try #require(try jsonObject(out + "@3x.json")["dot"] as? [String: Int])
        #expect(entry["width"] == 18 && entry["height"] == 12 && entry["pixelRatio"] == 3)
        let quiet = try runPinmint(["sprite", icon.path, "-o", out, "--ratio", "3", "-q"])
        #expect(quiet.status == 0 && quiet.standardError.isEmpty)
    }
}

/// Regressions: output sets that were left half-written, files that
/// replaced each other, and input that was misreported or drawn wrong.
struct SpriteAndBatchOutputTests {
    /// The files in `folder`, hidden ones (temporary files) included.
    func listing(_ folder: String) throws -> [String] { try FileManager.default.contentsOfDirectory(atPath: folder).sorted() }

    @Test func aBlockedRetinaSheetLeavesTheOldSpriteAsItWas() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let icon = folder.appendingPathComponent("pin.svg")
        try FileManager.default.copyItem(at: repositoryRoot.appendingPathComponent("Golden/scenes/pin.svg"), to: icon)
        let out = folder.appendingPathComponent("out").path
        try FileManager.default.createDirectory(atPath: out + "/s@2x.png", withIntermediateDirectories: true)
        try Data("old png".utf8).write(to: URL(fileURLWithPath: out + "/s.png"))
        let result = try runPinmint(["sprite", icon.path, "-o", out + "/s", "--ratio", "1,2"])
        #expect(result.status == 2)
        #expect(result.standardError == "pinmint: \(out)/s@2x.png: is a folder; the sprite writes a file of this name\n")
        #expect(try listing(out) == ["s.png", "s@2x.png"])
        #expect(try String(contentsOfFile: out + "/s.png", encoding: .utf8) == "old png")
    }

    @Test func aBlockedBatchSpriteWritesNeitherSheetsNorIndex() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let data = folder.appendingPathComponent("d.csv")
        try Data("id,price\na,1\nb,2\n".utf8).write(to: data)
        let out = folder.appendingPathComponent("out").path
        try FileManager.default.createDirectory(atPath: out + "/s@2x.json", withIntermediateDirectories: true)
        let result = try runPinmint(["batch", data.path, "-o", out, "--style", "price-tag", "--set", "label={price}",
                                     "--sprite", "s", "--scale", "1,2"])
        #expect(result.status == 2)
        #expect(result.standardError == "pinmint: \(out)/s@2x.json: is a folder; the sprite writes a file of this name\n")
        #expect(try listing(out) == ["s@2x.json"])
    }

    @Test(arguments: [
        (["--index", "a.png"], "--index a.png: a row's marker file could have this name"),
        (["--index", "b@2x.PNG"], "--index b@2x.PNG: a row's marker file could have this name"),
        (["--sprite", "index"], "--index index.json: --sprite index writes index.json too"),
        (["--sprite", "tags", "--index", "tags@2x.png", "--scale", "1,2"], "--index tags@2x.png: --sprite tags writes tags@2x.png too"),
    ])
    func theIndexMayNotTakeAnotherOutputsName(_ extra: [String], _ message: String) throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let data = folder.appendingPathComponent("ok.csv")
        try Data("id,price\na,1\nb,2\n".utf8).write(to: data)
        let out = folder.appendingPathComponent("out").path
        let result = try runPinmint(["batch", data.path, "-o", out, "--style", "price-tag", "--set", "label={price}"] + extra)
        #expect(result.status == 2)
        #expect(result.standardError.hasPrefix("pinmint: \(message)"), "\(result.standardError)")
        #expect(result.standardError.split(separator: "\n").count == 1)
        #expect(!FileManager.default.fileExists(atPath: out))
    }

    /// Makes the file `folder/NAME`, NAME given as raw bytes (not valid UTF-8), as a copy of `source`.
    func makeFile(in folder: String, rawName name: [UInt8], copying source: URL) throws {
        let path = Array((folder + "/").utf8) + name
        let descriptor = open(path.map { CChar(bitPattern: $0) } + [0], O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        try #require(descriptor >= 0)
        let bytes = [UInt8](try Data(contentsOf: source))
        #expect(bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) } == bytes.count)
        close(descriptor)
    }

    @Test func anIconNameThatIsNotUTF8IsNamedAsSuch() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let icons = folder.appendingPathComponent("utf").path
        try FileManager.default.createDirectory(atPath: icons, withIntermediateDirectories: true)
        let pin = repositoryRoot.appendingPathComponent("Golden/scenes/pin.svg")
        try FileManager.default.copyItem(at: pin, to: URL(fileURLWithPath: icons + "/good.svg"))
        try makeFile(in: icons, rawName: Array("bad".utf8) + [0xFF] + Array(".svg".utf8), copying: pin)
        let out = folder.appendingPathComponent("out/s").path
        let walked = try runPinmint(["sprite", icons, "-o", out])
        #expect(walked.status == 2)
        #expect(walked.standardError == "pinmint: \(icons)/bad\\xFF.svg: the file name is not valid UTF-8 (byte 4 is 0xFF); "
                + "sprite ids are made from names: rename it\n")
        // Given by name: Process takes Strings, so the shell's printf puts the raw byte on the command line.
        let result = try runPinmintInShell("exec \"$0\" sprite \"$1$(printf 'bad\\377.svg')\" -o \"$2\"",
                                           arguments: [icons + "/", out])
        let message = result.standardError
        #expect(result.status == 2)
        #expect(message.hasPrefix("pinmint: \(icons)/bad\\xFF.svg: the argument is not valid UTF-8"), "\(message)")
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("out").path))
    }

    @Test func badRowBytesAndHugeNumbersAreFailedRowsWithTheirLine() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let csv = folder.appendingPathComponent("d.csv"), jsonl = folder.appendingPathComponent("d.jsonl")
        try Data(Array("id,price\na,1\nb,2".utf8) + [0xFF] + Array("3\nc,x\u{0}y\nd,4\n".utf8)).write(to: csv)
        try Data("{\"id\": \"x\", \"price\": 1}\n{\"id\": \"y\", \"price\": 1e400}\n".utf8).write(to: jsonl)
        let out = folder.appendingPathComponent("out").path
        let rows = try runPinmint(["batch", csv.path, "-o", out, "--style", "price-tag", "--set", "label={price}"])
        #expect(rows.status == 1)
        #expect(rows.standardError == "pinmint: \(csv.path):3: field 2 is not valid UTF-8 (byte 2 is 0xFF)\n"
                + "pinmint: \(csv.path):4: field 2 holds a NUL byte (byte 2)\n")
        #expect(try listing(out) == ["a.png", "d.png", "index.json"])
        let numbers = try runPinmint(["batch", jsonl.path, "-o", out + "2", "--style", "price-tag", "--set", "label={price}"])
        #expect(numbers.status == 1)
        #expect(numbers.standardError == "pinmint: \(jsonl.path):2: the number 1e400 is out of range "
                + "(a field's number must be within ±1.7976931348623157e+308)\n")
    }
}

/// A sprite that is not written leaves no folder behind: `-o na/nb/NAME`
/// with a name too long for the file system made na/nb, then removed nb
/// alone.
@Suite struct SpriteFolderCleanupTests {
    @Test func aFailedSpriteRemovesTheFoldersItMade() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let icon = folder.appendingPathComponent("pin.svg")
        try FileManager.default.copyItem(at: repositoryRoot.appendingPathComponent("Golden/scenes/pin.svg"), to: icon)
        let kept = folder.appendingPathComponent("kept").path
        try FileManager.default.createDirectory(atPath: kept, withIntermediateDirectories: true)
        let tooLong = String(repeating: "x", count: 260)
        for base in [folder.path + "/na/nb/" + tooLong, kept + "/na/nb/" + tooLong] {
            let result = try runPinmint(["sprite", icon.path, "-o", base, "--ratio", "1"])
            #expect(result.status == 2, "\(result.standardError)")
            #expect(result.standardError.split(separator: "\n").count == 1, "\(result.standardError)")
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() == ["kept", "pin.svg"])
        #expect(try FileManager.default.contentsOfDirectory(atPath: kept).isEmpty)
    }
}

/// Images that cannot fit in one sheet stop `pinmint sprite` when their
/// pixels pass a sheet's: forty 512-point boxes at @8x were all rendered
/// (2.9 GB) before the packer said they did not fit.
@Suite struct SpriteCapacityCommandTests {
    @Test func aSpriteThatCannotFitStopsBeforeRenderingTheRest() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        // Eight 64-point boxes for a 128-pixel sheet, then a marker whose picture is missing:
        // the fifth box stops the rendering before the marker is drawn (it was reported first).
        let box = ##"{"marker": {"type": "box", "fill": "#f00", "width": 64, "height": 64}}"##
        let broken = #"{"id": "broken", "preset": "pin", "options": {"picture": "missing.png"}}"#
        let list = folder.appendingPathComponent("late.json")
        try Data(("[" + Array(repeating: box, count: 8).joined(separator: ",") + "," + broken + "]").utf8).write(to: list)
        let out = folder.appendingPathComponent("out/late").path
        let result = try runPinmint(["sprite", list.path, "-o", out, "--ratio", "1", "--max-size", "128", "--jobs", "1"])
        #expect(result.status == 2)
        #expect(result.standardError == "pinmint: \(out): 5 images so far (20480 pixels with spacing) do not fit in a 128x128 sheet "
                + "at @1x; raise --max-size, lower --spacing, use --unique or --split to write several sheets "
                + "(NAME-1, NAME-2 … and NAME.style.json)\n")
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("out").path))
    }
}

/// Sprite files never replace the inputs they are made from.
@Suite struct SpriteOutputOverInputTests {
    @Test func aSpriteNamedLikeAnInputIconIsRefused() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let icons = folder.appendingPathComponent("ic")
        try FileManager.default.createDirectory(at: icons, withIntermediateDirectories: true)
        let original = repositoryRoot.appendingPathComponent("Golden/markers/pin-short@2x.png")
        try FileManager.default.copyItem(at: original, to: icons.appendingPathComponent("b.png"))
        let result = try runPinmint(["sprite", icons.path, "-o", icons.appendingPathComponent("b").path, "--ratio", "1"])
        #expect(result.status == 2 && result.standardError.contains("is the input file"), "\(result.standardError)")
        #expect(try Data(contentsOf: icons.appendingPathComponent("b.png")) == Data(contentsOf: original))
        #expect(try FileManager.default.contentsOfDirectory(atPath: icons.path) == ["b.png"])
    }
}

/// The batch index never replaces the data or the style it comes from.
@Suite struct BatchIndexOverInputTests {
    @Test func anIndexNamedLikeTheDataIsRefused() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let data = folder.appendingPathComponent("data.csv")
        try Data("id,price\na,1\n".utf8).write(to: data)
        let result = try runPinmint(["batch", data.path, "-o", folder.path, "--style", "price-tag", "--set", "label={price}",
                                     "--index", "data.csv"])
        #expect(result.status == 2 && result.standardError.contains("is the input file"), "\(result.standardError)")
        #expect(try String(contentsOf: data, encoding: .utf8) == "id,price\na,1\n")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["data.csv"])
    }
}

extension BatchIndexOverInputTests {
    /// Said "pinmint: : cannot create the folder" and "(NSCocoaErrorDomain error 512.)".
    @Test func batchOutputFoldersThatCannotBeMadeAreNamed() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let data = folder.appendingPathComponent("data.csv")
        try Data("id,price\na,1\n".utf8).write(to: data)
        let empty = try runPinmint(["batch", data.path, "-o", "", "--style", "price-tag", "--set", "label={price}"])
        #expect(empty.status == 2 && empty.standardError.contains("-o ''"), "\(empty.standardError)")
        let underFile = data.path + "/out"
        let blocked = try runPinmint(["batch", data.path, "-o", underFile, "--style", "price-tag", "--set", "label={price}"])
        #expect(blocked.status == 2 && blocked.standardError.contains("\(data.path) is a file"), "\(blocked.standardError)")
        #expect(!blocked.standardError.contains("NSCocoaErrorDomain"))
    }
}

/// No batch output replaces a file the batch reads: `batch data.csv -o pictures`
/// with a row whose id was `portrait` wrote portrait.png over the picture the
/// row drew (the index alone was checked against the data and the style).
@Suite struct BatchOutputOverInputTests {
    /// FOLDER is the output folder, which also holds the inputs: pic.png,
    /// icon.svg, style.json (a pin drawing pic.png) and the data.
    @Test(arguments: [
        // A marker over a file its row reads fails that row; the other rows render.
        (["--style", "pin", "--set", "picture={pic}"], "id,pic\npic,FOLDER/pic.png\nb,FOLDER/pic.png\n", Int32(1),
         "data.csv:2: id 'pic' would write pic.png over FOLDER/pic.png, which the marker draws; give the row another id"),
        (["--style", "FOLDER/style.json"], "id\npic\nb\n", Int32(1),
         "data.csv:2: id 'pic' would write pic.png over FOLDER/pic.png, which the marker draws; give the row another id"),
        (["--style", "pin", "--set", "id=data", "--format", "csv"], "n\n1\n", Int32(1), "over the data file"),
        // The index or a sprite over an input stops the batch before anything is replaced.
        (["--style", "pin", "--set", "picture={pic}", "--sprite", "pic"], "id,pic\na,FOLDER/pic.png\n", Int32(2),
         "--sprite pic (pic.png): would replace FOLDER/pic.png, which line 2 draws; give the output another name"),
        (["--style", "pin", "--set", "icon-file={icon}", "--index", "icon.svg"], "id,icon\na,FOLDER/icon.svg\n", Int32(2),
         "--index icon.svg: would replace FOLDER/icon.svg, which line 2 draws"),
        (["--style", "FOLDER/style.json", "--sprite", "style"], "id\na\n", Int32(2), "--sprite 'FOLDER/style.json' is the input file"),
        (["--style", "pin", "--sprite", "data", "--format", "csv"], "id\na\n", Int32(2), "--sprite 'FOLDER/data.png' is the input file"),
    ])
    func aBatchOutputOverAnInputIsRefused(arguments: [String], rows: String, status: Int32, message: String) throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let picture = repositoryRoot.appendingPathComponent("Golden/markers/pictures/portrait.png")
        let icon = repositoryRoot.appendingPathComponent("Golden/markers/pictures/coffee.svg")
        try FileManager.default.copyItem(at: picture, to: folder.appendingPathComponent("pic.png"))
        try FileManager.default.copyItem(at: icon, to: folder.appendingPathComponent("icon.svg"))
        let style = Data(#"{"preset": "pin", "options": {"picture": "pic.png"}}"#.utf8)
        try style.write(to: folder.appendingPathComponent("style.json"))
        // With --format csv the data may have any name: data.png, which a marker or a sprite named data would take.
        let data = folder.appendingPathComponent(arguments.contains("--format") ? "data.png" : "data.csv")
        let rowText = rows.replacingOccurrences(of: "FOLDER", with: folder.path)
        try Data(rowText.utf8).write(to: data)
        let resolved = arguments.map { $0.replacingOccurrences(of: "FOLDER", with: folder.path) }
        let result = try runPinmint(["batch", data.path, "-o", folder.path, "--quiet"] + resolved)
        #expect(result.status == status, "\(result.standardError)")
        #expect(result.standardError.contains(message.replacingOccurrences(of: "FOLDER", with: folder.path)), "\(result.standardError)")
        #expect(try Data(contentsOf: folder.appendingPathComponent("pic.png")) == Data(contentsOf: picture))
        #expect(try Data(contentsOf: folder.appendingPathComponent("icon.svg")) == Data(contentsOf: icon))
        #expect(try Data(contentsOf: folder.appendingPathComponent("style.json")) == style)
        #expect(try String(contentsOf: data, encoding: .utf8) == rowText)
        let left = try FileManager.default.contentsOfDirectory(atPath: folder.path)
        #expect(!left.contains { $0.hasPrefix(".") }, "no temporary file: \(left)")
        if status == 2 { #expect(!left.contains("index.json") && !left.contains("a.png"), "\(left)") }
    }
}
