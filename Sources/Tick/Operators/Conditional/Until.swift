/// Whether `take(while:)`/`take(until:)` also emit the element that ends them.
public enum TakeBehavior: Sendable {
    /// Emit the element that ends the sequence, then complete.
    case inclusive
    /// Complete without emitting the element that ends the sequence.
    case exclusive
}

extension ObservableType {
    /// Mirrors the source until `other` emits an element: then completes and
    /// disposes both. An error from `other` is forwarded; its completion is
    /// ignored (the source keeps going).
    public func take<Other: ObservableType>(until other: Other) -> Observable<Element> {
        let source = asObservable()
        return Observable { observer in
            let sink = GateSink<Element>(downstream: observer, opensOnSignal: false)
            sink.run(source, other)
            return sink
        }
    }

    /// Drops the source's elements until `other` emits an element, then
    /// mirrors it. An error from either is forwarded; `other`'s completion is
    /// ignored. The source's completion is forwarded only once `other` has
    /// emitted; if it comes before, both subscriptions are disposed and the
    /// result ends silently, without a terminal event (as in RxSwift).
    public func skip<Other: ObservableType>(until other: Other) -> Observable<Element> {
        let source = asObservable()
        return Observable { observer in
            let sink = GateSink<Element>(downstream: observer, opensOnSignal: true)
            sink.run(source, other)
            return sink
        }
    }

    /// Emits elements while `predicate` holds; at the first element for which
    /// it does not, completes (emitting that element first with `.inclusive`).
    ///
    /// - Parameter isolation: leave the default (the caller's isolation). A closure written on
    ///   the main actor is then never called off the main thread: Tick ends the sequence with
    ///   ``TickError/isolationViolation(operator:)`` instead (Docs/Concurrency.md). Pass `nil`
    ///   for a closure that uses no main-actor state.
    public func take(
        while predicate: @escaping (Element) throws -> Bool, behavior: TakeBehavior,
        isolation: (any Actor)? = #isolation
    ) -> Observable<Element> {
        let predicate =
            MainActorClosureCheck.forIsolation(isolation, operator: "take(while:behavior:)")?.wrap(predicate) ?? predicate
        return take(until: { try !predicate($0) }, behavior: behavior, isolation: nil)
    }

    /// Emits elements until `predicate` holds for one; then completes, emitting
    /// that element first with `.inclusive` (the default is `.exclusive`).
    ///
    /// - Parameter isolation: leave the default (the caller's isolation). A closure written on
    ///   the main actor is then never called off the main thread: Tick ends the sequence with
    ///   ``TickError/isolationViolation(operator:)`` instead (Docs/Concurrency.md). Pass `nil`
    ///   for a closure that uses no main-actor state.
    public func take(
        until predicate: @escaping (Element) throws -> Bool, behavior: TakeBehavior = .exclusive,
        isolation: (any Actor)? = #isolation
    ) -> Observable<Element> {
        let predicate =
            MainActorClosureCheck.forIsolation(isolation, operator: "take(until:)")?.wrap(predicate) ?? predicate
        return lift { sink in
            { event in
                guard case .next(let element) = event else { return sink.forward(event) }
                guard !sink.isDisposed else { return }
                do {
                    if try predicate(element) {
                        if behavior == .inclusive { sink.forwardNext(element) }
                        sink.forwardCompleted()
                    } else {
                        sink.forwardNext(element)
                    }
                } catch {
                    sink.forwardError(error)
                }
            }
        }
    }

    /// RxSwift 5's name for ``take(until:)-(Other)``.
    public func takeUntil<Other: ObservableType>(_ other: Other) -> Observable<Element> { take(until: other) }

    /// RxSwift 5's name for ``skip(until:)``.
    public func skipUntil<Other: ObservableType>(_ other: Other) -> Observable<Element> { skip(until: other) }

    /// RxSwift 5's name for ``take(while:)``.
    ///
    /// - Parameter isolation: leave the default (the caller's isolation). A closure written on
    ///   the main actor is then never called off the main thread: Tick ends the sequence with
    ///   ``TickError/isolationViolation(operator:)`` instead (Docs/Concurrency.md). Pass `nil`
    ///   for a closure that uses no main-actor state.
    public func takeWhile(
        _ predicate: @escaping (Element) throws -> Bool, isolation: (any Actor)? = #isolation
    ) -> Observable<Element> {
        take(while: predicate, isolation: isolation)
    }

    /// RxSwift 5's name for ``skip(while:)``.
    ///
    /// - Parameter isolation: leave the default (the caller's isolation). A closure written on
    ///   the main actor is then never called off the main thread: Tick ends the sequence with
    ///   ``TickError/isolationViolation(operator:)`` instead (Docs/Concurrency.md). Pass `nil`
    ///   for a closure that uses no main-actor state.
    public func skipWhile(
        _ predicate: @escaping (Element) throws -> Bool, isolation: (any Actor)? = #isolation
    ) -> Observable<Element> {
        skip(while: predicate, isolation: isolation)
    }

    /// RxSwift 5's name for ``element(at:)``.
    public func elementAt(_ index: Int) -> Observable<Element> { element(at: index) }
}

/// take(until:) and skip(until:): a source gated by a second sequence's
/// first element.
final class GateSink<Element>: MultiSourceSink<Element>, @unchecked Sendable {
    private let opensOnSignal: Bool
    // Guarded by `lock`:
    private var signalled = false

    init(downstream: AnyObserver<Element>, opensOnSignal: Bool) {
        self.opensOnSignal = opensOnSignal
        super.init(downstream: downstream)
    }

    func run<Other: ObservableType>(_ source: Observable<Element>, _ other: Other) {
        // The signal first, so a signal at subscription is seen before any element.
        let signal = SingleAssignmentDisposable()
        group.insert(signal)
        signal.setDisposable(other.subscribe(AnyObserver { [self] event in
            locked {
                switch event {
                case .next:
                    signalled = true
                    if !opensOnSignal { enqueueLocked(.completed) }
                case .error(let error): enqueueLocked(.error(error))
                case .completed: break
                }
            }
            if !event.isStopEvent || event.isCompleted { signal.dispose() }
        }))
        subscribe(source) { [self] event in
            var endSilently = false
            locked {
                if opensOnSignal, !signalled, !event.isStopEvent || event.isCompleted {
                    endSilently = event.isCompleted
                    return
                }
                enqueueLocked(event)
            }
            if endSilently { dispose() }
        }
    }
}
