// marble-fuzzer
//
// Fuzzing (libFuzzer provides `main`; see Docs/Performance.md):
//   swift build -c release --product marble-fuzzer --scratch-path .build-fuzz \
//     -Xswiftc -sanitize=fuzzer -Xswiftc -parse-as-library -Xswiftc -DFUZZING -Xswiftc -use-ld=lld
//   .build-fuzz/release/marble-fuzzer -runs=1000000
// (lld, because gold crashes reporting errors on this toolchain's fuzzer runtime.)
//
// Without FUZZING this is a replay tool: it checks each file or argument
// given (a crash input libFuzzer saved, say) with the same properties.
#if !FUZZING
import Foundation

@main
enum Replay {
    static func main() {
        var checked = 0
        for argument in CommandLine.arguments.dropFirst() {
            let bytes = FileManager.default.contents(atPath: argument).map(Array.init) ?? Array(argument.utf8)
            bytes.withUnsafeBytes { checkMarbleInput($0) }
            checked += 1
        }
        print("marble-fuzzer: \(checked) input(s) checked, no property violated")
    }
}
#endif
