import Testing
import Tick
@testable import TickTesting

/// A test scheduler must not outlive its test. Regression for a leak found by
/// the address sanitizer (`swift test --sanitize=address`): cancelled actions
/// stayed in the scheduler's queue until the clock passed them, and a time
/// operator's action captures its sink, which holds the scheduler, so a
/// scheduler dropped with cancelled work still queued kept itself alive in a
/// reference cycle (with every sink and buffer it held).
@Suite(.checksResourceLeaks) struct TestSchedulerLifetimeTests {
    @Test func aSchedulerWhoseWorkWasAllCancelledIsReleased() {
        weak var released: TestScheduler?
        // Released with its cancelled work still queued (not driven on
        // purpose), it gives the undriven-work hint, captured here.
        let hints = Locked(0)
        PendingWorkLog.$hintHandler.withValue({ _, _ in hints.withLock { $0 += 1 } }) {
            let scheduler = TestScheduler()
            released = scheduler
            let subject = PublishSubject<Int>()
            let subscription = subject.timeout(.milliseconds(20), scheduler: scheduler)
                .subscribe(onNext: { _ in }, onError: { _ in })
            // Each element re-arms the timeout: 100 cancelled timers, one pending.
            for value in 0..<100 { subject.onNext(value) }
            let direct = scheduler.schedule(after: .seconds(1)) { _ = scheduler.now }
            #expect(scheduler.pendingCount == 2)
            subscription.dispose()
            direct.dispose()
            #expect(scheduler.pendingCount == 0)
        }
        #expect(released == nil)
        #expect(hints.withLock { $0 } == 1)
    }

    @Test func cancellingEverythingKeepsTheSchedulerUsable() {
        let scheduler = TestScheduler()
        var log: [String] = []
        let early = scheduler.scheduleAt(100) { log.append("early") }
        let late = scheduler.scheduleAt(300) { log.append("late") }
        early.dispose()
        late.dispose()
        #expect(scheduler.pendingCount == 0)
        // Disposing again, after the queue was emptied, changes nothing.
        early.dispose()
        #expect(scheduler.pendingCount == 0)
        scheduler.scheduleAt(200) { log.append("after") }
        late.dispose()
        #expect(scheduler.pendingCount == 1)
        scheduler.advance(to: 1000)
        #expect(log == ["after"])
        #expect(scheduler.clock == 1000)
    }

    @Test func cancellingFromInsideARunningActionReleasesTheRest() {
        weak var released: TestScheduler?
        var ran: [Int] = []
        do {
            let scheduler = TestScheduler()
            released = scheduler
            var later: [any Disposable] = []
            scheduler.scheduleAt(10) {
                ran.append(10)
                later.forEach { $0.dispose() }
            }
            later = (1...5).map { step in scheduler.scheduleAt(TestTime(10 + step)) { ran.append(10 + step); _ = scheduler.now } }
            scheduler.advance(to: 11)
            #expect(scheduler.pendingCount == 0)
        }
        #expect(ran == [10])
        #expect(released == nil)
    }
}
