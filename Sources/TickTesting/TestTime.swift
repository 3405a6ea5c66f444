/// A time on a ``TestScheduler``'s clock, counted in **frames**.
///
/// RxTest-style APIs write times as integers (`.next(210, "a")`): that is 210
/// frames, and a frame is 1 ms unless the scheduler was created with another
/// `frame`. Times that fall between frames (a marble duration of `10.2ms`, a
/// `delay` of 1.5 frames) keep the exact rest in ``remainder`` (printed
/// `201+500µs`): nothing is ever rounded.
public struct TestTime: Hashable, Comparable, Sendable, ExpressibleByIntegerLiteral, CustomStringConvertible {
    /// Whole frames since the clock's origin (negative before it).
    public var frames: Int
    /// The exact time past ``frames``, always in `0 ..< frame`. Zero for every
    /// time written as an integer.
    public var remainder: Duration

    /// The time `frames` frames after the origin.
    public init(_ frames: Int) {
        self.frames = frames
        self.remainder = .zero
    }

    /// A time of `frames` frames plus an exact `remainder` (which must be
    /// shorter than the scheduler's frame).
    public init(frames: Int, remainder: Duration) {
        self.frames = frames
        self.remainder = remainder
    }

    public init(integerLiteral value: Int) { self.init(value) }

    public static func < (lhs: TestTime, rhs: TestTime) -> Bool {
        (lhs.frames, lhs.remainder) < (rhs.frames, rhs.remainder)
    }

    /// `210`, or `201+500µs` for a time half a (1 ms) frame past frame 201.
    public var description: String {
        remainder == .zero ? "\(frames)" : "\(frames)+\(remainder.exactDescription)"
    }
}

extension Duration {
    /// An exact, readable rendering: `1.5s`, `10.2ms`, `250µs`, `7ns`, `3as`.
    public var exactDescription: String {
        let attos = totalAttoseconds
        let units: [(String, Int128)] = [
            ("s", 1_000_000_000_000_000_000), ("ms", 1_000_000_000_000_000), ("µs", 1_000_000_000_000),
            ("ns", 1_000_000_000), ("ps", 1_000_000), ("fs", 1_000), ("as", 1),
        ]
        if attos == 0 { return "0ms" }
        let sign = attos < 0 ? "-" : ""
        let magnitude = attos < 0 ? -attos : attos
        // The largest unit in which the value is at least 1 and has at most 3 decimals.
        for (index, (name, size)) in units.enumerated() where magnitude >= size || index == units.count - 1 {
            let whole = magnitude / size
            var rest = magnitude % size
            if rest == 0 { return "\(sign)\(whole)\(name)" }
            var digits = ""
            var scale = size
            while rest != 0 && scale > 1 {
                scale /= 10
                digits.append(String(rest / scale))
                rest %= scale
            }
            if digits.count <= 3 || index == units.count - 1 { return "\(sign)\(whole).\(digits)\(name)" }
            // Too many decimals: try a smaller unit.
            continue
        }
        return "\(sign)\(magnitude)as"
    }
}
