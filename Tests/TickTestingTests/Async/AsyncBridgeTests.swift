import Testing
import Tick
import TickTesting

/// The bridges between Observables and async code, on a TestScheduler: events
/// keep their exact virtual time both ways; cancellation and disposal.
@Suite(.checksResourceLeaks) struct AsyncBridgeTests {
    @Test func valuesEndsOnCompletionAndThrowsTheError() async {
        let scheduler = TestScheduler()
        let timeline = Timeline(scheduler)
        let consumer = Task {
            let source = Observable<Int>.timer(.milliseconds(10), scheduler: scheduler)
                .concat(Observable<Int>.error(TestError(3)))
            do {
                for try await value in source.values { timeline.record("\(value)") }
                timeline.record("end")
            } catch {
                timeline.record("\(error)")
            }
        }
        await scheduler.advance(to: 9)
        #expect(timeline.entries == [])
        await scheduler.advance(to: 10)
        #expect(timeline.entries == ["0@10", "TestError(3)@10"])
        await consumer.value
    }

    @Test func cancellingTheConsumerDisposesTheSubscriptionAtThatInstant() async {
        let scheduler = TestScheduler()
        let subject = PublishSubject<Int>()
        let source = Unchecked(value: subject.asObservable())
        let received = Locked<[Int]>([])
        let consumer = Task {
            for try await value in source.value.values { received.withLock { $0.append(value) } }
        }
        await scheduler.advance(by: 0)
        #expect(subject.hasObservers)
        _ = scheduler.scheduleAt(5) { subject.onNext(1) }
        await scheduler.advance(to: 5)
        #expect(received.withLock { $0 } == [1])
        consumer.cancel()
        await scheduler.advance(to: 6)
        #expect(!subject.hasObservers)
        subject.onNext(2)
        _ = await consumer.result
        #expect(received.withLock { $0 } == [1])
    }

    @Test func stoppingTheLoopEarlyDisposesTheSubscription() async {
        let scheduler = TestScheduler()
        let subject = PublishSubject<Int>()
        let source = Unchecked(value: subject.asObservable())
        let consumer = Task {
            for try await value in source.value.values where value == 2 { break }
        }
        _ = scheduler.scheduleAt(1) { subject.onNext(1) }
        _ = scheduler.scheduleAt(2) { subject.onNext(2) }
        await scheduler.advance(to: 1)
        #expect(subject.hasObservers)
        await scheduler.advance(to: 2)
        #expect(!subject.hasObservers)
        _ = await consumer.result
    }

    @Test func anObservableFromAnAsyncSequenceKeepsTheVirtualTimes() async {
        let scheduler = TestScheduler()
        let clock = scheduler.virtualClock
        let sequence = AsyncStream<String> { continuation in
            let producer = Task {
                try await clock.sleep(for: .milliseconds(10))
                continuation.yield("a")
                try await clock.sleep(for: .milliseconds(5))
                continuation.yield("b")
                continuation.finish()
            }
            continuation.onTermination = { _ in producer.cancel() }
        }
        let recorder = scheduler.createObserver(String.self)
        let subscription = Observable.from(sequence).subscribe(recorder)
        await scheduler.advance(to: 9)
        #expect(recorder.events.isEmpty)
        await scheduler.advance(to: 10)
        #expect(recorder.events.map(\.description) == ["next(a) @ 10"])
        await scheduler.advance(to: 15)
        #expect(recorder.events.map(\.description) == ["next(a) @ 10", "next(b) @ 15", "completed @ 15"])
        subscription.dispose()
    }

    @Test func disposingAnObservableFromAnAsyncClosureCancelsItsTask() async {
        let scheduler = TestScheduler()
        let clock = scheduler.virtualClock
        let recorder = scheduler.createObserver(Int.self)
        let value = Observable<Int>.fromAsync {
            try await clock.sleep(for: .milliseconds(10))
            return 42
        }
        let first = value.subscribe(recorder)
        await scheduler.advance(to: 10)
        #expect(recorder.events.map(\.description) == ["next(42) @ 10", "completed @ 10"])
        first.dispose()

        let second = value.subscribe(recorder)
        await scheduler.advance(to: 19)
        #expect(scheduler.pendingCount == 1)
        second.dispose()
        await scheduler.advance(to: 20)
        #expect(scheduler.pendingCount == 0)
        #expect(recorder.events.count == 2)
    }

    @Test func marbleAssertionsOnAnAsyncStream() async {
        let scheduler = TestScheduler()
        let clock = scheduler.virtualClock
        let stream = AsyncStream<String> { continuation in
            let producer = Task {
                for (milliseconds, value) in [(1, "a"), (2, "b")] {
                    try await clock.sleep(for: .milliseconds(milliseconds))
                    continuation.yield(value)
                }
                try await clock.sleep(for: .milliseconds(1))
                continuation.finish()
            }
            continuation.onTermination = { _ in producer.cancel() }
        }
        scheduler.expect(stream).toBe("-a-b|")
        await scheduler.run()
    }

    @Test func aMarbleMismatchOnAnAsyncStreamIsReportedWithItsDiagram() async {
        let scheduler = TestScheduler()
        let clock = scheduler.virtualClock
        let stream = AsyncStream<String> { continuation in
            let producer = Task {
                try await clock.sleep(for: .milliseconds(2))
                continuation.yield("a")
                continuation.finish()
            }
            continuation.onTermination = { _ in producer.cancel() }
        }
        await withKnownIssue {
            scheduler.expect(stream).toBe("-a|")
            await scheduler.run()
        } matching: { issue in
            issue.comments.contains { $0.rawValue.contains("--(a|)") }
        }
    }

    @Test func theImmediateClockJumpsInsteadOfWaiting() async throws {
        let clock = ImmediateClock()
        try await clock.sleep(for: .seconds(5))
        #expect(clock.now == SchedulerInstant(offset: .seconds(5)))
        try await clock.sleep(until: SchedulerInstant(offset: .seconds(1)))
        #expect(clock.now == SchedulerInstant(offset: .seconds(5)))
        let cancelled = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            try await clock.sleep(for: .seconds(1))
        }
        #expect(await cancelled.result.isCancellation)
        #expect(clock.now == SchedulerInstant(offset: .seconds(5)))
    }
}
