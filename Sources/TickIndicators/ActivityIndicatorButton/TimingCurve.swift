/// An easing curve mapping the elapsed fraction of an animation (0…1) to its progress (0…1).
///
/// The named curves are Core Animation's: each is a cubic Bézier from (0, 0) to
/// (1, 1) with control points (x1, y1) and (x2, y2). To sample a Bézier curve at
/// time fraction `t`, the curve parameter `s` with `x(s) = t` is solved
/// numerically (Newton's method, falling back to bisection), to an absolute
/// tolerance of 1e-12 in `x`, and `y(s)` is returned. Fractions ≤ 0 give 0,
/// fractions ≥ 1 give exactly 1.
public enum TimingCurve: Hashable, Sendable {
    /// Progress equals the elapsed fraction.
    case linear
    /// Slow start: Bézier (0.42, 0, 1, 1).
    case easeIn
    /// Slow end: Bézier (0, 0, 0.58, 1). Used by every button transition and the ripple.
    case easeOut
    /// Slow start and end: Bézier (0.42, 0, 0.58, 1).
    case easeInOut
    /// A custom cubic Bézier; x1 and x2 are clamped to 0…1 so the curve is a function of time.
    case cubicBezier(x1: Double, y1: Double, x2: Double, y2: Double)

    /// The absolute tolerance in x to which Bézier curves are solved.
    public static let tolerance = 1e-12

    /// The curve's progress at elapsed fraction `t`.
    public func value(at t: Double) -> Double {
        if t.isNaN || t <= 0 { return 0 }
        if t >= 1 { return 1 }
        switch self {
        case .linear: return t
        case .easeIn: return TimingCurve.solve(t, 0.42, 0, 1, 1)
        case .easeOut: return TimingCurve.solve(t, 0, 0, 0.58, 1)
        case .easeInOut: return TimingCurve.solve(t, 0.42, 0, 0.58, 1)
        case .cubicBezier(let x1, let y1, let x2, let y2):
            return TimingCurve.solve(t, min(1, max(0, x1)), y1, min(1, max(0, x2)), y2)
        }
    }

    /// One coordinate of the Bézier with end points 0 and 1 and controls `p1`, `p2` at parameter `s`.
    private static func bezier(_ s: Double, _ p1: Double, _ p2: Double) -> Double {
        let a = 1 - 3 * p2 + 3 * p1
        let b = 3 * p2 - 6 * p1
        let c = 3 * p1
        return ((a * s + b) * s + c) * s
    }

    private static func bezierSlope(_ s: Double, _ p1: Double, _ p2: Double) -> Double {
        let a = 1 - 3 * p2 + 3 * p1
        let b = 3 * p2 - 6 * p1
        let c = 3 * p1
        return (3 * a * s + 2 * b) * s + c
    }

    private static func solve(_ t: Double, _ x1: Double, _ y1: Double, _ x2: Double, _ y2: Double) -> Double {
        // x(s) is monotonic on 0…1 because x1, x2 ∈ 0…1, so the root is unique.
        var s = t
        for _ in 0..<8 {
            let error = bezier(s, x1, x2) - t
            if abs(error) <= tolerance { return bezier(s, y1, y2) }
            let slope = bezierSlope(s, x1, x2)
            if abs(slope) < 1e-9 { break }
            s -= error / slope
            if s < 0 || s > 1 { break }
        }
        var low = 0.0
        var high = 1.0
        s = t
        for _ in 0..<200 {
            let x = bezier(s, x1, x2)
            if abs(x - t) <= tolerance { break }
            if x < t { low = s } else { high = s }
            s = (low + high) / 2
        }
        return bezier(s, y1, y2)
    }
}
