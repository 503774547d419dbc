/// Error messages quote their input (a file name, a JSON key, an XML
/// snippet, a CSV field), and input can hold line breaks and control
/// characters. Every error's `description` goes through `oneLine`, so that a
/// message is always one line whatever it quotes, in the library as on the
/// command line.
package enum MessageText {
    /// `message` with line breaks (LF, CR, VT, FF, NEL, U+2028, U+2029) and
    /// other control characters shown as escapes: `\n`, `\r`, `\t`, `\u{B}`.
    package static func oneLine(_ message: String) -> String {
        guard message.unicodeScalars.contains(where: needsEscape) else { return message }
        var shown = ""
        for scalar in message.unicodeScalars {
            switch scalar {
            case "\n": shown += "\\n"
            case "\r": shown += "\\r"
            case "\t": shown += "\\t"
            default:
                if needsEscape(scalar) {
                    shown += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
                } else {
                    shown.unicodeScalars.append(scalar)
                }
            }
        }
        return shown
    }

    private static func needsEscape(_ scalar: Unicode.Scalar) -> Bool {
        scalar.properties.generalCategory == .control || scalar == "\u{2028}" || scalar == "\u{2029}"
    }
}
