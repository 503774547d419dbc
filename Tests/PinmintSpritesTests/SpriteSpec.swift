import Foundation

/// One sprite-index entry, decoded strictly (JSONDecoder takes no 2.5 for
/// an Int and no 1 for a Bool): the types the MapLibre style specification
/// gives each field.
struct SpriteSpecEntry: Decodable {
    let width: Int, height: Int, x: Int, y: Int
    let pixelRatio: Double
    let content: [Double]?
    let stretchX: [[Double]]?
    let stretchY: [[Double]]?
    let sdf: Bool?
    let textFitWidth: String?
    let textFitHeight: String?
}

/// The MapLibre style specification's rules for a sprite index ("Sprite",
/// index file): an object keyed by image id; each value has integer
/// `width`, `height`, `x`, `y` and a positive `pixelRatio`; optional
/// `content` ([x1, y1, x2, y2] inside the image), `stretchX` / `stretchY`
/// ([[from, to], …] increasing, within the image), `sdf` (boolean),
/// `textFitWidth` / `textFitHeight` (stretchOrShrink, stretchOnly,
/// proportional); nothing else. Returns every violation (empty: valid).
func spriteSpecViolations(_ data: Data, sheetWidth: Int, sheetHeight: Int) -> [String] {
    guard let raw = try? JSONSerialization.jsonObject(with: data) as? [String: [String: Any]] else {
        return ["not an object of objects"]
    }
    let entries: [String: SpriteSpecEntry]
    do { entries = try JSONDecoder().decode([String: SpriteSpecEntry].self, from: data) } catch {
        return ["a field has the wrong type: \(error)"]
    }
    let allowed: Set<String> = ["width", "height", "x", "y", "pixelRatio", "content", "stretchX", "stretchY", "sdf",
                                "textFitWidth", "textFitHeight"]
    var problems: [String] = []
    for (id, entry) in entries.sorted(by: { $0.key < $1.key }) {
        for key in raw[id]!.keys where !allowed.contains(key) { problems.append("\(id): unknown key \(key)") }
        if entry.pixelRatio <= 0 { problems.append("\(id): pixelRatio \(entry.pixelRatio)") }
        if entry.width <= 0 || entry.height <= 0 || entry.x < 0 || entry.y < 0
            || entry.x + entry.width > sheetWidth || entry.y + entry.height > sheetHeight {
            problems.append("\(id): rectangle \(entry.x),\(entry.y) \(entry.width)x\(entry.height) outside the \(sheetWidth)x\(sheetHeight) sheet")
        }
        if let box = entry.content, !(box.count == 4 && box[0] >= 0 && box[1] >= 0 && box[0] <= box[2] && box[1] <= box[3]
                                      && box[2] <= Double(entry.width) && box[3] <= Double(entry.height)) {
            problems.append("\(id): content \(box)")
        }
        for (name, runs, limit) in [("stretchX", entry.stretchX, entry.width), ("stretchY", entry.stretchY, entry.height)] {
            guard let runs else { continue }
            var previous = 0.0
            for run in runs {
                if run.count != 2 || run[0] < previous || run[0] >= run[1] || run[1] > Double(limit) {
                    problems.append("\(id): \(name) \(runs) not increasing within 0...\(limit)")
                }
                previous = run.last ?? previous
            }
        }
        for fit in [entry.textFitWidth, entry.textFitHeight].compactMap({ $0 })
            where !["stretchOrShrink", "stretchOnly", "proportional"].contains(fit) {
            problems.append("\(id): text fit \(fit)")
        }
    }
    return problems
}
