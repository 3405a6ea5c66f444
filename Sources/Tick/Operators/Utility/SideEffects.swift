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
    ///   source subscription was disposed (RxSwift's order). When the source
    ///   ends while it is being subscribed (a synchronous source), the order
    ///   is RxSwift's too: the event hooks, the source subscription disposed,
    ///   `onSubscribed`, then `onDispose`.
    /// - On a terminal event the order is: `onError`/`onCompleted`, the
    ///   event downstream, the source subscription disposed,
    ///   `afterError`/`afterCompleted`, `onDispose`.
    ///
    /// An error thrown by `onNext`, `afterNext`, `onError` or `onCompleted` is
    /// forwarded as the sequence's error (in place of the event for the `on…`
    /// ones). Errors thrown by `afterError`/`afterCompleted` come after the
    /// terminal event and are dropped, like any event after a terminal one.
    ///
    /// - Parameter isolation: leave the default (the caller's isolation). A closure written on
    ///   the main actor is then never called off the main thread: Tick ends the sequence with
    ///   ``TickError/isolationViolation(operator:)`` instead (Docs/Concurrency.md). Pass `nil`
    ///   for a closure that uses no main-actor state.
    ///   Off the main thread, main-actor `onSubscribe`/`onSubscribed` fail the
    ///   subscription before the source is subscribed, and a main-actor
    ///   `onDispose` is skipped (disposal has no sequence left to end).
    public func `do`(
        onNext: ((Element) throws -> Void)? = nil,
        afterNext: ((Element) throws -> Void)? = nil,
        onError: ((any Error) throws -> Void)? = nil,
        afterError: ((any Error) throws -> Void)? = nil,
        onCompleted: (() throws -> Void)? = nil,
        afterCompleted: (() throws -> Void)? = nil,
        onSubscribe: (() -> Void)? = nil,
        onSubscribed: (() -> Void)? = nil,
        onDispose: (() -> Void)? = nil,
        isolation: (any Actor)? = #isolation
    ) -> Observable<Element> {
        let source = asObservable()
        var onNext = onNext, afterNext = afterNext, onError = onError, afterError = afterError
        var onCompleted = onCompleted, afterCompleted = afterCompleted, onDispose = onDispose
        let check = MainActorClosureCheck.forIsolation(isolation, operator: "do")
        if let check {
            onNext = onNext.map { check.wrap($0) }
            afterNext = afterNext.map { check.wrap($0) }
            onError = onError.map { check.wrap($0) }
            afterError = afterError.map { check.wrap($0) }
            onCompleted = onCompleted.map { check.wrap($0) }
            afterCompleted = afterCompleted.map { check.wrap($0) }
            // Disposal has no sequence left to end: off the main thread,
            // `onDispose` is skipped (and reported).
            onDispose = onDispose.map { check.wrapSkipping($0) }
        }
        let checksSubscription = check != nil && (onSubscribe != nil || onSubscribed != nil)
        return Observable { [onNext, afterNext, onError, afterError, onCompleted, afterCompleted, onDispose] observer in
            // `onSubscribe` and `onSubscribed` run on the subscribing thread.
            if checksSubscription, let check, !check.allowsCall() {
                observer.on(.error(check.error))
                return Disposables.create()
            }
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
            let subscription = source.subscribe(AnyObserver(eventHandler: sink.on))
            onSubscribed?()
            sink.setUpstream(subscription)
            sink.subscribed()
            return sink
        }
    }
}

final class DoSink<Element>: Sink<Element>, @unchecked Sendable {
    private let before: (Event<Element>) throws -> Void
    private let after: (Event<Element>) throws -> Void
    private let lock = Lock()
    // Guarded by `lock`:
    private var onDispose: (() -> Void)?
    /// The terminal event being delivered, whose after-hook is still to run.
    private var terminal: Event<Element>?
    /// `true` once `subscribe` returned (and `onSubscribed` ran).
    private var isSubscribed = false
    /// `true` when the sink ended during the subscription: `onDispose` waits
    /// for `subscribed()`.
    private var disposedWhileSubscribing = false

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
            // The after-hook runs once the terminal event was delivered and
            // the source subscription disposed, just before `onDispose` (see
            // `disposeResources`); an error it throws has nowhere to go.
            terminate {
                lock.withLock { terminal = event }
                downstream.on(event)
            }
        }
    }

    /// Called once the source subscription is stored and `onSubscribed`
    /// ran: runs `onDispose` if the sink already ended meanwhile.
    func subscribed() {
        let onDispose: (() -> Void)? = lock.withLock {
            isSubscribed = true
            guard disposedWhileSubscribing else { return nil }
            defer { self.onDispose = nil }
            return self.onDispose
        }
        onDispose?()
    }

    override func disposeResources() {
        let (terminal, onDispose) = lock.withLock {
            defer {
                self.terminal = nil
                if isSubscribed { self.onDispose = nil } else { disposedWhileSubscribing = true }
            }
            return (self.terminal, isSubscribed ? self.onDispose : nil)
        }
        if let terminal { try? after(terminal) }
        onDispose?()
    }
}
