import Testing
import Tick
@testable import TickTesting

/// A cold subscription schedules all its events under one turn of the
/// scheduler's lock (`TestScheduler.enqueueRun`) and cancels them as one run
/// of sequence numbers (`cancel(sequencesFrom:count:)`). Its rule is that
/// each event is scheduled exactly as `schedule(at: start + time)` would
/// schedule it, `start` being the clock at the subscription. These tests
/// hold it to a reference made of exactly that: one `schedule(at:)` per
/// event, each disposable kept and disposed one by one.
@Suite struct TestObservableSchedulingTests {
    /// A cold observable written with the public scheduling API only: the
    /// reference.
    final class ReferenceCold {
        // Weak, as a test observable's: the scheduler's queue holds what
        // refers to this.
        weak var scheduler: TestScheduler?
        let events: [Recorded<Event<Int>>]

        init(scheduler: TestScheduler, events: [Recorded<Event<Int>>]) {
            self.scheduler = scheduler
            self.events = events
        }

        func subscribe(_ observer: AnyObserver<Int>) -> any Disposable {
            guard let scheduler else { return Disposables.create() }
            let start = scheduler.now
            let disposables = events.map { recorded in
                let event = recorded.value
                return scheduler.schedule(at: start + (scheduler.instant(for: recorded.time) - .origin)) {
                    observer.on(event)
                }
            }
            return Disposables.create(with: { disposables.forEach { $0.dispose() } })
        }
    }

    /// One random scenario, run on the cold observable or on the reference:
    /// what each observer gets and when, the pending count after every
    /// frame, and the hint about undriven work the scheduler gives as it
    /// goes away.
    static func trace(seed: UInt64, reference: Bool) -> [String] {
        var random = SeededGenerator(seed: seed)
        // Now and then the longest frame, where the latest times pass the
        // end of the clock (and `start + time` saturates).
        let longFrames = Int.random(in: 0..<20, using: &random) == 0
        let frame = longFrames ? TestScheduler.maximumFrame : .milliseconds(1)
        let count = Int.random(in: 0...6, using: &random)
        let events: [Recorded<Event<Int>>] = (0..<count).map { index in
            var time = TestTime(Int.random(in: -2...6, using: &random))
            switch Int.random(in: 0..<8, using: &random) {
            case 0:
                // A time between frames.
                time = TestTime(frames: time.frames, remainder: frame / 3)
            case 1 where longFrames:
                time = TestTime(Int.max - Int.random(in: 0...1, using: &random))
            default: break
            }
            switch Int.random(in: 0..<10, using: &random) {
            case 0: return .completed(time)
            case 1: return .error(time, TestError(index))
            default: return .next(time, index)
            }
        }
        let sorted = Int.random(in: 0..<3, using: &random) != 0
        let recording = sorted ? events.sorted { $0.time < $1.time } : events
        let scheduler = TestScheduler(frame: frame, simulateProcessingDelay: Bool.random(using: &random))
        let cold = scheduler.createColdObservable(recording)
        let model = ReferenceCold(scheduler: scheduler, events: recording)
        let subscribe: (AnyObserver<Int>) -> any Disposable =
            reference ? model.subscribe : { cold.subscribe($0) }
        var lines: [String] = []
        var subscriptions: [Int: any Disposable] = [:]
        // Two subscribers, each at its own frame (or at once, from outside a
        // drive), disposed at a random frame or from inside a delivery; a
        // delivery may schedule unrelated work between their sequence numbers.
        for subscriber in 0..<2 {
            let disposeAt: TestTime? = Bool.random(using: &random) ? TestTime(Int.random(in: 0...9, using: &random)) : nil
            let disposeOnEvent: Int? = Bool.random(using: &random) ? Int.random(in: 0...3, using: &random) : nil
            let scheduleOnEvent: Int? = Bool.random(using: &random) ? Int.random(in: 0...3, using: &random) : nil
            var received = 0
            // The scheduler held weakly by what its queue holds, so that it
            // goes away at the end (and gives its hint).
            let observer = AnyObserver<Int> { [weak scheduler] event in
                guard let scheduler else { return }
                lines.append("\(subscriber) at \(scheduler.clock): \(event)")
                if received == scheduleOnEvent {
                    _ = scheduler.schedule(after: .zero) { [weak scheduler] in
                        lines.append("\(subscriber): unrelated at \(scheduler?.clock ?? 0)")
                    }
                }
                if received == disposeOnEvent { subscriptions[subscriber]?.dispose() }
                received += 1
            }
            if Int.random(in: 0..<4, using: &random) == 0 {
                subscriptions[subscriber] = subscribe(observer)
            } else {
                _ = scheduler.scheduleAt(TestTime(Int.random(in: 0...2, using: &random))) {
                    subscriptions[subscriber] = subscribe(observer)
                }
            }
            if let disposeAt { _ = scheduler.scheduleAt(disposeAt) { subscriptions[subscriber]?.dispose() } }
        }
        // Now and then the test never drives the scheduler (the hint counts
        // the work scheduled outside a drive).
        if Int.random(in: 0..<5, using: &random) != 0 {
            for frame in 0...10 {
                scheduler.advance(to: TestTime(frame))
                lines.append("after \(frame): pending \(scheduler.pendingCount)")
            }
        }
        lines.append("at the end: pending \(scheduler.pendingCount)")
        subscriptions.values.forEach { $0.dispose() }
        lines.append("disposed: pending \(scheduler.pendingCount)")
        return lines
    }

    /// `trace` with the hint the scheduler gives as it goes away.
    static func traceWithHint(seed: UInt64, reference: Bool) -> [String] {
        let hints = Locked<[String]>([])
        let lines = PendingWorkLog.$hintHandler.withValue({ message, _ in hints.withLock { $0.append(message) } }) {
            trace(seed: seed, reference: reference)
        }
        return lines + hints.withLock { $0 }.map { "hint: \($0)" }
    }

    @Test func aColdSubscriptionSchedulesAsScheduleAtDoes() {
        var mismatches: [String] = []
        var hinted = 0
        var neverDue = 0
        var disposedWithWorkPending = 0
        for seed in 1...3_000 as ClosedRange<UInt64> {
            let cold = Self.traceWithHint(seed: seed, reference: false)
            let model = Self.traceWithHint(seed: seed, reference: true)
            if cold != model, mismatches.count < 3 {
                mismatches.append("seed \(seed):\n\(cold.joined(separator: "\n"))\n!=\n\(model.joined(separator: "\n"))")
            }
            if cold.contains(where: { $0.hasPrefix("hint:") }) { hinted += 1 }
            if cold.contains(where: { $0.hasPrefix("after 10: pending") && !$0.hasSuffix("pending 0") }) { neverDue += 1 }
            if let index = cold.firstIndex(where: { $0.hasPrefix("at the end:") }), index + 1 < cold.count,
                cold[index] != "at the end: pending 0"
            {
                disposedWithWorkPending += 1
            }
        }
        #expect(mismatches.isEmpty, "\(mismatches.joined(separator: "\n\n"))")
        // The cases the scheduling decides come up often enough.
        #expect(hinted > 200)
        #expect(neverDue > 10)
        #expect(disposedWithWorkPending > 200)
    }

    @Test func aDisposedSubscriptionCancelsOnlyItsOwnEvents() {
        // Two subscriptions' runs of sequence numbers, with unrelated work
        // scheduled between them: disposing the first leaves the rest.
        let scheduler = TestScheduler()
        let cold = scheduler.createColdObservable([.next(2, "a"), .next(4, "b"), .completed(6)])
        let first = scheduler.createObserver(String.self)
        let second = scheduler.createObserver(String.self)
        var unrelated = false
        let subscription = cold.subscribe(first)
        _ = scheduler.scheduleAt(3) { unrelated = true }
        _ = cold.subscribe(second)
        #expect(scheduler.pendingCount == 7)
        scheduler.advance(to: 2)
        subscription.dispose()
        #expect(scheduler.pendingCount == 3)
        scheduler.run()
        #expect(unrelated)
        #expect(first.events == [.next(2, "a")])
        #expect(second.events == [.next(2, "a"), .next(4, "b"), .completed(6)])
    }
}
