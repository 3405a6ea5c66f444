extension Observable {
    /// Subscribes to the first of `sources`; each time the current one fails,
    /// continues with the next one. Completes when one completes; fails with
    /// the last error if all of them failed (completes at once if there are
    /// none).
    ///
    /// The sources are taken from `sources` one at a time, only when the
    /// previous one failed, and a synchronous failure moves on through the
    /// current-thread trampoline (no recursion, however long the sequence).
    public static func `catch`<S: Sequence>(_ sources: S) -> Observable<Element>
    where S.Element: ObservableType, S.Element.Element == Element {
        Observable { observer in
            let sink = CatchSequenceSink(downstream: observer, iterator: sources.lazy.map { $0.asObservable() }.makeIterator())
            sink.subscribeNext()
            return sink
        }
    }

    /// RxSwift 6's spelling of ``catch(_:)-swift.type.method``: the same
    /// operator, so that ported code compiles unchanged.
    public static func `catch`<S: Sequence>(sequence: S) -> Observable<Element>
    where S.Element: ObservableType, S.Element.Element == Element {
        Observable.catch(sequence)
    }
}


/// `Observable.catch(_:)` over a sequence of sources.
final class CatchSequenceSink<Iterator: IteratorProtocol, Element>: Sink<Element>, @unchecked Sendable
where Iterator.Element == Observable<Element> {
    // Touched by one source's events at a time: the next source is taken only
    // after the current one failed.
    private var iterator: Iterator
    private var lastError: (any Error)?
    private let current = SerialDisposable()

    init(downstream: AnyObserver<Element>, iterator: Iterator) {
        self.iterator = iterator
        super.init(downstream: downstream)
    }

    func subscribeNext() {
        guard !isDisposed else { return }
        guard let source = iterator.next() else {
            if let lastError { forwardError(lastError) } else { forwardCompleted() }
            return
        }
        let subscription = SingleAssignmentDisposable()
        current.disposable = subscription
        subscription.setDisposable(source.subscribe(AnyObserver { [self] event in
            switch event {
            case .next, .completed: forward(event)
            case .error(let error):
                guard !isDisposed else { return }
                subscription.dispose()
                lastError = error
                CurrentThreadScheduler.instance.schedule { [self] in subscribeNext() }
            }
        }))
    }

    override func disposeResources() { current.dispose() }
}
