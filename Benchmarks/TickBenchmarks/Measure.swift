import AsyncWorkloads
import Dispatch
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One scenario's result over several repetitions.
struct Measurement {
    let name: String
    let operations: Int
    let seconds: [Double]
    var notes: [String] = []
    /// The process's CPU time (every thread, user and system) of each
    /// repetition, when measured (``measure(_:operations:repetitions:cpu:setup:_:)``).
    var cpuSeconds: [Double] = []

    var median: Double {
        let sorted = seconds.sorted()
        let mid = sorted.count / 2
        return sorted.count % 2 == 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2
    }

    var nanosecondsPerOperation: Double { median * 1e9 / Double(operations) }

    /// The median CPU time per operation, if measured.
    var cpuNanosecondsPerOperation: Double? {
        guard !cpuSeconds.isEmpty else { return nil }
        let sorted = cpuSeconds.sorted()
        return sorted[sorted.count / 2] * 1e9 / Double(operations)
    }

    /// `name: N ops, T s, ns/op, ops/s` (median of the repetitions).
    var line: String {
        let opsPerSecond = Double(operations) / median
        var text =
            "\(name): \(operations) ops, \(format(median, 4)) s, \(format(nanosecondsPerOperation, 1)) ns/op, \(format(opsPerSecond, 0)) ops/s"
        text += " (median of \(seconds.count))"
        if let cpu = cpuNanosecondsPerOperation { text += ", cpu \(format(cpu, 1)) ns/op" }
        if !notes.isEmpty { text += ", " + notes.joined(separator: ", ") }
        return text
    }
}

func format(_ value: Double, _ decimals: Int) -> String {
    var scale = 1.0
    for _ in 0..<decimals { scale *= 10 }
    let rounded = (value * scale).rounded() / scale
    if decimals == 0 { return String(Int(rounded)) }
    let whole = Int(rounded)
    var fraction = String(Int(((rounded - Double(whole)) * scale).rounded()))
    while fraction.count < decimals { fraction = "0" + fraction }
    return "\(whole).\(fraction)"
}

/// Wall time of `body` in seconds.
func time(_ body: () -> Void) -> Double {
    let start = DispatchTime.now().uptimeNanoseconds
    body()
    return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
}

/// Set by `--callgrind` (see `Benchmarks/gate.sh`): every scenario runs its
/// measured region once untimed (a warm-up, so one-time costs such as lazy
/// metadata are not counted), then once inside ``measuredRegion(_:)``, the only
/// code whose instructions callgrind collects.
nonisolated(unsafe) var callgrindMode = false

/// The timed region, as one function that is never inlined and has a plain
/// symbol name, so `valgrind --tool=callgrind --toggle-collect=tick_measured_region`
/// counts exactly the instructions run inside it (setup, warm-up, process
/// start-up and printing are left out).
@inline(never) @_silgen_name("tick_measured_region")
func measuredRegion(_ body: () -> Void) {
    body()
}

/// Runs `setup` + `measured` `repetitions` times; only `measured` is timed.
/// In ``callgrindMode``: one untimed warm-up, then one run inside ``measuredRegion(_:)``.
/// With `cpu`, each repetition's process CPU time is measured too (printed
/// as `cpu … ns/op`).
func measure<State>(
    _ name: String, operations: Int, repetitions: Int, cpu: Bool = false,
    setup: () -> State, _ measured: (inout State) -> Void
) -> Measurement {
    if callgrindMode {
        var warmUp = setup()
        measured(&warmUp)
        var state = setup()
        let seconds = time { measuredRegion { measured(&state) } }
        return Measurement(name: name, operations: operations, seconds: [seconds])
    }
    var seconds: [Double] = []
    var cpuSeconds: [Double] = []
    for _ in 0..<repetitions {
        var state = setup()
        let cpuStart = cpu ? AsyncWorkloads.processCPUSeconds() : 0
        seconds.append(time { measured(&state) })
        if cpu { cpuSeconds.append(AsyncWorkloads.processCPUSeconds() - cpuStart) }
    }
    var result = Measurement(name: name, operations: operations, seconds: seconds)
    result.cpuSeconds = cpuSeconds
    return result
}

/// Like ``measure(_:operations:repetitions:setup:_:)`` for two programs doing
/// the same work (Tick and the floor), their repetitions interleaved (a, b, a,
/// b, …) so that both see the same machine load; the result's notes give the
/// ratio of the medians. In ``callgrindMode`` only `a` is measured.
func measurePair<StateA, StateB>(
    _ name: String, operations: Int, repetitions: Int,
    setup a: () -> StateA, _ measuredA: (inout StateA) -> Void,
    floor b: () -> StateB, _ measuredB: (inout StateB) -> Void
) -> Measurement {
    if callgrindMode {
        return measure(name, operations: operations, repetitions: 1, setup: a, measuredA)
    }
    var secondsA: [Double] = []
    var secondsB: [Double] = []
    for _ in 0..<repetitions {
        var stateA = a()
        secondsA.append(time { measuredA(&stateA) })
        var stateB = b()
        secondsB.append(time { measuredB(&stateB) })
    }
    var result = Measurement(name: name, operations: operations, seconds: secondsA)
    let floor = Measurement(name: "floor", operations: operations, seconds: secondsB)
    result.notes.append(
        "floor \(format(floor.nanosecondsPerOperation, 1)) ns/op, \(format(result.median / floor.median, 2))× floor")
    return result
}

/// The process's current resident set size in bytes (Linux), to measure
/// memory per pending action as the growth of resident memory. Memory the
/// allocator holds only because it was freed (old buffers of a growing array)
/// is returned to the system first, so the figure is what is live.
func residentBytes() -> Int? {
    #if canImport(Glibc)
    typealias Trim = @convention(c) (Int) -> Int32
    if let symbol = dlsym(nil, "malloc_trim") {
        _ = unsafeBitCast(symbol, to: Trim.self)(0)
    }
    #endif
    return procStatus("VmRSS:")
}

/// The process's anonymous resident memory in bytes (Linux: `RssAnon`, the
/// heap and anonymous mappings, without the pages of code and other files),
/// after returning freed memory to the system as ``residentBytes()`` does.
func anonymousResidentBytes() -> Int? {
    #if canImport(Glibc)
    typealias Trim = @convention(c) (Int) -> Int32
    if let symbol = dlsym(nil, "malloc_trim") {
        _ = unsafeBitCast(symbol, to: Trim.self)(0)
    }
    #endif
    return procStatus("RssAnon:")
}

/// The process's peak resident set size in bytes, where the platform says.
func peakResidentBytes() -> Int? {
    #if canImport(Glibc)
    return procStatus("VmHWM:")
    #else
    var usage = rusage()
    getrusage(RUSAGE_SELF, &usage)
    return Int(usage.ru_maxrss)
    #endif
}

/// A size field of /proc/self/status, in bytes.
func procStatus(_ field: String) -> Int? {
    #if canImport(Glibc)
    guard let file = fopen("/proc/self/status", "r") else { return nil }
    defer { fclose(file) }
    var line = [CChar](repeating: 0, count: 256)
    while fgets(&line, Int32(line.count), file) != nil {
        let text = String(decoding: line.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        if text.hasPrefix(field) {
            let digits = text.filter(\.isNumber)
            return Int(digits).map { $0 * 1024 }
        }
    }
    return nil
    #else
    return nil
    #endif
}

/// Runs this executable again as `--memory-probe kind n` and reads the bytes
/// per pending action it prints.
func memoryProbe(_ kind: String, _ n: Int) -> Double? {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/proc/self/exe")
    process.arguments = ["--memory-probe", kind, String(n)]
    let pipe = Pipe()
    process.standardOutput = pipe
    do { try process.run() } catch { return nil }
    let data = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return Double(String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines))
}
