// tick-benchmarks: `swift run -c release tick-benchmarks [name] [N]`
//
// Runs every scenario (or the one named) and prints one line per scenario:
// `name: N ops, T s, ns/op, ops/s`, the median of several repetitions.
// See Docs/Performance.md for the scenarios, the targets and the latest figures.

import AsyncWorkloads
import Tick
import TickTesting

let arguments = Array(CommandLine.arguments.dropFirst())
// `--workload ...`: async work no TestScheduler drives, with TickTesting
// linked (tick-benchmarks-control runs it without; scripts/invisible.sh).
AsyncWorkloads.exitIfAsked(arguments)
if arguments.first == "--memory-probe", arguments.count == 3, let n = Int(arguments[2]) {
    // Internal: one memory measurement in this fresh process (see memoryProbe).
    print(Scenarios.pendingMemory(kind: arguments[1], n).map { String($0) } ?? "unavailable")
} else if arguments.contains("--help") || arguments.contains("-h") {
    print("""
        usage: tick-benchmarks [name] [N] [--repetitions R] [--callgrind]
        names: \(registry.map(\.name).joined(separator: ", "))
        N overrides the scenario's default size; R (default 5) the repetitions.
        --callgrind: one warm-up, then one run inside the marker function
        tick_measured_region (see Benchmarks/gate.sh).
        """)
} else {
    var repetitions = 5
    var positional: [String] = []
    var index = 0
    while index < arguments.count {
        if arguments[index] == "--callgrind" {
            // One warm-up and one run inside the marker function, for
            // `Benchmarks/gate.sh` (valgrind --toggle-collect=tick_measured_region).
            callgrindMode = true
            index += 1
        } else if arguments[index] == "--repetitions", index + 1 < arguments.count, let value = Int(arguments[index + 1]) {
            repetitions = max(1, value)
            index += 2
        } else {
            positional.append(arguments[index])
            index += 1
        }
    }
    let name = positional.first { Int($0) == nil }
    let size = positional.compactMap { Int($0) }.first
    let selected = registry.filter { name == nil || $0.name == name }
    if selected.isEmpty {
        print("unknown scenario '\(name ?? "")'; known: \(registry.map(\.name).joined(separator: ", "))")
    }
    for scenario in selected {
        for line in scenario.run(size, repetitions) { print(line) }
    }
    if !callgrindMode, let peak = peakResidentBytes() {
        print("peak resident memory: \(peak / 1_048_576) MiB")
    }
}
