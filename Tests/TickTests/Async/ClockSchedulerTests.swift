import Testing
import Tick
import TickTesting

/// A clock that is not a `SchedulerClock`: it forwards to a TestScheduler's
/// virtual clock, so `asScheduler` makes a `ClockScheduler` on it, whose
/// actions wait in tasks that the async `advance` drives exactly.
private struct ForwardingClock: Clock {
    let base: TestScheduler.VirtualClock
    var now: SchedulerInstant { base.now }
    var minimumResolution: Duration { .zero }
    func sleep(until deadline: SchedulerInstant, tolerance: Duration?) async throws {
        try await base.sleep(until: deadline, tolerance: tolerance)
    }
}

/// `Clock.asScheduler` and `ClockScheduler`: one clock as a type's only time
/// source (issue 24).
@Suite(.checksResourceLeaks) struct ClockSchedulerTests {
    @Test func theVirtualClocksSchedulerIsItsTestScheduler() {
        let scheduler = TestScheduler()
        #expect(scheduler.virtualClock.asScheduler === scheduler)
        let clock: any Clock<Duration> = scheduler.virtualClock
        #expect(clock.asScheduler === scheduler)
    }

    @Test func anyOtherClockGetsAClockSchedulerOnItsTime() {
        #expect(ContinuousClock().asScheduler is ClockScheduler<ContinuousClock>)
        #expect(SuspendingClock().asScheduler is ClockScheduler<SuspendingClock>)
        let scheduler = TestScheduler()
        scheduler.advance(to: 40)
        let onClock = ClockScheduler(clock: ForwardingClock(base: scheduler.virtualClock))
        // Its time is the time elapsed on the clock since it was made.
        #expect(onClock.now == .origin)
        scheduler.advance(to: 65)
        #expect(onClock.now == SchedulerInstant(offset: .milliseconds(25)))
    }

    @Test func anActionRunsAtItsDeadlineOnTheClockNotAFrameBefore() async {
        let scheduler = TestScheduler()
        let onClock = ForwardingClock(base: scheduler.virtualClock).asScheduler
        let ran = Locked<[TestTime]>([])
        let first = onClock.schedule(after: .milliseconds(300)) { ran.withLock { $0.append(scheduler.clock) } }
        let second = onClock.schedule { ran.withLock { $0.append(scheduler.clock) } }
        await scheduler.advance(to: 299)
        #expect(ran.withLock { $0 } == [0])
        await scheduler.advance(to: 300)
        #expect(ran.withLock { $0 } == [0, 300])
        first.dispose()
        second.dispose()
    }

    @Test func aDisposedActionNeverRuns() async {
        let scheduler = TestScheduler()
        let onClock = ForwardingClock(base: scheduler.virtualClock).asScheduler
        let ran = Locked(false)
        let action = onClock.schedule(after: .milliseconds(10)) { ran.withLock { $0 = true } }
        await scheduler.advance(to: 5)
        action.dispose()
        await scheduler.advance(to: 20)
        #expect(!ran.withLock { $0 })
        #expect(scheduler.pendingCount == 0)
    }

    @Test func periodicDeadlinesAreCountedFromTheStart() async {
        let scheduler = TestScheduler()
        let onClock = ForwardingClock(base: scheduler.virtualClock).asScheduler
        let ran = Locked<[TestTime]>([])
        let periodic = onClock.schedulePeriodic(after: .milliseconds(100), period: .milliseconds(50)) {
            ran.withLock { $0.append(scheduler.clock) }
        }
        await scheduler.advance(to: 199)
        #expect(ran.withLock { $0 } == [100, 150])
        await scheduler.advance(to: 200)
        #expect(ran.withLock { $0 } == [100, 150, 200])
        periodic.dispose()
        await scheduler.advance(to: 400)
        #expect(ran.withLock { $0 } == [100, 150, 200])
    }

    @Test func anRxOperatorOnAClockSchedulerKeepsItsTimes() async {
        let scheduler = TestScheduler()
        let onClock = ForwardingClock(base: scheduler.virtualClock).asScheduler
        let observer = scheduler.createObserver(String.self)
        let subscription = Observable.just("a").delay(.milliseconds(30), scheduler: onClock).subscribe(observer)
        await scheduler.advance(to: 29)
        #expect(observer.events.isEmpty)
        await scheduler.advance(to: 30)
        #expect(observer.events == [.next(30, "a"), .completed(30)])
        subscription.dispose()
    }
}
