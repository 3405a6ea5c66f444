import Foundation
import Synchronization
import Testing
import Tick
import TickTesting

/// Determinism: the async scenarios give the same timeline 1,000 times in a
/// row, also while another thread keeps a core busy. No yields, no sleeps, no
/// timeouts: each run is a fresh TestScheduler driven by async advance/run.
///
/// Run alone with
/// `swift test --filter AsyncDeterminismStressTests`
/// (each test prints its wall time).
@Suite(.serialized, .checksResourceLeaks) struct AsyncDeterminismStressTests {
    static let runs = 1_000

    /// Task group, nested tasks, a default actor, an AsyncStream timer, an Rx
    /// timer feeding an async consumer that feeds Rx back, same-instant
    /// ordering both ways and a cancellation at a deadline.
    static func scenario() async -> [String] {
        let scheduler = TestScheduler()
        let clock = scheduler.virtualClock
        let timeline = Timeline(scheduler)

        // A task group whose children sleep 30, 10 and 20 ms.
        let group = Task {
            await withTaskGroup(of: Void.self) { group in
                for milliseconds in [30, 10, 20] {
                    group.addTask { await nap(milliseconds, "group \(milliseconds)", on: clock, timeline) }
                }
            }
            timeline.record("group done")
        }
        // Tasks that start tasks.
        Task {
            await nap(5, "outer", on: clock, timeline)
            Task {
                await nap(5, "middle", on: clock, timeline)
                Task.detached { await nap(5, "inner", on: clock, timeline) }
            }
        }
        // An AsyncStream timer and its for-await loop.
        let stream = AsyncStream<Int> { continuation in
            let producer = Task {
                for tick in 1...3 {
                    try await clock.sleep(for: .milliseconds(7))
                    continuation.yield(tick)
                }
                continuation.finish()
            }
            continuation.onTermination = { _ in producer.cancel() }
        }
        let streamConsumer = Task {
            for await tick in stream { timeline.record("stream \(tick)") }
        }
        // An Rx interval feeding an async consumer that feeds Rx back.
        let echoes = PublishSubject<Int>()
        let echoSubscription = echoes.delay(.milliseconds(3), scheduler: scheduler)
            .subscribe(onNext: { timeline.record("rx echo \($0)") })
        let back = Unchecked(value: echoes)
        let rxConsumer = Task {
            let ticks = Observable<Int>.interval(.milliseconds(10), scheduler: scheduler).take(3)
            for try await tick in ticks.values {
                timeline.record("async got \(tick)")
                back.value.onNext(tick)
            }
        }
        // Same instant, both orders: an Rx timer before and after a sleep.
        let before = Observable<Int>.timer(.milliseconds(15), scheduler: scheduler)
            .subscribe(onNext: { _ in timeline.record("rx timer (first)") })
        let sleeper = Task { await nap(15, "sleep 15", on: clock, timeline) }
        await scheduler.advance(by: 0)
        let after = Observable<Int>.timer(.milliseconds(15), scheduler: scheduler)
            .subscribe(onNext: { _ in timeline.record("rx timer (second)") })
        // A sleep cancelled by an action due at its own deadline.
        let victim = Task { await nap(25, "victim", on: clock, timeline) }
        await scheduler.advance(by: 0)
        _ = scheduler.scheduleAt(25) { victim.cancel() }

        await scheduler.advance(to: 14)
        timeline.record("checkpoint")
        await scheduler.run()
        await group.value
        await streamConsumer.value
        _ = await rxConsumer.result
        await sleeper.value
        await victim.value
        echoSubscription.dispose()
        before.dispose()
        after.dispose()
        return timeline.entries
    }

    /// The SearchModel of issue 11, typed into three times.
    @MainActor static func searchScenario() async -> [String] {
        let scheduler = TestScheduler()
        let model = SearchModel(clock: scheduler.virtualClock)
        var log: [String] = []
        model.type("s")
        await scheduler.advance(by: .milliseconds(299))
        model.type("sw")
        await scheduler.advance(by: .milliseconds(300))
        log.append("\(model.requests)@\(scheduler.clock)")
        model.type("swi")
        await scheduler.advance(by: .milliseconds(299))
        log.append("\(model.requests)@\(scheduler.clock)")
        await scheduler.advance(by: .milliseconds(1))
        log.append("\(model.requests)@\(scheduler.clock)")
        return log
    }

    @Test func theAsyncScenarioGivesOneTimelineAThousandTimes() async {
        let start = ContinuousClock.now
        let reference = await Self.scenario()
        var differing = 0
        for _ in 1..<Self.runs {
            if await Self.scenario() != reference { differing += 1 }
        }
        let elapsed = ContinuousClock.now - start
        print("AsyncDeterminismStressTests: \(Self.runs) runs of the async scenario in \(elapsed)")
        #expect(differing == 0)
        #expect(reference == Self.referenceTimeline)
    }

    @Test func theAsyncScenarioGivesOneTimelineAThousandTimesUnderLoad() async {
        let load = BusyCore(limit: .seconds(60))
        defer { load.stop() }
        let start = ContinuousClock.now
        var differing = 0
        var firstDifferent: [String]?
        for _ in 0..<Self.runs {
            let timeline = await Self.scenario()
            if timeline != Self.referenceTimeline {
                differing += 1
                firstDifferent = firstDifferent ?? timeline
            }
        }
        let elapsed = ContinuousClock.now - start
        print("AsyncDeterminismStressTests: \(Self.runs) runs of the async scenario with a busy core in \(elapsed) (load ran \(load.spins) spins)")
        #expect(differing == 0, "the first different timeline: \(firstDifferent ?? [])")
        #expect(load.spins > 0)
    }

    @Test @MainActor func theMainActorSearchModelGivesOneTimelineAThousandTimesUnderLoad() async {
        let load = BusyCore(limit: .seconds(60))
        defer { load.stop() }
        let start = ContinuousClock.now
        var differing = 0
        let expected = ["[\"sw\"]@599", "[\"sw\"]@898", "[\"sw\", \"swi\"]@899"]
        for _ in 0..<Self.runs {
            if await Self.searchScenario() != expected { differing += 1 }
        }
        let elapsed = ContinuousClock.now - start
        print("AsyncDeterminismStressTests: \(Self.runs) runs of the main-actor SearchModel with a busy core in \(elapsed)")
        #expect(differing == 0)
    }

    /// The timeline every run must give, by the rules: same-instant entries
    /// run in the order they were scheduled, and the tasks the test body
    /// starts before its first `await` start, in that order, when it awaits.
    static let referenceTimeline: [String] = [
        // 5: the outer nested task.
        "outer@5",
        // 7: the stream's first tick.
        "stream 1@7",
        // 10: the Rx interval (subscribed when its consumer task first ran),
        // then the group's 10 ms child (the group's children start after the
        // tasks the body started), then the middle task (scheduled at 5).
        "async got 0@10", "group 10@10", "middle@10",
        // 13: the Rx echo, 3 ms after the consumer sent it.
        "rx echo 0@13",
        // 14: advance(to: 14) includes 14.
        "stream 2@14", "checkpoint@14",
        // 15: the Rx timer subscribed before the sleep, the sleep, the Rx
        // timer subscribed after it; then the inner task (scheduled at 10).
        "rx timer (first)@15", "sleep 15@15", "rx timer (second)@15", "inner@15",
        "group 20@20", "async got 1@20", "stream 3@21", "rx echo 1@23",
        // 25: the canceller was scheduled after the sleep: the sleep wins.
        "victim@25",
        "group 30@30", "group done@30", "async got 2@30", "rx echo 2@33",
    ]
}

/// Keeps one core busy from another thread until stopped or for at most
/// `limit` of real time (so a failing test cannot leave it spinning).
final class BusyCore: Sendable {
    private let stopped = Atomic<Bool>(false)
    private let count = Atomic<Int>(0)

    init(limit: Duration) {
        let deadline = ContinuousClock.now + limit
        let thread = Thread { [self] in
            var local = 0
            while !stopped.load(ordering: .relaxed) && ContinuousClock.now < deadline {
                for _ in 0..<10_000 { local &+= 1 }
                count.add(1, ordering: .relaxed)
            }
        }
        thread.start()
    }

    /// How many rounds of busy work the thread has done.
    var spins: Int { count.load(ordering: .relaxed) }

    func stop() { stopped.store(true, ordering: .relaxed) }
}
