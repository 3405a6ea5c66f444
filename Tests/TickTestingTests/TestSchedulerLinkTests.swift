import Testing
import Tick
@testable import TickTesting

/// The link that the scheduler's disposables, periodic tasks and async
/// driver use instead of a `weak` reference (`SchedulerLink`, in
/// TestScheduler+Entries.swift): it must read exactly as a `weak` reference
/// would, the oracle here being a real `weak` variable beside it.
@Suite(.checksResourceLeaks) struct TestSchedulerLinkTests {
    @Test func theLinkReadsTheSchedulerWhileItLivesAndNilOnceItIsGone() {
        let link: SchedulerLink
        weak var oracle: TestScheduler?
        do {
            let scheduler = TestScheduler()
            oracle = scheduler
            link = scheduler.handle
            #expect(link.scheduler === scheduler)
            #expect(oracle === scheduler)
        }
        #expect(oracle == nil)
        #expect(link.scheduler == nil)
    }

    @Test func aStrongReferenceFromTheLinkKeepsTheSchedulerAlive() {
        let link: SchedulerLink
        var kept: TestScheduler?
        weak var oracle: TestScheduler?
        do {
            let scheduler = TestScheduler()
            oracle = scheduler
            link = scheduler.handle
            kept = link.scheduler
        }
        #expect(oracle != nil)
        #expect(link.scheduler === kept)
        kept = nil
        #expect(oracle == nil)
        #expect(link.scheduler == nil)
    }

    /// Inside the scheduler's deinit (here: an action released with the
    /// scheduler's queue disposes another entry of it), the link reads nil,
    /// as a `weak` reference does once the deinit has started: nothing is
    /// cancelled on a scheduler that is going away, and nothing crashes.
    @Test func disposingFromWhatTheSchedulerReleasesAsItGoesDoesNothing() {
        let link: SchedulerLink
        var seenInDeinit: [Bool] = []
        do {
            let scheduler = TestScheduler()
            link = scheduler.handle
            let other = scheduler.scheduleAt(500) {}
            let probe = DeinitProbe {
                seenInDeinit.append(link.scheduler == nil)
                other.dispose()
            }
            scheduler.scheduleAt(100) { withExtendedLifetime(probe) {} }
            // Driven once (no hint about undriven work), neither action run.
            scheduler.advance(to: 50)
        }
        #expect(seenInDeinit == [true])
        #expect(link.scheduler == nil)
    }

    @Test func aDisposableOutlivingItsSchedulerDisposesWithoutEffect() {
        var disposable: (any Disposable)?
        weak var oracle: TestScheduler?
        do {
            let scheduler = TestScheduler()
            oracle = scheduler
            disposable = scheduler.scheduleAt(100) {}
            scheduler.advance(to: 50)
        }
        #expect(oracle == nil)
        disposable?.dispose()
        disposable?.dispose()
    }

    @Test func aPeriodicTaskStopsReschedulingOnceItsSchedulerIsGone() {
        var ticks = 0
        var periodic: (any Disposable)?
        weak var oracle: TestScheduler?
        do {
            let scheduler = TestScheduler()
            oracle = scheduler
            periodic = scheduler.schedulePeriodic(after: .milliseconds(10), period: .milliseconds(10)) { ticks += 1 }
            scheduler.advance(to: 35)
            #expect(ticks == 3)
        }
        #expect(oracle == nil)
        periodic?.dispose()
        #expect(ticks == 3)
    }
}

/// Runs `onDeinit` when released.
private final class DeinitProbe {
    let onDeinit: () -> Void
    init(_ onDeinit: @escaping () -> Void) { self.onDeinit = onDeinit }
    deinit { onDeinit() }
}
