import Dispatch
import Testing
import Tick
import TickTesting

/// What an async `advance` waits for: every kind of async work the code under
/// test can start reaches its next suspension point before the test looks,
/// checked at each deadline and one frame either side.
@Suite(.checksResourceLeaks) struct AsyncQuiescenceTests {
    @Test func asyncLetChildTasksSleepOnTheSchedulersHeap() async {
        let scheduler = TestScheduler()
        let clock = scheduler.virtualClock
        let timeline = Timeline(scheduler)
        let parent = Task {
            async let a: Void = nap(10, "a", on: clock, timeline)
            async let b: Void = nap(20, "b", on: clock, timeline)
            _ = await (a, b)
            timeline.record("both")
        }
        await scheduler.advance(by: 0)
        #expect(scheduler.pendingCount == 2)
        await scheduler.advance(to: 9)
        #expect(timeline.entries == [])
        await scheduler.advance(to: 10)
        #expect(timeline.entries == ["a@10"])
        await scheduler.advance(to: 19)
        #expect(timeline.entries == ["a@10"])
        await scheduler.advance(to: 20)
        #expect(timeline.entries == ["a@10", "b@20", "both@20"])
        await parent.value
        #expect(scheduler.pendingCount == 0)
    }

    /// Entering or leaving a nonisolated async function that does not
    /// suspend is no suspension point: no other driven task runs in between,
    /// as on the runtime's own executors (under the driver's task executor
    /// the task switches executors there, and goes on at once).
    @Test func callsIntoNonisolatedAsyncFunctionsLetNoOtherTaskIn() async {
        let scheduler = TestScheduler()
        let timeline = Timeline(scheduler)
        let tasks = ["a", "b"].map { label in
            Task {
                timeline.record("\(label) start")
                await passThrough(label, timeline)
                timeline.record("\(label) end")
            }
        }
        await scheduler.run()
        for task in tasks { await task.value }
        #expect(timeline.entries == ["a start@0", "a inside@0", "a end@0", "b start@0", "b inside@0", "b end@0"])
    }

    @Test func taskGroupChildrenWakeInDeadlineOrder() async {
        let scheduler = TestScheduler()
        let clock = scheduler.virtualClock
        let timeline = Timeline(scheduler)
        let parent = Task {
            let order = await withTaskGroup(of: Int.self, returning: [Int].self) { group in
                for milliseconds in [30, 10, 20] {
                    group.addTask {
                        await nap(milliseconds, "child \(milliseconds)", on: clock, timeline)
                        return milliseconds
                    }
                }
                var order: [Int] = []
                for await milliseconds in group { order.append(milliseconds) }
                return order
            }
            timeline.record("group \(order)")
        }
        await scheduler.advance(to: 9)
        #expect(scheduler.pendingCount == 3)
        #expect(timeline.entries == [])
        await scheduler.advance(to: 10)
        #expect(timeline.entries == ["child 10@10"])
        await scheduler.advance(to: 29)
        #expect(timeline.entries == ["child 10@10", "child 20@20"])
        await scheduler.advance(to: 30)
        #expect(timeline.entries == ["child 10@10", "child 20@20", "child 30@30", "group [10, 20, 30]@30"])
        await scheduler.advance(to: 31)
        #expect(timeline.entries.count == 4)
        await parent.value
    }

    @Test func cancellingAGroupCancelsEverySleepAtOnce() async {
        let scheduler = TestScheduler()
        let clock = scheduler.virtualClock
        let timeline = Timeline(scheduler)
        let parent = Task {
            await withTaskGroup(of: Void.self) { group in
                for label in ["x", "y", "z"] {
                    group.addTask { await nap(100, label, on: clock, timeline) }
                }
            }
            timeline.record("group done")
        }
        await scheduler.advance(to: 50)
        #expect(scheduler.pendingCount == 3)
        parent.cancel()
        // Cancellation reaches the children and removes their entries at once.
        #expect(scheduler.pendingCount == 0)
        await parent.value
        #expect(timeline.entries.sorted() == ["group done@50", "x cancelled@50", "y cancelled@50", "z cancelled@50"])
        await scheduler.advance(to: 100)
        #expect(timeline.entries.count == 4)
    }

    @Test func nestedTasksThatStartTasksAreAllDriven() async {
        let scheduler = TestScheduler()
        let clock = scheduler.virtualClock
        let timeline = Timeline(scheduler)
        Task {
            await nap(10, "outer", on: clock, timeline)
            Task {
                await nap(10, "middle", on: clock, timeline)
                Task.detached {
                    await nap(10, "inner (detached)", on: clock, timeline)
                }
            }
        }
        for (time, expected) in [(9, 0), (10, 1), (11, 1), (19, 1), (20, 2), (29, 2), (30, 3), (31, 3)] {
            await scheduler.advance(to: TestTime(time))
            #expect(timeline.entries.count == expected, "at \(time)")
        }
        #expect(timeline.entries == ["outer@10", "middle@20", "inner (detached)@30"])
        #expect(scheduler.pendingCount == 0)
    }

    actor Ticker {
        private let clock: TestScheduler.VirtualClock
        private(set) var ticks: [String] = []

        init(clock: TestScheduler.VirtualClock) { self.clock = clock }

        func run(times: Int) async {
            for tick in 1...times {
                try? await clock.sleep(for: .milliseconds(10))
                ticks.append("\(tick)@\(clock.scheduler.clock)")
            }
        }
    }

    @Test func aDefaultActorSleepingOnTheClockIsDriven() async {
        let scheduler = TestScheduler()
        let ticker = Ticker(clock: scheduler.virtualClock)
        let task = Task { await ticker.run(times: 3) }
        await scheduler.advance(to: 9)
        #expect(await ticker.ticks.isEmpty)
        await scheduler.advance(to: 10)
        #expect(await ticker.ticks.count == 1)
        await scheduler.advance(to: 29)
        #expect(await ticker.ticks.count == 2)
        await scheduler.advance(to: 30)
        #expect(await ticker.ticks.count == 3)
        await task.value
        #expect(await ticker.ticks == ["1@10", "2@20", "3@30"])
    }

    @MainActor final class Spinner {
        private let clock: any Clock<Duration>
        private(set) var isVisible = false
        private(set) var log: [String] = []

        init(clock: any Clock<Duration>) { self.clock = clock }

        /// Shows the spinner 100 ms after `start`, then hides it 50 ms later
        /// from a task the first task starts.
        func start() {
            Task {
                try? await clock.sleep(for: .milliseconds(100))
                isVisible = true
                Task {
                    try? await clock.sleep(for: .milliseconds(50))
                    isVisible = false
                    log.append("hidden")
                }
            }
        }
    }

    @Test @MainActor func aMainActorModelWithNestedMainActorTasks() async {
        let scheduler = TestScheduler()
        let spinner = Spinner(clock: scheduler.virtualClock)
        spinner.start()
        await scheduler.advance(to: 99)
        #expect(!spinner.isVisible)
        await scheduler.advance(to: 100)
        #expect(spinner.isVisible)
        await scheduler.advance(to: 101)
        #expect(spinner.isVisible)
        await scheduler.advance(to: 149)
        #expect(spinner.isVisible)
        await scheduler.advance(to: 150)
        #expect(!spinner.isVisible)
        #expect(spinner.log == ["hidden"])
        #expect(scheduler.pendingCount == 0)
    }

    @Test func anAsyncStreamTimerAndItsForAwaitLoop() async {
        let scheduler = TestScheduler()
        let clock = scheduler.virtualClock
        let timeline = Timeline(scheduler)
        let stream = AsyncStream<Int> { continuation in
            let producer = Task {
                for tick in 1...3 {
                    try await clock.sleep(for: .milliseconds(10))
                    continuation.yield(tick)
                }
                continuation.finish()
            }
            continuation.onTermination = { _ in producer.cancel() }
        }
        let consumer = Task {
            for await tick in stream { timeline.record("\(tick)") }
            timeline.record("end")
        }
        await scheduler.advance(to: 9)
        #expect(timeline.entries == [])
        await scheduler.advance(to: 10)
        #expect(timeline.entries == ["1@10"])
        await scheduler.advance(to: 11)
        #expect(timeline.entries == ["1@10"])
        await scheduler.advance(to: 29)
        #expect(timeline.entries == ["1@10", "2@20"])
        await scheduler.advance(to: 30)
        #expect(timeline.entries == ["1@10", "2@20", "3@30", "end@30"])
        await consumer.value
    }

    @Test func anAsyncThrowingStreamFedByScheduledActions() async {
        let scheduler = TestScheduler()
        let timeline = Timeline(scheduler)
        let (stream, continuation) = AsyncThrowingStream<Int, any Error>.makeStream()
        let consumer = Task {
            do {
                for try await value in stream { timeline.record("\(value)") }
                timeline.record("end")
            } catch {
                timeline.record("\(error)")
            }
        }
        _ = scheduler.scheduleAt(10) { continuation.yield(1) }
        _ = scheduler.scheduleAt(20) { continuation.finish(throwing: TestError(7)) }
        await scheduler.advance(to: 10)
        #expect(timeline.entries == ["1@10"])
        await scheduler.advance(to: 19)
        #expect(timeline.entries == ["1@10"])
        await scheduler.advance(to: 20)
        #expect(timeline.entries == ["1@10", "TestError(7)@20"])
        await consumer.value
    }

    @Test func anObservableTimerFeedsAnAsyncConsumerThatFeedsRxBack() async {
        let scheduler = TestScheduler()
        let timeline = Timeline(scheduler)
        let echoes = PublishSubject<String>()
        let subscription = echoes.delay(.milliseconds(5), scheduler: scheduler)
            .subscribe(onNext: { timeline.record($0) })
        let back = Unchecked(value: echoes)
        let consumer = Task {
            let ticks = Observable<Int>.interval(.milliseconds(10), scheduler: scheduler).take(3)
            for try await tick in ticks.values {
                timeline.record("async got \(tick)")
                back.value.onNext("rx echo \(tick)")
            }
            timeline.record("async done")
        }
        await scheduler.advance(to: 10)
        #expect(timeline.entries == ["async got 0@10"])
        await scheduler.advance(to: 14)
        #expect(timeline.entries == ["async got 0@10"])
        await scheduler.advance(to: 15)
        #expect(timeline.entries == ["async got 0@10", "rx echo 0@15"])
        await scheduler.run()
        #expect(timeline.entries == [
            "async got 0@10", "rx echo 0@15", "async got 1@20", "rx echo 1@25",
            "async got 2@30", "async done@30", "rx echo 2@35",
        ])
        _ = await consumer.result
        subscription.dispose()
    }

    @Test(arguments: [true, false])
    func anRxTimerAndAnAsyncSleepDueTogetherRunInSchedulingOrder(rxFirst: Bool) async {
        let scheduler = TestScheduler()
        let clock = scheduler.virtualClock
        let timeline = Timeline(scheduler)
        var subscription: (any Disposable)?
        func subscribeTimer() {
            subscription = Observable<Int>.timer(.milliseconds(10), scheduler: scheduler)
                .subscribe(onNext: { _ in timeline.record("rx") })
        }
        if rxFirst { subscribeTimer() }
        let task = Task { await nap(10, "async", on: clock, timeline) }
        await scheduler.advance(by: 0)
        if !rxFirst { subscribeTimer() }
        await scheduler.advance(to: 9)
        #expect(timeline.entries == [])
        await scheduler.advance(to: 10)
        #expect(timeline.entries == (rxFirst ? ["rx@10", "async@10"] : ["async@10", "rx@10"]))
        await task.value
        subscription?.dispose()
    }

    /// A TestScheduler created by a task that another scheduler drives (as
    /// when the test runner's own work ended up inside a scheduler's job, with
    /// tests running in parallel) drives the work of that task, not the other
    /// scheduler: its root comes first.
    @Test func aSchedulerCreatedInsideAnotherSchedulersWorkDrivesItsOwnTasks() async {
        let outer = TestScheduler()
        _ = outer.virtualClock
        let inner = Task { () -> [String] in
            let scheduler = TestScheduler()
            let clock = scheduler.virtualClock
            let timeline = Timeline(scheduler)
            let sleeper = Task {
                try? await clock.sleep(for: .milliseconds(10))
                timeline.record("woke")
            }
            await scheduler.advance(by: .milliseconds(9))
            timeline.record("checked")
            await scheduler.advance(by: .milliseconds(1))
            await sleeper.value
            return timeline.entries
        }
        // Runs the inner task's first job inside the outer scheduler's driver.
        await outer.advance(by: 0)
        #expect(await inner.value == ["checked@9", "woke@10"])
    }

    /// Work that a scheduler was holding (its root had not waited yet) when
    /// the scheduler went away still runs: it goes to the runtime.
    @Test func workHeldWhenTheSchedulerGoesAwayStillRuns() async {
        let task: Task<Int, Never>
        do {
            let scheduler = TestScheduler()
            task = Task { 42 }
            #expect(scheduler.clock == 0)
        }
        // Before the fix, the held job was dropped with the scheduler and
        // this await never returned.
        #expect(await task.value == 42)
    }

    @Test func aSleepFromATaskTheSchedulerDoesNotDriveIsReported() async {
        let scheduler = TestScheduler()
        let clock = scheduler.virtualClock
        await withKnownIssue {
            // A task on its own executor runs outside the scheduler's control.
            let escaped = Task(executorPreference: QueueExecutor()) {
                try? await clock.sleep(for: .zero)
            }
            await escaped.value
        } matching: { issue in
            issue.comments.contains { $0.rawValue.contains("outside the scheduler's control") }
        }
    }
}

/// A task executor that runs its jobs on a dispatch queue of its own: work on
/// it is invisible to the TestScheduler.
final class QueueExecutor: TaskExecutor {
    private let queue = DispatchQueue(label: "TickTestingTests.QueueExecutor")

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        queue.async { job.runSynchronously(on: self.asUnownedTaskExecutor()) }
    }
}

/// A nonisolated async function that never suspends (`@concurrent`: it runs
/// on the generic executor whatever its caller's isolation).
@concurrent @inline(never) private func passThrough(_ label: String, _ timeline: Timeline) async {
    timeline.record("\(label) inside")
}
