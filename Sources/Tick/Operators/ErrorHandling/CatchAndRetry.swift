extension ObservableType {
    /// On error, continues with the sequence `handler` returns for that error.
    /// An error thrown by `handler` ends the sequence with that error. The
    /// source subscription is disposed when it fails, before the fallback is
    /// subscribed.
    ///
    /// - Parameter isolation: leave the default (the caller's isolation). A closure written on
    ///   the main actor is then never called off the main thread: Tick ends the sequence with
    ///   ``TickError/isolationViolation(operator:)`` instead (Docs/Concurrency.md). Pass `nil`
    ///   for a closure that uses no main-actor state.
    public func `catch`<Fallback: ObservableType>(
        _ handler: @escaping (any Error) throws -> Fallback, isolation: (any Actor)? = #isolation
    ) -> Observable<Element> where Fallback.Element == Element {
        let source = asObservable()
        let handler = MainActorClosureCheck.forIsolation(isolation, operator: "catch")?.wrap(handler) ?? handler
        return Observable { observer in
            let sink = CatchSink(downstream: observer) { try handler($0).asObservable() }
            sink.run(source)
            return sink
        }
    }

    /// On error, emits `element` and completes.
    public func catchAndReturn(_ element: Element) -> Observable<Element> {
        `catch` { _ in Observable.just(element) }
    }

    /// Re-subscribes to the source after each error, forever. Same as
    /// `retry(Int.max)`.
    public func retry() -> Observable<Element> {
        retry(.max)
    }

    /// Subscribes to the source up to `maxAttempts` times in all: after an
    /// error, subscribes again while attempts remain; the error of the last
    /// attempt is forwarded. `retry(1)` is a single attempt (no retry), as in
    /// RxSwift; a count below 1 is treated as 1.
    ///
    /// The failed subscription is disposed before the next one is made. A
    /// source that fails synchronously is re-subscribed iteratively (through
    /// the current-thread trampoline), never by deep recursion.
    public func retry(_ maxAttempts: Int) -> Observable<Element> {
        let source = asObservable()
        let attempts = Swift.max(1, maxAttempts)
        return retry(when: { (errors: Observable<any Error>) in errors }, limit: attempts, source: source, check: nil)
    }

    /// Re-subscribes to the source after an error, when the sequence
    /// returned by `notificationHandler` emits.
    ///
    /// `notificationHandler` is called once per subscription with the
    /// sequence of the source's errors, and its result (the trigger) is
    /// subscribed at once. As in RxSwift, the trigger only matters while an
    /// error is pending:
    /// - when the source fails, its subscription is disposed and the error is
    ///   sent to the errors sequence; the trigger's next element re-subscribes
    ///   the source (later ones, until the next error, are ignored);
    /// - the trigger's completion or error, while an error is pending,
    ///   completes or fails the result; if it came earlier, it takes effect
    ///   at the next error of the source, and until then the source runs on
    ///   (its completion completes the result);
    /// - the source's completion completes the result.
    ///
    /// - Parameter isolation: leave the default (the caller's isolation). A closure written on
    ///   the main actor is then never called off the main thread: Tick ends the sequence with
    ///   ``TickError/isolationViolation(operator:)`` instead (Docs/Concurrency.md). Pass `nil`
    ///   for a closure that uses no main-actor state.
    public func retry<Trigger: ObservableType>(
        when notificationHandler: @escaping (Observable<any Error>) -> Trigger, isolation: (any Actor)? = #isolation
    ) -> Observable<Element> {
        retry(
            when: notificationHandler, limit: nil, source: asObservable(),
            check: MainActorClosureCheck.forIsolation(isolation, operator: "retry(when:)"))
    }

    /// Like ``retry(when:)-(Observable<any Error>)->Trigger``, for errors of
    /// type `Failure` only: any other error is forwarded at once, without
    /// consulting the trigger (RxSwift's typed `retry(when:)`).
    ///
    /// - Parameter isolation: leave the default (the caller's isolation). A closure written on
    ///   the main actor is then never called off the main thread: Tick ends the sequence with
    ///   ``TickError/isolationViolation(operator:)`` instead (Docs/Concurrency.md). Pass `nil`
    ///   for a closure that uses no main-actor state.
    public func retry<Trigger: ObservableType, Failure: Error>(
        when notificationHandler: @escaping (Observable<Failure>) -> Trigger, isolation: (any Actor)? = #isolation
    ) -> Observable<Element> {
        let source = asObservable()
        let check = MainActorClosureCheck.forIsolation(isolation, operator: "retry(when:)")
        return Observable { observer in
            // The handler is called at subscription: not off the main thread.
            if let check, !check.allowsCall() {
                observer.on(.error(check.error))
                return Disposables.create()
            }
            let sink = RetrySink<Element, Failure>(downstream: observer, source: source, limit: nil)
            sink.run(notificationHandler(sink.errors.asObservable()).asObservable().map { _ in () })
            return sink
        }
    }

    private func retry<Trigger: ObservableType>(
        when notificationHandler: @escaping (Observable<any Error>) -> Trigger, limit: Int?,
        source: Observable<Element>, check: MainActorClosureCheck?
    ) -> Observable<Element> {
        Observable { observer in
            // The handler is called at subscription: not off the main thread.
            if let check, !check.allowsCall() {
                observer.on(.error(check.error))
                return Disposables.create()
            }
            let sink = RetrySink<Element, any Error>(downstream: observer, source: source, limit: limit)
            sink.run(notificationHandler(sink.errors.asObservable()).asObservable().map { _ in () })
            return sink
        }
    }
}

final class CatchSink<Element>: Sink<Element>, @unchecked Sendable {
    private let handler: (any Error) throws -> Observable<Element>
    private let subscription = SerialDisposable()

    init(downstream: AnyObserver<Element>, handler: @escaping (any Error) throws -> Observable<Element>) {
        self.handler = handler
        super.init(downstream: downstream)
    }

    func run(_ source: Observable<Element>) {
        let first = SingleAssignmentDisposable()
        subscription.disposable = first
        first.setDisposable(source.subscribe(AnyObserver { [self] event in
            switch event {
            case .next, .completed: forward(event)
            case .error(let error):
                guard !isDisposed else { return }
                first.dispose()
                let fallback: Observable<Element>
                do { fallback = try handler(error) } catch {
                    forwardError(error)
                    return
                }
                let second = SingleAssignmentDisposable()
                subscription.disposable = second
                second.setDisposable(fallback.subscribe(AnyObserver(eventHandler: forward)))
            }
        }))
    }

    override func disposeResources() {
        subscription.dispose()
    }
}

/// retry's sink: a source subscription, a subject of errors fed to the
/// user's trigger, and the trigger's subscription. Re-subscriptions go through
/// the current-thread trampoline so that synchronous failures loop instead of
/// recursing.
final class RetrySink<Element, Failure: Error>: Sink<Element>, @unchecked Sendable {
    let errors = PublishSubject<Failure>()
    private let source: Observable<Element>
    private let current = SerialDisposable()
    private let trigger = SingleAssignmentDisposable()
    private let lock = Lock()
    // Guarded by `lock`:
    private var remaining: Int?
    private var attempt: UInt64 = 0
    /// A source error was sent to the trigger, which has not answered yet.
    private var waitingForTrigger = false
    /// The trigger's terminal event, kept until it matters.
    private var triggerEnd: Event<Void>?

    init(downstream: AnyObserver<Element>, source: Observable<Element>, limit: Int?) {
        self.source = source
        self.remaining = limit
        super.init(downstream: downstream)
    }

    func run(_ triggers: Observable<Void>) {
        trigger.setDisposable(triggers.subscribe(AnyObserver { [self] event in
            let act: Bool = lock.withLock {
                if event.isStopEvent { triggerEnd = event }
                guard waitingForTrigger else { return false }
                waitingForTrigger = false
                return true
            }
            guard act else { return }
            switch event {
            case .next: resubscribe()
            case .error, .completed: end(with: event)
            }
        }))
        subscribeSource()
    }

    private func end(with triggerEnd: Event<Void>) {
        if case .error(let error) = triggerEnd { forwardError(error) } else { forwardCompleted() }
    }

    private func resubscribe() {
        guard !isDisposed else { return }
        CurrentThreadScheduler.instance.schedule { [self] in subscribeSource() }
    }

    private func subscribeSource() {
        guard !isDisposed else { return }
        let id: UInt64 = lock.withLock {
            attempt &+= 1
            if let remaining { self.remaining = remaining - 1 }
            return attempt
        }
        let subscription = SingleAssignmentDisposable()
        current.disposable = subscription
        subscription.setDisposable(source.subscribe(AnyObserver { [self] event in
            guard lock.withLock({ attempt == id }) else { return }
            switch event {
            case .next, .completed: forward(event)
            case .error(let error):
                subscription.dispose()
                guard let failure = error as? Failure else { return forwardError(error) }
                let next: RetryStep = lock.withLock {
                    if let remaining, remaining <= 0 { return .fail }
                    if let triggerEnd { return .end(triggerEnd) }
                    waitingForTrigger = true
                    return .ask
                }
                switch next {
                case .fail: forwardError(error)
                case .end(let event): end(with: event)
                case .ask: errors.onNext(failure)
                }
            }
        }))
    }

    override func disposeResources() {
        current.dispose()
        trigger.dispose()
    }
}

/// What a retry sink does with a source error.
private enum RetryStep {
    case fail
    case end(Event<Void>)
    case ask
}
