/// One animated Double: `from` at `start`, `to` from `start + duration` on, eased in between.
///
/// Time rule: at exactly `start` the value is `from`; at exactly
/// `start + duration` and later it is `to`; before `start` it is `from`. The
/// elapsed fraction is computed from exact `Duration`s and only then converted
/// to `Double` for the curve.
struct ValueAnimation: Equatable, Sendable {
    var from: Double
    var to: Double
    var start: SchedulerInstant
    var duration: Duration
    var curve: TimingCurve

    /// A value that does not move.
    static func fixed(_ value: Double) -> ValueAnimation {
        ValueAnimation(from: value, to: value, start: .origin, duration: .zero, curve: .linear)
    }

    var end: SchedulerInstant { start + duration }

    func value(at time: SchedulerInstant) -> Double {
        if duration <= .zero || time >= end { return to }
        if time <= start { return from }
        let fraction = elapsedFraction(time - start, of: duration)
        return from + (to - from) * curve.value(at: fraction)
    }

    /// Whether the value is still changing at `time` (true on `start..<end`).
    func isRunning(at time: SchedulerInstant) -> Bool { duration > .zero && time < end }
}

/// `elapsed / total` as a Double, from exact attosecond counts.
func elapsedFraction(_ elapsed: Duration, of total: Duration) -> Double {
    Double(elapsed.totalAttoseconds) / Double(total.totalAttoseconds)
}

/// The indeterminate spinner: the stroke cycle and the rotation, as functions of
/// the exact time since spinning began.
///
/// The stroke is a segment of the ring from `strokeStart` (the trailing end,
/// the original's "head") to `strokeEnd` (the leading end, its "tail"), both
/// fractions of the circumference measured clockwise from the top, before
/// rotation. One 1.7 s cycle, every piece linear (the original's keyframe
/// animations had no timing function):
///
/// | phase (s)   | strokeStart  | strokeEnd |
/// |-------------|--------------|-----------|
/// | 0 – 0.9     | 0 → 0.25     | 0 → 1     |
/// | 0.9 – 0.95  | 0.25         | 1         |
/// | 0.95 – 1.55 | 0.25 → 0.9   | 1         |
/// | 1.55 – 1.6  | 0.9          | 1         |
/// | 1.6 – 1.7   | 0.9 → 1      | 1         |
///
/// The values are continuous, so a boundary instant has the same value from
/// either side; at exactly 1.7 s the next cycle starts (0, 0), which draws the
/// same nothing as (1, 1). The rotation is a linear 0 → 2π turn every 3.0 s,
/// starting again at 0 at exactly each multiple of 3 s.
enum SpinnerCycle {
    /// The stroke cycle's length: 1.7 s.
    static let period: Duration = .milliseconds(1700)
    /// One full turn of the rotation: 3.0 s.
    static let rotationPeriod: Duration = .seconds(3)

    private struct Segment {
        let length: Duration
        let start: (from: Double, to: Double)
        let end: (from: Double, to: Double)
    }

    private static let segments: [Segment] = [
        Segment(length: .milliseconds(900), start: (0, 0.25), end: (0, 1)),
        Segment(length: .milliseconds(50), start: (0.25, 0.25), end: (1, 1)),
        Segment(length: .milliseconds(600), start: (0.25, 0.9), end: (1, 1)),
        Segment(length: .milliseconds(50), start: (0.9, 0.9), end: (1, 1)),
        Segment(length: .milliseconds(100), start: (0.9, 1), end: (1, 1)),
    ]

    /// The exact position inside a repeating period (elapsed mod period; negative elapsed counts as 0).
    static func phase(of elapsed: Duration, period: Duration) -> Duration {
        let a = max(Int128(0), elapsed.totalAttoseconds)
        return Duration(totalAttoseconds: a % period.totalAttoseconds)
    }

    /// `(strokeStart, strokeEnd)` at `elapsed` since spinning began.
    static func stroke(elapsed: Duration) -> (start: Double, end: Double) {
        var remaining = phase(of: elapsed, period: period)
        for segment in segments {
            if remaining < segment.length {
                let f = elapsedFraction(remaining, of: segment.length)
                return (
                    segment.start.from + (segment.start.to - segment.start.from) * f,
                    segment.end.from + (segment.end.to - segment.end.from) * f)
            }
            remaining -= segment.length
        }
        return (0, 0)  // unreachable: the segments sum to the period
    }

    /// The rotation angle in radians (0..<2π) at `elapsed` since spinning began.
    static func rotation(elapsed: Duration) -> Double {
        2 * Double.pi * elapsedFraction(phase(of: elapsed, period: rotationPeriod), of: rotationPeriod)
    }
}

/// The solid style's tint change: the new colour grows from the centre over the old one.
struct TintGrowth: Equatable, Sendable {
    var from: ButtonColor
    var to: ButtonColor
    var progress: ValueAnimation
}

/// One touch ripple.
struct RippleAnimation: Equatable, Sendable {
    var maxRadius: Double
    var progress: ValueAnimation
}
