// TEMPORARY stand-in for the stroker being written on another branch. Delete
// this file when the real `Canvas.stroke` lands. Crude: every segment becomes
// a quad, joins and round caps become discs; dashes are ignored.
import PinmintGeometry

extension Canvas {
    public func stroke(_ path: Path, style: StrokeStyle, paint: Paint, transform: AffineTransform = .identity,
                       opacity: Double = 1, blend: BlendMode = .sourceOver, shadow: Shadow? = nil) throws(RasterError) {
        guard style.width > 0, style.width.isFinite else { return }
        var lines = Polylines()
        path.flatten(transform: .identity, tolerance: flatteningTolerance / max(transform.maximumScale, 1e-9),
                     into: &lines)
        let half = style.width / 2
        var outline = Path()
        for subpath in lines.subpaths.indices {
            var points = Array(lines.vertices(of: subpath))
            let closed = lines.subpaths[subpath].isClosed
            if closed, let first = points.first { points.append(first) }
            guard points.count > 1 else { continue }
            for index in 0..<(points.count - 1) {
                var a = points[index], b = points[index + 1]
                let direction = (b - a).normalized
                if direction == .zero { continue }
                if !closed && style.cap == .square {
                    if index == 0 { a = a - direction * half }
                    if index == points.count - 2 { b = b + direction * half }
                }
                let normal = direction.perpendicular * half
                outline.move(to: a - normal); outline.line(to: b - normal)
                outline.line(to: b + normal); outline.line(to: a + normal); outline.close()
                if index > 0 || closed { outline.addCircle(center: points[index], radius: half) }
            }
            if !closed && style.cap == .round {
                outline.addCircle(center: points[0], radius: half)
                outline.addCircle(center: points[points.count - 1], radius: half)
            }
        }
        try fill(outline, paint: paint, rule: .nonZero, transform: transform, opacity: opacity, blend: blend,
                 shadow: shadow)
    }
}
