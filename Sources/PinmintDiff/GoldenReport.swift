import Foundation
import PinmintGeometry

/// One self-contained HTML page about a golden run: a summary at the top,
/// then expected | actual | diff for every case that did not pass (images
/// inlined as `data:image/png;base64` URIs, so the file can be mailed or
/// attached to a CI run as it is), with a view that wipes or fades from the
/// expected image to the actual one and the command that accepts the
/// change, then the passing cases in one table. Only the `pinmint golden`
/// command (and the tests) use it.
package enum GoldenReport {
    /// The page. Images are scaled up in whole steps (at most 4x, nearest
    /// neighbour) so a pixel-level difference stays visible. With
    /// `artifacts` (`pinmint golden --artifacts`), a case's accept command
    /// copies its actual image over its expected one; without, it is the
    /// update that rewrites every failing case.
    package static func html(for run: GoldenRun, title: String? = nil,
                             artifacts: [String: GoldenArtifacts.Paths] = [:]) -> String {
        let failing = run.results.filter { !$0.status.passes }
        let passing = run.results.filter { $0.status.passes }
        let heading = title ?? "Golden images: \(URL(fileURLWithPath: run.folder).standardizedFileURL.path)"
        var page = """
        <!DOCTYPE html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <title>\(escape(heading))</title>
        <style>
        body { font: 14px/1.4 system-ui, sans-serif; margin: 24px; color: #1d1d1f; }
        h1 { font-size: 20px; margin: 0 0 8px; }
        .summary { padding: 12px 16px; border-radius: 8px; background: #eef6ee; border: 1px solid #9c9; margin-bottom: 24px; }
        .summary.bad { background: #fbeeee; border-color: #d99; }
        .summary .counts span { margin-right: 16px; font-weight: 600; }
        .case { border: 1px solid #ddd; border-radius: 8px; padding: 12px 16px; margin-bottom: 20px; }
        .case h2 { font-size: 16px; margin: 0 0 4px; }
        .status { display: inline-block; padding: 1px 8px; border-radius: 10px; font-size: 12px; color: white; background: #c33; }
        .status.missing { background: #c80; } .status.error { background: #666; } .status.size { background: #a3a; }
        .status.passed { background: #393; }
        .facts { color: #555; margin: 4px 0 10px; }
        .panels { display: flex; gap: 16px; flex-wrap: wrap; align-items: flex-start; }
        figure { margin: 0; }
        figcaption { font-size: 12px; color: #555; margin-bottom: 4px; }
        .checker { background-color: #fff; background-image: linear-gradient(45deg, #ddd 25%, transparent 25%),
          linear-gradient(-45deg, #ddd 25%, transparent 25%), linear-gradient(45deg, transparent 75%, #ddd 75%),
          linear-gradient(-45deg, transparent 75%, #ddd 75%); background-size: 16px 16px;
          background-position: 0 0, 0 8px, 8px -8px, -8px 0; display: inline-block; line-height: 0; border: 1px solid #ccc; }
        img { image-rendering: pixelated; image-rendering: crisp-edges; }
        .stack { position: relative; }
        .stack img { position: absolute; left: 0; top: 0; }
        .stack img.over { clip-path: inset(0 50% 0 0); }
        .controls label { margin-right: 12px; font-size: 12px; color: #555; }
        .accept { margin-top: 10px; font-size: 12px; color: #555; }
        code { background: #f4f4f4; padding: 1px 4px; border-radius: 3px; user-select: all; }
        pre { white-space: pre-wrap; background: #f4f4f4; padding: 8px; border-radius: 4px; }
        table { border-collapse: collapse; } td, th { padding: 2px 12px 2px 0; text-align: left; }
        </style>
        </head>
        <body>
        <h1>\(escape(heading))</h1>

        """
        let good = run.allSettled
        page += "<div class=\"summary\(good ? "" : " bad")\" id=\"summary\">\n"
        page += "<div class=\"counts\">"
        for (status, label) in [("passed", "passed"), ("failed", "failed"), ("size", "size differs"),
                                ("missing", "missing"), ("error", "errors")] {
            page += "<span data-status=\"\(status)\">\(run.count(status)) \(label)</span>"
        }
        if run.updatedCount > 0 { page += "<span data-status=\"written\">\(run.updatedCount) written</span>" }
        page += "</div>\n<div>\(escape(run.summary)); update mode: \(run.update.rawValue)</div>\n"
        let differing = failing.filter { $0.status == .failed || $0.status.name == "size" }.filter { !$0.isSettled }
        if !differing.isEmpty {
            page += "<div class=\"accept\" data-accept=\"all\">Accept every change: <code>"
                + escape(updateCommand(run, mode: "failed")) + "</code></div>\n"
        }
        page += "</div>\n"

        if failing.isEmpty { page += "<p>Every case matches its expected image.</p>\n" }
        for result in failing {
            page += "<section class=\"case\" data-case=\"\(escape(result.identifier))\" data-status=\"\(result.status.name)\">\n"
            page += "<h2>\(escape(result.identifier)) <span class=\"status \(result.status.name)\">\(statusLabel(result.status))</span></h2>\n"
            page += "<div class=\"facts\">\(escape(facts(result)))</div>\n"
            if case .error(let message) = result.status { page += "<pre>\(escape(message))</pre>\n" }
            let largest = max(result.expected?.width ?? 0, result.actual?.width ?? 0)
            let zoom = largest == 0 ? 1 : max(1, min(4, 480 / max(1, largest)))
            var panels: [(String, String, RGBA8Image)] = []
            if let expected = result.expected {
                panels.append(("expected", "expected: " + (result.expectedPath.map(fileName) ?? ""), expected))
            }
            if let actual = result.actual { panels.append(("actual", "actual (rendered now)", actual)) }
            if let diff = result.diffImage { panels.append(("diff", "diff: red differs, yellow anti-aliasing", diff)) }
            if !panels.isEmpty {
                page += "<div class=\"panels\">\n"
                for (role, caption, image) in panels {
                    page += "<figure data-role=\"\(role)\"><figcaption>\(escape(caption)) (\(image.width)×\(image.height))</figcaption>"
                    page += "<div class=\"checker\"><img alt=\"\(role)\" width=\"\(image.width * zoom)\" height=\"\(image.height * zoom)\" "
                    page += "src=\"\(dataURI(image))\"></div></figure>\n"
                }
                page += "</div>\n"
            }
            if let expected = result.expected, let actual = result.actual,
               expected.width == actual.width, expected.height == actual.height {
                // Filled from the panels above by the script at the end of the page.
                let width = actual.width * zoom, height = actual.height * zoom
                page += "<figure data-role=\"compare\"><figcaption>expected under actual: wipe or fade between them</figcaption>"
                page += "<div class=\"checker stack\" style=\"width: \(width)px; height: \(height)px\">"
                page += "<img class=\"under\" alt=\"expected\" width=\"\(width)\" height=\"\(height)\">"
                page += "<img class=\"over\" alt=\"actual\" width=\"\(width)\" height=\"\(height)\"></div>\n"
                page += "<div class=\"controls\"><label>wipe <input type=\"range\" min=\"0\" max=\"100\" value=\"50\" "
                    + "data-control=\"wipe\"></label><label>opacity of actual <input type=\"range\" min=\"0\" max=\"100\" "
                    + "value=\"100\" data-control=\"opacity\"></label></div></figure>\n"
            }
            if let command = acceptCommand(result, run: run, artifacts: artifacts[result.identifier]) {
                page += "<div class=\"accept\" data-accept=\"\(escape(result.identifier))\">Accept this change: <code>"
                    + escape(command) + "</code></div>\n"
            }
            page += "</section>\n"
        }
        if !passing.isEmpty {
            page += "<details id=\"passed\"><summary>\(passing.count) passed</summary>\n<table>\n"
            page += "<tr><th>case</th><th>differing pixels</th><th>tolerance</th><th>expected</th></tr>\n"
            for result in passing {
                page += "<tr data-case=\"\(escape(result.identifier))\"><td>\(escape(result.identifier))</td>"
                page += "<td>\(result.diffPixels.map(String.init) ?? "")</td><td>\(escape(result.tolerance?.description ?? ""))</td>"
                page += "<td>\(escape(result.expectedPath.map(fileName) ?? ""))</td></tr>\n"
            }
            page += "</table>\n</details>\n"
        }
        if failing.contains(where: { $0.expected != nil && $0.actual != nil }) { page += compareScript }
        page += "</body>\n</html>\n"
        return page
    }

    /// Fills each compare view from its case's panels and moves the wipe and the fade with the sliders.
    static let compareScript = """
    <script>
    document.querySelectorAll('figure[data-role="compare"]').forEach(function (figure) {
      var section = figure.closest('section');
      var expected = section.querySelector('figure[data-role="expected"] img');
      var actual = section.querySelector('figure[data-role="actual"] img');
      var under = figure.querySelector('img.under'), over = figure.querySelector('img.over');
      if (expected && actual) { under.src = expected.src; over.src = actual.src; }
      figure.querySelectorAll('input').forEach(function (input) {
        input.addEventListener('input', function () {
          if (input.dataset.control === 'wipe') { over.style.clipPath = 'inset(0 ' + (100 - input.value) + '% 0 0)'; }
          else { over.style.opacity = input.value / 100; }
        });
      });
    });
    </script>

    """

    /// The shell command that makes a case pass: its actual image copied over
    /// its primary expected image when the artifacts were written, else the
    /// update that writes it (with every other case of its kind); nil for an
    /// error or a case that already passed or was written.
    static func acceptCommand(_ result: GoldenCaseResult, run: GoldenRun, artifacts: GoldenArtifacts.Paths?) -> String? {
        guard !result.isSettled else { return nil }
        switch result.status {
        case .failed, .sizeMismatch, .missing:
            if let actual = artifacts?.actual, let primary = result.primaryPath {
                return "cp \(shellQuoted(actual)) \(shellQuoted(primary))"
            }
            return updateCommand(run, mode: result.status == .missing ? "missing" : "failed")
        case .passed, .error:
            return nil
        }
    }

    /// `pinmint golden FOLDER --update MODE`.
    static func updateCommand(_ run: GoldenRun, mode: String) -> String {
        "pinmint golden \(shellQuoted(run.folder)) --update \(mode)"
    }

    /// `text` as one word for a POSIX shell: as it is when it holds only
    /// characters no shell treats specially, else in single quotes.
    package static func shellQuoted(_ text: String) -> String {
        let plain = !text.isEmpty && text.unicodeScalars.allSatisfy { scalar in
            scalar.isASCII && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || "@%+=:,./_-".unicodeScalars.contains(scalar))
        }
        return plain ? text : "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }

    /// Writes the page atomically (a temporary file, then a rename).
    package static func write(_ run: GoldenRun, to path: String, title: String? = nil,
                              artifacts: [String: GoldenArtifacts.Paths] = [:]) throws {
        try Data(html(for: run, title: title, artifacts: artifacts).utf8).write(to: URL(fileURLWithPath: path), options: .atomic)
    }

    static func statusLabel(_ status: GoldenCaseResult.Status) -> String {
        switch status {
        case .passed: return "passed"
        case .failed: return "differs"
        case .sizeMismatch: return "size differs"
        case .missing: return "no expected image"
        case .error: return "error"
        }
    }

    static func facts(_ result: GoldenCaseResult) -> String {
        var facts: [String] = []
        if let diffPixels = result.diffPixels, let percent = result.diffPercent {
            facts.append("\(diffPixels) pixel\(diffPixels == 1 ? "" : "s") differ (\(formatPercent(percent))%)")
        }
        if case let .sizeMismatch(expectedWidth, expectedHeight, actualWidth, actualHeight) = result.status {
            facts.append("expected \(expectedWidth)×\(expectedHeight), rendered \(actualWidth)×\(actualHeight)")
        }
        if let tolerance = result.tolerance { facts.append("tolerance: \(tolerance)") }
        if !result.reason.isEmpty { facts.append("why: \(result.reason)") }
        if let input = result.inputPath { facts.append("input: \(input)") }
        if let updated = result.updatedPath { facts.append("written: \(updated)") }
        return facts.joined(separator: " · ")
    }

    static func fileName(_ path: String) -> String { PathName.lastComponent(of: path) }

    static func dataURI(_ image: RGBA8Image) -> String {
        guard let png = try? image.pngData(mode: .default) else { return "" }
        return "data:image/png;base64," + Data(png).base64EncodedString()
    }

    /// Text for HTML element content and quoted attribute values.
    static func escape(_ text: String) -> String {
        var escaped = ""
        for character in text {
            switch character {
            case "&": escaped += "&amp;"
            case "<": escaped += "&lt;"
            case ">": escaped += "&gt;"
            case "\"": escaped += "&quot;"
            case "'": escaped += "&#39;"
            default: escaped.append(character)
            }
        }
        return escaped
    }
}
