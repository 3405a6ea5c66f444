import Foundation

/// Locale-independent number formatting for SVG output and descriptions.
enum SVGNumber {
    /// `value` rounded to 3 decimals, always with exactly 3 decimals (`"0.250"`, `"-1.000"`).
    /// Non-finite values print as `"0.000"`; `-0.000` prints as `"0.000"`.
    static func format(_ value: Double) -> String {
        let (negative, whole, thousandths) = split(value)
        let fraction = String(thousandths)
        return (negative ? "-" : "") + String(whole) + "." + String(repeating: "0", count: 3 - fraction.count) + fraction
    }

    /// As ``format(_:)`` but without trailing zeros (`"0.25"`, `"12"`): compact for SVG attributes.
    static func compact(_ value: Double) -> String {
        var text = format(value)
        while text.hasSuffix("0") { text.removeLast() }
        if text.hasSuffix(".") { text.removeLast() }
        return text
    }

    private static func split(_ value: Double) -> (Bool, Int64, Int64) {
        guard value.isFinite, abs(value) < 1e15 else { return (false, 0, 0) }
        let scaled = Int64((value * 1000).rounded(.toNearestOrAwayFromZero))
        if scaled == 0 { return (false, 0, 0) }
        let magnitude = scaled.magnitude
        return (scaled < 0, Int64(magnitude / 1000), Int64(magnitude % 1000))
    }
}

/// Renders ``ActivityIndicatorButtonAppearance`` values as SVG documents.
///
/// Output is deterministic: numbers have at most 3 decimals, no locale is used,
/// and element order is fixed, so a rendering can be committed and compared
/// byte for byte. Each frame leaves a margin of 6 pt around the button so
/// ripples (which reach 5 pt past the edge) stay inside.
public enum ActivityIndicatorButtonSVG {
    /// The margin around each rendered button, in points.
    public static let margin = 6.0

    /// One appearance as a standalone SVG document.
    public static func render(_ appearance: ActivityIndicatorButtonAppearance) -> String {
        let width = appearance.size.width + 2 * margin
        let height = appearance.size.height + 2 * margin
        var out = header(width: width, height: height)
        out += frame(appearance, id: "f0", x: margin, y: margin)
        out += "</svg>\n"
        return out
    }

    /// The most frames one strip draws.
    public static let maximumStripFrames = 1000

    /// A row of frames sampled from `button` at `start`, `start + step`, … up to and
    /// including `end` (when it falls on a step), each labelled with its time offset
    /// from `start` in seconds. A step that is not positive is reported as misuse and
    /// renders only the first frame; more than ``maximumStripFrames`` frames are
    /// reported as misuse and the strip stops there.
    public static func renderStrip(
        of button: ActivityIndicatorButton, from start: SchedulerInstant, to end: SchedulerInstant, step: Duration
    ) -> String {
        var instants: [SchedulerInstant] = []
        if step <= .zero {
            Misuse.report("ActivityIndicatorButtonSVG.renderStrip: step \(step) is not positive; only one frame is drawn.")
            instants = [start]
        } else {
            var t = start
            while t <= end {
                if instants.count == maximumStripFrames {
                    Misuse.report(
                        "ActivityIndicatorButtonSVG.renderStrip: more than \(maximumStripFrames) frames requested; "
                            + "the strip stops at \(maximumStripFrames). Use a larger step.")
                    break
                }
                instants.append(t)
                t += step
            }
        }
        let frames = instants.map { (button.appearance(at: $0), $0 - start) }
        return renderStrip(frames)
    }

    /// A row of already sampled frames, each labelled with its offset in seconds (3 decimals).
    public static func renderStrip(_ frames: [(appearance: ActivityIndicatorButtonAppearance, offset: Duration)]) -> String {
        renderRow(frames.map { ($0.appearance, SVGNumber.format(Double($0.offset.totalAttoseconds) / 1e18) + "s") })
    }

    /// A row of appearances side by side, each with a text label underneath
    /// (e.g. "solid" / "outline"). Labels are XML-escaped.
    public static func renderRow(_ items: [(appearance: ActivityIndicatorButtonAppearance, label: String)]) -> String {
        let cellWidths = items.map { $0.appearance.size.width + 2 * margin }
        let cellHeight = (items.map { $0.appearance.size.height }.max() ?? 0) + 2 * margin
        let labelHeight = 12.0
        var out = header(width: max(1, cellWidths.reduce(0, +)), height: cellHeight + labelHeight)
        var x = 0.0
        for (index, item) in items.enumerated() {
            out += frame(item.appearance, id: "f\(index)", x: x + margin, y: margin)
            out += "<text x=\"\(n(x + cellWidths[index] / 2))\" y=\"\(n(cellHeight + 9))\" "
                + "font-family=\"monospace\" font-size=\"8\" text-anchor=\"middle\" fill=\"#333333\">"
                + "\(escape(item.label))</text>\n"
            x += cellWidths[index]
        }
        out += "</svg>\n"
        return out
    }

    private static func n(_ value: Double) -> String { SVGNumber.compact(value) }

    private static func header(width: Double, height: Double) -> String {
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(n(width))\" height=\"\(n(height))\" "
            + "viewBox=\"0 0 \(n(width)) \(n(height))\">\n"
    }

    private static func paint(_ attribute: String, _ color: ButtonColor, opacity: Double = 1) -> String {
        if color.alpha == 0 || opacity <= 0 { return "\(attribute)=\"none\"" }
        let alpha = color.alpha * opacity
        return "\(attribute)=\"\(color.hexRGB)\"" + (alpha < 1 ? " \(attribute)-opacity=\"\(n(alpha))\"" : "")
    }

    /// One button drawn with its top-left corner at (x, y).
    private static func frame(_ a: ActivityIndicatorButtonAppearance, id: String, x: Double, y: Double) -> String {
        let cx = x + a.size.width / 2
        let cy = y + a.size.height / 2
        let bgR = max(0, a.backgroundRadius)
        var out = "<g id=\"\(id)\">\n"

        for ripple in a.ripples where ripple.radius > 0 && ripple.opacity > 0 {
            out += "<circle cx=\"\(n(cx))\" cy=\"\(n(cy))\" r=\"\(n(ripple.radius))\" "
                + paint("fill", ripple.color, opacity: ripple.opacity) + "/>\n"
        }

        out += "<g transform=\"translate(\(n(cx)) \(n(cy))) scale(\(n(a.scale))) translate(\(n(-cx)) \(n(-cy)))\">\n"
        if a.shadowColor.alpha > 0 {
            out += "<filter id=\"\(id)-blur\"><feGaussianBlur stdDeviation=\"1.25\"/></filter>\n"
            out += "<circle cx=\"\(n(cx))\" cy=\"\(n(cy + 2))\" r=\"\(n(bgR))\" "
                + paint("fill", a.shadowColor, opacity: 0.5 * a.trackOpacity) + " filter=\"url(#\(id)-blur)\"/>\n"
        }
        if a.trackOpacity > 0 {
            out += "<circle cx=\"\(n(cx))\" cy=\"\(n(cy))\" r=\"\(n(bgR))\" " + paint("fill", a.fillColor) + " "
                + paint("stroke", a.trackColor) + " stroke-width=\"\(n(a.trackWidth))\""
                + (a.trackOpacity < 1 ? " opacity=\"\(n(a.trackOpacity))\"" : "") + "/>\n"
        }
        if let growth = a.tintGrowth, growth.fraction > 0 {
            out += "<circle cx=\"\(n(cx))\" cy=\"\(n(cy))\" r=\"\(n(bgR * growth.fraction))\" "
                + paint("fill", growth.color) + "/>\n"
        }
        out += "</g>\n"

        if let image = a.image, a.imageReveal > 0 {
            out += "<clipPath id=\"\(id)-reveal\"><circle cx=\"\(n(cx))\" cy=\"\(n(cy))\" "
                + "r=\"\(n(bgR * a.imageReveal))\"/></clipPath>\n"
            out += "<g clip-path=\"url(#\(id)-reveal)\" data-image=\"\(escape(image.name))\">\n"
            out += glyph(image, tint: a.imageTint, cx: cx, cy: cy)
            out += "</g>\n"
        }

        out += progressRing(a, cx: cx, cy: cy)
        out += "</g>\n"
        return out
    }

    private static func progressRing(_ a: ActivityIndicatorButtonAppearance, cx: Double, cy: Double) -> String {
        let span = min(1, a.strokeEnd - a.strokeStart)
        guard a.progressOpacity > 0, span > 1e-9 else { return "" }
        let r = a.progressRadius
        let stroke = paint("stroke", a.progressColor, opacity: a.progressOpacity)
            + " stroke-width=\"\(n(a.progressWidth))\" fill=\"none\""
        if span >= 1 - 1e-9 {
            return "<circle cx=\"\(n(cx))\" cy=\"\(n(cy))\" r=\"\(n(r))\" \(stroke)/>\n"
        }
        let a0 = -Double.pi / 2 + 2 * Double.pi * a.strokeStart + a.rotation
        let a1 = a0 + 2 * Double.pi * span
        let x0 = cx + r * cos(a0), y0 = cy + r * sin(a0)
        let x1 = cx + r * cos(a1), y1 = cy + r * sin(a1)
        return "<path d=\"M \(n(x0)) \(n(y0)) A \(n(r)) \(n(r)) 0 \(span > 0.5 ? 1 : 0) 1 \(n(x1)) \(n(y1))\" \(stroke)/>\n"
    }

    /// Polylines (stroked) and polygons (filled) in a unit box, per well-known image name.
    private static func glyphShapes(_ name: String) -> (lines: [[(Double, Double)]], fills: [[(Double, Double)]]) {
        switch name.lowercased() {
        case "complete", "tick", "check":
            return ([[(0.1, 0.55), (0.4, 0.85), (0.9, 0.2)]], [])
        case "error", "cross":
            return ([[(0.15, 0.15), (0.85, 0.85)], [(0.85, 0.15), (0.15, 0.85)]], [])
        case "pause":
            return ([], [[(0.2, 0.1), (0.4, 0.1), (0.4, 0.9), (0.2, 0.9)], [(0.6, 0.1), (0.8, 0.1), (0.8, 0.9), (0.6, 0.9)]])
        case "play":
            return ([], [[(0.2, 0.1), (0.9, 0.5), (0.2, 0.9)]])
        case "download", "inactive":
            return ([[(0.5, 0.1), (0.5, 0.85)], [(0.2, 0.55), (0.5, 0.85), (0.8, 0.55)]], [])
        default:
            return ([], [[(0.1, 0.1), (0.9, 0.1), (0.9, 0.9), (0.1, 0.9)]])
        }
    }

    private static func glyph(_ image: ButtonImage, tint: ButtonColor, cx: Double, cy: Double) -> String {
        let w = image.size.width, h = image.size.height
        let ox = cx - w / 2, oy = cy - h / 2
        func points(_ pts: [(Double, Double)]) -> String {
            pts.map { "\(n(ox + $0.0 * w)),\(n(oy + $0.1 * h))" }.joined(separator: " ")
        }
        let shapes = glyphShapes(image.name)
        var out = ""
        for line in shapes.lines {
            out += "<polyline points=\"\(points(line))\" fill=\"none\" " + paint("stroke", tint)
                + " stroke-width=\"2\" stroke-linecap=\"round\" stroke-linejoin=\"round\"/>\n"
        }
        for fill in shapes.fills {
            out += "<polygon points=\"\(points(fill))\" " + paint("fill", tint) + "/>\n"
        }
        return out
    }

    private static func escape(_ text: String) -> String {
        var out = ""
        for ch in text {
            switch ch {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&apos;"
            default: out.append(ch)
            }
        }
        return out
    }
}

extension ActivityIndicatorButtonAppearance: CustomStringConvertible {
    /// A one-line summary with every number at 3 decimals (locale-independent).
    public var description: String {
        let f = SVGNumber.format
        var parts = [
            "size \(size)", "\(style)", "fill \(fillColor.hexRGB)@\(f(fillColor.alpha))",
            "track \(trackColor.hexRGB) opacity \(f(trackOpacity))",
            "progress \(progressColor.hexRGB) opacity \(f(progressOpacity))",
            "stroke \(f(strokeStart))–\(f(strokeEnd))", "rotation \(f(rotation))",
        ]
        if let growth = tintGrowth { parts.append("growth \(growth.color.hexRGB) \(f(growth.fraction))") }
        if let image { parts.append("image \(image.name) tint \(imageTint.hexRGB) reveal \(f(imageReveal))") }
        for ripple in ripples { parts.append("ripple r \(f(ripple.radius)) opacity \(f(ripple.opacity))") }
        parts.append("scale \(f(scale))")
        return parts.joined(separator: ", ")
    }
}
