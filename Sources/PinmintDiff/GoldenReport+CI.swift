import Foundation
import PinmintGeometry

// Machine-readable reports of a golden run for CI: JUnit XML (what GitLab,
// Jenkins and GitHub's test reporters read) and JSON.
extension GoldenReport {
    /// The run as JUnit XML: one `<testsuite>` named after the suite folder,
    /// one `<testcase>` per case (`classname` "golden.FOLDER", `name`
    /// "pin@2x", `time` in seconds). A case that differs, has another size or
    /// has no expected image holds a `<failure>` (type `failed`, `size`,
    /// `missing`); an error holds an `<error>`; each with a one-line
    /// `message` and the details as text. Cases written by an update pass,
    /// with the file in `<system-out>`. `artifacts` adds their paths to the details.
    package static func junitXML(for run: GoldenRun, artifacts: [String: GoldenArtifacts.Paths] = [:]) -> String {
        let suiteName = PathName.lastComponent(of: run.folder).isEmpty ? run.folder : PathName.lastComponent(of: run.folder)
        let failures = run.results.filter { result in
            if case .error = result.status { return false }
            return !result.isSettled
        }.count
        let errors = run.results.filter { result in
            if case .error = result.status { return !result.isSettled }
            return false
        }.count
        var xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        xml += "<testsuites name=\"pinmint golden\" tests=\"\(run.results.count)\" failures=\"\(failures)\" "
            + "errors=\"\(errors)\" time=\"\(seconds(run.seconds))\">\n"
        xml += "  <testsuite name=\"\(xmlEscape(run.folder))\" tests=\"\(run.results.count)\" failures=\"\(failures)\" "
            + "errors=\"\(errors)\" skipped=\"0\" time=\"\(seconds(run.seconds))\">\n"
        for result in run.results {
            xml += "    <testcase classname=\"golden.\(xmlEscape(suiteName))\" name=\"\(xmlEscape(result.identifier))\" "
                + "time=\"\(seconds(result.seconds))\""
            var details = facts(result)
            if let paths = artifacts[result.identifier] {
                for (role, path) in [("expected", paths.expected), ("actual", paths.actual), ("diff", paths.diff)] {
                    if let path { details += "\n\(role): \(path)" }
                }
            }
            if result.isSettled {
                if let updated = result.updatedPath {
                    xml += ">\n      <system-out>wrote \(xmlEscape(updated))</system-out>\n    </testcase>\n"
                } else {
                    xml += "/>\n"
                }
                continue
            }
            let element: String
            let message: String
            switch result.status {
            case .error(let text): element = "error"; message = text
            case .failed: element = "failure"; message = "\(result.identifier) differs from \(result.expectedPath.map(fileName) ?? "its expected image")"
            case .sizeMismatch: element = "failure"; message = "\(result.identifier) has another size than its expected image"
            case .missing: element = "failure"; message = "\(result.identifier) has no expected image"
            case .passed: element = "failure"; message = ""
            }
            xml += ">\n      <\(element) type=\"\(result.status.name)\" message=\"\(xmlEscape(message))\">"
                + xmlEscape(details) + "</\(element)>\n    </testcase>\n"
        }
        xml += "  </testsuite>\n</testsuites>\n"
        return xml
    }

    /// The run as one JSON document (keys sorted, two-space indentation); the
    /// fields are listed in docs/golden.md.
    package static func json(for run: GoldenRun, exitCode: Int32, artifacts: [String: GoldenArtifacts.Paths] = [:]) -> String {
        let document = JSONRun(
            suite: run.folder, passed: exitCode == 0, exitCode: Int(exitCode), update: run.update.rawValue,
            seconds: (run.seconds * 1000).rounded() / 1000, summary: run.summary,
            counts: JSONCounts(cases: run.results.count, passed: run.count("passed"), failed: run.count("failed"),
                               size: run.count("size"), missing: run.count("missing"), error: run.count("error"),
                               written: run.updatedCount),
            cases: run.results.map { result in
                var tolerance: JSONTolerance?
                switch result.tolerance {
                case .pixels(let count)?: tolerance = JSONTolerance(maxDiffPixels: count)
                case .percent(let percent)?: tolerance = JSONTolerance(maxDiffPercent: percent)
                case nil: tolerance = nil
                }
                var message: String?
                if case .error(let text) = result.status { message = text }
                var size: JSONSize?
                if case let .sizeMismatch(expectedWidth, expectedHeight, actualWidth, actualHeight) = result.status {
                    size = JSONSize(expectedWidth: expectedWidth, expectedHeight: expectedHeight,
                                    actualWidth: actualWidth, actualHeight: actualHeight)
                }
                let paths = artifacts[result.identifier]
                return JSONCase(
                    name: result.identifier, scale: result.scale, status: result.status.name, settled: result.isSettled,
                    input: result.inputPath, expected: result.expectedPath, primary: result.primaryPath,
                    diffPixels: result.diffPixels, diffPercent: result.diffPercent, tolerance: tolerance,
                    reason: result.reason.isEmpty ? nil : result.reason, message: message, size: size,
                    written: result.updatedPath,
                    artifacts: paths.map { JSONArtifacts(expected: $0.expected, actual: $0.actual, diff: $0.diff) })
            })
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        // Every field is a string, a whole number, a finite number or a boolean: encoding cannot fail.
        let data = (try? encoder.encode(document)) ?? Data("{}".utf8)
        return String(decoding: data, as: UTF8.self) + "\n"
    }

    /// Seconds with millisecond precision, as JUnit's `time` attributes take them.
    static func seconds(_ value: Double) -> String { String(format: "%.3f", value) }

    /// Text for XML content and quoted attributes: the five special characters
    /// escaped, and characters XML 1.0 does not allow (control characters
    /// other than tab, newline and carriage return) replaced by U+FFFD.
    package static func xmlEscape(_ text: String) -> String {
        var escaped = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": escaped += "&amp;"
            case "<": escaped += "&lt;"
            case ">": escaped += "&gt;"
            case "\"": escaped += "&quot;"
            case "'": escaped += "&apos;"
            case "\t", "\n", "\r": escaped.unicodeScalars.append(scalar)
            default:
                let value = scalar.value
                let allowed = value >= 0x20 && !(0xFFFE...0xFFFF).contains(value)
                escaped.unicodeScalars.append(allowed ? scalar : "\u{FFFD}")
            }
        }
        return escaped
    }
}

private struct JSONRun: Encodable {
    var suite: String, passed: Bool, exitCode: Int, update: String, seconds: Double, summary: String
    var counts: JSONCounts
    var cases: [JSONCase]
}

private struct JSONCounts: Encodable {
    var cases: Int, passed: Int, failed: Int, size: Int, missing: Int, error: Int, written: Int
}

private struct JSONTolerance: Encodable {
    var maxDiffPixels: Int? = nil
    var maxDiffPercent: Double? = nil
}

private struct JSONSize: Encodable {
    var expectedWidth: Int, expectedHeight: Int, actualWidth: Int, actualHeight: Int
}

private struct JSONArtifacts: Encodable {
    var expected: String?, actual: String?, diff: String?
}

private struct JSONCase: Encodable {
    var name: String, scale: Int, status: String, settled: Bool
    var input: String?, expected: String?, primary: String?
    var diffPixels: Int?, diffPercent: Double?
    var tolerance: JSONTolerance?
    var reason: String?, message: String?
    var size: JSONSize?
    var written: String?
    var artifacts: JSONArtifacts?
}
