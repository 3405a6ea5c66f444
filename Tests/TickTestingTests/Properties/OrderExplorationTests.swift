import Testing
import Tick
@testable import TickTesting

/// A tie-dependent bug: a result that must arrive "by the deadline"
/// (inclusive) and a timeout timer at the deadline. The response is an
/// input scheduled before the timer, so scheduling order always runs it
/// first and the bug never shows; order exploration finds it.
func responseBeatsTimeout(_ run: PropertyRun) -> Bool {
    let scheduler = run.scheduler
    let responses = run.hot("response", TimelineGen(of: .constant("ok"), within: 0...20, density: 0.05, maximumCount: 1))
    var state = "loading"
    let timeout = scheduler.schedule(after: .milliseconds(10)) { if state == "loading" { state = "timed out" } }
    let subscription = responses.subscribe(onNext: { value in if state == "loading" { state = value } })
    scheduler.run()
    subscription.dispose()
    timeout.dispose()
    // The property: a response at or before 10 ms is shown.
    let arrivedInTime = responses.recordedEvents.contains { $0.time <= 10 }
    return !arrivedInTime || state == "ok"
}

@Suite(.checksResourceLeaks) struct OrderExplorationTests {
    @Test func schedulingOrderNeverShowsTheTieBug() {
        let failures = Failures()
        let result = TestFailureReporter.withHandler(failures.add) {
            forAllTimelines(runs: 1000, seed: 5, responseBeatsTimeout)
        }
        #expect(result.passed)
        #expect(failures.messages.isEmpty)
    }

    @Test func orderExplorationFindsTheTieBug() throws {
        let failures = Failures()
        let result = TestFailureReporter.withHandler(failures.add) {
            forAllTimelines(runs: 1000, seed: 5, exploringOrder: true, responseBeatsTimeout)
        }
        let counterexample = try #require(result.counterexample)
        #expect(counterexample.timelines == ["response  hot  10ms a   values: a = \"ok\""] || counterexample.timelines.count == 1)
        #expect(counterexample.orderNotes.count == 1)
        #expect(counterexample.orderNotes.first?.hasPrefix("at 10: the test ran before response") == true)
        #expect(counterexample.report.contains("exploringOrder: true, replay:"))
        // Replaying it fails the same way (the order is part of the case).
        let again = TestFailureReporter.withHandler(failures.add) {
            forAllTimelines(exploringOrder: true, replay: counterexample.replay, responseBeatsTimeout)
        }
        #expect(again.counterexample?.orderNotes == counterexample.orderNotes)
        #expect(again.counterexample?.failures == counterexample.failures)
    }

    /// One source's same-instant events are one synchronous burst: they
    /// keep their order, whatever the exploration picks.
    @Test func aSourceKeepsItsOwnOrder() {
        let failures = Failures()
        let result = TestFailureReporter.withHandler(failures.add) {
            forAllTimelines(runs: 300, seed: 2, exploringOrder: true) { run in
                let scheduler = run.scheduler
                let cold = scheduler.createColdObservable([.next(5, "a"), .next(5, "b"), .completed(5)])
                let hot = run.hot("other", TimelineGen(of: .oneOf("x", "y"), within: 0...10, density: 0.5))
                let coldEvents = run.record("cold", cold)
                _ = run.record("merged", Observable.merge(hot.asObservable(), cold.asObservable()))
                scheduler.run()
                return coldEvents.events == [.next(5, "a"), .next(5, "b"), .completed(5)]
            }
        }
        #expect(result.passed)
        #expect(failures.messages.isEmpty)
    }

    /// The exploring path of the queue against the plain one: with the
    /// explorer always picking scheduling order, random schedules, cancels
    /// and advances (small radix threshold and short sequence epochs, so
    /// entries put back cross both) run exactly as without it.
    @Test func exploringInSchedulingOrderChangesNothing() {
        func trace(exploring: Bool, seed: UInt64) -> [String] {
            var rng = SeededGenerator(seed: seed)
            let scheduler = TestScheduler(stepBudget: .max)
            scheduler.useQueue(epochBits: 3, radixThreshold: 4)
            if exploring {
                scheduler.exploreOrder(with: OrderExplorer(choose: { _ in 0 }, describeTime: { "\($0)" }))
            }
            var log: [String] = []
            var disposables: [any Disposable] = []
            for round in 0..<40 {
                for index in 0..<Int.random(in: 0..<8, using: &rng) {
                    let delay = Int.random(in: 0..<5, using: &rng)
                    let id = "\(round).\(index)"
                    disposables.append(scheduler.schedule(after: .milliseconds(delay)) { [unowned scheduler] in
                        log.append("\(id)@\(scheduler.clock)")
                        if id.hasSuffix("0") { scheduler.schedule { log.append("\(id)+@\(scheduler.clock)") } }
                    })
                }
                if !disposables.isEmpty, Bool.random(using: &rng) {
                    disposables[Int.random(in: 0..<disposables.count, using: &rng)].dispose()
                }
                scheduler.advance(by: Int.random(in: 0..<3, using: &rng))
            }
            scheduler.run()
            return log
        }
        for seed: UInt64 in 0..<20 {
            #expect(trace(exploring: true, seed: seed) == trace(exploring: false, seed: seed))
        }
    }

    /// An entry disposed while its instant's group is being explored does
    /// not run.
    @Test func cancellationStillWorksWhileExploring() {
        let failures = Failures()
        let result = TestFailureReporter.withHandler(failures.add) {
            forAllTimelines(runs: 200, seed: 9, exploringOrder: true) { run in
                let scheduler = run.scheduler
                var ran: [String] = []
                var second: (any Disposable)?
                // Three sources due at 5; whichever of a and c runs first cancels b.
                run.asOwnSource("a") { _ = scheduler.scheduleAt(5) { ran.append("a"); second?.dispose() } }
                run.asOwnSource("b") { second = scheduler.scheduleAt(5) { ran.append("b") } }
                run.asOwnSource("c") { _ = scheduler.scheduleAt(5) { ran.append("c"); second?.dispose() } }
                scheduler.run()
                return ran.count == 3 ? ran.first == "b" : ran.count == 2 && !ran.contains("b")
            }
        }
        #expect(result.passed)
        #expect(failures.messages.isEmpty)
    }
}
