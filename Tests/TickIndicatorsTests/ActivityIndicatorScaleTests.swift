import Testing
import TickIndicators
import TickTesting

/// Issue 16, item 5: registering and unregistering entries must not scan all
/// of them. The size is chosen so that the quadratic indicator (a linear scan
/// per change) takes minutes here, while the heap-based one takes well under
/// a second; no timing is asserted, the tests just have to finish.
@Suite(.checksResourceLeaks) struct ActivityIndicatorScaleTests {
    static let count = 100_000

    @Test func oneHundredThousandConcurrentEntriesKeepTheFirstMessageRule() {
        let indicator = ActivityIndicator()
        let subjects = (0..<Self.count).map { _ in PublishSubject<Int>() }
        // Every other entry has a message: m0, m2, m4, …
        let subscriptions = subjects.enumerated().map { index, subject in
            subject.trackActivity(in: indicator, message: index.isMultiple(of: 2) ? "m\(index)" : nil).subscribe()
        }
        #expect(indicator.state == state(true, "m0"))
        // Ending them in registration order moves the first message each time.
        var mismatches = 0
        for (index, subject) in subjects.enumerated() {
            subject.onCompleted()
            let firstLeft = index + 1 + (index + 1) % 2
            let loading = index + 1 < Self.count
            let expected = state(loading, firstLeft < Self.count ? "m\(firstLeft)" : nil)
            if indicator.state != expected { mismatches += 1 }
        }
        #expect(mismatches == 0)
        #expect(indicator.state == state(false, nil))
        for subscription in subscriptions { subscription.dispose() }
    }

    @Test func entriesEndingBelowALongLivedOneDoNotPileUp() {
        // A long-lived first entry stays on top while many later ones come
        // and go (the case that needs the heap's compaction).
        let indicator = ActivityIndicator()
        let first = PublishSubject<Int>()
        let firstSubscription = first.trackActivity(in: indicator, message: "first").subscribe()
        for index in 0..<Self.count {
            let subscription = PublishSubject<Int>().trackActivity(in: indicator, message: "m\(index)").subscribe()
            subscription.dispose()
        }
        #expect(indicator.state == state(true, "first"))
        firstSubscription.dispose()
        #expect(indicator.state == state(false, nil))
    }

    /// The message rule against a naive model (a list in registration order,
    /// scanned for the first non-nil message), on random registrations,
    /// message changes and removals.
    @Test(arguments: [1, 2, 3, 4] as [UInt64]) func matchesANaiveModelOnRandomOperations(seed: UInt64) {
        var generator = SeededGenerator(seed: seed)
        let indicator = ActivityIndicator()
        let states = Locked<[IndicatorState]>([])
        let observation = indicator.subscribe(onNext: { s in states.withLock { $0.append(s) } })
        // The model: (subject id, message) in registration order.
        var model: [(id: Int, message: String?)] = []
        var live: [Int: (subject: PublishSubject<String?>, subscription: any Disposable)] = [:]
        var expected: [IndicatorState] = [state(false, nil)]
        func modelState() -> IndicatorState {
            state(!model.isEmpty, model.lazy.compactMap(\.message).first)
        }
        func randomMessage() -> String? {
            Int.random(in: 0..<3, using: &generator) == 0 ? nil : "s\(Int.random(in: 0..<4, using: &generator))"
        }
        for step in 0..<5_000 {
            let choice = Int.random(in: 0..<10, using: &generator)
            if choice < 4 || model.isEmpty {
                let subject = PublishSubject<String?>()
                let initial = randomMessage()
                let subscription = subject.trackActivity(in: indicator, initialMessage: initial, messageProvider: { $0 })
                    .subscribe()
                live[step] = (subject, subscription)
                model.append((step, initial))
            } else if choice < 7 {
                let index = Int.random(in: 0..<model.count, using: &generator)
                let message = randomMessage()
                live[model[index].id]?.subject.onNext(message)
                model[index].message = message
            } else {
                let index = Int.random(in: 0..<model.count, using: &generator)
                let id = model.remove(at: index).id
                if Bool.random(using: &generator) {
                    live[id]?.subject.onCompleted()
                } else {
                    live[id]?.subscription.dispose()
                }
                live[id] = nil
            }
            if modelState() != expected.last { expected.append(modelState()) }
        }
        #expect(states.current == expected)
        for entry in live.values { entry.subscription.dispose() }
        observation.dispose()
    }
}
