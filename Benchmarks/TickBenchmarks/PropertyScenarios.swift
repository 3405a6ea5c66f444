import Tick
import TickTesting

/// The cost of property checks over generated timelines (Docs/PropertyTesting.md).
enum PropertyScenarios {
    /// `n` runs of a typical property: a generated hot timeline of 10
    /// elements within 0...200 ms, a debounce and a map, recorded and
    /// checked. One operation is one run (a fresh TestScheduler, the
    /// generation, the run and the check). Target: at least 10,000 runs per
    /// second in release on one core.
    static func debounceMapRuns(_ n: Int, repetitions: Int) -> Measurement {
        let timeline = TimelineGen(of: .int(in: 0...9), within: 0...200, minimumCount: 10, maximumCount: 10)
        return measure("property_runs", operations: n, repetitions: repetitions, cpu: true, setup: { () }) { _ in
            let result = forAllTimelines(runs: n, seed: 1) { run in
                let keys = run.hot("keys", timeline)
                let output = run.record(
                    "output", keys.debounce(.milliseconds(20), scheduler: run.scheduler).map { $0 * 2 })
                run.scheduler.run()
                return output.events.allSatisfy { ($0.value.element ?? 0) % 2 == 0 }
                    && keys.recordedEvents.count == 10
            }
            precondition(result.passed)
        }
    }
}
