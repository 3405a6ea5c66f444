import Dispatch
import Testing
import TickIndicators
import TickTesting

/// A task executor running its jobs on its own serial Dispatch queue, so that
/// eight of them give eight threads (the default pool has one per core).
final class QueueTaskExecutor: TaskExecutor {
    let queue: DispatchQueue
    init(label: String) { queue = DispatchQueue(label: label) }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        queue.async { job.runSynchronously(on: self.asUnownedTaskExecutor()) }
    }
}

/// Thousands of tracked async calls from eight threads, on real queues and
/// real clocks. No sleeping: every wait is on a `TestExpectation` with a
/// generous timeout (a safety net, not a timing assertion).
@Suite(.checksResourceLeaks) struct IndicatorAsyncStressTests {
    static let threads = 8
    static let callsPerThread = 2_000

    /// Real asynchronous work: resumes on `worker`'s queue.
    static func hop(to worker: DispatchQueueScheduler) async {
        await withCheckedContinuation { continuation in
            _ = worker.schedule { continuation.resume() }
        }
    }

    /// Runs an action on `scheduler` 50 ms from now and waits for it: every
    /// timer of at most a few ms set before has fired by then.
    static func idle(_ scheduler: DispatchQueueScheduler) async -> Bool {
        let idle = TestExpectation()
        _ = scheduler.schedule(after: .milliseconds(50)) { idle.fulfill() }
        return await idle.wait(timeout: .seconds(300))
    }

    /// A weak reference, to check that a component was deallocated.
    struct Weak {
        weak var object: AnyObject?
    }

    @Test func trackedCallsFromEightThreadsEndWithNothingVisible() async {
        TestFailureReporter.reportMisuseAsTestFailures()
        // Filled at the end of the scope below; the components must be gone
        // once it is left (nothing retains them: no cycle, no pending timer).
        var components: [Weak] = []
        do {
            let scheduler = DispatchQueueScheduler(label: "tick.stress.async.timers")
            let indicator = ActivityIndicator(defaultMessage: "work")
            let manager = NetworkActivityIndicatorManager(
                scheduler: scheduler, startDelay: .milliseconds(1), completionDelay: .milliseconds(1))
            let tracker = ErrorTracker(scheduler: scheduler)
            let spinnerLog = Locked<[ActivityIndicator.State]>([])
            let spinner = indicator.delayedVisibility(
                showAfter: .milliseconds(1), minimumVisible: .milliseconds(1), hideAfter: .milliseconds(1),
                scheduler: scheduler
            ).subscribe(onNext: { state in spinnerLog.withLock { $0.append(state) } })
            let workers = (0..<4).map { DispatchQueueScheduler(label: "tick.stress.async.worker.\($0)") }
            let executors = (0..<Self.threads).map { QueueTaskExecutor(label: "tick.stress.async.thread.\($0)") }
            let results = Locked((succeeded: 0, failed: 0, cancelled: 0))

            await withTaskGroup(of: Void.self) { group in
                for thread in 0..<Self.threads {
                    group.addTask(executorPreference: executors[thread]) {
                        for call in 0..<Self.callsPerThread {
                            let worker = workers[(thread + call) % workers.count]
                            // A view model's load: counted as a request, errors to
                            // the banner, the screen's indicator with a message.
                            let load = { () async -> Int? in
                                await manager.track {
                                    await tracker.track(orElse: nil) { () async throws -> Int? in
                                        try await indicator.track(message: "t\(thread)") {
                                            await Self.hop(to: worker)
                                            if call % 7 == 0 { throw NamedError("t\(thread)-\(call)") }
                                            return call
                                        }
                                    }
                                }
                            }
                            if call % 10 == 3 {
                                // Cancelled at once, before, during or after its start.
                                let task = Task(executorPreference: executors[thread]) { await load() }
                                task.cancel()
                                _ = await task.value
                                results.withLock { $0.cancelled += 1 }
                            } else if await load() == nil {
                                results.withLock { $0.failed += 1 }
                            } else {
                                results.withLock { $0.succeeded += 1 }
                            }
                        }
                    }
                }
            }
            // Every call returned: nothing is counted any more.
            #expect(indicator.state == ActivityIndicator.State(loading: false, message: nil))
            #expect(manager.activityCount == 0)
            #expect(await Self.idle(scheduler))
            #expect(!manager.isNetworkActivityIndicatorVisible)
            #expect(manager.phase == .notActive)
            // The spinner's states: distinct, starting and ending hidden, shown
            // with a message, hidden without one.
            let log = spinnerLog.current
            let hidden = ActivityIndicator.State(loading: false, message: nil)
            #expect(log.first == hidden)
            #expect(log.last == hidden)
            #expect(zip(log, log.dropFirst()).allSatisfy { $0 != $1 })
            #expect(log.allSatisfy { $0.loading ? $0.message != nil : $0.message == nil })
            let total = results.current
            #expect(total.succeeded + total.failed + total.cancelled == Self.threads * Self.callsPerThread)
            spinner.dispose()
            components = [Weak(object: indicator), Weak(object: manager), Weak(object: tracker)]
        }
        let survivors = components.compactMap { $0.object.map { "\(type(of: $0))" } }
        #expect(survivors.isEmpty, "components outlived the test: \(survivors)")
    }

    @Test func theLastErrorClearsItselfAfterConcurrentTrackedFailures() async {
        TestFailureReporter.reportMisuseAsTestFailures()
        let scheduler = DispatchQueueScheduler(label: "tick.stress.async.banner")
        let tracker = ErrorTracker(scheduler: scheduler)
        let executors = (0..<Self.threads).map { QueueTaskExecutor(label: "tick.stress.async.banner.\($0)") }
        await withTaskGroup(of: Void.self) { group in
            for thread in 0..<Self.threads {
                group.addTask(executorPreference: executors[thread]) {
                    for call in 0..<Self.callsPerThread {
                        _ = await tracker.track(resetAfter: .milliseconds(2), orElse: 0) { () async throws -> Int in
                            if call % 2 == 0 { throw NamedError("t\(thread)-\(call)") }
                            return call
                        }
                    }
                }
            }
        }
        #expect(await Self.idle(scheduler))
        #expect(tracker.error == nil)
    }
}
