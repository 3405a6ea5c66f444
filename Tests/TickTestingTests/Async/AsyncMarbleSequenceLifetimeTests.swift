import Testing
import Tick
import TickTesting

/// `expect(asyncSequence)` holds the sequence only while it iterates it: a
/// sequence that stops its producer when its last copy goes away (the usual
/// `AsyncStream` poller, whose `onTermination` cancels the producing task)
/// ends as soon as the expectation stops iterating it (issue 24, item 3 of
/// the report).
@Suite(.checksResourceLeaks) struct AsyncMarbleSequenceLifetimeTests {
    /// A poller: yields 1, 2, 3, … every `period` on `clock`, forever, until
    /// the stream is terminated; `terminations` records when, in frames.
    static func poller(
        on scheduler: TestScheduler, every period: Duration, terminations: Locked<[TestTime]>
    ) -> AsyncStream<Int> {
        let clock = scheduler.virtualClock
        return AsyncStream<Int> { continuation in
            let producer = Task {
                var count = 0
                while !Task.isCancelled {
                    count += 1
                    continuation.yield(count)
                    do { try await clock.sleep(for: period) } catch { break }
                }
            }
            continuation.onTermination = { _ in
                terminations.withLock { $0.append(scheduler.clock) }
                producer.cancel()
            }
        }
    }

    @Test func aPollerBehindPrefixEndsAndAsyncRunFinishes() async {
        let scheduler = TestScheduler()
        let terminations = Locked<[TestTime]>([])
        // The stream is made in the expression, as `for await poll in
        // poller().prefix(3)` would: only the expectation holds it.
        scheduler.expect(Self.poller(on: scheduler, every: .milliseconds(3), terminations: terminations).prefix(3))
            .toBe("a--b--(c|)", values: ["a": 1, "b": 2, "c": 3])
        await scheduler.run()
        // The stream ended when prefix let go of it, at the third poll; its
        // producer, cancelled there, left nothing pending.
        #expect(terminations.withLock { $0 } == [6])
        #expect(scheduler.pendingCount == 0)
        #expect(scheduler.clock == 6)
    }

    @Test func aPollerCutByTheUnsubscriptionMarkEndsThere() async {
        let scheduler = TestScheduler()
        let terminations = Locked<[TestTime]>([])
        let polls = Self.poller(on: scheduler, every: .milliseconds(2), terminations: terminations)
        scheduler.expect(polls, subscription: "^----!").toBe("a-b-c", values: ["a": 1, "b": 2, "c": 3])
        await scheduler.run()
        #expect(terminations.withLock { $0 } == [5])
        #expect(scheduler.pendingCount == 0)
    }

    @Test func aPollerBehindPrefixOneEndsAtItsFirstPoll() async {
        let scheduler = TestScheduler()
        let terminations = Locked<[TestTime]>([])
        let result = scheduler.expect(
            Self.poller(on: scheduler, every: .milliseconds(2), terminations: terminations).prefix(1)
        ).toBe("(a|)", values: ["a": 1])
        await scheduler.run()
        #expect(result.passed)
        #expect(terminations.withLock { $0 } == [0])
        #expect(scheduler.pendingCount == 0)
    }

    @Test func anExpectationNeverCheckedLetsGoOfItsSequenceWithTheScheduler() {
        // Synchronous: the scheduler is dropped without a flush. The
        // expectation is reported, and the stream it held (never iterated)
        // ends there and then.
        let terminated = Locked(false)
        var endedWhilePending = true
        withKnownIssue {
            let scheduler = TestScheduler()
            let stream = AsyncStream<Int> { continuation in
                continuation.onTermination = { _ in terminated.withLock { $0 = true } }
            }
            scheduler.expect(stream).toBe("-a", values: ["a": 1])
            endedWhilePending = terminated.withLock { $0 }
        } matching: { issue in
            issue.comments.contains { $0.rawValue.contains("never checked") }
        }
        #expect(!endedWhilePending)
        #expect(terminated.withLock { $0 })
    }
}
