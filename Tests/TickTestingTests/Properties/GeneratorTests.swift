import Testing
import Tick
@testable import TickTesting

/// Generation is a pure function of the seed: SplitMix64 (the published
/// reference values are the oracle) feeding generators that only do integer
/// arithmetic, so the same seed gives the same runs on every machine.
@Suite(.checksResourceLeaks) struct GeneratorTests {
    @Test func seededGeneratorIsSplitMix64() {
        // The first outputs of the reference SplitMix64 (Steele, Lea and
        // Flood; Vigna's splitmix64.c) seeded with 0.
        var generator = SeededGenerator(seed: 0)
        #expect(generator.next() == 0xE220_A839_7B1D_CDAF)
        #expect(generator.next() == 0x6E78_9E6A_A1B9_65F4)
        #expect(generator.next() == 0x06C4_5D18_8009_454F)
    }

    func timeline(seed: UInt64) -> [Recorded<Event<Int>>] {
        let gen = TimelineGen(of: .int(in: 0...9), within: 0...1000, density: 0.01, end: .mayComplete)
        return gen.generate(Choices(seed: seed))
    }

    @Test func sameSeedSameTimeline() {
        for seed: UInt64 in 0..<50 {
            #expect(timeline(seed: seed) == timeline(seed: seed))
        }
        // And different seeds do differ.
        let distinct = Set((0..<50).map { "\(timeline(seed: UInt64($0)))" })
        #expect(distinct.count > 40)
    }

    @Test func sameSeedSameRuns() {
        func inputs(seed: UInt64) -> [String] {
            var seen: [String] = []
            forAllTimelines(runs: 30, seed: seed) { run in
                let keys = run.hot("keys", TimelineGen(of: .oneOf("a", "b"), within: 0...100, density: 0.05))
                let latency = run.duration("latency", in: .zero ... .milliseconds(50))
                seen.append("\(keys.recordedEvents) \(latency)")
                return true
            }
            return seen
        }
        #expect(inputs(seed: 7) == inputs(seed: 7))
        #expect(inputs(seed: 7) != inputs(seed: 8))
        // Run i is the same whatever the number of runs.
        #expect(PropertyCheck.seed(7, run: 3) == PropertyCheck.seed(7, run: 3))
        #expect(PropertyCheck.seed(7, run: 3) != PropertyCheck.seed(7, run: 4))
    }

    @Test func generatedEventsStayInsideTheSpanInTimeOrder() {
        for seed: UInt64 in 0..<200 {
            let events = TimelineGen(of: .int(in: -3...3), within: 100...200, density: 0.1, maximumCount: 7, end: .completes)
                .generate(Choices(seed: seed))
            let elements = events.compactMap(\.value.element)
            #expect(elements.count <= 7)
            #expect(elements.allSatisfy { (-3...3).contains($0) })
            #expect(events.allSatisfy { (100...200).contains($0.time.frames) })
            #expect(events.map(\.time) == events.map(\.time).sorted())
            #expect(events.last?.value.isStopEvent == true)
        }
    }

    @Test func zeroChoicesAreTheSimplestCase() {
        // Replaying nothing draws zeros: no events, lower bounds, first values.
        let choices = Choices(replaying: [])
        #expect(TimelineGen(of: .int(in: 5...9), within: 0...10, end: .mayComplete).generate(choices).isEmpty)
        #expect(Gen.int(in: 5...9).generate(choices) == 5)
        #expect(Gen.oneOf("x", "y").generate(choices) == "x")
        #expect(Gen.bool.generate(choices) == false)
    }

    @Test func replayTextRoundTrips() {
        let choices: [UInt64] = [0, 1, 35, 36, .max]
        #expect(ReplayText.decode(ReplayText.encode(choices)) == choices)
        #expect(ReplayText.decode("tick1:") == [])
        #expect(ReplayText.decode("nope") == nil)
        #expect(ReplayText.decode("tick1:1..2") == nil)
    }

    @Test func unreadableReplayIsReportedAndRunsNothing() {
        let failures = Failures()
        var ran = false
        let result = TestFailureReporter.withHandler(failures.add) {
            forAllTimelines(replay: "not a case") { _ in
                ran = true
                return true
            }
        }
        #expect(!ran)
        #expect(result.runs == 0)
        #expect(failures.messages.count == 1)
        #expect(failures.messages.first?.contains("is not one a property report writes") == true)
    }
}

/// Failures reported by TickTesting, collected for inspection.
final class Failures: @unchecked Sendable {
    private let lock = Lock()
    // Guarded by `lock`.
    private var all: [TestFailure] = []

    var add: @Sendable (TestFailure) -> Void { { [self] failure in lock.withLock { all.append(failure) } } }
    var messages: [String] { lock.withLock { all.map(\.message) } }
    var titles: [String?] { lock.withLock { all.map(\.title) } }
}
