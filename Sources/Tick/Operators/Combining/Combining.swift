extension ObservableType {
    /// Emits `elements` at subscription (synchronously, in order), then the
    /// source's events.
    public func startWith(_ elements: Element...) -> Observable<Element> {
        let source = asObservable()
        return Observable { observer in
            let sink = AnonymousSink(downstream: observer)
            for element in elements { sink.forwardNext(element) }
            if !sink.isDisposed { sink.setUpstream(source.subscribe(AnyObserver(eventHandler: sink.forward))) }
            return sink
        }
    }

    /// Combines each element with the latest element of `second` using
    /// `resultSelector`. Elements arriving before `second` emitted anything are
    /// dropped. Completes when this sequence completes (`second`'s completion is
    /// ignored); an error from either ends it.
    ///
    /// - Parameter isolation: leave the default (the caller's isolation). A closure written on
    ///   the main actor is then never called off the main thread: Tick ends the sequence with
    ///   ``TickError/isolationViolation(operator:)`` instead (Docs/Concurrency.md). Pass `nil`
    ///   for a closure that uses no main-actor state.
    public func withLatestFrom<Second: ObservableType, Result>(
        _ second: Second, resultSelector: @escaping (Element, Second.Element) throws -> Result,
        isolation: (any Actor)? = #isolation
    ) -> Observable<Result> {
        let source = asObservable()
        let resultSelector =
            MainActorClosureCheck.forIsolation(isolation, operator: "withLatestFrom")?.wrap(resultSelector) ?? resultSelector
        return Observable { observer in
            let sink = WithLatestFromSink<Element, Second.Element, Result>(
                downstream: observer, resultSelector: resultSelector)
            sink.run(source, second)
            return sink
        }
    }

    /// Emits the latest element of `second` each time this sequence emits (see
    /// ``withLatestFrom(_:resultSelector:)``).
    public func withLatestFrom<Second: ObservableType>(_ second: Second) -> Observable<Second.Element> {
        withLatestFrom(second) { $1 }
    }

    /// Mirrors whichever of this sequence and `other` sends an event first, and
    /// disposes the other.
    public func amb<Other: ObservableType>(_ other: Other) -> Observable<Element> where Other.Element == Element {
        Observable.amb([asObservable(), other.asObservable()])
    }
}

extension Observable {
    /// Mirrors whichever of `sources` sends an event (element or terminal)
    /// first, and disposes all the others at that moment. Sources are
    /// subscribed in order; an empty collection never emits.
    public static func amb<C: Collection>(_ sources: C) -> Observable<Element> where C.Element == Observable<Element> {
        let sources = Array(sources)
        return Observable { observer in
            let sink = AmbSink<Element>(downstream: observer, count: sources.count)
            for (index, source) in sources.enumerated() where !sink.isDisposed {
                sink.subscribe(source, index: index)
            }
            return sink
        }
    }

    /// Combines the latest elements of every source in `sources` with
    /// `resultSelector` (see ``combineLatest(_:resultSelector:)``). An empty
    /// collection emits `resultSelector([])` and completes at once, as in
    /// RxSwift.
    ///
    /// - Parameter isolation: leave the default (the caller's isolation). A closure written on
    ///   the main actor is then never called off the main thread: Tick ends the sequence with
    ///   ``TickError/isolationViolation(operator:)`` instead (Docs/Concurrency.md). Pass `nil`
    ///   for a closure that uses no main-actor state.
    public static func combineLatest<C: Collection>(
        _ sources: C, resultSelector: @escaping ([C.Element.Element]) throws -> Element,
        isolation: (any Actor)? = #isolation
    ) -> Observable<Element> where C.Element: ObservableType {
        let sources = Array(sources)
        let resultSelector =
            MainActorClosureCheck.forIsolation(isolation, operator: "combineLatest")?.wrap(resultSelector) ?? resultSelector
        return Observable { observer in
            if sources.isEmpty {
                let sink = AnonymousSink(downstream: observer)
                do { sink.forwardNext(try resultSelector([])) } catch {
                    sink.forwardError(error)
                    return sink
                }
                sink.forwardCompleted()
                return sink
            }
            var values = [C.Element.Element?](repeating: nil, count: sources.count)
            let sink = CombineLatestSink<Element>(downstream: observer, arity: sources.count) {
                let snapshot = values.compactMap { $0 }
                return { try resultSelector(snapshot) }
            }
            for (index, source) in sources.enumerated() {
                sink.subscribe(source, index: index) { values[index] = $0 }
            }
            return sink
        }
    }

    /// Combines the latest elements of every source in `sources` into arrays
    /// (RxSwift's typing: `Observable<Int>.combineLatest(sources)` is an
    /// `Observable<[Int]>`).
    public static func combineLatest<C: Collection>(_ sources: C) -> Observable<[Element]>
    where C.Element: ObservableType, C.Element.Element == Element {
        Observable<[Element]>.combineLatest(sources) { $0 }
    }

    /// Pairs up the elements of every source in `sources` by index with
    /// `resultSelector` (see ``zip(_:resultSelector:)``). An empty collection
    /// completes at once without emitting. As RxSwift's collection form (whose
    /// implementation differs from its fixed-arity forms), it also completes
    /// when a source emits an element that cannot make a row while every
    /// other source has completed.
    ///
    /// - Parameter isolation: leave the default (the caller's isolation). A closure written on
    ///   the main actor is then never called off the main thread: Tick ends the sequence with
    ///   ``TickError/isolationViolation(operator:)`` instead (Docs/Concurrency.md). Pass `nil`
    ///   for a closure that uses no main-actor state.
    public static func zip<C: Collection>(
        _ sources: C, resultSelector: @escaping ([C.Element.Element]) throws -> Element,
        isolation: (any Actor)? = #isolation
    ) -> Observable<Element> where C.Element: ObservableType {
        let sources = Array(sources)
        let resultSelector =
            MainActorClosureCheck.forIsolation(isolation, operator: "zip")?.wrap(resultSelector) ?? resultSelector
        return Observable { observer in
            let slots = sources.map { PackSlot(for: $0) }
            let sink = ZipSink<Element>(downstream: observer, arity: sources.count, completesWhenOthersDone: true) {
                var row: [C.Element.Element] = []
                row.reserveCapacity(slots.count)
                for slot in slots {
                    if let value = slot.queue.removeFirst() { row.append(value) }
                }
                return { try resultSelector(row) }
            }
            for (index, (source, slot)) in Swift.zip(sources, slots).enumerated() {
                sink.subscribe(source, index: index) { slot.queue.append($0) }
            }
            return sink
        }
    }

    /// Pairs up the elements of every source in `sources` by index into
    /// arrays (RxSwift's typing: `Observable<Int>.zip(sources)` is an
    /// `Observable<[Int]>`).
    public static func zip<C: Collection>(_ sources: C) -> Observable<[Element]>
    where C.Element: ObservableType, C.Element.Element == Element {
        Observable<[Element]>.zip(sources) { $0 }
    }
}

/// The shared machinery of operators over several sources: one subscription
/// per source in a group, disposed together; each source's subscription is
/// disposed as soon as that source terminates.
class MultiSourceSink<Output>: SerializingSink<Output>, @unchecked Sendable {
    final let group = CompositeDisposable()

    /// Subscribes `source`, routing its events to `handler`.
    final func subscribe<Source: ObservableType>(
        _ source: Source, handler: @escaping (Event<Source.Element>) -> Void
    ) {
        guard !isDisposed else { return }
        let subscription = SingleAssignmentDisposable()
        guard let key = group.insert(subscription) else { return }
        subscription.setDisposable(source.subscribe(AnyObserver { [self] event in
            handler(event)
            if event.isStopEvent { group.remove(for: key) }
        }))
    }

    override func disposeResources() {
        group.dispose()
    }
}

/// combineLatest's sink. Values live in the caller's typed storage, written by
/// the `store` closures under ``lock``; `snapshot` (also under the lock) copies
/// them and returns the user's selector call, which runs outside the lock.
final class CombineLatestSink<Output>: MultiSourceSink<Output>, @unchecked Sendable {
    private let arity: Int
    private let snapshot: () -> () throws -> Output
    private var hasValue: [Bool]
    private var done: [Bool]
    private var valueCount = 0
    private var doneCount = 0

    init(downstream: AnyObserver<Output>, arity: Int, snapshot: @escaping () -> () throws -> Output) {
        self.arity = arity
        self.snapshot = snapshot
        hasValue = Array(repeating: false, count: arity)
        done = Array(repeating: false, count: arity)
        super.init(downstream: downstream)
        if arity == 0 { forwardCompleted() }
    }

    func subscribe<Source: ObservableType>(_ source: Source, index: Int, store: @escaping (Source.Element) -> Void) {
        subscribe(source) { [self] event in
            locked {
                switch event {
                case .next(let element):
                    store(element)
                    if !hasValue[index] {
                        hasValue[index] = true
                        valueCount += 1
                    }
                    if valueCount == arity {
                        enqueueLocked(computing: snapshot())
                    } else if doneCount == arity - 1 && !done[index] {
                        // Every other source completed, one of them without
                        // a value: no combination can ever come (RxSwift's rule).
                        enqueueLocked(.completed)
                    }
                case .error(let error):
                    enqueueLocked(.error(error))
                case .completed:
                    if !done[index] {
                        done[index] = true
                        doneCount += 1
                    }
                    if doneCount == arity { enqueueLocked(.completed) }
                }
            }
        }
    }
}

/// zip's sink. Queues live in the caller's typed storage; `counts` mirrors
/// their lengths so the sink knows when a row is complete. The forms over
/// separate sources complete only when every source has completed (RxSwift's
/// `ZipSink`): a source that has completed with elements still queued does
/// not end the others early. The collection form keeps RxSwift's
/// `ZipCollectionTypeSink` rule (`completesWhenOthersDone`): it also
/// completes when an element cannot make a row while every other source has
/// completed.
final class ZipSink<Output>: MultiSourceSink<Output>, @unchecked Sendable {
    private let popRow: () -> () throws -> Output
    private let completesWhenOthersDone: Bool
    private var counts: [Int]
    private var done: [Bool]

    init(
        downstream: AnyObserver<Output>, arity: Int, completesWhenOthersDone: Bool = false,
        popRow: @escaping () -> () throws -> Output
    ) {
        self.popRow = popRow
        self.completesWhenOthersDone = completesWhenOthersDone
        counts = Array(repeating: 0, count: arity)
        done = Array(repeating: false, count: arity)
        super.init(downstream: downstream)
        if arity == 0 { forwardCompleted() }
    }

    func subscribe<Source: ObservableType>(_ source: Source, index: Int, push: @escaping (Source.Element) -> Void) {
        subscribe(source) { [self] event in
            locked {
                switch event {
                case .next(let element):
                    push(element)
                    counts[index] += 1
                    if counts.allSatisfy({ $0 > 0 }) {
                        for i in counts.indices { counts[i] -= 1 }
                        enqueueLocked(computing: popRow())
                    } else if completesWhenOthersDone, done.indices.allSatisfy({ $0 == index || done[$0] }) {
                        enqueueLocked(.completed)
                    }
                case .error(let error):
                    enqueueLocked(.error(error))
                case .completed:
                    done[index] = true
                    if done.allSatisfy({ $0 }) { enqueueLocked(.completed) }
                }
            }
        }
    }
}

final class WithLatestFromSink<First, Second, Output>: MultiSourceSink<Output>, @unchecked Sendable {
    private let resultSelector: (First, Second) throws -> Output
    private var latest: Second?

    init(downstream: AnyObserver<Output>, resultSelector: @escaping (First, Second) throws -> Output) {
        self.resultSelector = resultSelector
        super.init(downstream: downstream)
    }

    func run<S1: ObservableType, S2: ObservableType>(_ first: S1, _ second: S2)
    where S1.Element == First, S2.Element == Second {
        // Second first, so an element it has at subscription is seen by the first.
        subscribe(second) { [self] event in
            locked {
                switch event {
                case .next(let element): latest = element
                case .error(let error): enqueueLocked(.error(error))
                case .completed: break
                }
            }
        }
        subscribe(first) { [self] event in
            locked {
                switch event {
                case .next(let element):
                    if let latest {
                        let selector = resultSelector
                        enqueueLocked(computing: { try selector(element, latest) })
                    }
                case .error(let error): enqueueLocked(.error(error))
                case .completed: enqueueLocked(.completed)
                }
            }
        }
    }
}

final class AmbSink<Element>: MultiSourceSink<Element>, @unchecked Sendable {
    private var winner: Int?
    private var subscriptions: [SingleAssignmentDisposable]

    init(downstream: AnyObserver<Element>, count: Int) {
        subscriptions = (0..<count).map { _ in SingleAssignmentDisposable() }
        super.init(downstream: downstream)
    }

    func subscribe(_ source: Observable<Element>, index: Int) {
        let subscription = subscriptions[index]
        group.insert(subscription)
        subscription.setDisposable(source.subscribe(AnyObserver { [self] event in
            var losers: [SingleAssignmentDisposable] = []
            locked {
                if winner == nil {
                    winner = index
                    losers = subscriptions.enumerated().filter { $0.offset != index }.map(\.element)
                }
                if winner == index { enqueueLocked(event) }
            }
            for loser in losers { loser.dispose() }
        }))
    }
}
