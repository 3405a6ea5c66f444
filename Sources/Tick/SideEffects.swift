extension ObservableType {
    /// Runs side effects at each point of the sequence's life, without
    /// changing its events.
    ///
    /// - `onNext`/`onError`/`onCompleted` run before the event is forwarded,
    ///   `afterNext`/`afterError`/`afterCompleted` right after.
    /// - `onSubscribe` runs before the source is subscribed, `onSubscribed`
    ///   right after.
    /// - `onDispose` runs once when the subscription ends, for any reason
    ///   (disposal, or after a terminal event and its after-hook), after the
    ///   source subscription was disposed.
    ///
    /// An error thrown by `onNext`, `afterNext`, `onError` or `onCompleted` is
    /// forwarded as the sequence's error (in place of the event for the `on…`
    /// ones). Errors thrown by `afterError`/`afterCompleted` come after the
    /// terminal event and are dropped, like any event after a terminal one.
    public func `do`(
        onNext: ((Element) throws -> Void)? = nil,
        afterNext: ((Element) throws -> Void)? = nil,
        onError: ((any Error) throws -> Void)? = nil,
        afterError: ((any Error) throws -> Void)? = nil,
        onCompleted: (() throws -> Void)? = nil,
        afterCompleted: (() throws -> Void)? = nil,
        onSubscribe: (() -> Void)? = nil,
        onSubscribed: (() -> Void)? = nil,
        onDispose: (() -> Void)? = nil
    ) -> Observable<Element> {
        let source = asObservable()
        return Observable { observer in
            onSubscribe?()
            let sink = DoSink(downstream: observer, onDispose: onDispose) { event in
                switch event {
                case .next(let element): try onNext?(element)
                case .error(let error): try onError?(error)
                case .completed: try onCompleted?()
                }
            } after: { event in
                switch event {
                case .next(let element): try afterNext?(element)
                case .error(let error): try afterError?(error)
                case .completed: try afterCompleted?()
                }
            }
            sink.setUpstream(source.subscribe(AnyObserver(eventHandler: sink.on)))
            onSubscribed?()
            return sink
        }
    }
}

final class DoSink<Element>: Sink<Element>, @unchecked Sendable {
    private let before: (Event<Element>) throws -> Void
    private let after: (Event<Element>) throws -> Void
    private var onDispose: (() -> Void)?

    init(
        downstream: AnyObserver<Element>, onDispose: (() -> Void)?,
        before: @escaping (Event<Element>) throws -> Void, after: @escaping (Event<Element>) throws -> Void
    ) {
        self.before = before
        self.after = after
        self.onDispose = onDispose
        super.init(downstream: downstream)
    }

    func on(_ event: Event<Element>) {
        guard !isDisposed else { return }
        do {
            try before(event)
        } catch {
            forwardError(error)
            return
        }
        if case .next = event {
            forward(event)
            do { try after(event) } catch { forwardError(error) }
        } else {
            // The after-hook runs before the subscription is disposed (so
            // before `onDispose`); an error it throws has nowhere to go.
            terminate {
                downstream.on(event)
                try? after(event)
            }
        }
    }

    override func disposeResources() {
        let onDispose = self.onDispose
        self.onDispose = nil
        onDispose?()
    }
}
