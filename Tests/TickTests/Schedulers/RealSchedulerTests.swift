import Dispatch
import Synchronization
import Testing
import Tick
import TickTesting

/// Real schedulers, tested with real (short) delays only where unavoidable and
/// never with sleep-and-hope: every wait is on an expectation with a generous
/// timeout, and assertions are about order and lower bounds, not exact timing.
@Suite(.checksResourceLeaks) struct RealSchedulerTests {
    @Test func dispatchSchedulerRunsImmediateWorkInOrder() async {
        let scheduler = DispatchQueueScheduler(label: "tick.test.order")
        let log = Locked<[String]>([])
        let done = TestExpectation(count: 100)
        for index in 0..<100 {
            scheduler.schedule {
                log.withLock { $0.append("\(index)") }
                done.fulfill()
            }
        }
        #expect(await done.wait(timeout: .seconds(300)))
        #expect(log.current == (0..<100).map(String.init))
    }

    @Test func dispatchSchedulerNeverRunsDelayedWorkEarly() async {
        let scheduler = DispatchQueueScheduler(label: "tick.test.delay")
        let start = scheduler.now
        let ranAt = Locked<SchedulerInstant?>(nil)
        let done = TestExpectation()
        scheduler.schedule(after: .milliseconds(20)) {
            ranAt.withLock { $0 = scheduler.now }
            done.fulfill()
        }
        #expect(await done.wait(timeout: .seconds(300)))
        let elapsed = ranAt.withLock { $0 }.map { $0 - start }
        #expect(elapsed.map { $0 >= .milliseconds(20) } == true)
    }

    @Test func dispatchSchedulerCancelledWorkNeverRuns() async {
        let scheduler = DispatchQueueScheduler(label: "tick.test.cancel")
        let ran = Mutex(false)
        // The queue is held busy until the work is disposed, so a thread
        // paused between `schedule` and `dispose` (TSan, a loaded machine)
        // cannot let the work's deadline pass and run it first.
        let hold = DispatchSemaphore(value: 0)
        scheduler.schedule { hold.wait() }
        let work = scheduler.schedule(after: .milliseconds(10)) { ran.withLock { $0 = true } }
        work.dispose()
        // A later action on the same serial queue proves the cancelled one's
        // deadline has passed without it running.
        let after = TestExpectation()
        scheduler.schedule(after: .milliseconds(30)) { after.fulfill() }
        hold.signal()
        #expect(await after.wait(timeout: .seconds(300)))
        #expect(ran.withLock { $0 } == false)
    }

    @Test func dispatchSchedulerPeriodicRunsUntilDisposed() async {
        let scheduler = DispatchQueueScheduler(label: "tick.test.periodic")
        let count = Mutex(0)
        let three = TestExpectation(count: 3)
        let periodic = scheduler.schedulePeriodic(after: .milliseconds(1), period: .milliseconds(2)) {
            let now = count.withLock { value -> Int in
                value += 1
                return value
            }
            if now <= 3 { three.fulfill() }
        }
        #expect(await three.wait(timeout: .seconds(300)))
        periodic.dispose()
        let snapshot = count.withLock { $0 }
        // Flush the queue: anything already running finished before this.
        let flushed = TestExpectation()
        scheduler.schedule(after: .milliseconds(10)) { flushed.fulfill() }
        #expect(await flushed.wait(timeout: .seconds(300)))
        #expect(count.withLock { $0 } == snapshot)
    }

    @Test func operatorsWorkOnADispatchScheduler() async {
        let scheduler = DispatchQueueScheduler(label: "tick.test.operators")
        let received = Locked<[Int]>([])
        let done = TestExpectation()
        let subscription = Observable<Int>.interval(.milliseconds(1), scheduler: scheduler)
            .take(5)
            .delay(.milliseconds(1), scheduler: scheduler)
            .subscribe(onNext: { value in received.withLock { $0.append(value) } }, onCompleted: { done.fulfill() })
        #expect(await done.wait(timeout: .seconds(300)))
        #expect(received.withLock { $0 } == [0, 1, 2, 3, 4])
        subscription.dispose()
    }

    @Test func mainSchedulerRunsWork() async {
        let done = TestExpectation()
        MainScheduler.instance.schedule { done.fulfill() }
        #expect(await done.wait(timeout: .seconds(300)))
    }

    @Test func currentThreadSchedulerTrampolinesNestedWork() {
        var log: [String] = []
        #expect(CurrentThreadScheduler.isScheduleRequired)
        CurrentThreadScheduler.instance.schedule {
            log.append("outer start")
            #expect(!CurrentThreadScheduler.isScheduleRequired)
            CurrentThreadScheduler.instance.schedule { log.append("inner") }
            log.append("outer end")
        }
        #expect(log == ["outer start", "outer end", "inner"])
        #expect(CurrentThreadScheduler.isScheduleRequired)
    }

    @Test func currentThreadSchedulerRunsDelayedWorkInDueOrder() {
        var log: [String] = []
        let start = CurrentThreadScheduler.instance.now
        CurrentThreadScheduler.instance.schedule {
            // Due times are read from the real clock, so a thread paused
            // between these lines (the thread sanitizer, a loaded machine)
            // moves every later line's due time on. The only inversion
            // asserted is "later", scheduled first: a pause shorter than
            // 99 ms cannot undo it. "now" comes before "sooner" so that a
            // pause can only widen the gap between them.
            CurrentThreadScheduler.instance.schedule(after: .milliseconds(100)) { log.append("later") }
            CurrentThreadScheduler.instance.schedule { log.append("now") }
            CurrentThreadScheduler.instance.schedule(after: .milliseconds(1)) { log.append("sooner") }
        }
        #expect(log == ["now", "sooner", "later"])
        #expect(CurrentThreadScheduler.instance.now - start >= .milliseconds(100))
    }

    @Test func currentThreadSchedulerPeriodicStopsWhenDisposedFromInside() {
        var count = 0
        var periodic: (any Disposable)?
        CurrentThreadScheduler.instance.schedule {
            periodic = CurrentThreadScheduler.instance.schedulePeriodic(after: .zero, period: .microseconds(100)) {
                count += 1
                if count == 3 { periodic?.dispose() }
            }
        }
        #expect(count == 3)
    }

    @Test func negativeDelaysOnRealSchedulersAreReportedAndRunAsap() async {
        TestFailureReporter.reportMisuseAsTestFailures()
        let scheduler = DispatchQueueScheduler(label: "tick.test.negative")
        let done = TestExpectation()
        withKnownIssue {
            scheduler.schedule(after: .milliseconds(-1)) { done.fulfill() }
        } matching: { issue in
            issue.comments.contains { $0.rawValue.contains("negative delay") }
        }
        #expect(await done.wait(timeout: .seconds(300)))
    }
}
