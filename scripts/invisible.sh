#!/usr/bin/env bash
# What linking TickTesting costs async work that no TestScheduler drives
# (issue 22, "Invisible to work it does not drive"; Docs/Performance.md,
# "Work Tick does not drive"). The same three workloads (Benchmarks/
# AsyncWorkloads) run in `tick-benchmarks`, which links TickTesting (its
# hooks and, on Linux with Swift 6.3, its default executor are in place from
# load), and in `tick-benchmarks-control`, which links nothing of Tick, in
# the same run:
#   yield  100,000 `Task.yield()` in one task
#   spawn   20,000 tasks started and awaited one after the other
#   group   10,000 children of one task group
# For each: instructions per operation under callgrind (the whole process,
# at the size minus a run of size 1, as the gate counts its async scenarios:
# start-up and one-time costs cancel out; the median of three such counts),
# and CPU time per operation (the
# median of 5 repetitions, the two binaries alternating 3 times; the median
# of those). The ratio is linked / control; the target is <= 1.10 in
# instructions, which the script checks (CPU time on a shared machine is the
# second figure, not checked). Then the blocking barrier of issue 22 in
# both (AsyncWorkloads.barrier): the same number of tasks must start and
# finish within its bound.
#
#   scripts/invisible.sh              # build (release), then measure
#   scripts/invisible.sh --no-build   # use the existing .build/release binaries
#   TICK_DEFAULT_EXECUTOR=off scripts/invisible.sh --no-build
#                                     # the path of the other platforms
set -euo pipefail
cd "$(dirname "$0")/.."

build=1
# The ratio a workload may reach: the issue's target, 1.10x, by default. CI
# passes a looser bound as a regression guard, because `yield` is not yet
# reliably inside 1.10x (Docs/Performance.md, "Work Tick does not drive").
max_ratio=1.10
while [ $# -gt 0 ]; do
    case "$1" in
        --no-build) build=0 ;;
        --max-ratio) max_ratio=$2; shift ;;
        *) echo "usage: scripts/invisible.sh [--no-build] [--max-ratio R]" >&2; exit 2 ;;
    esac
    shift
done
if ! command -v valgrind >/dev/null; then
    echo "invisible: valgrind is not installed (apt-get install -y valgrind)" >&2
    exit 2
fi
# DWARF 4 for the package's C target, as Benchmarks/gate.sh (valgrind 3.19).
if [ "$build" = 1 ]; then
    swift build -c release --product tick-benchmarks -Xcc -gdwarf-4
    swift build -c release --product tick-benchmarks-control -Xcc -gdwarf-4
fi
bin="$(swift build -c release --show-bin-path)"
linked="$bin/tick-benchmarks"
control="$bin/tick-benchmarks-control"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

median3() { printf '%s\n' "$@" | sort -n | sed -n 2p; }

# Instructions of `binary --workload name size` over the whole process.
instructions() {
    local binary=$1 name=$2 size=$3 out="$work/out.callgrind"
    # --fair-sched=yes: valgrind runs the threads in turn (a ticket lock),
    # not whichever grabs its lock first, so how dispatch's worker threads
    # take turns (and spin) varies far less between runs: without it, one
    # binary's count of `yield` ranged 3,316-4,972 over four runs.
    valgrind --tool=callgrind --fair-sched=yes --callgrind-out-file="$out" --collect-atstart=yes \
        "$binary" --workload "$name" "$size" --repetitions 1 >/dev/null 2>&1
    sed -n 's/^summary: *\([0-9]*\).*/\1/p' "$out" | head -1
}

# Instructions per operation: (run at size - run at 1) / (size - 1), the
# median of three (the count of a run varies by a few percent with how the
# runtime's and dispatch's threads take turns under valgrind).
per_op() {
    local binary=$1 name=$2 size=$3
    local big small counts=()
    for _ in 1 2 3; do
        big=$(instructions "$binary" "$name" "$size")
        small=$(instructions "$binary" "$name" 1)
        counts+=("$(( (big - small) / (size - 1) ))")
    done
    median3 "${counts[@]}"
}

# CPU ns/op, median of 5 repetitions in one process.
cpu_op() {
    "$1" --workload "$2" "$3" --repetitions 5 | sed -n 's/.* cpu \([0-9]*\) ns\/op.*/\1/p'
}

failed=0
printf '%-7s %8s %14s %14s %7s  %12s %12s %7s  %s\n' \
    workload size "control i/op" "linked i/op" ratio "control cpu" "linked cpu" ratio result
for workload in yield:100000 spawn:20000 group:10000; do
    name=${workload%%:*}
    size=${workload##*:}
    control_instructions=$(per_op "$control" "$name" "$size")
    linked_instructions=$(per_op "$linked" "$name" "$size")
    control_cpu=()
    linked_cpu=()
    for _ in 1 2 3; do
        control_cpu+=("$(cpu_op "$control" "$name" "$size")")
        linked_cpu+=("$(cpu_op "$linked" "$name" "$size")")
    done
    c_cpu=$(median3 "${control_cpu[@]}")
    l_cpu=$(median3 "${linked_cpu[@]}")
    ratio=$(awk -v a="$linked_instructions" -v b="$control_instructions" 'BEGIN { printf "%.2f", a / b }')
    cpu_ratio=$(awk -v a="$l_cpu" -v b="$c_cpu" 'BEGIN { printf "%.2f", a / b }')
    if awk -v r="$ratio" -v m="$max_ratio" 'BEGIN { exit !(r > m) }'; then
        result="FAIL (over ${max_ratio}x)"
        failed=1
    else
        result="ok"
    fi
    printf '%-7s %8s %14s %14s %6sx  %9s ns %9s ns %6sx  %s\n' \
        "$name" "$size" "$control_instructions" "$linked_instructions" "$ratio" "$c_cpu" "$l_cpu" "$cpu_ratio" "$result"
done
# The starvation probe (AsyncInvisibilityTests runs it too): more tasks than
# cores, blocking on one DispatchGroup; both binaries must start as many and
# finish as many within the bound.
tasks=$(( 2 * $(nproc) + 2 ))
control_barrier=$("$control" --workload barrier "$tasks" 1250)
linked_barrier=$("$linked" --workload barrier "$tasks" 1250)
echo "control: $control_barrier"
echo "linked:  $linked_barrier"
if [ "${control_barrier#barrier: }" != "${linked_barrier#barrier: }" ]; then
    echo "invisible: FAILED. Blocking tasks do not starve the same with TickTesting linked." >&2
    failed=1
fi
if [ "$failed" != 0 ]; then
    echo "invisible: FAILED. Linking TickTesting changes work it does not drive (see above)." >&2
    exit 1
fi
echo "invisible: every workload within ${max_ratio}x of the unlinked binary (instructions), the same starvation."
