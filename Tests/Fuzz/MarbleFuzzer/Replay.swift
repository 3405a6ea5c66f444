// marble-fuzzer
//
// Fuzzing (libFuzzer provides `main`; see Docs/Performance.md):
//   swift build -c release --product marble-fuzzer --scratch-path .build-fuzz \
//     -Xswiftc -sanitize=fuzzer -Xswiftc -parse-as-library -Xswiftc -DFUZZING -Xswiftc -use-ld=lld
//   .build-fuzz/release/marble-fuzzer -runs=1000000
// (lld, because gold crashes reporting errors on this toolchain's fuzzer runtime.)
//
// Modes (FuzzModes.swift): --mode=parse (default), roundtrip, diff, cli, e.g.
//   .build-fuzz/release/marble-fuzzer --mode=diff -max_len=65536 -max_total_time=600
//
// Without FUZZING this is a replay tool: it checks each file or argument
// given (a crash input libFuzzer saved, say) with the same properties, in the
// mode given by --mode.
#if !FUZZING
import Foundation

@main
enum Replay {
    static func main() {
        var checked = 0
        var arguments = Array(CommandLine.arguments.dropFirst())
        guard let mode = FuzzMode.take(from: &arguments) else {
            print("marble-fuzzer: unknown --mode; use one of \(FuzzMode.allCases.map(\.rawValue))")
            exit(2)
        }
        for argument in arguments {
            let bytes = FileManager.default.contents(atPath: argument).map(Array.init) ?? Array(argument.utf8)
            bytes.withUnsafeBytes { mode.check($0) }
            checked += 1
        }
        print("marble-fuzzer: \(checked) input(s) checked, no property violated")
    }
}
#endif
