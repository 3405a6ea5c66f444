import Testing
import Tick
import TickTesting

/// A cold observable's `asObservable()` keeps the grammar in its
/// subscription rather than through the sink the default `asObservable()`
/// puts over a source (`ColdObservable.asObservable()`). These tests hold
/// it to that sink's path, `subscribeThroughGrammarSink` (package API),
/// event by event.
@Suite struct TestObservableGrammarTests {
    /// One random scenario, run once on each path: what the observer gets,
    /// the subscription log, the pending work and the live resources (count
    /// and kinds, with a recording scope) after every frame.
    static func trace(seed: UInt64, throughSink: Bool) -> [String] {
        var random = SeededGenerator(seed: seed)
        let count = Int.random(in: 0...5, using: &random)
        var events: [Recorded<Event<Int>>] = (0..<count).map { index in
            let time = TestTime(Int.random(in: 0...6, using: &random))
            switch Int.random(in: 0..<10, using: &random) {
            case 0, 1: return .completed(time)
            case 2: return .error(time, TestError(index))
            default: return .next(time, index)
            }
        }
        // Mostly in time order (the cold subscription's in-order path), now
        // and then not (one closure per event).
        if Int.random(in: 0..<4, using: &random) != 0 { events.sort { $0.time < $1.time } }
        let scheduler = TestScheduler(simulateProcessingDelay: Bool.random(using: &random))
        let cold = scheduler.createColdObservable(events)
        let subscribeAt = TestTime(Int.random(in: 0...2, using: &random))
        let disposeAt: TestTime? = Bool.random(using: &random) ? TestTime(Int.random(in: 0...9, using: &random)) : nil
        // The observer may dispose the subscription when it gets its n-th
        // event (from inside the delivery), and may sit behind a `map`.
        let disposeOnEvent: Int? = Bool.random(using: &random) ? Int.random(in: 0...3, using: &random) : nil
        let throughMap = Bool.random(using: &random)
        let observable =
            throughSink
            ? Observable<Int>.subscribing(with: { cold.subscribeThroughGrammarSink($0) }) : cold.asObservable()
        let source = throughMap ? observable.map { $0 * 10 } : observable
        let scope = Resources.Scope(recordingDetails: true)
        var lines: [String] = []
        var received = 0
        var subscription: (any Disposable)?
        _ = scheduler.scheduleAt(subscribeAt) {
            subscription = scope.run {
                source.subscribe(
                    AnyObserver<Int> { event in
                        lines.append("\(scheduler.clock): \(event)")
                        received += 1
                        if received - 1 == disposeOnEvent, let subscription {
                            lines.append("disposed inside a delivery")
                            subscription.dispose()
                        }
                    })
            }
        }
        if let disposeAt { _ = scheduler.scheduleAt(disposeAt) { subscription?.dispose() } }
        for frame in 0...10 {
            scheduler.advance(to: TestTime(frame))
            lines.append(
                "after \(frame): \(cold.subscriptions) pending \(scheduler.pendingCount) live \(scope.live) "
                    + "\(scope.liveResources.map(\.kind))")
        }
        subscription?.dispose()
        lines.append("at the end: \(cold.subscriptions) live \(scope.live) \(scope.liveResources.map(\.kind))")
        return lines
    }

    @Test func asObservableAgreesWithTheGrammarSinkPath() {
        var mismatches: [String] = []
        // How often the cases that the grammar decides come up.
        var endedByATerminalEvent = 0
        var disposedFromInsideADelivery = 0
        for seed in 1...3_000 as ClosedRange<UInt64> {
            let direct = Self.trace(seed: seed, throughSink: false)
            let sink = Self.trace(seed: seed, throughSink: true)
            if direct != sink, mismatches.count < 3 {
                mismatches.append("seed \(seed):\n\(direct.joined(separator: "\n"))\n!=\n\(sink.joined(separator: "\n"))")
            }
            if direct.contains(where: { $0.hasSuffix("completed") || $0.contains(": error(") }) {
                endedByATerminalEvent += 1
            }
            if direct.contains(where: { $0.hasPrefix("disposed inside") }) { disposedFromInsideADelivery += 1 }
        }
        #expect(mismatches.isEmpty, "\(mismatches.joined(separator: "\n\n"))")
        #expect(endedByATerminalEvent > 500)
        #expect(disposedFromInsideADelivery > 200)
    }

    @Test func eventsAfterATerminalEventAreDroppedAndTheSubscriptionEndsAtIt() {
        let scheduler = TestScheduler()
        let cold = scheduler.createColdObservable([.next(1, 1), .completed(2), .next(3, 2), .error(4, TestError(0))])
        let observer = scheduler.createObserver(Int.self)
        _ = scheduler.scheduleAt(10) { _ = cold.asObservable().subscribe(observer) }
        scheduler.run()
        #expect(observer.events == [.next(11, 1), .completed(12)])
        #expect(cold.subscriptions == [Subscription(10, 12)])
        #expect(scheduler.pendingCount == 0)
    }

    #if DEBUG
    @Test func aLeakedSubscriptionIsReportedAsTheSink() {
        let scheduler = TestScheduler()
        let cold = scheduler.createColdObservable([.next(1, 1)])
        let scope = Resources.Scope(recordingDetails: true)
        let line: UInt = #line + 1
        let subscription = scope.run { cold.asObservable().subscribe(onNext: { _ in }) }
        scheduler.advance(to: 1)
        let kinds = scope.liveResources.map(\.kind)
        #expect(kinds.contains { $0.contains("AnonymousSink<Int>") })
        #expect(scope.liveResources.allSatisfy { $0.site?.line == line })
        subscription.dispose()
        #expect(scope.live == 0)
    }
    #endif
}
