#!/usr/bin/env bash
# The paste check (Docs/DocsAsTests.md, "Examples that paste"): copies every
# test-shaped example of README.md and Docs/*.md (a ```swift block, run or
# no-run, that declares a `@Test` function) into a fresh test target of a
# scratch package, in a temporary folder, that depends on Tick by path as a
# user's package would; then builds it and runs its tests. One package, one
# build.
#
# Each page's test blocks go, in page order, into one file of their own,
# `Tests/PasteCheckTests/<page>.swift`, exactly as written (their `import`
# lines first): so a test-shaped example must paste on its own, with nothing
# from the rest of its page but the other test blocks (and its `file-scope`
# blocks, declarations such as an @Observable class). Top-level code that is
# not a declaration, a name declared twice, an import the page forgot, or a
# call that is ambiguous outside the docs' harness all fail here as they
# would in a user's test file.
#
#   scripts/paste-check.sh            # prints the summary line; exit 1 on failure
#   KEEP=1 scripts/paste-check.sh     # keeps the scratch package and prints its path
set -euo pipefail
repo="$(cd "$(dirname "$0")/.." && pwd)"
work="$(mktemp -d "${TMPDIR:-/tmp}/tick-paste-check.XXXXXX")"
if [ "${KEEP:-0}" != 1 ]; then trap 'rm -rf "$work"' EXIT; fi

# A path dependency's package identity is its folder's name.
identity="$(basename "$repo")"
mkdir -p "$work/Tests/PasteCheckTests"
cat > "$work/Package.swift" <<EOF
// swift-tools-version: 6.0
import PackageDescription

let package = Package(
    name: "PasteCheck",
    platforms: [.macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11), .visionOS(.v2)],
    dependencies: [.package(path: "$repo")],
    targets: [
        .testTarget(
            name: "PasteCheckTests",
            dependencies: [
                .product(name: "Tick", package: "$identity"),
                .product(name: "TickTesting", package: "$identity"),
                .product(name: "TickIndicators", package: "$identity"),
            ]),
    ],
    swiftLanguageModes: [.v6]
)
EOF

# Extract the test-shaped blocks: python3 reads the fences as the docs'
# harness does (backticks or tildes, three or more, optionally indented).
python3 - "$repo" "$work/Tests/PasteCheckTests" > "$work/counts" <<'PY'
import os, re, sys
repo, out = sys.argv[1], sys.argv[2]
pages = ["README.md"] + sorted(
    os.path.join("Docs", name) for name in os.listdir(os.path.join(repo, "Docs")) if name.endswith(".md"))
fence_re = re.compile(r"^( *)(`{3,}|~{3,})(.*)$")
test_re = re.compile(r"(^|\s)@Test\b")
xctest_re = re.compile(r"^\s*(final\s+)?class\s+\w+\s*:\s*XCTestCase\b")
total_blocks = total_pages = 0
for page in pages:
    lines = open(os.path.join(repo, page), encoding="utf-8").read().splitlines()
    blocks, i = [], 0
    while i < len(lines):
        m = fence_re.match(lines[i])
        if not m:
            i += 1
            continue
        indent, marker, info = len(m.group(1)), m.group(2), m.group(3).split()
        start, body, i = i + 1, [], i + 1
        while i < len(lines):
            closing = lines[i].lstrip(" ")
            if closing.startswith(marker[0] * len(marker)) and closing.strip(marker[0] + " \t") == "":
                break
            line = lines[i]
            body.append(line[min(indent, len(line) - len(line.lstrip(" "))):])
            i += 1
        i += 1
        if info[:1] == ["swift"] and "show-only" not in info[1:]:
            if any(test_re.search(l) or xctest_re.match(l) for l in body):
                blocks.append((start, body, True))
            elif "file-scope" in info[1:]:
                # A file-scope block is a declaration of the page (an
                # @Observable class, say) that its tests use, as a declaration
                # of the user's test target would be: it goes in too.
                blocks.append((start, body, False))
    if not any(is_test for _, _, is_test in blocks):
        continue
    total_blocks += sum(1 for _, _, is_test in blocks if is_test)
    blocks = [(start, body) for start, body, _ in blocks]
    if not blocks:
        continue
    total_pages += 1
    imports, code = [], []
    for start, body in blocks:
        code.append(f"// {page}, the block at line {start}")
        code.append(f'#sourceLocation(file: "{page}", line: {start + 1})')
        for line in body:
            if re.match(r"^\s*(@\w+\s+)*import\s+\w+", line):
                if line.strip() not in imports:
                    imports.append(line.strip())
                code.append("")
            else:
                code.append(line)
        code.append("#sourceLocation()")
    name = re.sub(r"[^A-Za-z0-9]", "_", page) + ".swift"
    with open(os.path.join(out, name), "w", encoding="utf-8") as f:
        f.write(f"// Pasted from {page} by scripts/paste-check.sh.\n")
        f.write("\n".join(imports) + "\n\n" + "\n".join(code) + "\n")
print(f"{total_blocks} {total_pages}")
PY
read -r blocks pages < "$work/counts"
if [ "$blocks" = 0 ]; then
    echo "paste-check: no test-shaped example found" >&2
    exit 1
fi

cd "$work"
if ! swift build --build-tests >"$work/build.log" 2>&1; then
    grep -E "error:" "$work/build.log" | sort -u >&2 || true
    echo "paste-check: the $blocks test-shaped examples of $pages page(s) do not build in a user's test target (log: $work/build.log)" >&2
    [ "${KEEP:-0}" = 1 ] || cp "$work/build.log" "${TMPDIR:-/tmp}/tick-paste-check-build.log"
    exit 1
fi
if ! swift test --skip-build >"$work/test.log" 2>&1; then
    grep -E "✘|error:|failed" "$work/test.log" >&2 || true
    echo "paste-check: the $blocks test-shaped examples of $pages page(s) build, but their tests fail in a user's test target" >&2
    exit 1
fi
ran="$(grep -Eo 'Test run with [0-9]+ tests?' "$work/test.log" | grep -Eo '[0-9]+' | head -1)"
if [ -z "$ran" ] || [ "$ran" = 0 ]; then
    echo "paste-check: the $blocks test-shaped examples of $pages page(s) built, but no test ran" >&2
    exit 1
fi
echo "paste-check: $blocks test-shaped example(s) of $pages page(s) pasted into a user's test target: built, and its $ran tests passed."
[ "${KEEP:-0}" = 1 ] && echo "paste-check: the scratch package is $work"
exit 0
