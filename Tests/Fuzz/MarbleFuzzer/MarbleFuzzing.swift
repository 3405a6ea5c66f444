import Tick
import TickTesting

/// One fuzz input: the marble parser must never crash, every error must name a
/// position inside the diagram, and every diagram that parses must print back
/// to a diagram that parses to the same events (when the printer says its
/// text is exact). A violated property traps, which is how libFuzzer learns
/// of it.
func checkMarbleInput(_ bytes: UnsafeRawBufferPointer) {
    let diagram = String(decoding: bytes, as: UTF8.self)
    let length = diagram.count
    func checkError(_ error: MarbleError) {
        guard error.position >= 0, error.position <= length, error.description.contains("^") else {
            fatalError("fuzz: bad error position \(error.position) for \(diagram.debugDescription): \(error)")
        }
    }
    for temperature in [Marbles.Temperature.cold, .hot] {
        do {
            let events: [Recorded<Event<String>>] = try Marbles.parse(diagram, temperature)
            let printed = Marbles.print(events)
            if printed.isExact {
                let again: [Recorded<Event<String>>]
                do {
                    again = try Marbles.parse(
                        printed.diagram, events.contains { $0.time.frames < 0 } ? .hot : temperature,
                        values: printed.values)
                } catch {
                    fatalError("fuzz: printed diagram \(printed.diagram.debugDescription) of \(diagram.debugDescription) does not parse: \(error)")
                }
                guard again == events else {
                    fatalError("fuzz: round trip changed \(diagram.debugDescription) -> \(printed.diagram.debugDescription)")
                }
            }
        } catch {
            checkError(error)
        }
    }
    do { _ = try Marbles.parseSubscription(diagram) } catch { checkError(error) }
    do { _ = try Marbles.time(diagram) } catch { checkError(error) }
}

#if FUZZING
import Foundation

/// The mode chosen on the command line (read by libFuzzer's callback, which
/// cannot capture it). Set once before fuzzing starts, on the only thread.
nonisolated(unsafe) var selectedMode = FuzzMode.parse

/// libFuzzer's entry for programs that have their own `main`.
@_silgen_name("LLVMFuzzerRunDriver")
func LLVMFuzzerRunDriver(
    _ argc: UnsafeMutablePointer<CInt>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
    _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt
) -> CInt

/// SwiftPM links an executable through `<module>_main`; in the fuzzing build
/// that entry hands control to libFuzzer, which calls `checkMarbleInput` with
/// each input it generates.
@_cdecl("marble_fuzzer_main")
public func marbleFuzzerMain(
    _ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
) -> CInt {
    // `--mode=NAME` (FuzzMode) is Tick's own option: take it out of the
    // arguments before libFuzzer reads them.
    var arguments = (0..<Int(argc)).map { argv?[$0].map { String(cString: $0) } ?? "" }
    guard let mode = FuzzMode.take(from: &arguments) else {
        print("marble-fuzzer: unknown --mode; use one of \(FuzzMode.allCases.map(\.rawValue))")
        return 2
    }
    selectedMode = mode
    var cArguments: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
    var count = CInt(arguments.count)
    return cArguments.withUnsafeMutableBufferPointer { buffer in
        var base = buffer.baseAddress
        return LLVMFuzzerRunDriver(&count, &base) { data, size in
            selectedMode.check(UnsafeRawBufferPointer(start: data, count: size))
            return 0
        }
    }
}
#endif
