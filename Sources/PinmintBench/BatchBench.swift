import Foundation
import PinmintMarkers
import PinmintPNG
import PinmintSprites

/// `PinmintBench batch [--work DIR] [--repeat N] [--only rows|mixed]`: the batch and sprite targets of
/// issue 7, and (d) labels in eight scripts (issue 22).
///
/// - (a) 1,000 distinct price tags into a sprite at @1x and @2x (`BatchRenderer` with sprite output).
/// - (b) 10,000 distinct price tags into individual PNG files with an index, with 1 and 2 jobs,
///   alternated and repeated (median), in a folder under DIR and, when it exists, in /dev/shm
///   (tmpfs: the same work without the disk's inode allocation).
/// - (c) Reading rows alone: CSV with 1.5 MB fields, short CSV and JSON lines (MB/s against the I/O floor).
/// - Where one marker's time goes, on one thread: resolving the style's options, layout and
///   drawing, PNG encoding (default and fast), the atomic file write.
/// - Peak memory (VmHWM, reset between runs through /proc/self/clear_refs) for 2,000 and
///   10,000 markers: it must not grow with the number of markers.
///
/// `PinmintBench batch --work DIR --profile N [--stage batch|resolve|render|encode|write] [--jobs J]`:
/// only one stage over N markers on one thread (default: the whole batch, with J jobs, default 1;
/// PNG default), nothing else; for instruction counts under callgrind, per marker from the
/// difference of two N.
enum BatchBench {
    static func main(_ arguments: [String]) throws {
        var work = "Benchmarks/.work/batch", repeats = 3
        var profileCount: Int? = nil, stage = "batch", profileJobs = 1, onlyRows = false, onlyMixed = false
        var index = 0
        while index + 1 < arguments.count {
            switch arguments[index] {
            case "--work": work = arguments[index + 1]
            case "--repeat": repeats = max(1, Int(arguments[index + 1]) ?? 3)
            case "--profile": profileCount = max(1, Int(arguments[index + 1]) ?? 100)
            case "--stage": stage = arguments[index + 1]
            case "--jobs": profileJobs = max(1, Int(arguments[index + 1]) ?? 1)
            case "--only": onlyRows = arguments[index + 1] == "rows"; onlyMixed = arguments[index + 1] == "mixed"
            default: break
            }
            index += 2
        }
        try FileManager.default.createDirectory(atPath: work, withIntermediateDirectories: true)
        if let profileCount {
            try profile(profileCount, stage: stage, jobs: profileJobs, work: work)
            return
        }
        if onlyRows { try readingRows(work: work); return }
        if onlyMixed { try mixedScripts(work: work, repeats: repeats); return }
        let data = (work as NSString).appendingPathComponent("tags-10000.csv")
        let data2k = (work as NSString).appendingPathComponent("tags-2000.csv")
        let data1k = (work as NSString).appendingPathComponent("tags-1000.csv")
        try writePrices(10_000, to: data); try writePrices(2_000, to: data2k); try writePrices(1_000, to: data1k)
        print("batch bench: price-tag, label '{price}萬' (distinct prices), \(ProcessInfo.processInfo.activeProcessorCount) cores; "
              + "load average \(loadAverage())")

        // Memory first, each run's peak measured on its own.
        print("peak memory (VmHWM, reset before each run), 2 jobs, PNG files + index:")
        for (file, count) in [(data2k, 2_000), (data, 10_000), (data2k, 2_000)] {
            resetPeakMemory()
            let folder = (work as NSString).appendingPathComponent("memory-\(count)")
            try? FileManager.default.removeItem(atPath: folder)
            let seconds = try runBatch(file, folder: folder, jobs: 2, scales: [1], sprite: nil)
            print(String(format: "  %6d markers: peak %6.1f MB (%.2f s)", count, peakMemoryMB(), seconds))
        }

        // (a) the sprite.
        print("(a) 1,000 distinct price tags into a sprite at @1x and @2x (2,000 images, packed, PNG default):")
        for jobs in [1, 2] {
            var times: [Double] = []
            for run in 0..<repeats {
                let folder = (work as NSString).appendingPathComponent("sprite-\(jobs)-\(run)")
                try? FileManager.default.removeItem(atPath: folder)
                var sprite = BatchConfiguration.SpriteOutput(name: "tags")
                sprite.maximumSize = 4096
                times.append(try runBatch(data1k, folder: folder, jobs: jobs, scales: [1, 2], sprite: sprite))
            }
            let median = times.sorted()[times.count / 2]
            print(String(format: "  %d job(s): %.3f s median of %d, %.0f markers/s (1,000 markers, 2,000 images)",
                         jobs, median, repeats, 1000 / median))
        }

        // (b) 10,000 files.
        var targets = [(label: "disk (\(work))", root: work)]
        if FileManager.default.fileExists(atPath: "/dev/shm") { targets.append(("tmpfs (/dev/shm)", "/dev/shm/pinmint-batch-bench")) }
        for mode in [PNGEncoder.Mode.default, .fast] {
            for target in targets {
                print("(b) 10,000 price tags @1x into PNG files + index, PNG \(mode.rawValue), \(target.label):")
                var pairs: [(one: Double, two: Double)] = []
                for run in 0..<repeats {
                    var pair = (one: 0.0, two: 0.0), cpu = (one: 0.0, two: 0.0)
                    for jobs in [1, 2] {
                        let folder = (target.root as NSString).appendingPathComponent("files-\(mode.rawValue)-\(jobs)-\(run)")
                        try? FileManager.default.removeItem(atPath: folder)
                        let cpuBefore = cpuSeconds()
                        let seconds = try runBatch(data, folder: folder, jobs: jobs, scales: [1], sprite: nil, mode: mode)
                        let cpuUsed = cpuSeconds() - cpuBefore
                        if jobs == 1 { pair.one = seconds; cpu.one = cpuUsed } else { pair.two = seconds; cpu.two = cpuUsed }
                        try? FileManager.default.removeItem(atPath: folder)
                    }
                    pairs.append(pair)
                    // CPU time per marker (user + system) does not depend on what else the machine runs:
                    // equal for 1 and 2 jobs means the second core adds no overhead of its own.
                    print(String(format: "  run %d: 1 job %.2f s (%.0f/s), 2 jobs %.2f s (%.0f/s), speed-up %.2fx; CPU per marker %.0f / %.0f µs",
                                 run + 1, pair.one, 10_000 / pair.one, pair.two, 10_000 / pair.two, pair.one / pair.two,
                                 cpu.one / 10_000 * 1e6, cpu.two / 10_000 * 1e6))
                }
                let best = pairs.map(\.two).min()!, speedups = pairs.map { $0.one / $0.two }.sorted()
                print(String(format: "  best 2 jobs: %.0f markers/s (target 8,000); median speed-up %.2fx (target 1.7x)",
                             10_000 / best, speedups[speedups.count / 2]))
            }
        }
        if targets.count > 1 { try? FileManager.default.removeItem(atPath: "/dev/shm/pinmint-batch-bench") }

        try mixedScripts(work: work, repeats: repeats)
        try breakdown(work: work)
        try readingRows(work: work)
    }

    /// (c) Reading rows alone: DataRowReader over CSV with 1.5 MB fields
    /// (quoted and not; each row is refused as too long, so only reading is
    /// timed) and over 200,000 short CSV and JSON lines, against reading the
    /// same bytes and counting their line feeds (the I/O floor), same run.
    static func readingRows(work: String) throws {
        let long = (work as NSString).appendingPathComponent("long-fields.csv")
        var text = "id,label\n"
        for row in 0..<40 { text += "q\(row),\"" + String(repeating: "x", count: 1_500_000) + "\"\n" }
        for row in 0..<40 { text += "u\(row)," + String(repeating: "y", count: 1_500_000) + "\n" }
        try Data(text.utf8).write(to: URL(fileURLWithPath: long))
        let short = (work as NSString).appendingPathComponent("short-rows.csv")
        let lines = (work as NSString).appendingPathComponent("short-rows.jsonl")
        var csv = "id,price,name\n", jsonl = ""
        for row in 0..<200_000 {
            csv += "r\(row),\(row * 7 % 100_000),\"Caf\u{E9} \(row), Main St\"\n"
            jsonl += "{\"id\": \"r\(row)\", \"price\": \(row * 7 % 100_000), \"name\": \"Caf\u{E9} \(row), Main St\"}\n"
        }
        try Data(csv.utf8).write(to: URL(fileURLWithPath: short))
        try Data(jsonl.utf8).write(to: URL(fileURLWithPath: lines))
        print("(c) reading rows (DataRowReader), MB/s, best of 5, against reading the bytes and counting line feeds:")
        for (path, label) in [(long, "CSV, 80 fields of 1.5 MB"), (short, "CSV, 200,000 short rows"), (lines, "JSON lines, 200,000 rows")] {
            let bytes = Double((try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 1)
            var floor = Double.infinity, reading = Double.infinity, rows = 0
            for _ in 0..<5 {
                var start = DispatchTime.now().uptimeNanoseconds
                let handle = try FileHandle(forReadingFrom: URL(fileURLWithPath: path))
                var lineFeeds = 0
                while let chunk = try handle.read(upToCount: 1 << 16), !chunk.isEmpty {
                    lineFeeds += chunk.withUnsafeBytes { bytes in
                        var count = 0
                        for byte in bytes where byte == 0x0A { count += 1 }
                        return count
                    }
                }
                try handle.close()
                floor = min(floor, Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
                precondition(lineFeeds > 0)
                start = DispatchTime.now().uptimeNanoseconds
                let reader = try DataRowReader(path: path, format: nil)
                rows = 0
                while try reader.next() != nil { rows += 1 }
                reading = min(reading, Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
            }
            print(String(format: "  %-28@ %7.0f MB/s (%d rows); bytes alone %6.0f MB/s; ratio %.2f",
                         label as NSString, bytes / reading / 1e6, rows, bytes / floor / 1e6, reading / floor))
        }
    }

    /// One thread, 2,000 markers: each stage timed on its own (µs per marker).
    static func breakdown(work: String) throws {
        let renderer = try MarkerRenderer()
        let style = MarkerStyle.preset(named: "seed-price-tag")!
        let option = style.options.first { $0.name == "label" }!
        let labels = (0..<2_000).map { "\(1000 + $0 * 37)萬" }
        func clock() -> UInt64 { DispatchTime.now().uptimeNanoseconds }
        var start = clock()
        var descriptions: [MarkerDescription] = []
        for label in labels { descriptions.append(try style.resolve(values: ["label": try option.parse(label, input: "label")])[0]) }
        let resolve = Double(clock() - start) / 1e3 / Double(labels.count)
        start = clock()
        var markers: [RenderedMarker] = []
        for description in descriptions { markers.append(try renderer.render(description, scale: 1)) }
        let render = Double(clock() - start) / 1e3 / Double(labels.count)
        var encoded: [[UInt8]] = []
        var encodeTimes: [PNGEncoder.Mode: Double] = [:]
        var sizes: [PNGEncoder.Mode: Int] = [:]
        for mode in [PNGEncoder.Mode.default, .fast] {
            start = clock()
            encoded = try markers.map { try $0.pngData(mode: mode) }
            encodeTimes[mode] = Double(clock() - start) / 1e3 / Double(labels.count)
            sizes[mode] = encoded.reduce(0) { $0 + $1.count } / encoded.count
        }
        let folder = (work as NSString).appendingPathComponent("writes")
        try? FileManager.default.removeItem(atPath: folder)
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        start = clock()
        for (index, bytes) in encoded.enumerated() { try AtomicFile.write(bytes, to: folder + "/m\(index).png") }
        let write = Double(clock() - start) / 1e3 / Double(labels.count)
        try? FileManager.default.removeItem(atPath: folder)
        print("one marker on one thread (µs, mean of 2,000 price tags @1x):")
        print(String(format: "  resolve options (MarkerStyle.resolve: substitution, part decoding)  %7.1f", resolve))
        print(String(format: "  layout and drawing (MarkerRenderer.render)                         %7.1f", render))
        print(String(format: "  PNG encode, default (%d bytes)                                    %7.1f", sizes[.default]!, encodeTimes[.default]!))
        print(String(format: "  PNG encode, fast (%d bytes)                                       %7.1f", sizes[.fast]!, encodeTimes[.fast]!))
        print(String(format: "  atomic file write (temporary file + rename, disk)                  %7.1f", write))
        let floor = resolve + render + encodeTimes[.fast]!
        print(String(format: "  engine floor (resolve + render + fast encode): %.0f µs = %.0f markers/s per core", floor, 1e6 / floor))
    }

    /// One stage over `count` distinct price tags on one thread (see the type's documentation).
    static func profile(_ count: Int, stage: String, jobs: Int, work: String) throws {
        let style = MarkerStyle.preset(named: "seed-price-tag")!
        let option = style.options.first { $0.name == "label" }!
        let labels = (0..<count).map { "\(1000 + $0 * 37)萬" }
        if stage == "batch" {
            let data = (work as NSString).appendingPathComponent("profile-\(count).csv")
            try writePrices(count, to: data)
            let folder = (work as NSString).appendingPathComponent("profile-\(count)")
            try? FileManager.default.removeItem(atPath: folder)
            let cpuBefore = cpuSeconds()
            let seconds = try runBatch(data, folder: folder, jobs: jobs, scales: [1], sprite: nil)
            print(String(format: "batch of %d, %d job(s): %.3f s, %.0f markers/s, CPU per marker %.0f µs", count, jobs, seconds,
                         Double(count) / seconds, (cpuSeconds() - cpuBefore) / Double(count) * 1e6))
            return
        }
        var descriptions: [MarkerDescription] = []
        for label in labels { descriptions.append(try style.resolve(values: ["label": try option.parse(label, input: "label")])[0]) }
        if stage == "resolve" { print("resolved \(descriptions.count)"); return }
        let renderer = try MarkerRenderer()
        let markers = try descriptions.map { try renderer.render($0, scale: 1) }
        if stage == "render" { print("rendered \(markers.count)"); return }
        let encoded = try markers.map { try $0.pngData(mode: .default) }
        if stage == "encode" { print("encoded \(encoded.reduce(0) { $0 + $1.count }) bytes"); return }
        let folder = (work as NSString).appendingPathComponent("profile-writes")
        try? FileManager.default.removeItem(atPath: folder)
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        for (index, bytes) in encoded.enumerated() { try AtomicFile.write(bytes, to: folder + "/m\(index).png") }
        print("wrote \(encoded.count)")
    }

    static func runBatch(_ data: String, folder: String, jobs: Int, scales: [Double],
                         sprite: BatchConfiguration.SpriteOutput?, mode: PNGEncoder.Mode = .default,
                         label: String = "{price}萬") throws -> Double {
        let file = MarkerFile(style: MarkerStyle.preset(named: "seed-price-tag")!)
        var configuration = try BatchConfiguration(file: file, settings: ["label": try FieldTemplate(label, input: "label")],
                                                   idTemplate: try FieldTemplate("{id}", input: "id"), scales: scales,
                                                   outputFolder: folder, jobs: jobs)
        configuration.sprite = sprite
        configuration.pngMode = mode
        let start = DispatchTime.now().uptimeNanoseconds
        let summary = try BatchRenderer(configuration: configuration).run(try DataRowReader(path: data, format: .csv))
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        guard summary.failed == 0 else { throw SpriteError(input: data, problem: "\(summary.failed) rows failed") }
        return seconds
    }

    /// Place names in eight scripts (Latin, CJK, Arabic, Devanagari, Thai,
    /// Hebrew, Cyrillic, Greek), one a row in turn, each with a distinct price.
    static let mixedNames = ["Café Olé", "商户名", "مطعم", "नमस्ते", "ร้านอาหาร", "שלום", "Кафе", "Ταβέρνα"]

    static func writeMixedNames(_ count: Int, to path: String) throws {
        var text = "id,price,name\n"
        for index in 0..<count { text += "tag-\(index),\(100 + index * 7),\(mixedNames[index % mixedNames.count])\n" }
        try text.write(toFile: path, atomically: true, encoding: .utf8)
    }

    /// (d) 10,000 price tags labelled in eight scripts ('{name} {price}', the
    /// shipped fonts) against the same number labelled '{price}萬', 2 jobs,
    /// tmpfs when it exists, PNG default, alternated and repeated; issue 22's
    /// target is 8,000 markers/s for the mixed scripts.
    static func mixedScripts(work: String, repeats: Int) throws {
        let root = FileManager.default.fileExists(atPath: "/dev/shm") ? "/dev/shm/pinmint-batch-bench" : work
        let latin = (work as NSString).appendingPathComponent("tags-10000.csv")
        let mixed = (work as NSString).appendingPathComponent("mixed-10000.csv")
        try writePrices(10_000, to: latin); try writeMixedNames(10_000, to: mixed)
        print("(d) 10,000 price tags @1x, 2 jobs, PNG default, \(root): labels in eight scripts against '{price}萬'; "
              + "load average \(loadAverage())")
        var best = (latin: Double.infinity, mixed: Double.infinity)
        for run in 0..<repeats {
            var times = (latin: 0.0, mixed: 0.0)
            for (data, label, isMixed) in [(latin, "{price}萬", false), (mixed, "{name} {price}", true)] {
                let folder = (root as NSString).appendingPathComponent("mixed-\(isMixed)-\(run)")
                try? FileManager.default.removeItem(atPath: folder)
                let seconds = try runBatch(data, folder: folder, jobs: 2, scales: [1], sprite: nil, label: label)
                try? FileManager.default.removeItem(atPath: folder)
                if isMixed { times.mixed = seconds } else { times.latin = seconds }
            }
            best = (min(best.latin, times.latin), min(best.mixed, times.mixed))
            print(String(format: "  run %d: '{price}萬' %.2f s (%.0f/s), eight scripts %.2f s (%.0f/s)",
                         run + 1, times.latin, 10_000 / times.latin, times.mixed, 10_000 / times.mixed))
        }
        print(String(format: "  best: '{price}萬' %.0f markers/s, eight scripts %.0f markers/s (target 8,000), ratio %.2f",
                     10_000 / best.latin, 10_000 / best.mixed, best.latin / best.mixed))
        if root.hasPrefix("/dev/shm") { try? FileManager.default.removeItem(atPath: root) }
    }

    static func writePrices(_ count: Int, to path: String) throws {
        var text = "id,price\n"
        for index in 0..<count { text += "tag-\(index),\(100 + index * 7)\n" }
        try text.write(toFile: path, atomically: true, encoding: .utf8)
    }

    /// User + system CPU time of the process so far (getrusage).
    static func cpuSeconds() -> Double {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        func seconds(_ time: timeval) -> Double { Double(time.tv_sec) + Double(time.tv_usec) / 1e6 }
        return seconds(usage.ru_utime) + seconds(usage.ru_stime)
    }

    static func resetPeakMemory() {
        // "5" resets the peak resident set size (Linux 4.0+).
        if let handle = FileHandle(forWritingAtPath: "/proc/self/clear_refs") { handle.write(Data("5".utf8)); handle.closeFile() }
    }

    static func peakMemoryMB() -> Double {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
              let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }),
              let kilobytes = Double(line.split(separator: " ").dropFirst().first ?? "") else { return .nan }
        return kilobytes / 1024
    }

    static func loadAverage() -> String {
        (try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8))?.split(separator: " ").prefix(3).joined(separator: " ") ?? "?"
    }
}
