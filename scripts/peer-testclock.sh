#!/usr/bin/env bash
# The peer figure for benchmark scenario 8 (Docs/Performance.md, "The peer
# for scenario 8"): pointfree's swift-clocks `TestClock` doing async_sleep's
# work, N tasks each sleeping a random duration (1 ms to 1 s, the seed and
# generator of `tick-benchmarks async_sleep`), then `await clock.run()`.
#
#   scripts/peer-testclock.sh [--repetitions R] [SIZE ...] [POINTFREE]
#
# POINTFREE is a folder holding the git repositories swift-clocks.git,
# swift-concurrency-extras.git and xctest-dynamic-overlay.git (by default
# /opt/swift-packages/pointfreeco, else $POINTFREE_DIR). Nothing of them is
# committed: the script writes a scratch package (mktemp -d, removed at the
# end) that compiles swift-clocks' `Clocks` target (and the two it depends
# on) from those repositories' sources, with a small executable of its own,
# in release mode, and runs it for each size (default 1000 and 10000; R
# repetitions, default 5). It prints the median wall and CPU time (user +
# system, every thread, getrusage) per sleep; on a loaded machine compare
# CPU times.
set -euo pipefail

repetitions=5
sizes=()
pointfree="${POINTFREE_DIR:-/opt/swift-packages/pointfreeco}"
while [ $# -gt 0 ]; do
    case "$1" in
        --repetitions) repetitions="$2"; shift 2 ;;
        [0-9]*) sizes+=("$1"); shift ;;
        *) pointfree="$1"; shift ;;
    esac
done
[ "${#sizes[@]}" -gt 0 ] || sizes=(1000 10000)

scratch="$(mktemp -d)"
trap 'rm -rf "$scratch"' EXIT
for repository in swift-clocks swift-concurrency-extras xctest-dynamic-overlay; do
    git clone --quiet "$pointfree/$repository.git" "$scratch/$repository"
done
echo "swift-clocks $(git -C "$scratch/swift-clocks" describe --tags 2>/dev/null || git -C "$scratch/swift-clocks" rev-parse --short HEAD)"

mkdir -p "$scratch/Sources/PeerBench"
cat >"$scratch/Package.swift" <<'EOF'
// swift-tools-version: 6.0
import PackageDescription

let package = Package(
    name: "peer-testclock",
    targets: [
        .target(name: "ConcurrencyExtras", path: "swift-concurrency-extras/Sources/ConcurrencyExtras"),
        .target(name: "IssueReporting", path: "xctest-dynamic-overlay/Sources/IssueReporting"),
        .target(
            name: "Clocks", dependencies: ["ConcurrencyExtras", "IssueReporting"],
            path: "swift-clocks/Sources/Clocks", exclude: ["Documentation.docc"]),
        .executableTarget(name: "PeerBench", dependencies: ["Clocks"], path: "Sources/PeerBench"),
    ],
    swiftLanguageModes: [.v5]
)
EOF
cat >"$scratch/Sources/PeerBench/main.swift" <<'EOF'
import Clocks
import Dispatch
import Foundation
import Synchronization

// The generator of Tick's SeededGenerator (splitmix64), for the same delays.
struct Generator: RandomNumberGenerator {
    var state: UInt64
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

func cpuSeconds() -> Double {
    var usage = rusage()
    getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
    return Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec)
        + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6
}

final class Counter: Sendable { let value = Atomic<Int>(0) }

let arguments = CommandLine.arguments.dropFirst().compactMap { Int($0) }
let n = arguments.first ?? 1_000
let repetitions = arguments.dropFirst().first ?? 5
var generator = Generator(state: 0xA51C)
let delays = (0..<n).map { _ in Duration.milliseconds(Int.random(in: 1...1000, using: &generator)) }

var walls: [Double] = []
var cpus: [Double] = []
for _ in 0..<repetitions {
    let start = DispatchTime.now().uptimeNanoseconds
    let cpuStart = cpuSeconds()
    let done = DispatchSemaphore(value: 0)
    Task {
        let clock = TestClock()
        let woken = Counter()
        for delay in delays {
            Task {
                try? await clock.sleep(for: delay)
                woken.value.add(1, ordering: .relaxed)
            }
        }
        await clock.run(timeout: .seconds(600))
        precondition(woken.value.load(ordering: .relaxed) == n, "every sleeper woke")
        done.signal()
    }
    done.wait()
    walls.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e3 / Double(n))
    cpus.append((cpuSeconds() - cpuStart) * 1e6 / Double(n))
}
func median(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }
func text(_ value: Double) -> String { String(Int(value.rounded())) }
print("TestClock \(n) sleeps: wall \(text(median(walls))) µs/sleep, cpu \(text(median(cpus))) µs/sleep (median of \(repetitions); wall runs \(walls.map(text).joined(separator: ", ")))")
EOF

(cd "$scratch" && swift build -c release --product PeerBench >/dev/null)
for size in "${sizes[@]}"; do
    echo "load average $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo '?')"
    "$scratch/.build/release/PeerBench" "$size" "$repetitions"
done
