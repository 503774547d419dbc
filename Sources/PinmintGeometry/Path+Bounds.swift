/// Exact bounds: the extrema of every curve, not the hull of its control points.
extension Path {
    /// The smallest rectangle holding every point the path passes through,
    /// or nil for a path with no points.
    public var bounds: Rect? {
        var minX = Double.infinity, minY = Double.infinity, maxX = -Double.infinity, maxY = -Double.infinity
        func include(_ p: Point) {
            minX = Swift.min(minX, p.x); minY = Swift.min(minY, p.y)
            maxX = Swift.max(maxX, p.x); maxY = Swift.max(maxY, p.y)
        }
        var current = Point.zero, subpathStart = Point.zero
        for element in elements {
            switch element {
            case .move(let p):
                include(p); current = p; subpathStart = p
            case .line(let p):
                include(p); current = p
            case .quad(let c, let p):
                include(p)
                for t in Path.quadExtrema(current.x, c.x, p.x) + Path.quadExtrema(current.y, c.y, p.y) {
                    include(Path.quadPoint(current, c, p, t))
                }
                current = p
            case .cubic(let c1, let c2, let p):
                include(p)
                for t in Path.cubicExtrema(current.x, c1.x, c2.x, p.x) + Path.cubicExtrema(current.y, c1.y, c2.y, p.y) {
                    include(Path.cubicPoint(current, c1, c2, p, t))
                }
                current = p
            case .close:
                current = subpathStart  // a command after close() starts from here
            }
        }
        guard minX <= maxX else { return nil }
        return Rect(x: minX, y: minY, width: maxX - minX, height: maxY - minY)
    }

    static func quadPoint(_ p0: Point, _ p1: Point, _ p2: Point, _ t: Double) -> Point {
        let u = 1 - t
        return p0 * (u * u) + p1 * (2 * u * t) + p2 * (t * t)
    }

    static func cubicPoint(_ p0: Point, _ p1: Point, _ p2: Point, _ p3: Point, _ t: Double) -> Point {
        let u = 1 - t
        return p0 * (u * u * u) + p1 * (3 * u * u * t) + p2 * (3 * u * t * t) + p3 * (t * t * t)
    }

    /// Parameters in (0, 1) where a quadratic's coordinate has a zero derivative.
    static func quadExtrema(_ a: Double, _ b: Double, _ c: Double) -> [Double] {
        let denominator = a - 2 * b + c
        guard denominator != 0 else { return [] }
        let t = (a - b) / denominator
        return t > 0 && t < 1 ? [t] : []
    }

    /// Parameters in (0, 1) where a cubic's coordinate has a zero derivative.
    static func cubicExtrema(_ p0: Double, _ p1: Double, _ p2: Double, _ p3: Double) -> [Double] {
        // Derivative / 3: a t^2 + b t + c
        let a = -p0 + 3 * p1 - 3 * p2 + p3
        let b = 2 * (p0 - 2 * p1 + p2)
        let c = p1 - p0
        // "Nearly linear" is judged relative to the coefficients' size, so the
        // test does not depend on the coordinates' units; the roots use the
        // cancellation-free form (Numerical Recipes, section 5.6).
        let scale = Swift.max(abs(a), abs(b), abs(c))
        guard scale > 0 else { return [] }
        var roots: [Double] = []
        if abs(a) <= 1e-12 * scale {
            if b != 0 { roots.append(-c / b) }
        } else {
            let discriminant = b * b - 4 * a * c
            if discriminant >= 0 {
                let root = discriminant.squareRoot()
                let q = -0.5 * (b + (b < 0 ? -root : root))
                roots.append(q / a)
                if q != 0 { roots.append(c / q) }
            }
        }
        return roots.filter { $0 > 0 && $0 < 1 }
    }
}
