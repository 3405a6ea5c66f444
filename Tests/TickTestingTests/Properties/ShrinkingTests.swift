import Testing
import Tick
@testable import TickTesting

/// A debounce written by hand with a planted bug: a burst's timer is started
/// by its first element and never restarted, so it emits the latest element
/// `dueTime` after the burst *began* (a throttle, in effect).
func firstTimerDebounce<Element>(
    _ source: some ObservableType<Element>, _ dueTime: Duration, scheduler: TestScheduler
) -> Observable<Element> {
    Observable.create { observer in
        var latest: Element?
        var timer: (any Disposable)?
        let subscription = source.subscribe { event in
            switch event {
            case .next(let element):
                latest = element
                if timer == nil {  // the bug: should restart the timer
                    timer = scheduler.schedule(after: dueTime) {
                        timer = nil
                        if let value = latest { observer.onNext(value) }
                        latest = nil
                    }
                }
            case .completed:
                if let value = latest { observer.onNext(value) }
                observer.onCompleted()
            case .error(let error):
                observer.onError(error)
            }
        }
        return Disposables.create {
            timer?.dispose()
            subscription.dispose()
        }
    }
}

/// The property of the planted bug: the hand-written debounce against Tick's
/// (the reference model).
func debounceMatchesReference(_ run: PropertyRun) -> Bool {
    let keys = run.hot("keys", TimelineGen(of: .int(in: 0...9), within: 0...300, density: 0.03, end: .mayComplete))
    let mine = run.record("mine", firstTimerDebounce(keys, .milliseconds(20), scheduler: run.scheduler))
    let reference = run.record("reference", keys.debounce(.milliseconds(20), scheduler: run.scheduler))
    run.scheduler.run()
    return mine.events == reference.events
}

@Suite(.checksResourceLeaks) struct ShrinkingTests {
    func failingCase(runs: Int = 200, shrinkBudget: Int = 2000) -> (Counterexample?, Failures) {
        let failures = Failures()
        let result = TestFailureReporter.withHandler(failures.add) {
            forAllTimelines(runs: runs, seed: 1, shrinkBudget: shrinkBudget, debounceMatchesReference)
        }
        return (result.counterexample, failures)
    }

    @Test func plantedBugIsFoundAndShrunkToAFewEvents() throws {
        let (found, failures) = failingCase()
        let counterexample = try #require(found)
        #expect(!counterexample.shrinkStoppedAtBudget)
        // Reported once, with the report as the message.
        #expect(failures.messages == [counterexample.report])
        // The minimal case: two elements, the second less than 20 ms after the first.
        let choices = try #require(ReplayText.decode(counterexample.replay))
        let events = TimelineGen(of: .int(in: 0...9), within: 0...300, density: 0.03, end: .mayComplete)
            .generate(Choices(replaying: choices))
        #expect(events.count <= 3)
        #expect(events.compactMap(\.value.element).count == 2)
        #expect(counterexample.timelines.first?.hasPrefix("keys       hot     ") == true)
        #expect(counterexample.report.contains("seed 1"))
        #expect(counterexample.report.contains("replay: forAllTimelines(replay: \"\(counterexample.replay)\")"))
    }

    /// No single move of the shrinker (deleting a chunk, zeroing a chunk,
    /// lowering one choice to zero or by one) gives a smaller case that
    /// still fails.
    @Test func shrinkingReachesALocalMinimum() throws {
        let counterexample = try #require(failingCase().0)
        let best = try #require(ReplayText.decode(counterexample.replay))
        let check = PropertyCheck(runs: 1, seed: 0, exploringOrder: false, shrinkBudget: 0, replay: nil, site: CallSite())
        func smallerAndFailing(_ candidate: [UInt64]) -> Bool {
            let outcome = check.execute(Choices(replaying: candidate), debounceMatchesReference)
            return outcome.failed && Shrinker.precedes(outcome.drawn, best)
        }
        var candidates: [[UInt64]] = []
        for size in 1...8 {
            for at in 0..<max(0, best.count - size + 1) {
                var deleted = best
                deleted.removeSubrange(at..<at + size)
                candidates.append(deleted)
                var zeroed = best
                for index in at..<at + size { zeroed[index] = 0 }
                if zeroed != best { candidates.append(zeroed) }
            }
        }
        for at in best.indices where best[at] > 0 {
            var lower = best
            lower[at] -= 1
            candidates.append(lower)
            lower[at] = 0
            candidates.append(lower)
        }
        #expect(!candidates.isEmpty)
        let improving = candidates.filter(smallerAndFailing)
        #expect(improving.isEmpty, "still fails: \(improving.map(ReplayText.encode))")
        // And the minimal case itself fails.
        #expect(check.execute(Choices(replaying: best), debounceMatchesReference).failed)
    }

    @Test func shrinkingIsBoundedByItsBudget() throws {
        let counterexample = try #require(failingCase(shrinkBudget: 5).0)
        #expect(counterexample.shrinkRuns == 5)
        #expect(counterexample.shrinkStoppedAtBudget)
        #expect(counterexample.report.contains("the shrink budget ran out"))
        let unbounded = try #require(failingCase().0)
        #expect(unbounded.shrinkRuns <= 2000)
    }

    @Test func replayedCaseFailsTheSameWay() throws {
        let counterexample = try #require(failingCase().0)
        let failures = Failures()
        let replayed = TestFailureReporter.withHandler(failures.add) {
            forAllTimelines(replay: counterexample.replay, debounceMatchesReference)
        }
        let again = try #require(replayed.counterexample)
        #expect(again.failingRun == nil)
        #expect(again.replay == counterexample.replay)
        #expect(again.timelines == counterexample.timelines)
        #expect(again.failures == counterexample.failures)
        #expect(failures.messages.count == 1)
    }

    @Test func correctDebouncePasses() {
        let failures = Failures()
        let result = TestFailureReporter.withHandler(failures.add) {
            forAllTimelines(runs: 100, seed: 1) { run in
                let keys = run.hot("keys", TimelineGen(of: .int(in: 0...9), within: 0...300, density: 0.03))
                let a = run.record("a", keys.debounce(.milliseconds(20), scheduler: run.scheduler))
                let b = run.record("b", keys.debounce(.milliseconds(20), scheduler: run.scheduler))
                run.scheduler.run()
                return a.events == b.events
            }
        }
        #expect(result.passed)
        #expect(result.runs == 100)
        #expect(failures.messages.isEmpty)
    }

    /// Every kind of failure inside a run is collected (not reported) until
    /// the minimal case is known: `run.expect`, a thrown error, and a
    /// failure TickTesting reports (a marble expectation).
    @Test func failuresInsideARunAreCollected() throws {
        struct Boom: Error {}
        let failures = Failures()
        let result = TestFailureReporter.withHandler(failures.add) {
            forAllTimelines(runs: 50, seed: 3) { run in
                let n = run.value("n", .int(in: 0...100))
                run.expect(n < 10, "n is \(n)")
                if n >= 20 { throw Boom() }
                let scheduler = run.scheduler
                scheduler.expect(Observable.just(n).delay(.milliseconds(1), scheduler: scheduler)).toBe("-(a|)", values: ["a": 0])
                scheduler.run()
                return true
            }
        }
        let counterexample = try #require(result.counterexample)
        // Smallest failing n: 1 (the marble expectation wants 0).
        #expect(counterexample.timelines == ["n  value  1"])
        #expect(counterexample.failures.count == 1)
        #expect(counterexample.failures.first?.contains("marble") == true)
        #expect(failures.messages.count == 1)
    }

    /// The async form generates, collects and shrinks the same way, driving
    /// each run's scheduler with the async `run()`.
    @Test func asyncBodiesShrinkToo() async throws {
        let failures = Failures()
        let result = await TestFailureReporter.$handlerBox.withValue(.init(failures.add)) {
            await forAllTimelines(runs: 100, seed: 4) { run in
                let latency = run.duration("latency", in: .zero ... .milliseconds(500))
                let answer = run.record("answer", Observable.just(1).delay(latency, scheduler: run.scheduler))
                await run.scheduler.run()
                // Fails for every latency of 300 ms or more.
                return answer.events.first.map { $0.time.frames < 300 } ?? false
            }
        }
        let counterexample = try #require(result.counterexample)
        // The minimal case: exactly 300 frames (one choice, 300).
        #expect(ReplayText.decode(counterexample.replay) == [300])
        #expect(counterexample.timelines.first?.hasPrefix("latency  duration") == true)
        #expect(!counterexample.shrinkStoppedAtBudget)
        #expect(failures.messages == [counterexample.report])
    }
}
