#!/usr/bin/env bash
# Renders sample marble diagrams to PNG so a person can look at them: checks
# that time is drawn proportionally and that long gaps are marked as breaks.
# Needs rsvg-convert (Debian/Ubuntu: apt-get install librsvg2-bin). Not part
# of CI.
#
#   scripts/render-marbles-png.sh [output-folder]   (default: .build/marbles-png)
set -euo pipefail
cd "$(dirname "$0")/.."
out="${1:-.build/marbles-png}"
mkdir -p "$out"
command -v rsvg-convert >/dev/null || { echo "rsvg-convert not found (apt-get install librsvg2-bin)" >&2; exit 2; }
swift build --product marbles >/dev/null
marbles=".build/debug/marbles"
render() {
    local name="$1"; shift
    "$marbles" render -o "$out/$name.svg" "$@" >/dev/null
    rsvg-convert "$out/$name.svg" -o "$out/$name.png"
    echo "$out/$name.png"
}
# A 100 ms and a 700 ms gap: the second must be seven times as wide.
render proportional "a 99ms b 699ms c|"
# An operator's input and output on one axis, with a hot subscription point.
render hot --hot -- "-a-^-b--c-|" "---^--B--C-|"
# Ten minutes between b and c: drawn short, as a labelled break.
render break "a-b 10m c|" "-x-y 10m z|"
