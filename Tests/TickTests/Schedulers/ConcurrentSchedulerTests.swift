import Dispatch
import Foundation
import Synchronization
import Testing
import Tick
import TickTesting

/// `ConcurrentDispatchQueueScheduler` and `OperationQueueScheduler`. No test
/// sleeps or waits for time to pass: each waits on an expectation or a
/// semaphore that the scheduled work itself fulfils (the timeouts are safety
/// nets for a broken test, never part of an assertion), and real delays are
/// only checked as lower bounds.
@Suite(.checksResourceLeaks) struct ConcurrentSchedulerTests {
    /// Runs an action on `scheduler` that holds its (one-at-a-time) queue
    /// busy until the returned semaphore is signalled, and waits until it runs.
    private func occupy(_ scheduler: OperationQueueScheduler) async -> DispatchSemaphore {
        let gate = DispatchSemaphore(value: 0)
        let blockerRunning = TestExpectation()
        scheduler.schedule {
            blockerRunning.fulfill()
            gate.wait()
        }
        #expect(await blockerRunning.wait(timeout: .seconds(300)))
        return gate
    }

    /// The first action can only finish while the second runs: on a serial
    /// queue it would wait for the second until its 30 s safety net fails it.
    private func expectTwoActionsRunAtTheSameTime(
        on scheduler: any Scheduler, sourceLocation: SourceLocation = #_sourceLocation
    ) async {
        let secondRunning = DispatchSemaphore(value: 0)
        let met = Locked(false)
        let done = TestExpectation(count: 2)
        scheduler.schedule {
            let outcome = secondRunning.wait(timeout: .now() + .seconds(30))
            met.withLock { $0 = outcome == .success }
            done.fulfill()
        }
        scheduler.schedule {
            secondRunning.signal()
            done.fulfill()
        }
        #expect(await done.wait(timeout: .seconds(300)), sourceLocation: sourceLocation)
        #expect(met.withLock { $0 }, sourceLocation: sourceLocation)
    }

    // MARK: ConcurrentDispatchQueueScheduler

    @Test func concurrentSchedulerRunsActionsAtTheSameTime() async {
        let scheduler = ConcurrentDispatchQueueScheduler(label: "tick.test.concurrent.overlap")
        await expectTwoActionsRunAtTheSameTime(on: scheduler)
    }

    @Test func concurrentSchedulerRunsEveryActionAndNeverDelayedWorkEarly() async {
        let scheduler = ConcurrentDispatchQueueScheduler(qos: .userInitiated)
        let ran = Locked(Set<Int>())
        let done = TestExpectation(count: 51)
        for index in 0..<50 {
            scheduler.schedule {
                ran.withLock { _ = $0.insert(index) }
                done.fulfill()
            }
        }
        let start = scheduler.now
        let ranAt = Locked<SchedulerInstant?>(nil)
        scheduler.schedule(after: .milliseconds(20)) {
            ranAt.withLock { $0 = scheduler.now }
            done.fulfill()
        }
        #expect(await done.wait(timeout: .seconds(300)))
        #expect(ran.withLock { $0 } == Set(0..<50))
        #expect(ranAt.withLock { $0 }.map { $0 - start >= .milliseconds(20) } == true)
    }

    @Test func concurrentSchedulerCancelledWorkNeverRuns() async {
        let queue = DispatchQueue(label: "tick.test.concurrent.cancel", attributes: .concurrent)
        let scheduler = ConcurrentDispatchQueueScheduler(queue: queue)
        let ran = Locked(false)
        // Held back by a barrier, so it is still queued when disposed.
        let gate = DispatchSemaphore(value: 0)
        queue.async(flags: .barrier) { gate.wait() }
        let work = scheduler.schedule { ran.withLock { $0 = true } }
        work.dispose()
        gate.signal()
        await barrier(queue)
        #expect(ran.withLock { $0 } == false)
        #expect((work as? any Cancelable)?.isDisposed == true)
    }

    @Test func concurrentSchedulerPeriodicRunsUntilDisposed() async {
        let queue = DispatchQueue(label: "tick.test.concurrent.periodic", attributes: .concurrent)
        let scheduler = ConcurrentDispatchQueueScheduler(queue: queue)
        let count = Locked(0)
        let three = TestExpectation(count: 3)
        let periodic = scheduler.schedulePeriodic(after: .milliseconds(1), period: .milliseconds(2)) {
            if count.withLock({ value -> Int in
                value += 1
                return value
            }) <= 3 { three.fulfill() }
        }
        #expect(await three.wait(timeout: .seconds(300)))
        periodic.dispose()
        // A run already started finishes before the barrier; none starts after.
        await barrier(queue)
        let snapshot = count.withLock { $0 }
        #expect(snapshot >= 3)
        let later = TestExpectation()
        scheduler.schedule(after: .milliseconds(10)) { later.fulfill() }
        #expect(await later.wait(timeout: .seconds(300)))
        #expect(count.withLock { $0 } == snapshot)
    }

    @Test func operatorsDeliverInOrderOnAConcurrentScheduler() async {
        let queue = DispatchQueue(label: "tick.test.concurrent.operators", attributes: .concurrent)
        let scheduler = ConcurrentDispatchQueueScheduler(queue: queue)
        let received = Locked<[Int]>([])
        let done = TestExpectation()
        let subscription = Observable<Int>.interval(.milliseconds(1), scheduler: scheduler)
            .take(5)
            .delay(.milliseconds(1), scheduler: scheduler)
            .observe(on: scheduler)
            .subscribe(onNext: { value in received.withLock { $0.append(value) } }, onCompleted: { done.fulfill() })
        #expect(await done.wait(timeout: .seconds(300)))
        await barrier(queue)
        #expect(received.current == [0, 1, 2, 3, 4])
        subscription.dispose()
    }

    @Test func concurrentSchedulerReportsMisuse() async {
        TestFailureReporter.reportMisuseAsTestFailures()
        let scheduler = ConcurrentDispatchQueueScheduler(label: "tick.test.concurrent.misuse")
        let done = TestExpectation()
        withKnownIssue {
            scheduler.schedule(after: .milliseconds(-1)) { done.fulfill() }
        } matching: { issue in
            issue.comments.contains { $0.rawValue.contains("ConcurrentDispatchQueueScheduler.schedule(after:) was given a negative delay") }
        }
        withKnownIssue {
            scheduler.schedulePeriodic(after: .zero, period: .zero) { Issue.record("ran with a zero period") }
        } matching: { issue in
            issue.comments.contains { $0.rawValue.contains("a period must be positive") }
        }
        #expect(await done.wait(timeout: .seconds(300)))
    }

    // MARK: OperationQueueScheduler

    @Test func operationQueueSchedulerRunsInOrderOneAtATimeOnASerialQueue() async {
        let operations = OperationQueue()
        operations.maxConcurrentOperationCount = 1
        let scheduler = OperationQueueScheduler(operationQueue: operations)
        let log = Locked<[Int]>([])
        let inside = Atomic<Int>(0)
        let overlapped = Atomic<Bool>(false)
        let done = TestExpectation(count: 100)
        for index in 0..<100 {
            scheduler.schedule {
                if inside.add(1, ordering: .relaxed).newValue > 1 { overlapped.store(true, ordering: .relaxed) }
                log.withLock { $0.append(index) }
                inside.subtract(1, ordering: .relaxed)
                done.fulfill()
            }
        }
        #expect(await done.wait(timeout: .seconds(300)))
        #expect(log.current == Array(0..<100))
        let didOverlap = overlapped.load(ordering: .relaxed)
        #expect(!didOverlap)
    }

    @Test func operationQueueSchedulerRunsActionsAtTheSameTimeWhenTheQueueAllows() async {
        let operations = OperationQueue()
        operations.maxConcurrentOperationCount = 2
        let scheduler = OperationQueueScheduler(operationQueue: operations)
        await expectTwoActionsRunAtTheSameTime(on: scheduler)
    }

    @Test func operationQueueSchedulerDisposalCancelsTheQueuedOperation() async {
        let operations = OperationQueue()
        operations.maxConcurrentOperationCount = 1
        let scheduler = OperationQueueScheduler(operationQueue: operations, queuePriority: .high)
        let gate = await occupy(scheduler)
        let ran = Locked(false)
        let work = scheduler.schedule { ran.withLock { $0 = true } }
        // Queued behind the blocker, with the scheduler's priority.
        let queued = operations.operations.filter { !$0.isExecuting }
        #expect(queued.count == 1)
        #expect(queued.first?.queuePriority == .high)
        #expect(queued.first?.isCancelled == false)
        work.dispose()
        #expect(queued.first?.isCancelled == true)
        gate.signal()
        let after = TestExpectation()
        scheduler.schedule { after.fulfill() }
        #expect(await after.wait(timeout: .seconds(300)))
        #expect(ran.withLock { $0 } == false)
    }

    @Test func operationQueueSchedulerNeverRunsDelayedWorkEarlyAndCancelsIt() async {
        let operations = OperationQueue()
        operations.maxConcurrentOperationCount = 1
        let scheduler = OperationQueueScheduler(operationQueue: operations)
        // The queue is held busy until the work is disposed, so a thread
        // paused between `schedule` and `dispose` (TSan, a loaded machine)
        // cannot let the work's deadline pass and run it first.
        let gate = await occupy(scheduler)
        let start = scheduler.now
        let ranAt = Locked<SchedulerInstant?>(nil)
        let cancelledRan = Locked(false)
        let cancelled = scheduler.schedule(after: .milliseconds(5)) { cancelledRan.withLock { $0 = true } }
        cancelled.dispose()
        gate.signal()
        let done = TestExpectation()
        scheduler.schedule(after: .milliseconds(20)) {
            ranAt.withLock { $0 = scheduler.now }
            done.fulfill()
        }
        #expect(await done.wait(timeout: .seconds(300)))
        #expect(ranAt.withLock { $0 }.map { $0 - start >= .milliseconds(20) } == true)
        #expect(cancelledRan.withLock { $0 } == false)
    }

    @Test func operationQueueSchedulerPeriodicRunsUntilDisposed() async {
        let operations = OperationQueue()
        operations.maxConcurrentOperationCount = 1
        let scheduler = OperationQueueScheduler(operationQueue: operations)
        let count = Locked(0)
        let three = TestExpectation(count: 3)
        let periodic = scheduler.schedulePeriodic(after: .zero, period: .milliseconds(2)) {
            if count.withLock({ value -> Int in
                value += 1
                return value
            }) <= 3 { three.fulfill() }
        }
        #expect(await three.wait(timeout: .seconds(300)))
        periodic.dispose()
        // A run already queued or running is over once this later operation ran.
        await finish(operations)
        let snapshot = count.withLock { $0 }
        let later = TestExpectation()
        scheduler.schedule(after: .milliseconds(10)) { later.fulfill() }
        #expect(await later.wait(timeout: .seconds(300)))
        #expect(count.withLock { $0 } == snapshot)
    }

    @Test func operatorsDeliverInOrderOnAnOperationQueueScheduler() async {
        let operations = OperationQueue()
        operations.maxConcurrentOperationCount = 4
        let scheduler = OperationQueueScheduler(operationQueue: operations)
        let received = Locked<[Int]>([])
        let done = TestExpectation()
        let subscription = Observable<Int>.timer(.zero, period: .milliseconds(1), scheduler: scheduler)
            .take(5)
            .delay(.milliseconds(1), scheduler: scheduler)
            .observe(on: scheduler)
            .subscribe(onNext: { value in received.withLock { $0.append(value) } }, onCompleted: { done.fulfill() })
        #expect(await done.wait(timeout: .seconds(300)))
        await finish(operations)
        #expect(received.current == [0, 1, 2, 3, 4])
        subscription.dispose()
    }

    @Test func operationQueueSchedulerReportsMisuse() async {
        TestFailureReporter.reportMisuseAsTestFailures()
        let scheduler = OperationQueueScheduler(operationQueue: OperationQueue())
        let done = TestExpectation()
        withKnownIssue {
            scheduler.schedule(after: .milliseconds(-1)) { done.fulfill() }
        } matching: { issue in
            issue.comments.contains { $0.rawValue.contains("OperationQueueScheduler.schedule(after:) was given a negative delay") }
        }
        withKnownIssue {
            scheduler.schedulePeriodic(after: .zero, period: .milliseconds(-1)) { Issue.record("ran with a negative period") }
        } matching: { issue in
            issue.comments.contains { $0.rawValue.contains("OperationQueueScheduler.schedulePeriodic was given a period") }
        }
        #expect(await done.wait(timeout: .seconds(300)))
    }
}

/// Returns once everything queued on the concurrent `queue` so far has
/// finished: a barrier block runs only after them, and resumes the caller.
func barrier(_ queue: DispatchQueue) async {
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
        queue.async(flags: .barrier) { continuation.resume() }
    }
}

/// Returns once every operation already on `operations` has finished.
func finish(_ operations: OperationQueue) async {
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
        operations.addBarrierBlock { continuation.resume() }
    }
}
