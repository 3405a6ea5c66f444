import Observation
import Testing
import Tick
import TickTesting

@MainActor @Observable final class ObservedMainCounter {
    var value = 0
}

/// Code under test that iterates Swift's `Observations` and logs each value
/// it gets with the virtual time.
@MainActor final class ObservationsLogger {
    private(set) var log: [String] = []
    private var task: Task<Void, Never>?

    @available(macOS 26.0, iOS 26.0, tvOS 26.0, watchOS 26.0, visionOS 26.0, *)
    func start(_ model: ObservedMainCounter, scheduler: TestScheduler) {
        task = Task {
            for await value in Observations({ model.value }) {
                log.append("\(value) @ \(scheduler.clock)")
            }
        }
    }

    func stop() { task?.cancel() }
}

/// Swift's `Observations` async sequence (Swift 6.2), iterated by code
/// under test, is driven by the scheduler like any other async work, and
/// its transactions are what one piece of synchronous work changes.
/// (`Observations` needs macOS 26 and the like on Apple platforms: each test
/// checks, as `@Test` cannot be marked `@available`.)
@Suite(.checksResourceLeaks) struct ObservationsTimelineTests {
    @Test @MainActor func eachChangeArrivesAtItsVirtualTime() async {
        guard #available(macOS 26.0, iOS 26.0, tvOS 26.0, watchOS 26.0, visionOS 26.0, *) else { return }
        let scheduler = TestScheduler()
        let model = ObservedMainCounter()
        scheduler.expect(Observations { model.value }).toBe("0-1--2", values: ["0": 0, "1": 1, "2": 2])
        scheduler.scheduleAt(2) { model.value = 1 }
        scheduler.scheduleAt(5) { model.value = 2 }
        await scheduler.run()
    }

    /// One action (one synchronous piece of work) is one transaction: only
    /// its last value arrives. A flicker within it arrives as a repeat of
    /// the value it came back to; the recording of the property sees both
    /// changes.
    @Test @MainActor func changesInOneActionCoalesce() async {
        guard #available(macOS 26.0, iOS 26.0, tvOS 26.0, watchOS 26.0, visionOS 26.0, *) else { return }
        let scheduler = TestScheduler()
        let model = ObservedMainCounter()
        scheduler.expect(Observations { model.value }).toBe("0-3----3", values: ["0": 0, "3": 3])
        scheduler.expect(model, \.value).toBe("0-(123)(43)", values: ["0": 0, "1": 1, "2": 2, "3": 3, "4": 4])
        scheduler.scheduleAt(2) {
            model.value = 1
            model.value = 2
            model.value = 3
        }
        scheduler.scheduleAt(7) {
            model.value = 4
            model.value = 3
        }
        await scheduler.run()
    }

    /// Two actions at one virtual time are two transactions: the scheduler
    /// lets async work run until it waits after each entry it runs, so the
    /// iteration takes the first value before the second action runs.
    @Test @MainActor func twoActionsAtOneTimeAreTwoTransactions() async {
        guard #available(macOS 26.0, iOS 26.0, tvOS 26.0, watchOS 26.0, visionOS 26.0, *) else { return }
        let scheduler = TestScheduler()
        let model = ObservedMainCounter()
        scheduler.expect(Observations { model.value }).toBe("0-(12)", values: ["0": 0, "1": 1, "2": 2])
        scheduler.scheduleAt(2) { model.value = 1 }
        scheduler.scheduleAt(2) { model.value = 2 }
        await scheduler.run()
    }

    @Test @MainActor func codeUnderTestIteratingObservationsIsDriven() async {
        guard #available(macOS 26.0, iOS 26.0, tvOS 26.0, watchOS 26.0, visionOS 26.0, *) else { return }
        let scheduler = TestScheduler(frame: .milliseconds(100))
        let clock = scheduler.virtualClock
        let model = ObservedMainCounter()
        let logger = ObservationsLogger()
        logger.start(model, scheduler: scheduler)
        let writer = Task {
            for value in 1...3 {
                try await clock.sleep(for: .milliseconds(250))
                model.value = value
            }
        }
        await scheduler.run()
        #expect(logger.log == ["0 @ 0", "1 @ 2+50ms", "2 @ 5", "3 @ 7+50ms"])
        logger.stop()
        writer.cancel()
        await scheduler.run()
    }
}
