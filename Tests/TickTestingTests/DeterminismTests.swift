import Testing
import Tick
import TickTesting

/// Virtual time is deterministic: the same test, run again, records exactly the
/// same timeline (times, order, values), whatever else the machine is doing.
@Suite(.checksResourceLeaks) struct DeterminismTests {
    /// A representative set of virtual-time scenarios, each reduced to the text
    /// of its recorded timeline.
    static func timelines() -> [String] {
        var result: [String] = []

        // Hot source through several operators, with delay and a timer merge-like interleave.
        do {
            let scheduler = TestScheduler()
            let xs = scheduler.createHotObservable((0..<200).map { Recorded.next(TestTime(150 + $0 * 3), $0) })
            let observer = scheduler.start(disposed: 900) {
                xs.map { $0 * 7 }.filter { $0 % 3 != 0 }.delay(.microseconds(2500), scheduler: scheduler).take(60)
            }
            result.append("\(observer.events)|\(xs.subscriptions)")
        }

        // Cold sources subscribed at different times, same-instant ties everywhere.
        do {
            let scheduler = TestScheduler()
            let cold = scheduler.createColdObservable([.next(0, "a"), .next(0, "b"), .next(5, "c"), .completed(5)])
            let first = scheduler.createObserver(String.self)
            let second = scheduler.createObserver(String.self)
            scheduler.scheduleAt(10) { _ = cold.subscribe(first) }
            scheduler.scheduleAt(10) { _ = cold.subscribe(second) }
            scheduler.run()
            result.append("\(first.events)|\(second.events)|\(cold.subscriptions)")
        }

        // Timers, intervals and periodic work sharing instants.
        do {
            let scheduler = TestScheduler()
            var log: [String] = []
            let a = Observable<Int>.interval(.milliseconds(3), scheduler: scheduler).subscribe(onNext: { log.append("a\($0)@\(scheduler.clock)") })
            let b = Observable<Int>.timer(.milliseconds(6), period: .milliseconds(6), scheduler: scheduler)
                .subscribe(onNext: { log.append("b\($0)@\(scheduler.clock)") })
            let c = scheduler.schedulePeriodic(after: .zero, period: .milliseconds(4)) { log.append("c@\(scheduler.clock)") }
            scheduler.advance(to: 60)
            [a, b, c].forEach { $0.dispose() }
            result.append(log.joined(separator: ","))
        }

        // Subjects fed from scheduled work, with re-entrant sends.
        do {
            let scheduler = TestScheduler()
            let subject = BehaviorSubject(value: 0)
            var log: [String] = []
            let subscription = subject.subscribe(onNext: { value in
                log.append("\(value)@\(scheduler.clock)")
                if value % 10 == 5 { subject.onNext(value + 1) }
            })
            for step in 1...50 { scheduler.scheduleAt(TestTime(step * 2)) { subject.onNext(step * 5) } }
            scheduler.run()
            subscription.dispose()
            result.append(log.joined(separator: ","))
        }
        return result
    }

    @Test func aHundredRunsRecordIdenticalTimelines() {
        let reference = Self.timelines()
        #expect(reference.allSatisfy { !$0.isEmpty })
        for run in 1..<100 {
            let again = Self.timelines()
            guard again == reference else {
                Issue.record("run \(run) recorded a different timeline")
                return
            }
        }
    }
}
