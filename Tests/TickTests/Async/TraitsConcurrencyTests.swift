import Testing
import Tick
import TickTesting

@Suite(.checksResourceLeaks) struct TraitValueTests {
    @Test func singleValueIsItsElementOrItsError() async throws {
        #expect(try await Single.just(1).value == 1)
        await #expect(throws: TestError(2)) { try await Single<Int>.error(TestError(2)).value }
    }

    @Test func maybeValueIsItsElementOrNil() async throws {
        #expect(try await Maybe.just(1).value == 1)
        #expect(try await Maybe<Int>.empty().value == nil)
        await #expect(throws: TestError(3)) { try await Maybe<Int>.error(TestError(3)).value }
    }

    @Test func completableValueCompletesOrThrows() async throws {
        try await Completable.empty().value
        await #expect(throws: TestError(4)) { try await Completable.error(TestError(4)).value }
    }

    @Test func cancellingTheAwaitingTaskDisposesAndThrowsCancellationError() async {
        let disposed = Locked(false)
        let never = Single<Int>.never().do(onDispose: { disposed.withLock { $0 = true } }, isolation: nil)
        let task = Task { try await never.value }
        task.cancel()
        let result = await task.result
        #expect(throws: CancellationError.self) { try result.get() }
        #expect(disposed.current)
    }
}

@Suite(.checksResourceLeaks) struct SingleCreateAsyncTests {
    @Test func succeedsWithWhatWorkReturns() async throws {
        let single = Single<Int>.create { 40 + 2 }
        #expect(try await single.value == 42)
        let detached = Single<Int>.create(detached: true, priority: .low) { 7 }
        #expect(try await detached.value == 7)
    }

    @Test func failsWithWhatWorkThrows() async {
        let single = Single<Int>.create { () async throws -> Int in throw TestError(5) }
        await #expect(throws: TestError(5)) { try await single.value }
    }

    @Test func disposingCancelsTheTask() async {
        let started = TestExpectation(count: 1)
        let cancelled = TestExpectation(count: 1)
        let finished = TestExpectation(count: 1)
        let single = Single<Int>.create {
            defer { finished.fulfill() }
            started.fulfill()
            _ = await withTaskCancellationHandler {
                await cancelled.wait(timeout: .seconds(300))
            } onCancel: {
                cancelled.fulfill()
            }
            return 0
        }
        let events = Locked<[SingleEvent<Int>]>([])
        let subscription = single.subscribe { event in events.withLock { $0.append(event) } }
        // The task is running `work` (the wait is for the task to get there,
        // not for the code under test).
        #expect(await started.wait(timeout: .seconds(300)))
        subscription.dispose()
        #expect(await cancelled.wait(timeout: .seconds(300)))
        #expect(await finished.wait(timeout: .seconds(300)))
        #expect(events.current.isEmpty)
    }
}

@Suite(.checksResourceLeaks) struct InfallibleValuesTests {
    @Test func infallibleValuesDoNotThrow() async {
        var collected: [Int] = []
        for await value in Infallible.of(1, 2, 3).values { collected.append(value) }
        #expect(collected == [1, 2, 3])
    }

    @Test func driverAndSignalValuesDoNotThrow() async {
        let scheduler = CurrentThreadScheduler.instance
        let driver = SharingScheduler.mock(scheduler: scheduler) { Driver.of(1, 2) }
        var collected: [Int] = []
        for await value in driver.values { collected.append(value) }
        #expect(collected == [1, 2])
        let signal = SharingScheduler.mock(scheduler: scheduler) { Signal.just(3) }
        var signalled: [Int] = []
        for await value in signal.values { signalled.append(value) }
        #expect(signalled == [3])
    }
}

@Suite(.checksResourceLeaks) struct AsyncSequenceAsObservableTests {
    @Test func sendsTheElementsThenCompletes() async throws {
        let (stream, continuation) = AsyncStream<Int>.makeStream()
        for value in 1...3 { continuation.yield(value) }
        continuation.finish()
        var collected: [Int] = []
        for try await value in stream.asObservable().values { collected.append(value) }
        #expect(collected == [1, 2, 3])
    }

    @Test func sendsTheErrorTheIterationThrows() async {
        let (stream, continuation) = AsyncThrowingStream<Int, any Error>.makeStream()
        continuation.yield(1)
        continuation.finish(throwing: TestError(6))
        var collected: [Int] = []
        await #expect(throws: TestError(6)) {
            for try await value in stream.asObservable(priority: .high).values { collected.append(value) }
        }
        #expect(collected == [1])
    }

    @Test func aCancellationErrorCompletes() async throws {
        let (stream, continuation) = AsyncThrowingStream<Int, any Error>.makeStream()
        continuation.finish(throwing: CancellationError())
        var collected: [Int] = []
        for try await value in stream.asObservable().values { collected.append(value) }
        #expect(collected.isEmpty)
    }
}
