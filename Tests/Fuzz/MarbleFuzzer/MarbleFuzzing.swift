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
    var argc = argc
    var argv = argv
    return LLVMFuzzerRunDriver(&argc, &argv) { data, size in
        checkMarbleInput(UnsafeRawBufferPointer(start: data, count: size))
        return 0
    }
}
#endif
