extension ObservableType {
    /// Builds a single-source operator from a per-subscription event handler.
    ///
    /// `makeHandler` runs once per subscription, before the source is
    /// subscribed; the handler it returns receives the source's events (one at
    /// a time, as the Rx contract guarantees) and talks to the sink it was
    /// given (`forwardNext`, `forwardError`, …). Per-subscription state lives in
    /// `makeHandler`'s local variables.
    @inlinable
    func lift<Output>(
        _ makeHandler: @escaping (Sink<Output>) -> (Event<Element>) -> Void
    ) -> Observable<Output> {
        let source = asObservable()
        return Observable { observer in
            let sink = LiftSink<Output>(downstream: observer)
            let handler = makeHandler(sink)
            sink.setUpstream(source.subscribe(AnyObserver(eventHandler: handler)))
            return sink
        }
    }
}

@usableFromInline
final class LiftSink<Output>: Sink<Output>, @unchecked Sendable {
    @inlinable override init(downstream: AnyObserver<Output>) { super.init(downstream: downstream) }
}
