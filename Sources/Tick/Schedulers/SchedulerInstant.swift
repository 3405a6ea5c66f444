/// A point in time on a scheduler's clock: an exact `Duration` since the
/// clock's origin.
///
/// There is no floating point anywhere in Tick's time: instants and delays are
/// `Duration`s (attosecond resolution) and arithmetic on them is exact.
public struct SchedulerInstant: Comparable, Hashable, Sendable, CustomStringConvertible {
    /// The time elapsed since the clock's origin. May be negative.
    public var offset: Duration

    /// The instant `offset` after the clock's origin.
    @inlinable
    public init(offset: Duration) { self.offset = offset }

    /// The clock's origin.
    public static let origin = SchedulerInstant(offset: .zero)

    /// Compares the attosecond counts, inlined (`Duration`'s own `<` is a
    /// call into the standard library: a hot path in every time operator).
    @inlinable
    public static func < (lhs: SchedulerInstant, rhs: SchedulerInstant) -> Bool {
        #if canImport(Darwin)
        // `totalAttoseconds` is computed from components before macOS 26.
        lhs.offset < rhs.offset
        #else
        lhs.offset.totalAttoseconds < rhs.offset.totalAttoseconds
        #endif
    }

    /// The latest instant there is: `Duration`'s largest value after the
    /// origin (about 5.4 trillion years). Arithmetic that would pass it stops
    /// here, and work due at it is due "never" (see ``+(_:_:)``).
    public static let distantFuture = SchedulerInstant(offset: Duration(totalAttoseconds: .max))

    /// The earliest instant there is (`Duration`'s smallest value).
    public static let distantPast = SchedulerInstant(offset: Duration(totalAttoseconds: .min))

    /// The instant `rhs` after `lhs`.
    ///
    /// Saturating: a sum past ``distantFuture`` (or before ``distantPast``)
    /// is that instant, never a trap. A deadline of `now + delay` with an
    /// absurd delay is therefore "never": ``TestScheduler`` keeps such work
    /// pending past the end of its clock, `CurrentThreadScheduler` drops
    /// work due at ``distantFuture`` instead of sleeping forever, and
    /// `DispatchQueueScheduler` hands Dispatch a deadline of "forever".
    @inlinable
    public static func + (lhs: SchedulerInstant, rhs: Duration) -> SchedulerInstant {
        SchedulerInstant(offset: Duration.saturating(lhs.offset.totalAttoseconds, plus: rhs.totalAttoseconds))
    }

    /// The instant `rhs` before `lhs` (saturating, like ``+(_:_:)``).
    @inlinable
    public static func - (lhs: SchedulerInstant, rhs: Duration) -> SchedulerInstant {
        SchedulerInstant(offset: Duration.saturating(lhs.offset.totalAttoseconds, minus: rhs.totalAttoseconds))
    }

    /// The duration from `rhs` to `lhs` (saturating at `Duration`'s bounds).
    @inlinable
    public static func - (lhs: SchedulerInstant, rhs: SchedulerInstant) -> Duration {
        Duration.saturating(lhs.offset.totalAttoseconds, minus: rhs.offset.totalAttoseconds)
    }

    /// Moves the instant forward by `rhs` (saturating, like ``+(_:_:)``).
    @inlinable
    public static func += (lhs: inout SchedulerInstant, rhs: Duration) { lhs = lhs + rhs }

    /// The duration from this instant to `other` (saturating at `Duration`'s bounds).
    @inlinable
    public func duration(to other: SchedulerInstant) -> Duration { other - self }

    public var description: String { "\(offset)" }
}

extension Duration {
    /// `lhs + rhs` attoseconds, clamped to `Duration`'s range instead of trapping.
    @inlinable
    static func saturating(_ lhs: Int128, plus rhs: Int128) -> Duration {
        let (sum, overflow) = lhs.addingReportingOverflow(rhs)
        return Duration(totalAttoseconds: overflow ? (rhs > 0 ? .max : .min) : sum)
    }

    /// `lhs - rhs` attoseconds, clamped to `Duration`'s range instead of trapping.
    @inlinable
    static func saturating(_ lhs: Int128, minus rhs: Int128) -> Duration {
        let (difference, overflow) = lhs.subtractingReportingOverflow(rhs)
        return Duration(totalAttoseconds: overflow ? (rhs < 0 ? .max : .min) : difference)
    }

    /// The duration as a whole number of attoseconds (exact).
    @inlinable
    public var totalAttoseconds: Int128 {
        #if canImport(Darwin)
        if #available(macOS 26, iOS 26, tvOS 26, watchOS 26, visionOS 26, *) { return attoseconds }
        let (seconds, attoseconds) = components
        return Int128(truncatingIfNeeded: seconds) &* 1_000_000_000_000_000_000
            &+ Int128(truncatingIfNeeded: attoseconds)
        #else
        return attoseconds
        #endif
    }

    /// The duration of exactly `attoseconds` attoseconds.
    @inlinable
    public init(totalAttoseconds attoseconds: Int128) {
        #if canImport(Darwin)
        if #available(macOS 26, iOS 26, tvOS 26, watchOS 26, visionOS 26, *) {
            self.init(attoseconds: attoseconds)
            return
        }
        let perSecond: Int128 = 1_000_000_000_000_000_000
        let seconds = attoseconds / perSecond
        let rest = Int64(truncatingIfNeeded: attoseconds % perSecond)
        guard let small = Int64(exactly: seconds) else {
            // More seconds than Int64 holds (up to about 1.7e20): built from
            // parts that each fit, exactly.
            let (high, low) = seconds.quotientAndRemainder(dividingBy: 1 << 32)
            self = .seconds(Int64(truncatingIfNeeded: high)) * (1 << 32)
                + .seconds(Int64(truncatingIfNeeded: low)) + Duration(secondsComponent: 0, attosecondsComponent: rest)
            return
        }
        self.init(secondsComponent: small, attosecondsComponent: rest)
        #else
        self.init(attoseconds: attoseconds)
        #endif
    }
}

extension Duration {
    /// The duration, or zero if it is negative: `max(.zero, self)` with the
    /// comparison inlined (`Duration`'s own `<` is a call into the standard
    /// library; this is on the path of every re-armed timer).
    @inlinable
    var clampedToZero: Duration {
        #if canImport(Darwin)
        // `totalAttoseconds` is computed from components before macOS 26.
        max(.zero, self)
        #else
        totalAttoseconds < 0 ? .zero : self
        #endif
    }
}
