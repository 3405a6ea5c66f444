import Tick

// The virtual clock tells its TestScheduler's time: `asScheduler` of it is
// the TestScheduler itself, so code given only `scheduler.virtualClock`
// (as `any Clock<Duration>`) schedules its Rx timers and its indicators on
// the same exact timeline as its sleeps (Tick's `Clock.asScheduler`).
extension TestScheduler.VirtualClock: SchedulerClock {
    /// The ``TestScheduler`` whose virtual time this clock reads.
    public var tickScheduler: any Scheduler { scheduler }
}
