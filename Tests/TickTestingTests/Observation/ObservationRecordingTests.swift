import Foundation
import Observation
import Testing
import Tick
import TickTesting

// Models of the tests. File scope: `@Observable` adds an extension, which a
// local type cannot have.

@Observable final class ObservedCounter {
    var value = 0
    var flag = false
    var label = "a"
}

/// A value that is not `Equatable`: every change of it is an event.
struct NotEquatableBox: CustomStringConvertible {
    let number: Int
    var description: String { "NotEquatableBox(\(number))" }
}

@Observable final class ObservedBoxHolder {
    var box = NotEquatableBox(number: 0)
}

/// A main-actor model driven by async code on the virtual clock: a
/// 300 ms debounced search whose spinner shows while the request runs.
@MainActor @Observable final class ObservedSpinnerModel {
    private(set) var isLoading = false
    private(set) var results: [String] = []
    @ObservationIgnored private let clock: any Clock<Duration>
    @ObservationIgnored private var task: Task<Void, Never>?

    init(clock: any Clock<Duration>) { self.clock = clock }

    func type(_ query: String) {
        task?.cancel()
        task = Task {
            do {
                try await clock.sleep(for: .milliseconds(300))
                isLoading = true
                try await clock.sleep(for: .milliseconds(200))
                results = [query]
                isLoading = false
            } catch {
                isLoading = false
            }
        }
    }
}

/// A model whose properties Tick's observables set.
@Observable final class ObservedFedByObservable {
    var latest = ""
}

/// A main-actor recording of a nonisolated model that a detached task
/// changes. @unchecked Sendable: only the test's detached task writes it,
/// after the test's last read and before its next (the test awaits it).
@Observable final class ObservedSharedCounter: @unchecked Sendable {
    var value = 0
}

/// Whether this code runs where main-actor code runs: the main queue (set up
/// here with a key of the tests' own, independently of TickTesting's) or the
/// main thread. Unlike `MainActor.assumeIsolated`, it does not trap.
func onMainActor() -> Bool {
    Thread.isMainThread || DispatchQueue.getSpecific(key: mainQueueKey) == true
}

private let mainQueueKey: DispatchSpecificKey<Bool> = {
    let key = DispatchSpecificKey<Bool>()
    DispatchQueue.main.setSpecific(key: key, value: true)
    return key
}()

/// Records from the isolation of an actor other than the main actor, which
/// Tick cannot check without trapping.
actor OtherActorRecording {
    func record(_ model: ObservedSharedCounter, on scheduler: TestScheduler) -> [Int] {
        let recorder = scheduler.record(observing: { model.value })
        model.value = 1
        return recorder.values
    }
}

@Suite(.checksResourceLeaks) struct ObservationRecordingTests {
    private func failures(_ body: () -> Void) -> [TestFailure] {
        let captured = Locked<[TestFailure]>([])
        TestFailureReporter.withHandler({ failure in captured.withLock { $0.append(failure) } }, operation: body)
        return captured.withLock { $0 }
    }

    // MARK: Every change, at its time

    @Test func everyChangeIsRecordedAtItsVirtualTime() {
        let scheduler = TestScheduler()
        let model = ObservedCounter()
        let recorder = scheduler.record(model, \.value)
        scheduler.scheduleAt(5) { model.value = 1 }
        scheduler.scheduleAt(9) { model.value = 2 }
        scheduler.scheduleAt(12) { model.value = 7 }
        scheduler.run()
        #expect(recorder.events == [.next(0, 0), .next(5, 1), .next(9, 2), .next(12, 7)])
        #expect(recorder.values == [0, 1, 2, 7])
    }

    @Test func recordingStartsAtTheSchedulersCurrentTimeWithTheCurrentValue() {
        let scheduler = TestScheduler()
        let model = ObservedCounter()
        model.value = 3
        scheduler.advance(to: 40)
        let recorder = scheduler.record(model, \.value)
        scheduler.scheduleAt(41) { model.value = 4 }
        scheduler.run()
        #expect(recorder.events == [.next(40, 3), .next(41, 4)])
    }

    @Test func aChangeMadeByTheTestBetweenAdvancesHasTheClocksTime() {
        let scheduler = TestScheduler()
        let model = ObservedCounter()
        let recorder = scheduler.record(model, \.value)
        scheduler.advance(to: 7)
        model.value = 1
        #expect(recorder.events == [.next(0, 0), .next(7, 1)])
    }

    // MARK: Same instant

    @Test func aFlickerWithinOneActionIsTwoEventsAtOneTime() {
        let scheduler = TestScheduler()
        let model = ObservedCounter()
        let recorder = scheduler.record(model, \.flag)
        var readsAfterEachAdvance: [Bool] = []
        scheduler.scheduleAt(5) {
            model.flag = true
            model.flag = false
        }
        for time in [4, 5, 6] as [TestTime] {
            scheduler.advance(to: time)
            readsAfterEachAdvance.append(model.flag)
        }
        // Reading after each advance sees nothing...
        #expect(readsAfterEachAdvance == [false, false, false])
        // ...the recording sees both changes, in order, at 5.
        #expect(recorder.events == [.next(0, false), .next(5, true), .next(5, false)])
    }

    @Test func aFlickerAcrossTwoActionsAtOneTimeIsTwoEvents() {
        let scheduler = TestScheduler()
        let model = ObservedCounter()
        scheduler.expect(model, \.value).toBe("0-(12)-3", values: ["0": 0, "1": 1, "2": 2, "3": 3])
        scheduler.scheduleAt(2) { model.value = 1 }
        scheduler.scheduleAt(2) { model.value = 2 }
        scheduler.scheduleAt(7) { model.value = 3 }
        scheduler.run()
    }

    @Test func manyChangesInOneInstantAreAllRecordedInOrder() {
        let scheduler = TestScheduler()
        let model = ObservedCounter()
        let recorder = scheduler.record(model, \.value)
        scheduler.scheduleAt(3) {
            for value in 1...50 { model.value = value }
        }
        scheduler.run()
        #expect(recorder.values == Array(0...50))
        #expect(recorder.events.dropFirst().allSatisfy { $0.time == 3 })
    }

    // MARK: Equal values

    @Test func aComputedValueIsRecordedOnlyWhenItChanges() {
        let scheduler = TestScheduler()
        let model = ObservedCounter()
        // Both properties read every time (no `||` short-circuit): the
        // properties tracked for the next change are those read before it.
        let recorder = scheduler.record(observing: {
            let (value, flag) = (model.value, model.flag)
            return value > 0 || flag
        })
        scheduler.scheduleAt(1) { model.value = 1 }  // true
        scheduler.scheduleAt(2) { model.flag = true }  // still true: no event
        scheduler.scheduleAt(3) { model.value = 0 }  // still true (flag): no event
        scheduler.scheduleAt(4) { model.flag = false }  // false
        scheduler.scheduleAt(5) { model.label = "b" }  // not read: not tracked
        scheduler.run()
        #expect(recorder.events == [.next(0, false), .next(1, true), .next(4, false)])
    }

    @Test func valuesThatAreNotEquatableRecordEveryChange() {
        let scheduler = TestScheduler()
        let model = ObservedBoxHolder()
        let recorder = scheduler.record(model, \.box)
        scheduler.scheduleAt(1) { model.box = NotEquatableBox(number: 1) }
        scheduler.scheduleAt(2) { model.box = NotEquatableBox(number: 1) }
        scheduler.run()
        #expect(recorder.events.map(\.time) == [0, 1, 2])
        #expect(recorder.values.map(\.number) == [0, 1, 1])
    }

    // MARK: Marble assertions

    @Test func marbleAssertionOnAProperty() {
        let scheduler = TestScheduler()
        let model = ObservedCounter()
        scheduler.expect(model, \.label).toBe("a--b-(cd)")
        scheduler.scheduleAt(3) { model.label = "b" }
        scheduler.scheduleAt(5) {
            model.label = "c"
            model.label = "d"
        }
        scheduler.run()
    }

    @Test func aMismatchFailsAtTheToBeLineWithTheDiff() {
        let line = #line + 5
        let failures = failures {
            let scheduler = TestScheduler()
            let model = ObservedCounter()
            scheduler.scheduleAt(4) { model.flag = true }
            scheduler.expect(model, \.flag).toBe("f--t", values: ["f": false, "t": true])
            scheduler.run()
        }
        #expect(failures.count == 1)
        #expect(failures.first?.site.line == UInt(line))
        #expect(failures.first?.title == "marble mismatch at frame 3")
        #expect(failures.first?.message.contains("expected: f--t\nactual:   f---t") == true)
    }

    @Test func theExpectationsResultHoldsTheRecordedTimeline() {
        let scheduler = TestScheduler()
        let model = ObservedCounter()
        let result = scheduler.expect(model, \.value).toBe("0-1", values: ["0": 0, "1": 1])
        scheduler.scheduleAt(2) { model.value = 1 }
        scheduler.run()
        #expect(result.passed)
        #expect(result.recorded == [.next(0, 0), .next(2, 1)])
    }

    @Test func aPropertyFedByTicksObservables() {
        let scheduler = TestScheduler()
        let model = ObservedFedByObservable()
        let source = scheduler.hot("-a--b-(cd)|")
        let subscription = source.subscribe(onNext: { model.latest = $0 })
        scheduler.expect(model, \.latest).toBe("xa--b-(cd)", values: ["x": "", "a": "a", "b": "b", "c": "c", "d": "d"])
        scheduler.run()
        subscription.dispose()
    }

    // MARK: Main actor, async code

    @Test @MainActor func aMainActorModelDrivenByAsyncCodeOnTheVirtualClock() async {
        let scheduler = TestScheduler(frame: .milliseconds(100))
        let model = ObservedSpinnerModel(clock: scheduler.virtualClock)
        scheduler.expect(model, \.isLoading).toBe("f--t-f", values: ["f": false, "t": true])
        model.type("sw")
        await scheduler.run()
        #expect(model.results == ["sw"])
    }

    @Test @MainActor func everyReadOfAMainActorRecordingIsOnTheMainThread() async {
        let scheduler = TestScheduler(frame: .milliseconds(100))
        let model = ObservedSpinnerModel(clock: scheduler.virtualClock)
        let reads = Locked<(main: Int, other: Int)>((0, 0))
        let recorder = scheduler.record(observing: {
            reads.withLock { onMainActor() ? ($0.main += 1) : ($0.other += 1) }
            return model.isLoading
        })
        model.type("s")
        await scheduler.advance(by: .milliseconds(100))
        model.type("sw")
        await scheduler.run()
        #expect(recorder.values == [false, true, false])
        let counted = reads.withLock { $0 }
        #expect(counted.other == 0)
        // The first read, one per change (2) and one for the newest change.
        #expect(counted.main == 4)
    }

    @Test @MainActor func aChangeOffTheMainActorIsReportedAndNotRead() async {
        let scheduler = TestScheduler()
        let model = ObservedSharedCounter()
        let offMain = Locked(0)
        let recorder = scheduler.record(observing: {
            if !onMainActor() { offMain.withLock { $0 += 1 } }
            return model.value
        })
        model.value = 1
        await Task.detached { model.value = 2 }.value
        let failures = failures { _ = recorder.events }
        #expect(offMain.withLock { $0 } == 0)
        // The timeline ends at the last change read on the main actor: the
        // change to 1 was still pending (its value is read at the next
        // change), and that next change came off the main actor.
        #expect(recorder.values == [0])
        #expect(failures.count == 1)
        #expect(failures.first?.message.contains("changed off the main actor") == true)
    }

    @Test func recordingFromAnotherActorIsReportedAsUnsupported() async {
        let scheduler = TestScheduler()
        let values = Locked<[Int]>([])
        await withKnownIssue {
            let recorded = await OtherActorRecording().record(ObservedSharedCounter(), on: scheduler)
            values.withLock { $0 = recorded }
        } matching: { issue in
            issue.comments.contains { $0.rawValue.contains("actor other than the main actor is not supported") }
        }
        // Only the first value: nothing is read in that actor's isolation.
        #expect(values.withLock { $0 } == [0])
    }

    // MARK: Lifetime

    @Test func aStoppedRecordingRecordsNothingMore() {
        let scheduler = TestScheduler()
        let model = ObservedCounter()
        let recorder = scheduler.record(model, \.value)
        model.value = 1
        recorder.stop()
        model.value = 2
        model.value = 3
        #expect(recorder.values == [0, 1])
    }

    @Test func neitherTheModelNorTheSchedulerKeepsARecordingAlive() {
        let model = ObservedCounter()
        weak var released: ObservationRecorder<Int>?
        weak var releasedScheduler: TestScheduler?
        do {
            let scheduler = TestScheduler()
            releasedScheduler = scheduler
            let recorder = scheduler.record(model, \.value)
            released = recorder
            model.value = 1
            #expect(recorder.values == [0, 1])
        }
        #expect(released == nil)
        #expect(releasedScheduler == nil)
        // The model's registrar still holds the weak registration until this
        // change, which then does nothing.
        model.value = 2
        #expect(model.value == 2)
    }

    @Test func anExpectationsRecordingStopsWhenItIsChecked() {
        let scheduler = TestScheduler()
        let model = ObservedCounter()
        let result = scheduler.expect(model, \.value).toBe("0-1", values: ["0": 0, "1": 1])
        scheduler.scheduleAt(2) { model.value = 1 }
        scheduler.run()
        // Changes after the check are not recorded, and nothing is pending.
        model.value = 5
        #expect(result.recorded == [.next(0, 0), .next(2, 1)])
        #expect(scheduler.pendingCount == 0)
    }
}
