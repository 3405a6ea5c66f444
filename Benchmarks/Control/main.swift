// tick-benchmarks-control: the async workloads of `tick-benchmarks
// --workload` in a binary that does not link TickTesting (nor Tick): what
// the same work costs, and how many of its jobs run at once, without Tick.
// `scripts/invisible.sh` runs both and prints the ratios (Docs/Performance.md,
// "Work Tick does not drive").
//
//   tick-benchmarks-control --workload yield|spawn|group [N] [--repetitions R]
//   tick-benchmarks-control --workload barrier [tasks] [bound ms]

import AsyncWorkloads

let arguments = Array(CommandLine.arguments.dropFirst())
AsyncWorkloads.exitIfAsked(arguments.first == "--workload" ? arguments : ["--workload", "--help"])
