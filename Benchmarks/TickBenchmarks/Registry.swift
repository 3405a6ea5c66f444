/// A named scenario: given an optional size and a repetition count, it prints
/// its result lines.
struct Scenario: Sendable {
    let name: String
    let run: @Sendable (Int?, Int) -> [String]
}

let registry: [Scenario] = [
    Scenario(name: "scheduler_schedule_advance") { n, r in
        [Scenarios.schedulerScheduleAdvance(n ?? 1_000_000, repetitions: r).line]
    },
    Scenario(name: "floor_schedule_advance") { n, r in [Scenarios.floor(n ?? 1_000_000, repetitions: r).line] },
    Scenario(name: "floor_radix_schedule_advance") { n, r in
        [Scenarios.radixFloor(n ?? 1_000_000, repetitions: r).line]
    },
    Scenario(name: "floor_hot_map_filter_scan") { n, r in [ScenarioFloors.hotChain(n ?? 1_000_000, repetitions: r).line] },
    Scenario(name: "floor_delay_operator") { n, r in [ScenarioFloors.delay(n ?? 100_000, repetitions: r).line] },
    Scenario(name: "floor_many_timers") { n, r in [ScenarioFloors.timers(n ?? 100_000, repetitions: r).line] },
    Scenario(name: "floor_marble_assertions") { n, r in
        [ScenarioFloors.marbleAssertions(n ?? 10_000, repetitions: r).line]
    },
    Scenario(name: "hot_map_filter_scan") { n, r in [Scenarios.hotMapFilterScan(n ?? 1_000_000, repetitions: r).line] },
    Scenario(name: "subject_fanout") { n, r in [Scenarios.subjectFanout(n ?? 100_000, repetitions: r).line] },
    Scenario(name: "delay_operator") { n, r in [Scenarios.delayOperator(n ?? 100_000, repetitions: r).line] },
    Scenario(name: "many_timers") { n, r in [Scenarios.manyTimers(n ?? 100_000, repetitions: r).line] },
    Scenario(name: "marble_assertions") { n, r in
        let result = Scenarios.marbleAssertions(n ?? 10_000, repetitions: r)
        return [result.line + ", \(format(result.median, 3)) s in total (target < 1 s)"]
    },
    Scenario(name: "op_flatMap_just") { n, r in [OperatorScenarios.flatMapJust(n ?? 100_000, repetitions: r).line] },
    Scenario(name: "op_combineLatest") { n, r in [OperatorScenarios.combineLatest(n ?? 1_000_000, repetitions: r).line] },
    Scenario(name: "op_debounce") { n, r in [OperatorScenarios.debounce(n ?? 100_000, repetitions: r).line] },
    Scenario(name: "async_sleep") { n, r in
        guard let n else { return AsyncScenarios.scaling(repetitions: r) }
        return [AsyncScenarios.virtualSleep(n, repetitions: r).line]
    },
    Scenario(name: "property_runs") { n, r in
        let result = PropertyScenarios.debounceMapRuns(n ?? 10_000, repetitions: r)
        return [result.line + " (one op = one run; target ≥ 10,000 runs/s)"]
    },
    Scenario(name: "floor_async_sleep") { n, r in [AsyncScenarios.floorVirtualSleep(n ?? 1_000, repetitions: r).line] },
    Scenario(name: "marble_print") { n, r in [MarbleScenarios.print(n ?? 1_000_000, repetitions: r).line] },
    Scenario(name: "marble_diff") { n, r in [MarbleScenarios.diff(n ?? 1_000_000, repetitions: r).line] },
    Scenario(name: "pending_memory") { n, _ in
        // Memory per pending action, each size in a fresh process (target ≤ 40 bytes).
        Scenarios.memoryTable(sizes: n.map { [$0] } ?? [10_000, 100_000, 1_000_000])
    },
    Scenario(name: "scaling") { _, r in
        // Scenario 1 at three sizes; per-action cost growth must stay ≤ 2×.
        let results = [10_000, 100_000, 1_000_000].map {
            Scenarios.schedulerScheduleAdvance($0, repetitions: r, name: "scaling/\($0)")
        }
        let growth = results.last!.nanosecondsPerOperation / results.first!.nanosecondsPerOperation
        return results.map(\.line) + ["scaling: per-action cost 1M vs 10k = \(format(growth, 2))× (target ≤ 2×)"]
    },
]
