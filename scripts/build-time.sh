#!/usr/bin/env bash
# Clean-build time of Tick + TickTesting against RxSwift + RxTest, on this
# machine, in the same run (Docs/Performance.md, "Build time").
#
#   scripts/build-time.sh [--rounds N] [--debug-only|--release-only] [--core] [RXSWIFT]
#
# RXSWIFT is a checkout of RxSwift or its git directory (a bare mirror); by
# default the mirror at /work/.mirror/ReactiveX+RxSwift/repo, else
# $RXSWIFT_DIR. Nothing of RxSwift is committed: each round builds a fresh
# copy in a scratch folder (mktemp -d, removed at the end).
#
# Each round, for each configuration, builds a fresh copy of Tick (this
# checkout's committed HEAD, `git archive`) and a fresh copy of RxSwift, one
# after the other, alternating which goes first, so that both see the same
# load. Each is built as a user's project builds it: a client package with
# one empty target that depends on the products Tick and TickTesting (Tick,
# TickTesting and the one C target it needs), against one that depends on
# RxSwift and RxTest. (Built in Tick's own folder, `--target TickTesting`
# would also build the doc-test generator that Tick's DocTests plugin needs,
# which no user of the package builds.) It prints wall and CPU time (user +
# system, every compiler process) of each build and, per configuration, the
# ratio of the sums: Tick / RxSwift. On a machine that other work shares,
# compare CPU times; wall times include the time a build waited for a core.
#
# --core builds the libraries an app ships instead: a client of the product
# Tick alone against one of RxSwift alone (the test products are built only
# for tests, so an app's release build compiles just these).
set -euo pipefail
cd "$(dirname "$0")/.."

rounds=2
configs=(debug release)
peer=""
tick_products=(Tick TickTesting); peer_products=(RxSwift RxTest)
while [ $# -gt 0 ]; do
    case "$1" in
        --rounds) rounds="$2"; shift 2 ;;
        --debug-only) configs=(debug); shift ;;
        --release-only) configs=(release); shift ;;
        --core) tick_products=(Tick); peer_products=(RxSwift); shift ;;
        -h|--help) sed -n '2,28p' "$0"; exit 0 ;;
        *) peer="$1"; shift ;;
    esac
done
if [ -z "$peer" ]; then
    peer="${RXSWIFT_DIR:-/work/.mirror/ReactiveX+RxSwift/repo}"
fi
if [ ! -e "$peer" ]; then
    echo "build-time: no RxSwift at $peer; pass a checkout or a git directory of it" >&2
    echo "  (e.g. git clone --bare https://github.com/ReactiveX/RxSwift /tmp/RxSwift.git)" >&2
    exit 2
fi

scratch="$(mktemp -d)"
trap 'rm -rf "$scratch"' EXIT

# A fresh copy of each package (sources only, no .build).
fresh_tick() {
    rm -rf "$scratch/tick" "$scratch/tick-client" && mkdir -p "$scratch/tick"
    git archive HEAD | tar -x -C "$scratch/tick"
    make_client tick-client tick "${tick_products[@]}"
}
fresh_peer() {
    rm -rf "$scratch/peer" && mkdir -p "$scratch/peer"
    if [ -d "$peer/.git" ] || [ -f "$peer/Package.swift" ]; then
        (cd "$peer" && git archive HEAD 2>/dev/null || tar -c --exclude=.build --exclude=.git .) | tar -x -C "$scratch/peer"
    else
        git --git-dir="$peer" archive HEAD | tar -x -C "$scratch/peer"
    fi
    rm -rf "$scratch/peer-client"
    make_client peer-client peer "${peer_products[@]}"
}
# A client package in $scratch/$1 of the package in $scratch/$2, using the
# products named after them (an empty target that imports each).
make_client() {
    local dir="$scratch/$1" package="$2"; shift 2
    local deps="" product
    mkdir -p "$dir/Sources/Client"
    : >"$dir/Sources/Client/Client.swift"
    for product in "$@"; do
        deps="$deps .product(name: \"$product\", package: \"$package\"),"
        printf 'import %s\n' "$product" >>"$dir/Sources/Client/Client.swift"
    done
    cat >"$dir/Package.swift" <<MANIFEST
// swift-tools-version: 5.9
import PackageDescription
let package = Package(
    name: "Client",
    platforms: [.macOS("15.0"), .iOS("18.0")],
    dependencies: [.package(path: "../$package")],
    targets: [
        .target(name: "Client", dependencies: [$deps
        ])
    ]
)
MANIFEST
}

# Builds the client package in $1 with configuration $2 ($3 names it in
# messages); prints
# "wall cpu" (GNU time: the build's wall time, and the user + system time of
# swift build and every compiler process it waited for).
timed_build() {
    local dir="$1" config="$2" target="$3" log="$scratch/build.log"
    if ! (cd "$dir" && /usr/bin/time -f '%e %U %S' -o "$scratch/time" swift build -c "$config" >"$log" 2>&1); then
        echo "build-time: the $config build of $target failed:" >&2
        tail -20 "$log" >&2
        exit 1
    fi
    awk '{ printf "%.1f %.1f\n", $1, $2 + $3 }' "$scratch/time"
}

tick_label="$(printf '%s + ' "${tick_products[@]}")"; tick_label="${tick_label% + }"
peer_label="$(printf '%s + ' "${peer_products[@]}")"; peer_label="${peer_label% + }"

if [ ! -x /usr/bin/time ]; then
    echo "build-time: needs GNU time (apt-get install -y time)" >&2
    exit 2
fi
echo "build-time: $tick_label (HEAD $(git rev-parse --short HEAD)) against $peer_label ($peer), $rounds round(s), $(nproc) cores, swift $(swift --version 2>/dev/null | sed -n 's/.*Swift version \([0-9.]*\).*/\1/p' | head -1)"
echo "load average at start: $(cut -d' ' -f1-3 /proc/loadavg)"
for config in "${configs[@]}"; do
    tick_wall=0; tick_cpu=0; peer_wall=0; peer_cpu=0
    for round in $(seq 1 "$rounds"); do
        order=(tick peer)
        if [ $((round % 2)) = 0 ]; then order=(peer tick); fi
        for which in "${order[@]}"; do
            if [ "$which" = tick ]; then
                fresh_tick
                read -r wall cpu < <(timed_build "$scratch/tick-client" "$config" "$tick_label")
                tick_wall=$(awk -v a="$tick_wall" -v b="$wall" 'BEGIN { print a + b }')
                tick_cpu=$(awk -v a="$tick_cpu" -v b="$cpu" 'BEGIN { print a + b }')
                printf '%-8s round %d  %-19s %7.1f s wall %7.1f s cpu  (load %s)\n' "$config" "$round" "$tick_label" "$wall" "$cpu" "$(cut -d' ' -f1 /proc/loadavg)"
            else
                fresh_peer
                read -r wall cpu < <(timed_build "$scratch/peer-client" "$config" "$peer_label")
                peer_wall=$(awk -v a="$peer_wall" -v b="$wall" 'BEGIN { print a + b }')
                peer_cpu=$(awk -v a="$peer_cpu" -v b="$cpu" 'BEGIN { print a + b }')
                printf '%-8s round %d  %-19s %7.1f s wall %7.1f s cpu  (load %s)\n' "$config" "$round" "$peer_label" "$wall" "$cpu" "$(cut -d' ' -f1 /proc/loadavg)"
            fi
        done
    done
    awk -v c="$config" -v tw="$tick_wall" -v tc="$tick_cpu" -v pw="$peer_wall" -v pc="$peer_cpu" 'BEGIN {
        printf "%-8s ratio Tick / RxSwift: %.2fx wall, %.2fx cpu (sums over the rounds: %.1f / %.1f s wall, %.1f / %.1f s cpu)\n",
            c, tw / pw, tc / pc, tw, pw, tc, pc }'
done
