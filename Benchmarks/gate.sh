#!/usr/bin/env bash
# The instruction-count regression gate (Docs/Performance.md, "The
# instruction gate"). For each line of Benchmarks/budgets.txt it runs one
# scenario of the release benchmark executable at the line's (small) size under
# callgrind, counting only the instructions of the timed region (the marker
# function tick_measured_region, after one untimed warm-up), and prints
# instructions per operation beside the budget. It fails when a scenario exceeds
# its budget by more than 10%. Instruction counts do not depend on the machine's
# load, so the gate is stable where wall time is not. A line may name the
# scenario's floors (a fourth column): the gate then prints the scenario's
# ratio to each, and runs those floors too when scenarios are named below.
#
#   Benchmarks/gate.sh              # build (release), then check every budget
#   Benchmarks/gate.sh --no-build   # use the existing .build/release binary
#   Benchmarks/gate.sh delay_operator many_timers   # only these scenarios
#   TICK_BENCH_BINARY=/tmp/old-tick-benchmarks Benchmarks/gate.sh --no-build
#                                   # count another build (a saved copy)
set -euo pipefail
cd "$(dirname "$0")/.."

build=1
only=()
for argument in "$@"; do
    case "$argument" in
        --no-build) build=0 ;;
        *) only+=("$argument") ;;
    esac
done

if ! command -v valgrind >/dev/null; then
    echo "gate: valgrind is not installed (apt-get install -y valgrind)" >&2
    exit 2
fi
# valgrind 3.19 (Debian 12's) cannot read DWARF 5, which clang emits by
# default for the package's C target (Sources/TickRuntimeHooks); the Swift
# compiler emits DWARF 4. So the gate's build asks clang for DWARF 4 too.
if [ "$build" = 1 ]; then
    swift build -c release --product tick-benchmarks -Xcc -gdwarf-4
fi
binary="${TICK_BENCH_BINARY:-$(swift build -c release --show-bin-path)/tick-benchmarks}"
if command -v readelf >/dev/null && readelf --debug-dump=info "$binary" 2>/dev/null | grep -Eq 'Version:[[:space:]]+5$'; then
    echo "gate: $binary has DWARF 5 debug information, which valgrind cannot read here." >&2
    echo "gate: build it with 'swift build -c release --product tick-benchmarks -Xcc -gdwarf-4' (or run the gate without --no-build)." >&2
    exit 2
fi
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

tolerance=10   # percent over budget that still passes
failed=0
# The floors' counts, by name, for the ratios (a line's fourth column names
# its floors, comma-separated; a floor's line comes before the lines that
# name it).
declare -A floor_count=()
# With scenarios named on the command line, the floors they name run too.
declare -A wanted=()
if [ "${#only[@]}" -gt 0 ]; then
    for name in "${only[@]}"; do wanted[$name]=1; done
    while read -r name _ _ floors _; do
        case "$name" in ''|'#'*) continue ;; esac
        if [ -n "${wanted[$name]:-}" ] && [ -n "${floors:-}" ]; then
            IFS=, read -r -a names <<<"$floors"
            for floor in "${names[@]}"; do wanted[$floor]=1; done
        fi
    done < Benchmarks/budgets.txt
fi
printf '%-28s %9s %12s %10s %14s  %s\n' scenario size "instr/op" budget "floor ratio" result
while read -r name size budget floors _; do
    case "$name" in ''|'#'*) continue ;; esac
    if [ "${#only[@]}" -gt 0 ] && [ -z "${wanted[$name]:-}" ]; then
        continue
    fi
    out="$work/$name.callgrind"
    # Async scenarios run on the runtime's threads, and callgrind's marker
    # toggle counts only the thread that enters the marker: they are counted
    # over the whole process instead, at the line's size minus a run of size 1
    # (start-up, set-up and one-time costs cancel out), halved for the
    # untimed warm-up run that the callgrind mode makes first.
    toggle='--toggle-collect=*tick_measured_region*'
    case "$name" in async_*) toggle='--collect-atstart=yes' ;; esac
    if ! valgrind --tool=callgrind --callgrind-out-file="$out" "$toggle" \
        "$binary" --callgrind "$name" "$size" >"$work/$name.stdout" 2>"$work/$name.stderr"; then
        echo "gate: $name failed to run:" >&2
        cat "$work/$name.stdout" "$work/$name.stderr" >&2
        failed=1
        continue
    fi
    ops=$(sed -n "s/^$name: \([0-9]*\) ops.*/\1/p" "$work/$name.stdout" | head -1)
    instructions=$(sed -n 's/^summary: *\([0-9]*\).*/\1/p' "$out" | head -1)
    case "$name" in async_*)
        valgrind --tool=callgrind --callgrind-out-file="$out.1" "$toggle" \
            "$binary" --callgrind "$name" 1 >/dev/null 2>&1 || true
        baseline=$(sed -n 's/^summary: *\([0-9]*\).*/\1/p' "$out.1" | head -1)
        if [ -n "$instructions" ] && [ -n "$baseline" ] && [ -n "$ops" ] && [ "$ops" -gt 1 ]; then
            instructions=$(( (instructions - baseline) / 2 ))
            ops=$((ops - 1))
        else
            instructions=""
        fi ;;
    esac
    if [ -z "$ops" ] || [ -z "$instructions" ] || [ "$ops" = 0 ]; then
        echo "gate: $name printed no result" >&2
        cat "$work/$name.stdout" >&2
        failed=1
        continue
    fi
    per_op=$((instructions / ops))
    limit=$((budget + budget * tolerance / 100))
    ratio="-"
    case "$name" in floor_*) floor_count[$name]=$per_op ;; esac
    if [ -n "${floors:-}" ]; then
        # The ratio to each floor the line names ("a/b" for two).
        ratio=""
        IFS=, read -r -a names <<<"$floors"
        for floor in "${names[@]}"; do
            part="?"
            if [ -n "${floor_count[$floor]:-}" ]; then
                part=$(awk -v a="$per_op" -v b="${floor_count[$floor]}" 'BEGIN { printf "%.2fx", a / b }')
            fi
            ratio="${ratio:+$ratio/}$part"
        done
    fi
    if [ "$per_op" -gt "$limit" ]; then
        result="FAIL (over budget by $(( (per_op - budget) * 100 / budget ))%, limit $limit)"
        failed=1
    else
        result="ok"
    fi
    printf '%-28s %9s %12s %10s %14s  %s\n' "$name" "$size" "$per_op" "$budget" "$ratio" "$result"
done < Benchmarks/budgets.txt

if [ "$failed" != 0 ]; then
    echo "gate: FAILED. A scenario costs more than its budget in Benchmarks/budgets.txt allows (+$tolerance%)." >&2
    echo "Find the cause (callgrind_annotate on a run of the scenario), or raise the budget with a sentence in the commit message saying why." >&2
    exit 1
fi
echo "gate: every scenario within its budget (+$tolerance%)."
