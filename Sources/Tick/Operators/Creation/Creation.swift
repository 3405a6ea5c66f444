extension Observable {
    /// Emits `element`, then completes, at subscription.
    public static func just(_ element: Element) -> Observable<Element> {
        Observable { observer in
            observer.on(.next(element))
            observer.on(.completed)
            return Disposables.create()
        }
    }

    /// Emits the elements of `sequence` one by one, then completes.
    ///
    /// Elements are delivered through the ``CurrentThreadScheduler``
    /// trampoline, one step per element, as in RxSwift: the chain is fully
    /// subscribed before the first element, `take` can stop an endless
    /// sequence, and two synchronous sources merged together interleave.
    public static func from<S: Sequence>(_ sequence: S) -> Observable<Element> where S.Element == Element {
        Observable { observer in
            let sink = SequenceSink(downstream: observer, iterator: sequence.makeIterator())
            sink.scheduleStep()
            return sink
        }
    }

    /// Emits `elements`, then completes (see ``from(_:)``).
    public static func of(_ elements: Element...) -> Observable<Element> {
        from(elements)
    }

    /// Completes at subscription without emitting.
    public static func empty() -> Observable<Element> {
        Observable { observer in
            observer.on(.completed)
            return Disposables.create()
        }
    }

    /// Never emits and never terminates.
    public static func never() -> Observable<Element> {
        Observable { _ in Disposables.create() }
    }

    /// Fails with `error` at subscription.
    public static func error(_ error: any Error) -> Observable<Element> {
        Observable { observer in
            observer.on(.error(error))
            return Disposables.create()
        }
    }

    /// Calls `factory` at each subscription and subscribes to the observable it
    /// returns; an error thrown by `factory` is sent as an error event.
    ///
    /// - Parameter isolation: leave the default (the caller's isolation). A closure written on
    ///   the main actor is then never called off the main thread: Tick ends the sequence with
    ///   ``TickError/isolationViolation(operator:)`` instead (Docs/Concurrency.md). Pass `nil`
    ///   for a closure that uses no main-actor state.
    public static func deferred(
        _ factory: @escaping () throws -> Observable<Element>, isolation: (any Actor)? = #isolation
    ) -> Observable<Element> {
        let factory = MainActorClosureCheck.forIsolation(isolation, operator: "deferred")?.wrap(factory) ?? factory
        return Observable { observer in
            do {
                return try factory().subscribe(observer)
            } catch {
                observer.on(.error(error))
                return Disposables.create()
            }
        }
    }
}

final class SequenceSink<Iterator: IteratorProtocol>: Sink<Iterator.Element>, @unchecked Sendable {
    private var iterator: Iterator

    init(downstream: AnyObserver<Iterator.Element>, iterator: Iterator) {
        self.iterator = iterator
        super.init(downstream: downstream)
    }

    func scheduleStep() {
        CurrentThreadScheduler.instance.schedule { [self] in step() }
    }

    private func step() {
        guard !isDisposed else { return }
        if let element = iterator.next() {
            forwardNext(element)
            scheduleStep()
        } else {
            forwardCompleted()
        }
    }
}
