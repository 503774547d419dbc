import PinmintGeometry

/// Turns glyph curves into line segments by the rule FreeType's smooth
/// rasterizer (ftgrays.c, FreeType 2.10 and later) uses, so that our
/// exact-area coverage of a glyph matches `FT_Render_Glyph` to within a
/// few levels instead of differing by up to ~15/255 on every curved edge.
///
/// FreeType's chords deviate from the true curve by up to 1/16 pixel; our
/// canvas would flatten to 0.005 pixel. Measured on Noto Sans at 12 px with
/// light hinting, keeping the exact curves gives a mean difference of up to
/// 3.8 per glyph against FreeType; flattening like FreeType brings it under
/// 1 (see CrispnessTests). The rule, in pixels (written here from its description):
/// - quadratic: with d = max(|p0 − 2c + p1|) over x and y, split into n = 2^k
///   equal parameter steps, k the least number of quarterings of d (in
///   1/256 pixel units) that brings it to at most 64 (1/4 pixel);
/// - cubic: bisect until both control points lie within 1/2 pixel (x and y)
///   of the chord's trisection points, i.e. |2·p1 − 3·c2 + p0| ≤ 1/2 and
///   |p1 − 3·c1 + 2·p0| ≤ 1/2.
enum GlyphFlattening {
    static func quadratic(from start: Point, control: Point, to end: Point, into path: inout Path) {
        let deviation = max(abs(start.x - 2 * control.x + end.x), abs(start.y - 2 * control.y + end.y))
        var units = Int((deviation * 256).rounded())
        var steps = 1
        while units > 64 { units >>= 2; steps <<= 1 }
        for step in 1...steps {
            let t = Double(step) / Double(steps), u = 1 - t
            if step == steps { path.line(to: end); break }
            path.line(to: start * (u * u) + control * (2 * u * t) + end * (t * t))
        }
    }

    static func cubic(from start: Point, _ control1: Point, _ control2: Point, to end: Point,
                      into path: inout Path, depth: Int = 0) {
        let flat = abs(2 * end.x - 3 * control2.x + start.x) <= 0.5 && abs(2 * end.y - 3 * control2.y + start.y) <= 0.5
            && abs(end.x - 3 * control1.x + 2 * start.x) <= 0.5 && abs(end.y - 3 * control1.y + 2 * start.y) <= 0.5
        if flat || depth >= 16 { path.line(to: end); return }
        // de Casteljau at t = 1/2.
        let a = (start + control1) / 2, b = (control1 + control2) / 2, c = (control2 + end) / 2
        let ab = (a + b) / 2, bc = (b + c) / 2, middle = (ab + bc) / 2
        cubic(from: start, a, ab, to: middle, into: &path, depth: depth + 1)
        cubic(from: middle, bc, c, to: end, into: &path, depth: depth + 1)
    }
}
