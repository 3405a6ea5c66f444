// marble-fuzzer
//
// Fuzzing (libFuzzer provides `main`; see Docs/Performance.md):
//   swift build -c release --product marble-fuzzer --scratch-path .build-fuzz \
//     -Xswiftc -sanitize=fuzzer -Xswiftc -parse-as-library -Xswiftc -DFUZZING
//   .build-fuzz/release/marble-fuzzer -runs=1000000
//
// Without FUZZING this is a replay tool: it checks each file or argument
// given (a crash input libFuzzer saved, say) with the same properties.
#if !FUZZING
import Foundation

var checked = 0
for argument in CommandLine.arguments.dropFirst() {
    let bytes = FileManager.default.contents(atPath: argument).map(Array.init) ?? Array(argument.utf8)
    bytes.withUnsafeBytes { checkMarbleInput($0) }
    checked += 1
}
print("marble-fuzzer: \(checked) input(s) checked, no property violated")
#endif
