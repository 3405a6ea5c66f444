import Testing
@_spi(TickInternals) import Tick
@testable import TickTesting

/// What a timer holds of a test scheduler (`SchedulerLink`'s conformance to
/// `Scheduler`, TestScheduler+Entries.swift): a one-shot timer subscribed
/// with `subscribe(onNext:)` is one object, its `OneShotTimerSource`, which the
/// scheduler's queue holds while the timer is pending; the source reaches
/// the scheduler through its link, so it never keeps it alive. A scheduler
/// the test lets go of with a timer pending goes away, with its pending
/// work, and still gives its hint.
@Suite(.checksResourceLeaks) struct TestSchedulerTimerOwnershipTests {
    final class Owner: Sendable {}

    final class Log: @unchecked Sendable {
        var entries: [String] = []
        var subscription: (any Disposable)?
    }

    @Test func aSchedulerDroppedWithATimerPendingIsReleasedWithItsWork() {
        weak var weakScheduler: TestScheduler?
        weak var weakOwner: Owner?
        let scope = Resources.Scope()
        scope.run {
            let scheduler = TestScheduler()
            weakScheduler = scheduler
            let owner = Owner()
            weakOwner = owner
            _ = Observable<Int>.timer(.milliseconds(10), scheduler: scheduler).subscribe(onNext: { _ in _ = owner })
            // Short of the deadline: the timer is still pending when the
            // test lets go of the scheduler.
            scheduler.advance(to: 9)
            #expect(scheduler.pendingCount == 1)
            #expect(weakOwner != nil)
        }
        // The scheduler went away, and with it its queue: the timer (its
        // source, the subscription's closures) is released.
        #expect(weakScheduler == nil)
        #expect(weakOwner == nil)
        // Nothing is counted as live any more: neither the pending entry nor
        // the subscription.
        #expect(scope.live == 0)
    }

    @Test func aPeriodicTimerPendingDoesNotKeepTheSchedulerAliveEither() {
        weak var weakScheduler: TestScheduler?
        weak var weakOwner: Owner?
        let subscription: any Disposable
        do {
            let scheduler = TestScheduler()
            weakScheduler = scheduler
            let owner = Owner()
            weakOwner = owner
            subscription = Observable<Int>.interval(.milliseconds(10), scheduler: scheduler)
                .subscribe(onNext: { _ in _ = owner })
            scheduler.advance(to: 25)
            #expect(scheduler.pendingCount == 1)
        }
        #expect(weakScheduler == nil)
        // A periodic subscription lives until it is disposed (its periodic
        // task and its sink hold each other, on either path, as before):
        // disposing it after its scheduler went away lets go of it all.
        #expect(weakOwner != nil)
        subscription.dispose()
        #expect(weakOwner == nil)
    }

    @Test func theUndrivenWorkHintIsStillGiven() {
        let hints = Locked<[UInt]>([])
        var line: UInt = 0
        PendingWorkLog.$hintHandler.withValue({ _, site in hints.withLock { $0.append(site.line) } }) {
            line = #line + 1
            let scheduler = TestScheduler()
            // Subscribed and never driven; the subscription is not disposed
            // either: the pending timer must not keep the scheduler alive.
            _ = Observable<Int>.timer(.milliseconds(10), scheduler: scheduler).subscribe(onNext: { _ in })
        }
        #expect(hints.withLock { $0 } == [line])
    }

    @Test func theTimerObservableDoesNotKeepATestSchedulerAliveButItsSubscriptionsWork() {
        weak var weakScheduler: TestScheduler?
        let log = Log()
        let timer: Observable<Int>
        do {
            let scheduler = TestScheduler()
            weakScheduler = scheduler
            timer = .timer(.milliseconds(10), scheduler: scheduler)
            let first = timer.subscribe(onNext: { log.entries.append("first \($0)@\(scheduler.clock)") })
            let second = timer.subscribe(onNext: { log.entries.append("second \($0)@\(scheduler.clock)") })
            scheduler.advance(to: 10)
            first.dispose()
            second.dispose()
        }
        #expect(log.entries == ["first 0@10", "second 0@10"])
        #expect(weakScheduler == nil)
        // Subscribed after its scheduler is gone: nothing is scheduled
        // (no one could move that clock), nothing fires, disposal works.
        var disposed = false
        let late = timer.subscribe(onNext: { _ in log.entries.append("late") }, onDisposed: { disposed = true })
        late.dispose()
        #expect(disposed)
        #expect(log.entries == ["first 0@10", "second 0@10"])
    }

    @Test func aRealSchedulerIsKeptAliveByItsTimers() {
        final class ManualScheduler: Scheduler, @unchecked Sendable {
            var now: SchedulerInstant { .origin }
            func schedule(_ action: @escaping () -> Void) -> any Disposable { Disposables.create() }
            func schedule(after delay: Duration, _ action: @escaping () -> Void) -> any Disposable {
                Disposables.create()
            }
            func schedulePeriodic(
                after delay: Duration, period: Duration, _ action: @escaping () -> Void
            ) -> any Disposable { Disposables.create() }
        }
        weak var weakScheduler: ManualScheduler?
        var timer: Observable<Int>?
        do {
            let scheduler = ManualScheduler()
            weakScheduler = scheduler
            #expect(scheduler._referenceForTimers === scheduler)
            timer = .timer(.seconds(1), scheduler: scheduler)
        }
        #expect(weakScheduler != nil)
        #expect(timer != nil)
        timer = nil
        #expect(weakScheduler == nil)
        // A test scheduler hands out its link instead.
        let test = TestScheduler()
        #expect(test._referenceForTimers !== test)
        #expect(test._referenceForTimers === test.handle)
    }

    /// Disposal one frame before, at, and one frame after the deadline
    /// (scheduled before and after the timer at the deadline), for the
    /// observable's first subscription (the source as its sink), a second
    /// one (a sink of its own) and the usual path (an operator in between):
    /// the same events at the same times.
    @Test(arguments: [9, 10, 11]) func disposalAroundTheDeadline(disposal: Int) {
        for disposeFirst in [false, true] {
            var logs: [[String]] = []
            for path in ["first", "second", "usual"] {
                let scheduler = TestScheduler()
                let log = Log()
                var timer = Observable<Int>.timer(.milliseconds(10), scheduler: scheduler)
                if path == "usual" { timer = timer.filter { _ in true } }
                if path == "second" { timer.subscribe(onNext: { _ in }).dispose() }
                if disposeFirst { scheduler.scheduleAt(TestTime(disposal)) { log.subscription?.dispose() } }
                log.subscription = timer.subscribe(
                    onNext: { log.entries.append("next(\($0))@\(scheduler.clock)") },
                    onCompleted: { log.entries.append("completed@\(scheduler.clock)") },
                    onDisposed: { log.entries.append("disposed@\(scheduler.clock)") })
                if !disposeFirst { scheduler.scheduleAt(TestTime(disposal)) { log.subscription?.dispose() } }
                scheduler.advance(to: 20)
                #expect(scheduler.pendingCount == 0)
                logs.append(log.entries)
            }
            let expected =
                disposal < 10 || (disposal == 10 && disposeFirst)
                ? ["disposed@\(disposal)"] : ["next(0)@10", "completed@10", "disposed@10"]
            #expect(logs == [expected, expected, expected], "disposal at \(disposal), first: \(disposeFirst)")
        }
    }

    @Test func aSecondSubscriptionAfterTheFirstEndedFiresAtItsOwnDeadline() {
        let scheduler = TestScheduler()
        var log: [String] = []
        let timer = Observable<Int>.timer(.milliseconds(10), scheduler: scheduler)
        let first = timer.subscribe(onNext: { log.append("first \($0)@\(scheduler.clock)") })
        scheduler.advance(to: 15)
        let second = timer.subscribe(onNext: { log.append("second \($0)@\(scheduler.clock)") })
        scheduler.advance(to: 30)
        #expect(log == ["first 0@10", "second 0@25"])
        first.dispose()
        second.dispose()
        #expect(scheduler.pendingCount == 0)
    }
}
