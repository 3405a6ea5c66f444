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

    @inlinable
    public static func < (lhs: SchedulerInstant, rhs: SchedulerInstant) -> Bool { lhs.offset < rhs.offset }

    /// The instant `rhs` after `lhs`.
    @inlinable
    public static func + (lhs: SchedulerInstant, rhs: Duration) -> SchedulerInstant {
        SchedulerInstant(offset: lhs.offset + rhs)
    }

    /// The instant `rhs` before `lhs`.
    @inlinable
    public static func - (lhs: SchedulerInstant, rhs: Duration) -> SchedulerInstant {
        SchedulerInstant(offset: lhs.offset - rhs)
    }

    /// The duration from `rhs` to `lhs`.
    @inlinable
    public static func - (lhs: SchedulerInstant, rhs: SchedulerInstant) -> Duration {
        lhs.offset - rhs.offset
    }

    /// Moves the instant forward by `rhs`.
    @inlinable
    public static func += (lhs: inout SchedulerInstant, rhs: Duration) { lhs.offset += rhs }

    /// The duration from this instant to `other`.
    @inlinable
    public func duration(to other: SchedulerInstant) -> Duration { other.offset - offset }

    public var description: String { "\(offset)" }
}

extension Duration {
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
        self.init(
            secondsComponent: Int64(truncatingIfNeeded: attoseconds / perSecond),
            attosecondsComponent: Int64(truncatingIfNeeded: attoseconds % perSecond))
        #else
        self.init(attoseconds: attoseconds)
        #endif
    }
}
