extension ObservableType {
    /// Emits only the elements for which `predicate` returns `true`; an error it
    /// throws ends the sequence with that error.
    ///
    /// - Parameter isolation: leave the default (the caller's isolation). A closure written on
    ///   the main actor is then never called off the main thread: Tick ends the sequence with
    ///   ``TickError/isolationViolation(operator:)`` instead (Docs/Concurrency.md). Pass `nil`
    ///   for a closure that uses no main-actor state.
    @inlinable
    public func filter(
        _ predicate: @escaping (Element) throws -> Bool, isolation: (any Actor)? = #isolation
    ) -> Observable<Element> {
        let source = asObservable()
        let predicate = MainActorClosureCheck.forIsolation(isolation, operator: "filter")?.wrap(predicate) ?? predicate
        return Observable { observer in
            let sink = FilterSink(downstream: observer, predicate: predicate)
            sink.setUpstream(source.subscribe(AnyObserver(eventHandler: sink.on)))
            return sink
        }
    }

    /// Emits the first `count` elements, then completes and disposes the source.
    /// `take(0)` completes at once without subscribing to the source; a negative
    /// count is treated as 0.
    public func take(_ count: Int) -> Observable<Element> {
        guard count > 0 else { return .empty() }
        let source = asObservable()
        return Observable { observer in
            let sink = TakeCountSink(downstream: observer, count: count)
            sink.setUpstream(source.subscribe(AnyObserver(eventHandler: sink.on)))
            return sink
        }
    }
}

@usableFromInline
final class FilterSink<Element>: Sink<Element>, @unchecked Sendable {
    @usableFromInline let predicate: (Element) throws -> Bool

    @inlinable
    init(downstream: AnyObserver<Element>, predicate: @escaping (Element) throws -> Bool) {
        self.predicate = predicate
        super.init(downstream: downstream)
    }

    @inlinable
    func on(_ event: Event<Element>) {
        switch event {
        case .next(let element):
            guard !isDisposed else { return }
            do {
                if try predicate(element) { forwardNext(element) }
            } catch {
                forwardError(error)
            }
        case .error, .completed: forward(event)
        }
    }
}

final class TakeCountSink<Element>: Sink<Element>, @unchecked Sendable {
    private var remaining: Int

    init(downstream: AnyObserver<Element>, count: Int) {
        remaining = count
        super.init(downstream: downstream)
    }

    func on(_ event: Event<Element>) {
        switch event {
        case .next(let element):
            guard remaining > 0 else { return }
            remaining -= 1
            forwardNext(element)
            if remaining == 0 { forwardCompleted() }
        case .error, .completed: forward(event)
        }
    }
}
