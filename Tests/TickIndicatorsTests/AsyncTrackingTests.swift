import Testing
import TickIndicators
import TickTesting

/// An explicit sync point between a test and a tracked call: the call parks
/// itself with ``park()`` (which tells the test it got there), the test
/// waits for that with ``waitUntilParked()``, and lets it go with
/// ``release()``. No sleeping, no polling: both sides await continuations.
final class Rendezvous: Sendable {
    private let parked: AsyncStream<Void>
    private let parkedContinuation: AsyncStream<Void>.Continuation
    private let waiting = Locked<CheckedContinuation<Void, Never>?>(nil)

    init() {
        (parked, parkedContinuation) = AsyncStream<Void>.makeStream()
    }

    /// Called by the tracked work: suspends until ``release()``. Ignores
    /// cancellation on purpose (work that goes on after its task was cancelled).
    func park() async {
        await withCheckedContinuation { continuation in
            waiting.withLock { $0 = continuation }
            parkedContinuation.yield()
        }
    }

    /// Returns once the work is parked (its continuation is stored).
    func waitUntilParked() async {
        var iterator = parked.makeAsyncIterator()
        _ = await iterator.next()
    }

    /// Resumes the parked work.
    func release() {
        waiting.withLock { continuation in
            continuation?.resume()
            continuation = nil
        }
    }
}

@Suite(.checksResourceLeaks) struct ActivityIndicatorAsyncTests {
    @Test func theCallIsActiveFromStartToFinish() async {
        let indicator = ActivityIndicator(defaultMessage: "default")
        let states = Locked<[IndicatorState]>([])
        let observation = indicator.subscribe(onNext: { s in states.withLock { $0.append(s) } })
        let inside = await indicator.track(message: "Saving") { indicator.state }
        #expect(inside == state(true, "Saving"))
        let insideDefault = await indicator.track { indicator.state }
        #expect(insideDefault == state(true, "default"))
        #expect(indicator.state == state(false, nil))
        #expect(states.current == [
            state(false, nil), state(true, "Saving"), state(false, nil), state(true, "default"), state(false, nil),
        ])
        observation.dispose()
    }

    @Test func aThrowingCallEndsItsActivityAndRethrows() async {
        let indicator = ActivityIndicator()
        await #expect(throws: NamedError("boom")) {
            try await indicator.track(message: "m") {
                #expect(indicator.state == state(true, "m"))
                throw NamedError("boom")
            }
        }
        #expect(indicator.state == state(false, nil))
    }

    @Test func nestedCallsKeepTheRegistrationOrderRule() async {
        let indicator = ActivityIndicator()
        let observable = PublishSubject<Int>()
        let subscription = observable.trackActivity(in: indicator, message: nil).subscribe()
        let inner = await indicator.track(message: "outer") {
            await indicator.track(message: "inner") { indicator.state }
        }
        #expect(inner == state(true, "outer"))
        #expect(indicator.state == state(true, nil))
        subscription.dispose()
        #expect(indicator.state == state(false, nil))
    }

    @Test func cancellationEndsTheActivityAtThatInstant() async {
        let indicator = ActivityIndicator()
        let states = Locked<[IndicatorState]>([])
        let observation = indicator.subscribe(onNext: { s in states.withLock { $0.append(s) } })
        let rendezvous = Rendezvous()
        let task = Task {
            await indicator.track(message: "loading") {
                await rendezvous.park()
                return "finished anyway"
            }
        }
        await rendezvous.waitUntilParked()
        #expect(indicator.state == state(true, "loading"))
        task.cancel()
        // The cancellation handler ran inside `cancel()`: already hidden,
        // while the work itself is still parked.
        #expect(indicator.state == state(false, nil))
        rendezvous.release()
        #expect(await task.value == "finished anyway")
        #expect(states.current == [state(false, nil), state(true, "loading"), state(false, nil)])
        observation.dispose()
    }

    @Test func aCallFromAnAlreadyCancelledTaskNeverShows() async {
        let indicator = ActivityIndicator()
        let states = Locked<[IndicatorState]>([])
        let observation = indicator.subscribe(onNext: { s in states.withLock { $0.append(s) } })
        let gate = Rendezvous()
        let task = Task {
            await gate.park()
            return await indicator.track(message: "late") { indicator.state }
        }
        await gate.waitUntilParked()
        task.cancel()
        gate.release()
        #expect(await task.value == state(false, nil))
        #expect(states.current == [state(false, nil)])
        observation.dispose()
    }
}

@Suite(.checksResourceLeaks) struct ErrorTrackerAsyncTests {
    @Test func aThrownErrorIsRecordedWithItsResetTimeAndRethrown() async {
        let scheduler = TestScheduler()
        let tracker = ErrorTracker(scheduler: scheduler)
        let errors = scheduler.createObserver(String.self)
        let observation = tracker.map { $0.map { "\($0)" } ?? "nil" }.subscribe(errors)
        await scheduler.advance(to: 100)
        await #expect(throws: NamedError("offline")) {
            try await tracker.track(resetAfter: .milliseconds(1000)) { () async throws -> Int in
                throw NamedError("offline")
            }
        }
        #expect("\(tracker.error.map { "\($0)" } ?? "nil")" == "offline")
        await scheduler.advance(to: 1099)
        #expect(tracker.error != nil)
        await scheduler.advance(to: 1100)
        #expect(tracker.error == nil)
        #expect(errors.events == [.next(0, "nil"), .next(100, "offline"), .next(1100, "nil")])
        observation.dispose()
    }

    @Test func aResultResetsTheTracker() async throws {
        let scheduler = TestScheduler()
        let tracker = ErrorTracker(scheduler: scheduler)
        tracker.update(with: NamedError("earlier"))
        let value = try await tracker.track { 42 }
        #expect(value == 42)
        #expect(tracker.error == nil)
    }

    @Test func orElseRecordsTheErrorAndReturnsTheFallback() async {
        let scheduler = TestScheduler()
        let tracker = ErrorTracker(scheduler: scheduler)
        let items: [Int] = await tracker.track(resetAfter: .milliseconds(500), orElse: []) {
            throw NamedError("failed")
        }
        #expect(items == [])
        #expect((tracker.error as? NamedError) == NamedError("failed"))
        await scheduler.advance(to: 500)
        #expect(tracker.error == nil)
        let user: String? = await tracker.track(orElse: nil) { "ann" }
        #expect(user == "ann")
    }

    /// Errors thrown around the reset deadline of an earlier one (the calls
    /// run after the scheduler reached the instant, so the timer ran first;
    /// the other order is decided by the same `update(with:resetAfter:)`,
    /// tested in ErrorTrackerTests).
    @Test(arguments: [(999, ["nil@0", "first@0", "second@999", "nil@1999"]),
                      (1000, ["nil@0", "first@0", "nil@1000", "second@1000", "nil@2000"]),
                      (1001, ["nil@0", "first@0", "nil@1000", "second@1001", "nil@2001"])] as [(Int, [String])])
    func anErrorThrownAroundTheResetDeadline(at time: Int, expected: [String]) async {
        let scheduler = TestScheduler()
        let tracker = ErrorTracker(scheduler: scheduler)
        let log = Locked<[String]>([])
        let observation = tracker.subscribe(onNext: { error in
            log.withLock { $0.append("\(error.map { "\($0)" } ?? "nil")@\(scheduler.clock)") }
        })
        _ = await tracker.track(resetAfter: .milliseconds(1000), orElse: ()) { throw NamedError("first") }
        await scheduler.advance(to: TestTime(time))
        _ = await tracker.track(resetAfter: .milliseconds(1000), orElse: ()) { throw NamedError("second") }
        await scheduler.advance(to: 5000)
        #expect(log.current == expected)
        observation.dispose()
    }

    @Test func cancellationIsNotRecorded() async {
        let tracker = ErrorTracker(scheduler: TestScheduler())
        await #expect(throws: CancellationError.self) {
            try await tracker.track { () async throws -> Int in throw CancellationError() }
        }
        #expect(tracker.error == nil)
        let fallback = await tracker.track(orElse: -1) { () async throws -> Int in throw CancellationError() }
        #expect(fallback == -1)
        #expect(tracker.error == nil)
    }
}

@Suite(.checksResourceLeaks) struct NetworkActivityIndicatorAsyncTests {
    @Test func theCallCountsAsARequestFromStartToFinish() async {
        let scheduler = TestScheduler()
        let manager = NetworkActivityIndicatorManager(scheduler: scheduler)  // 1 s start, 0.2 s completion
        let changes = manager.recordChanges(on: scheduler)
        let visibleInside: [Bool] = await manager.track {
            #expect(manager.activityCount == 1)
            scheduler.advance(to: 999)
            let before = manager.isNetworkActivityIndicatorVisible
            scheduler.advance(to: 1000)
            return [before, manager.isNetworkActivityIndicatorVisible]
        }
        #expect(visibleInside == [false, true])
        #expect(manager.activityCount == 0)
        await scheduler.advance(to: 1199)
        #expect(manager.isNetworkActivityIndicatorVisible)
        await scheduler.advance(to: 1200)
        #expect(!manager.isNetworkActivityIndicatorVisible)
        #expect(changes.current == [VisibilityChange(1000, true), VisibilityChange(1200, false)])
    }

    @Test func aThrowingCallStopsItsRequest() async {
        let scheduler = TestScheduler()
        let manager = NetworkActivityIndicatorManager(scheduler: scheduler)
        await #expect(throws: NamedError("timeout")) {
            try await manager.track { () async throws -> Void in
                #expect(manager.activityCount == 1)
                throw NamedError("timeout")
            }
        }
        #expect(manager.activityCount == 0)
        // Stopped inside the start delay: the spinner never shows.
        await scheduler.advance(to: 2000)
        #expect(!manager.isNetworkActivityIndicatorVisible)
    }

    @Test func cancellationStopsTheRequestAtThatInstantAndOnlyOnce() async {
        let scheduler = TestScheduler()
        let manager = NetworkActivityIndicatorManager(scheduler: scheduler)
        manager.requestDidStart(requestID: "other")
        let rendezvous = Rendezvous()
        let task = Task {
            await manager.track {
                await rendezvous.park()
                return manager.activityCount
            }
        }
        await rendezvous.waitUntilParked()
        #expect(manager.activityCount == 2)
        task.cancel()
        #expect(manager.activityCount == 1)
        rendezvous.release()
        // The work saw only "other"; finishing did not stop anything again.
        #expect(await task.value == 1)
        #expect(manager.activityCount == 1)
        // "other" alone keeps the spinner's schedule: shown at the start delay.
        await scheduler.advance(to: 1000)
        #expect(manager.isNetworkActivityIndicatorVisible)
        manager.requestDidStop(requestID: "other")
        #expect(manager.activityCount == 0)
        await scheduler.advance(to: 1200)
        #expect(!manager.isNetworkActivityIndicatorVisible)
    }

    @Test func aCallFromAnAlreadyCancelledTaskIsNeverCounted() async {
        let manager = NetworkActivityIndicatorManager(scheduler: TestScheduler())
        let gate = Rendezvous()
        let task = Task {
            await gate.park()
            return await manager.track { manager.activityCount }
        }
        await gate.waitUntilParked()
        task.cancel()
        gate.release()
        #expect(await task.value == 0)
        #expect(manager.activityCount == 0)
    }
}
