import Dispatch
import Synchronization
import Testing
import Tick
import TickTesting

/// Operators that pass elements through unchanged, for the re-entrancy checks.
private func passThrough() -> [(name: String, apply: (Observable<Int>) -> Observable<Int>)] { [
    ("map", { $0.map { $0 } }),
    ("compactMap", { $0.compactMap { $0 } }),
    ("distinctUntilChanged", { $0.distinctUntilChanged() }),
    ("skip(0)", { $0.skip(0) }),
    ("skip(while:)", { $0.skip(while: { _ in false }) }),
    ("take(while:)", { $0.take(while: { _ in true }) }),
    ("flatMap", { $0.flatMap { Observable.just($0) } }),
    ("flatMapLatest", { $0.flatMapLatest { Observable.just($0) } }),
    ("concatMap", { $0.concatMap { Observable.just($0) } }),
    ("merge", { $0.merge(with: Observable<Int>.empty()) }),
    ("combineLatest", { Observable.combineLatest($0, Observable.just(0)) { x, _ in x } }),
    ("withLatestFrom", { $0.withLatestFrom(BehaviorSubject(value: 0)) { x, _ in x } }),
    ("startWith", { $0.startWith() }),
    ("amb", { $0.amb(Observable<Int>.never()) }),
    ("take(until:)", { $0.take(until: Observable<Int>.never()) }),
    ("skip(until:)", { $0.skip(until: Observable.just(0)) }),
    ("share", { $0.share() }),
    ("share(replay: 1)", { $0.share(replay: 1) }),
    ("do", { $0.do(onNext: { _ in }) }),
    ("catchAndReturn", { $0.catchAndReturn(0) }),
    ("retry", { $0.retry(2) }),
    ("materialize/dematerialize", { $0.materialize().dematerialize() }),
] }

@Suite(.checksResourceLeaks) struct ReentrancyTests {
    /// The observer feeds the subject it observes (through the operator) from
    /// inside `onNext`, then disposes its own subscription from inside `onNext`.
    @Test func subjectFedFromItsOwnObserverThenDisposedFromOnNext() {
        for (name, apply) in passThrough() {
            let subject = PublishSubject<Int>()
            var received: [Int] = []
            var subscription: (any Disposable)?
            subscription = apply(subject.asObservable()).subscribe(onNext: { value in
                received.append(value)
                if value < 3 { subject.onNext(value + 1) } else { subscription?.dispose() }
            })
            subject.onNext(1)
            subject.onNext(100)
            #expect(received == [1, 2, 3], "\(name)")
            #expect(!subject.hasObservers, "\(name)")
        }
    }

    /// flatMapFirst drops the re-entrant element: the inner sequence of the
    /// element being delivered is still active (it completes right after).
    @Test func flatMapFirstDropsReentrantElement() {
        let subject = PublishSubject<Int>()
        var received: [Int] = []
        let subscription = subject.flatMapFirst { Observable.just($0) }.subscribe(onNext: { value in
            received.append(value)
            if value < 3 { subject.onNext(value + 1) }
        })
        subject.onNext(1)
        subject.onNext(10)
        #expect(received == [1, 10])
        subscription.dispose()
    }

    /// Completing the subject from inside `onNext` ends the subscription cleanly.
    @Test func terminalEventFromInsideOnNext() {
        for (name, apply) in passThrough() {
            let subject = PublishSubject<Int>()
            var events: [Event<Int>] = []
            let subscription = apply(subject.asObservable()).subscribe { event in
                events.append(event)
                if case .next = event { subject.onCompleted() }
            }
            subject.onNext(1)
            #expect(events == [.next(1), .completed], "\(name)")
            subscription.dispose()
        }
    }
}

/// Sources emitting on several threads at once: the operators must deliver one
/// event at a time.
@Suite(.checksResourceLeaks) struct ConcurrentSourcesStressTests {
    final class SerialCheck: @unchecked Sendable {
        let inside = Atomic<Bool>(false)
        let overlaps = Atomic<Int>(0)
        var values: [[Int]] = []

        func record(_ value: [Int]) {
            if inside.exchange(true, ordering: .acquiringAndReleasing) { overlaps.add(1, ordering: .relaxed) }
            values.append(value)
            inside.store(false, ordering: .releasing)
        }
    }

    static let perSource = 2_000

    func feed(_ subjects: [PublishSubject<Int>]) {
        DispatchQueue.concurrentPerform(iterations: subjects.count) { index in
            for k in 0..<Self.perSource { subjects[index].onNext(k) }
        }
    }

    @Test func mergeSerializes() {
        let subjects = (0..<4).map { _ in PublishSubject<Int>() }
        let check = SerialCheck()
        let d = Observable.merge(subjects.map { $0.asObservable() }).subscribe(onNext: { check.record([$0]) })
        feed(subjects)
        d.dispose()
        #expect(check.overlaps.load(ordering: .relaxed) == 0)
        #expect(check.values.count == 4 * Self.perSource)
    }

    @Test func zipSerializesAndPairsByIndex() {
        let subjects = (0..<4).map { _ in PublishSubject<Int>() }
        let check = SerialCheck()
        let d = Observable.zip(subjects.map { $0.asObservable() }).subscribe(onNext: { check.record($0) })
        feed(subjects)
        d.dispose()
        #expect(check.overlaps.load(ordering: .relaxed) == 0)
        #expect(check.values.count == Self.perSource)
        #expect(check.values.enumerated().allSatisfy { index, row in row == [index, index, index, index] })
    }

    @Test func combineLatestSerializes() {
        let subjects = (0..<4).map { _ in PublishSubject<Int>() }
        let check = SerialCheck()
        let d = Observable.combineLatest(subjects.map { $0.asObservable() }).subscribe(onNext: { check.record($0) })
        feed(subjects)
        d.dispose()
        #expect(check.overlaps.load(ordering: .relaxed) == 0)
        // Every combination after all four have a value: at least the last 1999 of each source.
        #expect(check.values.count >= 4 * Self.perSource - 3 * Self.perSource)
        #expect(check.values.last == [Self.perSource - 1, Self.perSource - 1, Self.perSource - 1, Self.perSource - 1])
    }

    @Test func flatMapSerializesInnerSources() {
        let subjects = (0..<4).map { _ in PublishSubject<Int>() }
        let check = SerialCheck()
        let d = Observable.from(subjects).flatMap { $0 }.subscribe(onNext: { check.record([$0]) })
        feed(subjects)
        d.dispose()
        #expect(check.overlaps.load(ordering: .relaxed) == 0)
        #expect(check.values.count == 4 * Self.perSource)
    }
}
