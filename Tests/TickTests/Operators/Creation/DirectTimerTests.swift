import Testing
@_spi(TickInternals) import Tick
import TickTesting

/// `timer(...).subscribe(onNext:…)` with nothing in between runs the timer
/// inside the closure subscription, with no sink of the timer's own
/// (`DirectSource.swift`). Everything observable must be what the usual
/// path (a `TimerSink` behind an observer) gives.
@Suite(.checksResourceLeaks) struct DirectTimerTests {
    /// Records the closures' calls with the virtual time of each.
    final class Log: @unchecked Sendable {
        var entries: [String] = []
        var subscription: (any Disposable)?
    }

    /// Subscribes `source` with every closure, logging "event@frame".
    static func subscribe(
        _ source: Observable<Int>, _ scheduler: TestScheduler, _ log: Log,
        onNext extra: @escaping (Int) -> Void = { _ in }
    ) -> any Disposable {
        source.subscribe(
            onNext: { value in
                log.entries.append("next(\(value))@\(scheduler.clock)")
                extra(value)
            },
            onError: { error in log.entries.append("error@\(scheduler.clock)") },
            onCompleted: { log.entries.append("completed@\(scheduler.clock)") },
            onDisposed: { log.entries.append("disposed@\(scheduler.clock)") })
    }

    @Test func oneShotDeliversAtItsDeadlineThenCompletesThenDisposes() {
        let scheduler = TestScheduler()
        let log = Log()
        let subscription = Self.subscribe(.timer(.milliseconds(10), scheduler: scheduler), scheduler, log)
        #expect(scheduler.pendingCount == 1)
        scheduler.advance(to: 9)
        #expect(log.entries.isEmpty)
        scheduler.advance(to: 10)
        #expect(log.entries == ["next(0)@10", "completed@10", "disposed@10"])
        #expect(scheduler.pendingCount == 0)
        scheduler.advance(to: 11)
        subscription.dispose()
        #expect(log.entries == ["next(0)@10", "completed@10", "disposed@10"])
    }

    @Test func disposingBeforeTheDeadlineCancelsTheTimer() {
        let scheduler = TestScheduler()
        let log = Log()
        let subscription = Self.subscribe(.timer(.milliseconds(10), scheduler: scheduler), scheduler, log)
        scheduler.advance(to: 9)
        subscription.dispose()
        #expect(log.entries == ["disposed@9"])
        #expect(scheduler.pendingCount == 0)
        subscription.dispose()
        scheduler.advance(to: 20)
        #expect(log.entries == ["disposed@9"])
    }

    @Test func disposingAtTheDeadlineFollowsTheSchedulingOrder() {
        // The disposal scheduled first: the timer never fires.
        let first = TestScheduler()
        let firstLog = Log()
        first.scheduleAt(10) { firstLog.subscription?.dispose() }
        firstLog.subscription = Self.subscribe(.timer(.milliseconds(10), scheduler: first), first, firstLog)
        first.advance(to: 20)
        #expect(firstLog.entries == ["disposed@10"])
        #expect(first.pendingCount == 0)
        // The timer scheduled first: it fires, and the disposal finds it done.
        let second = TestScheduler()
        let secondLog = Log()
        secondLog.subscription = Self.subscribe(.timer(.milliseconds(10), scheduler: second), second, secondLog)
        second.scheduleAt(10) { secondLog.subscription?.dispose() }
        second.advance(to: 20)
        #expect(secondLog.entries == ["next(0)@10", "completed@10", "disposed@10"])
        #expect(second.pendingCount == 0)
    }

    @Test func disposingInsideOnNextSkipsTheCompletion() {
        let scheduler = TestScheduler()
        let log = Log()
        log.subscription = Self.subscribe(.timer(.milliseconds(3), scheduler: scheduler), scheduler, log) { _ in
            log.subscription?.dispose()
        }
        scheduler.run()
        #expect(log.entries == ["next(0)@3", "disposed@3"])
        #expect(scheduler.pendingCount == 0)
    }

    @Test func theClosuresAreReleasedAfterTheTerminalEvent() {
        final class Owner: Sendable {}
        let scheduler = TestScheduler()
        weak var weakOwner: Owner?
        var subscription: (any Disposable)?
        do {
            let owner = Owner()
            weakOwner = owner
            subscription = Observable<Int>.timer(.milliseconds(5), scheduler: scheduler)
                .subscribe(onNext: { _ in _ = owner })
        }
        #expect(weakOwner != nil)
        scheduler.advance(to: 5)
        #expect(weakOwner == nil)
        withExtendedLifetime(subscription) {}
    }

    /// With `onNext` alone (no terminal closure), the one-shot delivery ends
    /// in one step (`ClosureSink.deliverOnce`): `onNext` once, then the
    /// subscription is over: its closure let go of, its resource count
    /// ended while the disposable is still held (debug builds), and a
    /// later disposal changes nothing but `isDisposed`.
    @Test func anOnNextOnlySubscriptionEndsWithItsDelivery() {
        final class Owner: Sendable {}
        let scheduler = TestScheduler()
        let scope = Resources.Scope()
        weak var weakOwner: Owner?
        var values: [Int] = []
        var subscription: (any Disposable)?
        scope.run {
            let owner = Owner()
            weakOwner = owner
            subscription = Observable<Int>.timer(.milliseconds(5), scheduler: scheduler)
                .subscribe(onNext: { value in
                    _ = owner
                    values.append(value)
                })
        }
        if Resources.isCounting { #expect(scope.live == 1) }
        scheduler.advance(to: 4)
        #expect(values.isEmpty)
        #expect(weakOwner != nil)
        scheduler.advance(to: 5)
        #expect(values == [0])
        #expect(weakOwner == nil)
        #expect(scheduler.pendingCount == 0)
        #expect(scope.live == 0)
        #expect((subscription as? any Cancelable)?.isDisposed == false)
        subscription?.dispose()
        #expect((subscription as? any Cancelable)?.isDisposed == true)
        scheduler.advance(to: 20)
        #expect(values == [0])
    }

    @Test func aPeriodicTimerTicksUntilDisposed() {
        let scheduler = TestScheduler()
        let log = Log()
        let subscription = Self.subscribe(
            .timer(.milliseconds(5), period: .milliseconds(10), scheduler: scheduler), scheduler, log)
        scheduler.advance(to: 4)
        #expect(log.entries.isEmpty)
        scheduler.advance(to: 25)
        #expect(log.entries == ["next(0)@5", "next(1)@15", "next(2)@25"])
        scheduler.advance(to: 34)
        subscription.dispose()
        #expect(log.entries == ["next(0)@5", "next(1)@15", "next(2)@25", "disposed@34"])
        #expect(scheduler.pendingCount == 0)
        scheduler.advance(to: 100)
        #expect(log.entries.count == 4)
    }

    @Test func aPeriodicTimerDisposedInsideOnNextStops() {
        let scheduler = TestScheduler()
        let log = Log()
        log.subscription = Self.subscribe(.interval(.milliseconds(10), scheduler: scheduler), scheduler, log) { value in
            if value == 1 { log.subscription?.dispose() }
        }
        scheduler.advance(to: 100)
        #expect(log.entries == ["next(0)@10", "next(1)@20", "disposed@20"])
        #expect(scheduler.pendingCount == 0)
    }

    @Test func narrowElementTypesWrapLikeTheUsualPath() {
        let scheduler = TestScheduler()
        var direct: [Int8] = []
        var usual: [Int8] = []
        let a = Observable<Int8>.interval(.milliseconds(1), scheduler: scheduler).subscribe(onNext: { direct.append($0) })
        let b = Observable<Int8>.interval(.milliseconds(1), scheduler: scheduler).map { $0 }
            .subscribe(onNext: { usual.append($0) })
        scheduler.advance(to: 300)
        a.dispose()
        b.dispose()
        #expect(direct.count == 300)
        #expect(direct == usual)
        #expect(direct[127] == 127 && direct[128] == -128)
    }

    @Test func anOperatorInBetweenTakesTheUsualPath() {
        let scheduler = TestScheduler()
        let log = Log()
        let scope = Resources.Scope()
        let (direct, mapped) = scope.run { () -> (Int, Int) in
            let first = Self.subscribe(.timer(.milliseconds(10), scheduler: scheduler), scheduler, log)
            let afterFirst = scope.live
            let second = Self.subscribe(
                Observable<Int>.timer(.milliseconds(10), scheduler: scheduler).map { $0 + 100 }, scheduler, log)
            let afterSecond = scope.live - afterFirst
            scheduler.advance(to: 10)
            first.dispose()
            second.dispose()
            return (afterFirst, afterSecond)
        }
        #expect(
            log.entries == [
                "next(0)@10", "completed@10", "disposed@10",
                "next(100)@10", "completed@10", "disposed@10",
            ])
        if Resources.isCounting {
            // Direct: the closure subscription alone (the scheduled action
            // counts in the scheduler's scope, made outside). With `map`: its
            // sink and the timer's sink as well.
            #expect(direct == 1)
            #expect(mapped == 3)
        }
        #expect(scope.live == 0)
        #expect(scheduler.pendingCount == 0)
    }

    @Test func matchesTheUsualPathForRandomDeadlinesAndDisposals() {
        var generator = SeededGenerator(seed: 15)
        for _ in 0..<300 {
            let due = Int.random(in: 0...6, using: &generator)
            let period: Int? = Bool.random(using: &generator) ? Int.random(in: 1...4, using: &generator) : nil
            let disposal = Int.random(in: 0...12, using: &generator)
            let disposeFirst = Bool.random(using: &generator)
            var logs: [[String]] = []
            for useOperator in [false, true] {
                let scheduler = TestScheduler()
                let log = Log()
                var timer = Observable<Int>.timer(
                    .milliseconds(due), period: period.map { .milliseconds($0) }, scheduler: scheduler)
                // `filter { _ in true }` passes everything: the usual path.
                if useOperator { timer = timer.filter { _ in true } }
                if disposeFirst { scheduler.scheduleAt(TestTime(disposal)) { log.subscription?.dispose() } }
                log.subscription = Self.subscribe(timer, scheduler, log)
                if !disposeFirst { scheduler.scheduleAt(TestTime(disposal)) { log.subscription?.dispose() } }
                scheduler.advance(to: 20)
                #expect(scheduler.pendingCount == 0)
                logs.append(log.entries)
            }
            #expect(logs[0] == logs[1], "due \(due), period \(String(describing: period)), disposal \(disposal)")
        }
    }

    @Test func onTheCurrentThreadSchedulerTheTrampolineRunsIt() {
        var log: [String] = []
        let subscription = Observable<Int>.timer(.zero, scheduler: CurrentThreadScheduler.instance)
            .subscribe(
                onNext: { log.append("next(\($0))") }, onCompleted: { log.append("completed") },
                onDisposed: { log.append("disposed") })
        // Run by the outermost subscribe's trampoline, before it returned.
        #expect(log == ["next(0)", "completed", "disposed"])
        subscription.dispose()
        // Inside an action on the trampoline: queued, run after the action.
        var nested: [String] = []
        CurrentThreadScheduler.instance.schedule {
            _ = Observable<Int>.timer(.zero, scheduler: CurrentThreadScheduler.instance)
                .subscribe(onNext: { nested.append("next(\($0))") }, onCompleted: { nested.append("completed") })
            nested.append("subscribed")
        }
        #expect(nested == ["subscribed", "next(0)", "completed"])
    }

    /// A main-actor subscription keeps its isolated delivery: the timer
    /// fires inside the test's own `advance` (off the main actor), and the
    /// closures must not run right there, in the test's task, but be handed
    /// to the main actor (the advance waits for them).
    @MainActor final class MainActorModel {
        let log = Locked<[String]>([])
        private var subscription: (any Disposable)?

        func start(on scheduler: any Scheduler, testTask: Int?) {
            func where_() -> String {
                withUnsafeCurrentTask { $0?.hashValue } == testTask ? "in the test's task" : "elsewhere"
            }
            subscription = Observable<Int>.timer(.milliseconds(5), scheduler: scheduler).subscribe(
                onNext: { _ in self.log.withLock { $0.append("next \(where_())") } },
                onCompleted: { self.log.withLock { $0.append("completed \(where_())") } },
                onDisposed: { self.log.withLock { $0.append("disposed") } })
        }
    }

    @Test func anIsolatedSubscriptionStillDeliversOnItsActor() async {
        let scheduler = TestScheduler()
        let model = MainActorModel()
        let testTask = withUnsafeCurrentTask { $0?.hashValue }
        #expect(testTask != nil)
        await model.start(on: scheduler, testTask: testTask)
        await scheduler.advance(by: .milliseconds(4))
        #expect(model.log.current.isEmpty)
        await scheduler.advance(by: .milliseconds(1))
        #expect(model.log.current == ["next elsewhere", "completed elsewhere", "disposed"])
        #expect(scheduler.pendingCount == 0)
    }

    @Test func deeplyNestedSubscriptionsStillRunIt() {
        let scheduler = TestScheduler()
        let log = Log()
        // A chain of `create`s, each subscribing the next: past
        // `maximumNestedSubscriptions` the innermost subscription is queued
        // on the trampoline.
        func nest(_ depth: Int) -> Observable<Int> {
            Observable<Int>.create { observer in
                if depth == 0 {
                    return Self.subscribe(.timer(.milliseconds(2), scheduler: scheduler), scheduler, log) {
                        observer.onNext($0)
                    }
                }
                return nest(depth - 1).subscribe(observer)
            }
        }
        var received: [Int] = []
        let subscription = nest(300).subscribe(onNext: { received.append($0) })
        scheduler.advance(to: 2)
        #expect(log.entries == ["next(0)@2", "completed@2", "disposed@2"])
        #expect(received == [0])
        subscription.dispose()
        // Disposed before the deadline: cancelled, nothing pending.
        let early = Log()
        func nestEarly(_ depth: Int) -> Observable<Int> {
            Observable<Int>.create { _ in
                if depth == 0 { return Self.subscribe(.timer(.milliseconds(2), scheduler: scheduler), scheduler, early) }
                return nestEarly(depth - 1).subscribe(onNext: { _ in })
            }
        }
        let second = nestEarly(300).subscribe(onNext: { _ in })
        #expect(scheduler.pendingCount == 1)
        second.dispose()
        #expect(early.entries == ["disposed@2"])
        #expect(scheduler.pendingCount == 0)
        // Past its deadline (4): the cancelled timer never fires.
        scheduler.advance(to: 10)
        #expect(early.entries == ["disposed@2"])
    }

    /// At the nesting limit the trampoline queues a subscription instead of
    /// making it, which puts its timer after work scheduled meanwhile. A
    /// direct subscription on a test scheduler, which otherwise skips the
    /// trampoline (`CurrentThreadScheduler.subscribe(direct:_:)`), must then
    /// be queued the same way. The oracle: the same chain on a scheduler
    /// that forwards to the test scheduler without saying that it only
    /// queues work (`Forwarding`), so its timers go through the trampoline
    /// as before the shortcut. Every timer is due at the same instant, so
    /// the order they fire in is the order they were scheduled in.
    /// Off the shortcut (a scheduler that does not only queue work), a
    /// timer's own closure subscription goes through the trampoline
    /// (`OneShotTimerSource.startAsOwnSink()`): past the nesting limit its
    /// timer is scheduled in the order the usual path (an observer
    /// subscribed, the timer's own sink) schedules it.
    @Test func offTheShortcutTimersAreScheduledInTheUsualPathsOrder() {
        func order(direct: Bool) -> [Int] {
            let testScheduler = TestScheduler()
            let scheduler: any Scheduler = Forwarding(testScheduler)
            var fired: [Int] = []
            func timer(_ label: Int) -> any Disposable {
                let source = Observable<Int>.timer(.milliseconds(5), scheduler: scheduler)
                if direct { return source.subscribe(onNext: { _ in fired.append(label) }) }
                return source.subscribe(AnyObserver { event in if case .next = event { fired.append(label) } })
            }
            func chain(_ level: Int) -> Observable<Int> {
                Observable<Int>.create { observer in
                    let own = timer(level)
                    guard level < 300 else { return own }
                    return Disposables.create(own, chain(level + 1).subscribe(observer))
                }
            }
            let sibling = Observable<Int>.create { _ in timer(-1) }
            let subscription = Observable.merge(chain(0), sibling).subscribe(onNext: { _ in })
            testScheduler.run()
            subscription.dispose()
            return fired
        }
        let direct = order(direct: true)
        #expect(direct == order(direct: false))
        #expect(direct.count == 302)
    }

    @Test func pastTheNestingLimitTimersAreScheduledInTheTrampolinesOrder() {
        func order(shortcut: Bool) -> [Int] {
            let testScheduler = TestScheduler()
            let scheduler: any Scheduler = shortcut ? testScheduler : Forwarding(testScheduler)
            var fired: [Int] = []
            func timer(_ label: Int) -> any Disposable {
                Observable<Int>.timer(.milliseconds(5), scheduler: scheduler)
                    .subscribe(onNext: { _ in fired.append(label) })
            }
            // Level `level` subscribes its own timer, then the next level.
            func chain(_ level: Int) -> Observable<Int> {
                Observable<Int>.create { observer in
                    let own = timer(level)
                    guard level < 300 else { return own }
                    return Disposables.create(own, chain(level + 1).subscribe(observer))
                }
            }
            let sibling = Observable<Int>.create { _ in timer(-1) }
            let subscription = Observable.merge(chain(0), sibling).subscribe(onNext: { _ in })
            testScheduler.run()
            subscription.dispose()
            return fired
        }
        let shortcut = order(shortcut: true)
        #expect(shortcut == order(shortcut: false))
        #expect(shortcut.count == 302)
        // The limit was reached: the sibling's timer, subscribed once the
        // chain's first stretch returned, is not last.
        #expect(shortcut.firstIndex(of: -1).map { $0 < 300 } == true)
    }

    /// A scheduler that forwards to a test scheduler, with the protocol's
    /// defaults for the rest (so timers on it hold it, and go through the
    /// trampoline). (The SPI import above: the defaults of the SPI
    /// requirements are only visible with it.)
    final class Forwarding: Scheduler {
        let target: TestScheduler
        init(_ target: TestScheduler) { self.target = target }
        var now: SchedulerInstant { target.now }
        func schedule(_ action: @escaping () -> Void) -> any Disposable { target.schedule(action) }
        func schedule(after delay: Duration, _ action: @escaping () -> Void) -> any Disposable {
            target.schedule(after: delay, action)
        }
        func schedulePeriodic(after delay: Duration, period: Duration, _ action: @escaping () -> Void) -> any Disposable {
            target.schedulePeriodic(after: delay, period: period, action)
        }
        func schedule(at time: SchedulerInstant, _ action: @escaping () -> Void) -> any Disposable {
            target.schedule(at: time, action)
        }
    }
}
