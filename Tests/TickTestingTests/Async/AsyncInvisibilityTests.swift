import Foundation
import Testing
import Tick
@testable import TickTesting

/// Tick is invisible to the async work it does not drive (Docs/AsyncAwait.md,
/// "Invisible to other tests"): a test binary links every test target
/// together, so whatever Tick does with a job no TestScheduler owns, every
/// async test of the binary gets. And `TICK_ASYNC_HOOKS=off` takes Tick out
/// of a whole process.
///
/// Both proofs run a child process (Linux: the products `swift build
/// --build-tests` and `swift test` build sit next to this test binary).
@Suite struct AsyncInvisibilityTests {
    #if os(Linux)
    /// What a child process printed, and how it ended.
    struct ChildRun: Sendable {
        let status: Int32
        let output: String
    }

    /// The folder of the built products (this test binary's).
    static func productsFolder() throws -> URL {
        let binary = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")
        return URL(fileURLWithPath: binary).deletingLastPathComponent()
    }

    /// Runs `executable` with `arguments` and `environment` added to this
    /// process's, and returns what it printed (standard output and error).
    static func run(_ executable: URL, _ arguments: [String], environment extra: [String: String] = [:]) async throws
        -> ChildRun
    {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        var environment = ProcessInfo.processInfo.environment
        for (key, value) in extra { environment[key] = value }
        process.environment = environment
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        process.standardInput = FileHandle.nullDevice
        try process.run()
        // The pipe is read to its end before waiting: a child that printed
        // more than a pipe holds would otherwise never exit.
        let data = try await Task.detached { try pipe.fileHandleForReading.readToEnd() ?? Data() }.value
        process.waitUntilExit()
        return ChildRun(status: process.terminationStatus, output: String(decoding: data, as: UTF8.self))
    }

    /// A built executable of the package, or a failure saying how to build it.
    static func product(_ name: String) throws -> URL {
        let url = try productsFolder().appending(path: name)
        try #require(
            FileManager.default.isExecutableFile(atPath: url.path(percentEncoded: false)),
            "\(name) is not built next to the test binary: run `swift build --build-tests` (what `swift test` builds)")
        return url
    }

    /// `started` and `finished` from the line `barrier: N tasks, S started, F finished within B ms`.
    static func barrierCounts(_ run: ChildRun) -> (started: Int, finished: Int)? {
        guard let line = run.output.split(separator: "\n").first(where: { $0.hasPrefix("barrier: ") }) else {
            return nil
        }
        let numbers = line.split(whereSeparator: { !$0.isNumber }).compactMap { Int($0) }
        guard numbers.count >= 3 else { return nil }
        return (numbers[1], numbers[2])
    }

    /// The blocking barrier of issue 22 (`AsyncWorkloads.barrier`): more
    /// tasks than cores, each leaving a `DispatchGroup` and then waiting on
    /// it, started by a program that does not link TickTesting
    /// (`tick-benchmarks-control`) and by one that does, with Tick's
    /// executor as the default (`tick-benchmarks`) and without it
    /// (`TICK_DEFAULT_EXECUTOR=off`, the path of the other platforms). The
    /// runtime's pool runs as many of the tasks as it has threads and none
    /// finishes; Tick linked, the same: not one task more starts.
    ///
    /// Before, Tick ran these jobs on `DispatchQueue.global(qos:)`, whose
    /// pool gets one more thread about every second while its workers block
    /// (libdispatch's monitor on Linux): 3 or 4 of 6 tasks had started
    /// after 1.25 s where the runtime starts 2 (2 cores). So each child
    /// gives its tasks 1.25 s of real time before counting (its own bound:
    /// the program is the thing under test, and the bound is what lets an
    /// over-committing pool show); the three children run at once.
    @Test func blockingTasksStarveTheSameWithAndWithoutTickLinked() async throws {
        let tasks = 2 * ProcessInfo.processInfo.activeProcessorCount + 2
        let arguments = ["--workload", "barrier", "\(tasks)", "1250"]
        let (control, linked) = (try Self.product("tick-benchmarks-control"), try Self.product("tick-benchmarks"))
        async let withoutTick = Self.run(control, arguments)
        async let withTick = Self.run(linked, arguments)
        async let withTickOwnExecutor = Self.run(linked, arguments, environment: ["TICK_DEFAULT_EXECUTOR": "off"])
        let runs = try await [withoutTick, withTick, withTickOwnExecutor]
        for run in runs { #expect(run.status == 0, "\(run.output)") }
        let counts = runs.map(Self.barrierCounts)
        let expected = try #require(counts[0], "\(runs[0].output)")
        // The probe blocks the runtime's pool (else it would prove nothing).
        #expect(expected.started < tasks && expected.finished == 0, "\(runs[0].output)")
        #expect(counts[1]?.started == expected.started && counts[1]?.finished == expected.finished, "\(runs[1].output)")
        #expect(counts[2]?.started == expected.started && counts[2]?.finished == expected.finished, "\(runs[2].output)")
    }

    /// `TICK_ASYNC_HOOKS=off` for a whole test process: this test binary,
    /// run again with the switch and only ``hooksSwitchedOffChild()``. Its
    /// synchronous work runs as always; its async advance fails, once, with
    /// a message naming the switch, and returns (no hang).
    @Test func theHooksSwitchTakesTickOutOfAWholeProcess() async throws {
        let binary = URL(fileURLWithPath: try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
        let child = try await Self.run(
            binary,
            [
                "--testing-library", "swift-testing",
                "--filter", "AsyncInvisibilityTests/hooksSwitchedOffChild",
            ],
            environment: ["TICK_ASYNC_HOOKS": "off", Self.childVariable: "1"])
        let output = child.output
        #expect(child.status != 0, "the child's async advance must fail its test: \(output)")
        #expect(output.contains("hooks: switched off, none active, default executor the runtime's"), "\(output)")
        #expect(output.contains("synchronous: a@10, b@20, c@30"), "\(output)")
        #expect(output.contains("async advance returned at 40"), "\(output)")
        let issues = output.split(separator: "\n").filter { $0.contains("recorded an issue") }
        #expect(issues.count == 1, "\(output)")
        // The issue's comment follows its line.
        #expect(
            output.contains(
                "Tick's Concurrency hooks are switched off for this test process (TICK_ASYNC_HOOKS=off in the environment)"),
            "\(output)")
        #expect(output.contains("with 1 issue"), "\(output)")
    }
    #endif

    /// A job no scheduler owns runs on Tick's pool (RuntimePool.swift), and
    /// inside the wrapper that notes its run (what a driver holding a test
    /// body's jobs waits for), on a fresh run each time.
    @Test func aJobNoSchedulerOwnsRunsTrackedOnThePool() async {
        #if os(Linux)
        #expect(RuntimePool.setup != nil, "the dispatch functions were found")
        #endif
        let runs = await Task.detached { () -> [UInt64?] in
            let first = JobRouting.runningJob?.run
            // The yield is the code under test, not a wait: its resumption
            // is a new job, which must come back through the pool's wrapper.
            await Task.yield()
            return [first, JobRouting.runningJob?.run]
        }.value
        if JobRouting.installation.isActive {
            #expect(runs.allSatisfy { $0 != nil }, "\(runs)")
            #expect(runs[0] != runs[1], "the yield's resumption is a run of its own")
        }
    }

    static let childVariable = "TICK_FIXTURE_HOOKS_OFF"

    /// Run only by ``theHooksSwitchTakesTickOutOfAWholeProcess()``, in a
    /// child process with `TICK_ASYNC_HOOKS=off` (skipped everywhere else).
    @Test(.enabled(if: ProcessInfo.processInfo.environment["TICK_FIXTURE_HOOKS_OFF"] == "1"))
    func hooksSwitchedOffChild() async {
        let installation = JobRouting.installation
        print(
            "hooks: \(installation.switchedOff ? "switched off" : "on"), \(installation.isActive ? "active" : "none active"), "
                + "default executor \(installation.isDefaultExecutor ? "Tick's" : "the runtime's")")
        print("synchronous: \(Self.synchronousWork())")
        let scheduler = TestScheduler()
        let timeline = Timeline(scheduler)
        scheduler.scheduleAt(40) { timeline.record("d") }
        await scheduler.advance(to: 40)
        print("async advance returned at \(scheduler.clock), ran \(timeline.entries)")
    }

    /// Synchronous work on a TestScheduler: three actions at 10, 20, 30.
    static func synchronousWork() -> String {
        let scheduler = TestScheduler()
        let timeline = Timeline(scheduler)
        scheduler.scheduleAt(10) { timeline.record("a") }
        scheduler.scheduleAt(20) { timeline.record("b") }
        scheduler.scheduleAt(30) { timeline.record("c") }
        scheduler.advance(to: 30)
        return timeline.entries.joined(separator: ", ")
    }
}
