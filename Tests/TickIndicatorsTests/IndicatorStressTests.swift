import Dispatch
import Testing
import TickIndicators
import TickTesting

/// Many tracked sequences starting and stopping concurrently on real Dispatch
/// queues. No sleeping: every wait is on a `TestExpectation` with a generous
/// timeout (a safety net, not a timing assertion).
@Suite(.checksResourceLeaks) struct IndicatorStressTests {
    static let tasks = 8
    static let perTask = 60

    /// Work queues the tracked sequences deliver on.
    static func workers() -> [DispatchQueueScheduler] {
        (0..<4).map { DispatchQueueScheduler(label: "tick.stress.worker.\($0)") }
    }

    /// Waits until every worker finished the action it is running. A terminal
    /// event reaches the subscriber *before* the operators above it finish
    /// their clean-up (which runs in the same action on the worker's queue),
    /// so "all subscribers saw the end" is not yet "all clean-up ran".
    static func drain(_ workers: [DispatchQueueScheduler]) async -> Bool {
        let barrier = TestExpectation(count: workers.count)
        for worker in workers { worker.schedule { barrier.fulfill() } }
        return await barrier.wait(timeout: .seconds(300))
    }

    @Test func networkManagerEndsHiddenWithZeroCount() async {
        TestFailureReporter.reportMisuseAsTestFailures()
        let queue = DispatchQueue(label: "tick.stress.manager")
        let key = DispatchSpecificKey<Bool>()
        queue.setSpecific(key: key, value: true)
        let scheduler = DispatchQueueScheduler(queue: queue)
        let manager = NetworkActivityIndicatorManager(
            scheduler: scheduler, startDelay: .milliseconds(2), completionDelay: .milliseconds(2))
        let changes = Locked<[Bool]>([])
        let offQueue = Locked(0)
        manager.networkActivityIndicatorVisibilityChanged = { visible in
            if DispatchQueue.getSpecific(key: key) != true { offQueue.withLock { $0 += 1 } }
            changes.withLock { $0.append(visible) }
        }
        let workers = Self.workers()
        let done = TestExpectation(count: Self.tasks * Self.perTask)
        let bag = Locked<[any Disposable]>([])
        await withTaskGroup(of: Void.self) { group in
            for task in 0..<Self.tasks {
                group.addTask {
                    for index in 0..<Self.perTask {
                        let worker = workers[(task + index) % workers.count]
                        let delay = Duration.microseconds((task * 37 + index * 91) % 3000)
                        let subscription = Observable.just(index)
                            .delay(delay, scheduler: worker)
                            .trackActivity(in: manager)
                            .subscribe(onCompleted: { done.fulfill() })
                        bag.withLock { $0.append(subscription) }
                        // The other two counting styles, interleaved.
                        manager.requestDidStart(requestID: "\(task)-\(index)")
                        manager.incrementActivityCount()
                        manager.requestDidStop(requestID: "\(task)-\(index)")
                        manager.decrementActivityCount()
                    }
                }
            }
        }
        #expect(await done.wait(timeout: .seconds(300)))
        #expect(await Self.drain(workers))
        #expect(manager.activityCount == 0)
        // Both timers are at most 2 ms long; once this runs, they have fired.
        let idle = TestExpectation()
        scheduler.schedule(after: .milliseconds(50)) { idle.fulfill() }
        #expect(await idle.wait(timeout: .seconds(300)))
        #expect(manager.phase == .notActive)
        #expect(!manager.isNetworkActivityIndicatorVisible)
        let log = changes.current
        #expect(offQueue.current == 0)
        #expect(!done.isOverfulfilled)
        // Real changes only: they alternate, starting with true and ending with false.
        #expect(log.enumerated().allSatisfy { $0.element == ($0.offset % 2 == 0) })
        #expect(log.count % 2 == 0)
        for subscription in bag.current { subscription.dispose() }
    }

    @Test func activityIndicatorEndsNotLoading() async {
        let indicator = ActivityIndicator(defaultMessage: "work")
        let states = Locked<[ActivityIndicator.State]>([])
        let concurrent = Locked(false)
        let inside = Locked(0)
        indicator.subscribe(onNext: { state in
            if inside.withLock({ $0 += 1; return $0 }) > 1 { concurrent.withLock { $0 = true } }
            states.withLock { $0.append(state) }
            inside.withLock { $0 -= 1 }
        }).disposed(by: indicator.disposeBag)
        let workers = Self.workers()
        let done = TestExpectation(count: Self.tasks * Self.perTask)
        let bag = Locked<[any Disposable]>([])
        await withTaskGroup(of: Void.self) { group in
            for task in 0..<Self.tasks {
                group.addTask {
                    for index in 0..<Self.perTask {
                        let worker = workers[(task + index) % workers.count]
                        let delay = Duration.microseconds((task * 53 + index * 71) % 2000)
                        let subscription = Observable.of(1, 2, 3)
                            .delay(delay, scheduler: worker)
                            .trackActivity(in: indicator, messageProvider: { "t\(task) #\($0)" })
                            .subscribe(onDisposed: { done.fulfill() })
                        if index % 5 == 0 {
                            // Disposed at once, possibly before anything happened.
                            subscription.dispose()
                        } else {
                            bag.withLock { $0.append(subscription) }
                        }
                    }
                }
            }
        }
        #expect(await done.wait(timeout: .seconds(300)))
        #expect(await Self.drain(workers))
        #expect(indicator.state == ActivityIndicator.State(loading: false, message: nil))
        let log = states.current
        #expect(!concurrent.current)
        #expect(!done.isOverfulfilled)
        #expect(log.contains { $0.loading && $0.message != nil })
        #expect(log.last == ActivityIndicator.State(loading: false, message: nil))
        // Distinct, and "not loading" always has no message.
        #expect(zip(log, log.dropFirst()).allSatisfy { $0 != $1 })
        #expect(log.allSatisfy { $0.loading || $0.message == nil })
        for subscription in bag.current { subscription.dispose() }
    }

    @Test func errorTrackerEndsNilAfterConcurrentErrorsWithResets() async {
        TestFailureReporter.reportMisuseAsTestFailures()
        let scheduler = DispatchQueueScheduler(label: "tick.stress.tracker")
        let tracker = ErrorTracker(scheduler: scheduler)
        let values = Locked<[String]>([])
        let subscription = tracker.subscribe(onNext: { error in
            values.withLock { $0.append(error.map { "\($0)" } ?? "nil") }
        })
        let workers = Self.workers()
        let done = TestExpectation(count: Self.tasks * Self.perTask)
        await withTaskGroup(of: Void.self) { group in
            for task in 0..<Self.tasks {
                group.addTask {
                    for index in 0..<Self.perTask {
                        let worker = workers[(task + index) % workers.count]
                        let source: Observable<Int> =
                            index % 3 == 0
                            ? Observable.just(index).delay(.microseconds(index * 13), scheduler: worker)
                            : Observable.error(NamedError("t\(task)-\(index)"))
                        _ = source.trackError(tracker, resetTime: .milliseconds(3))
                            .subscribe(onError: { _ in done.fulfill() }, onCompleted: { done.fulfill() })
                    }
                }
            }
        }
        #expect(await done.wait(timeout: .seconds(300)))
        #expect(await Self.drain(workers))
        let idle = TestExpectation()
        scheduler.schedule(after: .milliseconds(50)) { idle.fulfill() }
        #expect(await idle.wait(timeout: .seconds(300)))
        #expect(tracker.error == nil)
        let log = values.current
        #expect(log.first == "nil")
        #expect(log.last == "nil")
        #expect(!zip(log, log.dropFirst()).contains { $0 == "nil" && $1 == "nil" })
        subscription.dispose()
    }
}
