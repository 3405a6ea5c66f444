extension SchedulerInstant: InstantProtocol {
    /// The instant `duration` after this one (exact).
    @inlinable
    public func advanced(by duration: Duration) -> SchedulerInstant { self + duration }
}
