import PinmintGeometry

/// Reads SVG `transform` lists: `matrix`, `translate`, `scale`,
/// `rotate(a [cx cy])`, `skewX`, `skewY`, separated by whitespace or commas.
/// The list composes right to left: in `translate(10) scale(2)` the scale
/// applies to the shape first (SVG 1.1 section 7.6).
package enum SVGTransformParser {
    package static func parse(_ text: String) throws(SVGProblem) -> AffineMap {
        var scanner = SVGScanner(text)
        var result = AffineMap.identity
        scanner.skipSeparator()
        while !scanner.isAtEnd {
            let nameOffset = scanner.index
            let name = scanner.word()
            guard !name.isEmpty else { throw SVGProblem("expected a transform function at offset \(nameOffset)") }
            scanner.skipWhitespace()
            guard scanner.consume(UInt8(ascii: "(")) else {
                throw SVGProblem("expected '(' after '\(name)' at offset \(scanner.index)")
            }
            var arguments: [Double] = []
            scanner.skipWhitespace()
            while !scanner.isAtEnd && scanner.current != UInt8(ascii: ")") {
                arguments.append(try scanner.number())
                scanner.skipSeparator()
            }
            guard scanner.consume(UInt8(ascii: ")")) else {
                throw SVGProblem("expected ')' to close '\(name)' at offset \(scanner.index)")
            }
            result = result.prepending(try function(name, arguments, offset: nameOffset))
            scanner.skipSeparator()
        }
        return result
    }

    private static func function(_ name: String, _ arguments: [Double], offset: Int)
        throws(SVGProblem) -> AffineMap {
        func require(_ counts: Set<Int>) throws(SVGProblem) {
            guard counts.contains(arguments.count) else {
                let allowed = counts.sorted().map(String.init).joined(separator: " or ")
                throw SVGProblem("\(name)() at offset \(offset) takes \(allowed) numbers, found \(arguments.count)")
            }
        }
        let radians = { (degrees: Double) in degrees * .pi / 180 }
        switch name {
        case "matrix":
            try require([6])
            return AffineMap(a: arguments[0], b: arguments[1], c: arguments[2], d: arguments[3],
                                   tx: arguments[4], ty: arguments[5])
        case "translate":
            try require([1, 2])
            return .translation(arguments[0], arguments.count > 1 ? arguments[1] : 0)
        case "scale":
            try require([1, 2])
            return .scale(arguments[0], arguments.count > 1 ? arguments[1] : arguments[0])
        case "rotate":
            try require([1, 3])
            let rotation = AffineMap.rotation(radians(arguments[0]))
            guard arguments.count == 3 else { return rotation }
            return AffineMap.translation(-arguments[1], -arguments[2])
                .concatenating(rotation).concatenating(.translation(arguments[1], arguments[2]))
        case "skewX":
            try require([1])
            return .skew(radians(arguments[0]), 0)
        case "skewY":
            try require([1])
            return .skew(0, radians(arguments[0]))
        default:
            throw SVGProblem("unknown transform function '\(name)' at offset \(offset)")
        }
    }
}
