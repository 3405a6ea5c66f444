import Dispatch
import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// Async work that no TestScheduler drives, run the same way by an executable
// that links TickTesting (`tick-benchmarks`) and by one that does not
// (`tick-benchmarks-control`): Tick must be invisible to it, in how many of
// its jobs run at once and in what each job costs (Docs/AsyncAwait.md,
// "Invisible to other tests"; Docs/Performance.md, "Work Tick does not
// drive"). This module imports nothing of Tick.
//
//   <binary> --workload yield 100000 [--repetitions R]
//   <binary> --workload spawn 20000
//   <binary> --workload group 10000
//   <binary> --workload barrier 4 500
//
// The first three print `name: N ops, T s, ns/op, cpu ns/op`, the median of
// R repetitions (default 5); `scripts/invisible.sh` runs them in both
// binaries, under callgrind and in CPU time, and prints the ratios. `barrier`
// is the starvation probe of issue 22 (see `barrier(tasks:boundMilliseconds:)`).

/// The workloads, and the command line both executables share.
public enum AsyncWorkloads {
    /// Runs the workload `arguments` name (`--workload name N ...`) and
    /// returns the exit status; nil if `arguments` does not start with
    /// `--workload`.
    public static func main(_ arguments: [String]) -> Int32? {
        guard arguments.first == "--workload" else { return nil }
        let rest = Array(arguments.dropFirst())
        guard let name = rest.first else { return usage() }
        var numbers: [Int] = []
        var repetitions = 5
        var index = 1
        while index < rest.count {
            if rest[index] == "--repetitions", index + 1 < rest.count, let value = Int(rest[index + 1]) {
                repetitions = max(1, value)
                index += 2
            } else if let value = Int(rest[index]) {
                numbers.append(value)
                index += 1
            } else {
                return usage()
            }
        }
        switch name {
        case "yield": print(measure(name, numbers.first ?? 100_000, repetitions, yields))
        case "spawn": print(measure(name, numbers.first ?? 20_000, repetitions, spawns))
        case "group": print(measure(name, numbers.first ?? 10_000, repetitions, groupChildren))
        case "barrier":
            let tasks = numbers.first ?? 4
            let bound = numbers.count > 1 ? numbers[1] : 500
            let result = barrier(tasks: tasks, boundMilliseconds: bound)
            print("barrier: \(tasks) tasks, \(result.started) started, \(result.finished) finished within \(bound) ms")
            // The tasks still blocked can never finish: leave without them.
            exit(0)
        default: return usage()
        }
        return 0
    }

    /// Runs the workload and exits the process with its status, if
    /// `arguments` asks for one (`--workload ...`); else returns.
    public static func exitIfAsked(_ arguments: [String]) {
        if let status = main(arguments) { exit(status) }
    }

    private static func usage() -> Int32 {
        print("usage: --workload yield|spawn|group [N] [--repetitions R] | --workload barrier [tasks] [bound ms]")
        return 2
    }

    // MARK: The three costs

    /// One task yields `n` times (each yield is one enqueue of its
    /// continuation on the default executor).
    static func yields(_ n: Int) async -> Int {
        for _ in 0..<n { await Task.yield() }
        return n
    }

    /// A task starts `n` child tasks one after the other and awaits each
    /// one's value (each: a task created, enqueued, run and awaited).
    static func spawns(_ n: Int) async -> Int {
        var sum = 0
        for index in 0..<n { sum &+= await Task { index }.value }
        return sum
    }

    /// A task group of `n` children, all added, then all awaited.
    static func groupChildren(_ n: Int) async -> Int {
        await withTaskGroup(of: Int.self) { group in
            for index in 0..<n { group.addTask { index } }
            var sum = 0
            for await value in group { sum &+= value }
            return sum
        }
    }

    /// Runs `body(n)` in a task off the main thread (as a test body runs)
    /// `repetitions` times, and returns the median wall and CPU time per
    /// operation.
    static func measure(
        _ name: String, _ n: Int, _ repetitions: Int, _ body: @escaping @Sendable (Int) async -> Int
    ) -> String {
        var wall: [Double] = []
        var cpu: [Double] = []
        for _ in 0..<repetitions {
            let (wallStart, cpuStart) = (monotonicSeconds(), processCPUSeconds())
            let done = DispatchSemaphore(value: 0)
            Task.detached {
                _ = await body(n)
                done.signal()
            }
            done.wait()
            wall.append(monotonicSeconds() - wallStart)
            cpu.append(processCPUSeconds() - cpuStart)
        }
        func median(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }
        let perOp = { (seconds: Double) in Int((seconds * 1e9 / Double(max(n, 1))).rounded()) }
        return "\(name): \(n) ops, \(median(wall)) s, \(perOp(median(wall))) ns/op, cpu \(perOp(median(cpu))) ns/op"
            + " (median of \(repetitions))"
    }

    // MARK: Starvation

    /// The blocking barrier of issue 22: a `DispatchGroup` entered `tasks`
    /// times, and `tasks` tasks that each `leave()` it, then `wait()` on it.
    /// The barrier opens only once every task has started; a task that
    /// waits holds its thread. With the runtime's pool (as many threads as
    /// cores, never more) and more tasks than cores, as many tasks start as
    /// the pool has threads and none finishes, for good: the program waits
    /// for the tasks up to `boundMilliseconds` of real time (the bound is
    /// the probe's, not a wait for the result), then counts. A pool that
    /// adds threads when its jobs block lets more start, and may let all of
    /// them finish: code that starves in production would pass its tests.
    public static func barrier(tasks: Int, boundMilliseconds: Int) -> (started: Int, finished: Int) {
        let counts = Counts()
        let barrier = DispatchGroup()
        for _ in 0..<tasks { barrier.enter() }
        let finished = DispatchSemaphore(value: 0)
        for _ in 0..<tasks {
            Task.detached {
                counts.started.add(1, ordering: .relaxed)
                barrier.leave()
                barrier.wait()
                counts.finished.add(1, ordering: .relaxed)
                finished.signal()
            }
        }
        let deadline = DispatchTime.now() + .milliseconds(boundMilliseconds)
        var ended = 0
        while ended < tasks, finished.wait(timeout: deadline) == .success { ended += 1 }
        return (counts.started.load(ordering: .relaxed), counts.finished.load(ordering: .relaxed))
    }

    final class Counts: Sendable {
        let started = Atomic<Int>(0)
        let finished = Atomic<Int>(0)
    }

    // MARK: Clocks

    static func monotonicSeconds() -> Double {
        Double(DispatchTime.now().uptimeNanoseconds) / 1e9
    }

    /// The process's CPU time so far (every thread, user and system), in
    /// seconds: unlike wall time, it leaves out the time the process waited
    /// for a core while other processes ran. (Also `tick-benchmarks`'s.)
    public static func processCPUSeconds() -> Double {
        var usage = rusage()
        #if canImport(Glibc)
        getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
        #else
        getrusage(RUSAGE_SELF, &usage)
        #endif
        func seconds(_ time: timeval) -> Double { Double(time.tv_sec) + Double(time.tv_usec) / 1e6 }
        return seconds(usage.ru_utime) + seconds(usage.ru_stime)
    }
}
