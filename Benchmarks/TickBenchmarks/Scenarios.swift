import Tick
import TickTesting

/// A counter for actions that capture nothing (benchmarks are single-threaded).
nonisolated(unsafe) var globalCounter = 0

/// A counter the benchmark closures bump, so the work cannot be optimized away.
final class Sink {
    var count = 0
    var sum = 0
}

enum Scenarios {
    /// 1. N actions at pseudo-random frames in 0..<N (fixed seed), scheduled
    /// then run to the end. Also reports resident memory per pending action:
    /// in total (each action is a closure capturing a counter object, whose
    /// context the action itself owns) and the scheduler's own share
    /// (measured with a non-capturing action).
    static func schedulerScheduleAdvance(_ n: Int, repetitions: Int, name: String = "scheduler_schedule_advance") -> Measurement {
        var rng = SeededGenerator(seed: 0x5EED)
        let times = (0..<n).map { _ in TestTime(Int.random(in: 0..<n, using: &rng)) }
        let frames = times.map { Int64($0.frames) }
        var result = measurePair(
            name, operations: n, repetitions: repetitions,
            setup: { (TestScheduler(stepBudget: .max), Sink()) },
            { state in
                let (scheduler, sink) = state
                for time in times {
                    scheduler.scheduleAt(time) { sink.count &+= 1 }
                }
                scheduler.run()
                precondition(sink.count == n, "every action ran")
            },
            floor: { (FloorQueue(), Sink()) },
            { state in floorWork(&state.0, state.1, frames) })
        // Memory is measured in fresh processes: in this one, the allocator
        // reuses what the timed repetitions freed.
        if !callgrindMode, let total = memoryProbe("capturing", n), let own = memoryProbe("plain", n),
            let floor = memoryProbe("floor", n)
        {
            result.notes.append(
                "\(format(total, 1)) bytes/pending action (\(format(own, 1)) the scheduler's own; floor \(format(floor, 1)))")
        }
        return result
    }

    /// The floor's version of scenario 1 (see `FloorQueue`).
    @inline(__always)
    static func floorWork(_ queue: inout FloorQueue, _ sink: Sink, _ frames: [Int64]) {
        // One closure context for every action: the optimizer does the same
        // for Tick's loop (no allocation per action there, measured), but not
        // here unless it is written out.
        let action = { sink.count &+= 1 }
        for frame in frames {
            queue.schedule(at: frame, action)
        }
        queue.run()
        precondition(sink.count == frames.count, "every action ran")
    }

    /// The floor alone (scenario 1's work, see `FloorQueue`), for the gate.
    static func floor(_ n: Int, repetitions: Int) -> Measurement {
        var rng = SeededGenerator(seed: 0x5EED)
        let frames = (0..<n).map { _ in Int64(Int.random(in: 0..<n, using: &rng)) }
        return measure("floor_schedule_advance", operations: n, repetitions: repetitions, setup: { (FloorQueue(), Sink()) }) {
            state in floorWork(&state.0, state.1, frames)
        }
    }

    /// The radix-heap floor alone (scenario 1's work, see `RadixFloorQueue`).
    static func radixFloor(_ n: Int, repetitions: Int) -> Measurement {
        var rng = SeededGenerator(seed: 0x5EED)
        let frames = (0..<n).map { _ in Int64(Int.random(in: 0..<n, using: &rng)) }
        return measure(
            "floor_radix_schedule_advance", operations: n, repetitions: repetitions,
            setup: { (RadixFloorQueue(), Sink()) }
        ) { state in
            let sink = state.1
            let action: (inout RadixFloorQueue) -> Void = { _ in sink.count &+= 1 }
            for frame in frames { state.0.schedule(at: frame, action) }
            state.0.run()
            state.0.deallocate()
            precondition(sink.count == frames.count, "every action ran")
        }
    }

    /// Resident bytes per pending action when `n` actions are scheduled in a
    /// fresh process, counted from before the scheduler (or the floor's
    /// queue) exists, so its set-up (the scheduler object, its lock, the radix
    /// heap's table and slabs) is part of the figure: `capturing` actions own
    /// a closure context, `plain` ones capture nothing (so the figure is the
    /// scheduler's own memory). The reading is the process's *anonymous*
    /// resident memory (`RssAnon`: heap and mappings, where every byte the
    /// scheduler allocates lives), not its code pages: the first call of a
    /// function maps a page of the executable, which is shared, read-only and
    /// paid once per process, not per action (`VmRSS` counts them; at 10k
    /// they were about 40 bytes an action of the figure).
    static func pendingMemory(kind: String, _ n: Int) -> Double? {
        // `plain-vmrss`: `plain` counted with VmRSS (code pages included), for comparison.
        let vmRSS = kind.hasSuffix("-vmrss")
        let reading: () -> Int? = { vmRSS ? residentBytes() : anonymousResidentBytes() }
        let kind = vmRSS ? String(kind.dropLast(6)) : kind
        // Nothing large is allocated before the first reading, so nothing
        // resident can be reused by the scheduler and hide its memory.
        var rng = SeededGenerator(seed: 0x5EED)
        let sink = Sink()
        if kind == "floor" {
            guard let before = reading() else { return nil }
            var queue = FloorQueue()
            for _ in 0..<n {
                queue.schedule(at: Int64(Int.random(in: 0..<n, using: &rng))) { sink.count &+= 1 }
            }
            guard let after = reading() else { return nil }
            queue.run()
            return Double(after - before) / Double(n)
        }
        guard let before = reading() else { return nil }
        let scheduler = TestScheduler(stepBudget: .max)
        for _ in 0..<n {
            let time = TestTime(Int.random(in: 0..<n, using: &rng))
            if kind == "plain" {
                scheduler.scheduleAt(time) { globalCounter &+= 1 }
            } else {
                scheduler.scheduleAt(time) { sink.count &+= 1 }
            }
        }
        guard let after = reading() else { return nil }
        scheduler.run()
        return Double(after - before) / Double(n)
    }

    /// Memory per pending action at 10k, 100k and 1M (each in a fresh
    /// process, counted from before the scheduler exists; see
    /// ``pendingMemory(kind:_:)``): Tick's own (actions that capture nothing),
    /// with capturing actions, and the floor's.
    static func memoryTable(sizes: [Int]) -> [String] {
        sizes.map { n in
            let own = memoryProbe("plain", n)
            let capturing = memoryProbe("capturing", n)
            let floor = memoryProbe("floor", n)
            let vmRSS = memoryProbe("plain-vmrss", n)
            func text(_ value: Double?) -> String { value.map { format($0, 1) } ?? "unavailable" }
            let verdict = own.map { $0 <= 40 ? "ok" : "over" } ?? "?"
            return "memory/\(n): \(text(own)) bytes/pending action, the scheduler's own (target ≤ 40: \(verdict)); "
                + "\(text(capturing)) with capturing actions; floor \(text(floor)); "
                + "the scheduler's own counted with VmRSS (code pages too) \(text(vmRSS))"
        }
    }

    /// 2. A hot test observable of N `next` events at increasing times through
    /// `map`, `filter`, `scan`, recorded by a testable observer.
    static func hotMapFilterScan(_ n: Int, repetitions: Int) -> Measurement {
        measure(
            "hot_map_filter_scan", operations: n, repetitions: repetitions,
            setup: { () -> (TestScheduler, TestableObserver<Int>) in
                let scheduler = TestScheduler(stepBudget: .max)
                let source = scheduler.createHotObservable((0..<n).map { Recorded.next(TestTime($0 + 1), $0) })
                let observer = scheduler.createObserver(Int.self)
                _ = source.map { $0 &* 3 }.filter { $0 % 2 == 0 }.scan(0) { $0 &+ $1 }.subscribe(observer)
                return (scheduler, observer)
            }
        ) { state in
            state.0.run()
            precondition(state.1.events.count == (n + 1) / 2)
        }
    }

    /// 6. N marble expectations, each on its own scheduler: parse a cold
    /// diagram, run it through `map`, compare with the expected diagram.
    static func marbleAssertions(_ n: Int, repetitions: Int) -> Measurement {
        measure("marble_assertions", operations: n, repetitions: repetitions, setup: { () }) { _ in
            for _ in 0..<n {
                let scheduler = TestScheduler()
                let source = scheduler.cold("-a-b-(cd)-|")
                scheduler.expect(source.map { $0.uppercased() }).toBe("-A-B-(CD)-|")
                scheduler.flush()
            }
        }
    }

    /// 3. A PublishSubject with 100 subscribers, N onNext: N × 100 deliveries.
    static func subjectFanout(_ n: Int, repetitions: Int) -> Measurement {
        measure(
            "subject_fanout", operations: n * 100, repetitions: repetitions,
            setup: { () -> (PublishSubject<Int>, Sink, [any Disposable]) in
                let subject = PublishSubject<Int>()
                let sink = Sink()
                let subscriptions = (0..<100).map { _ in subject.subscribe(onNext: { sink.sum &+= $0 }) }
                return (subject, sink, subscriptions)
            }
        ) { state in
            let subject = state.0
            for value in 0..<n { subject.onNext(value) }
            state.2.forEach { $0.dispose() }
        }
    }

    /// 4. N events one frame apart through `delay(1 s)` on the TestScheduler.
    static func delayOperator(_ n: Int, repetitions: Int) -> Measurement {
        measure(
            "delay_operator", operations: n, repetitions: repetitions,
            setup: { () -> (TestScheduler, TestableObserver<Int>) in
                let scheduler = TestScheduler(stepBudget: .max)
                let source = scheduler.createHotObservable((0..<n).map { Recorded.next(TestTime($0 + 1), $0) })
                let observer = scheduler.createObserver(Int.self)
                _ = source.delay(.seconds(1), scheduler: scheduler).subscribe(observer)
                return (scheduler, observer)
            }
        ) { state in
            state.0.run()
            precondition(state.1.events.count == n)
        }
    }

    /// 5. N concurrent `timer` subscriptions, all fired.
    static func manyTimers(_ n: Int, repetitions: Int) -> Measurement {
        measure(
            "many_timers", operations: n, repetitions: repetitions,
            setup: { (TestScheduler(stepBudget: .max), Sink()) }
        ) { state in
            let (scheduler, sink) = state
            for index in 0..<n {
                _ = Observable<Int>.timer(.milliseconds(1 + index % 1000), scheduler: scheduler)
                    .subscribe(onNext: { _ in sink.count &+= 1 })
            }
            scheduler.run()
            precondition(sink.count == n)
        }
    }
}
