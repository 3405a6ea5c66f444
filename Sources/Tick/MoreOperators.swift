// Creation with a scheduler and operators added for RxSwift parity (issue 12).

extension Observable {
    /// Emits `element`, then completes, on `scheduler`: the element in an
    /// action scheduled at subscription, the completion in the next one (as
    /// RxSwift does). On a `TestScheduler` both arrive at the subscription
    /// time (one frame apart each with `simulateProcessingDelay`).
    public static func just(_ element: Element, scheduler: any Scheduler) -> Observable<Element> {
        from(CollectionOfOne(element), scheduler: scheduler)
    }

    /// Emits `elements` on `scheduler`, one action per element, then
    /// completes in one more action (see ``from(_:scheduler:)``).
    public static func of(_ elements: Element..., scheduler: any Scheduler) -> Observable<Element> {
        from(elements, scheduler: scheduler)
    }

    /// Emits the elements of `sequence` on `scheduler`, one scheduled action
    /// per element, then completes in one more action.
    ///
    /// The sequence is iterated lazily, one element per action, and disposing
    /// cancels the pending action, so an endless sequence is fine with `take`.
    public static func from<S: Sequence>(_ sequence: S, scheduler: any Scheduler) -> Observable<Element>
    where S.Element == Element {
        Observable { observer in
            let sink = ScheduledSequenceSink(downstream: observer, iterator: sequence.makeIterator(), scheduler: scheduler)
            sink.scheduleStep()
            return sink
        }
    }

    /// Emits the wrapped value and completes, or just completes if `optional`
    /// is `nil`.
    public static func from(optional: Element?) -> Observable<Element> {
        optional.map { just($0) } ?? empty()
    }

    /// ``from(optional:)`` on `scheduler` (see ``from(_:scheduler:)``).
    public static func from(optional: Element?, scheduler: any Scheduler) -> Observable<Element> {
        from(optional.map { [$0] } ?? [], scheduler: scheduler)
    }

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

extension ObservableType {
    /// Emits the source's only element as soon as it arrives and completes
    /// with the source.
    ///
    /// Fails with ``TickError/moreThanOneElement`` when a second element
    /// arrives, and with ``TickError/noElements`` if the source completes
    /// without one, as RxSwift's `single()`.
    public func single() -> Observable<Element> {
        single { _ in true }
    }

    /// ``single()`` counting only the elements for which `predicate` holds;
    /// the others are dropped. An error `predicate` throws ends the sequence.
    ///
    /// - Parameter isolation: leave the default (the caller's isolation). A closure written on
    ///   the main actor is then never called off the main thread: Tick ends the sequence with
    ///   ``TickError/isolationViolation(operator:)`` instead (Docs/Concurrency.md). Pass `nil`
    ///   for a closure that uses no main-actor state.
    public func single(
        _ predicate: @escaping (Element) throws -> Bool, isolation: (any Actor)? = #isolation
    ) -> Observable<Element> {
        let predicate = MainActorClosureCheck.forIsolation(isolation, operator: "single")?.wrap(predicate) ?? predicate
        return lift { sink in
            var seen = false
            return { event in
                switch event {
                case .next(let element):
                    guard !sink.isDisposed else { return }
                    do {
                        guard try predicate(element) else { return }
                    } catch {
                        sink.forwardError(error)
                        return
                    }
                    if seen {
                        sink.forwardError(TickError.moreThanOneElement)
                    } else {
                        seen = true
                        sink.forwardNext(element)
                    }
                case .error: sink.forward(event)
                case .completed:
                    if seen { sink.forwardCompleted() } else { sink.forwardError(TickError.noElements) }
                }
            }
        }
    }

    /// Emits `default` when the source completes without an element, then
    /// completes.
    public func ifEmpty(default: Element) -> Observable<Element> {
        lift { sink in
            var isEmpty = true
            return { event in
                switch event {
                case .next:
                    isEmpty = false
                    sink.forward(event)
                case .error: sink.forward(event)
                case .completed:
                    if isEmpty { sink.forwardNext(`default`) }
                    sink.forwardCompleted()
                }
            }
        }
    }

    /// Continues with `other` when the source completes without an element.
    /// The source subscription is disposed before `other` is subscribed.
    public func ifEmpty<Other: ObservableType>(switchTo other: Other) -> Observable<Element>
    where Other.Element == Element {
        let source = asObservable()
        let other = other.asObservable()
        return Observable { observer in
            let sink = IfEmptySink(downstream: observer, other: other)
            sink.run(source)
            return sink
        }
    }

    /// Pairs each element with its index, from 0.
    public func enumerated() -> Observable<(index: Int, element: Element)> {
        lift { sink in
            var index = 0
            return { event in
                switch event {
                case .next(let element):
                    let current = index
                    index += 1
                    sink.forwardNext((index: current, element: element))
                case .error(let error): sink.forwardError(error)
                case .completed: sink.forwardCompleted()
                }
            }
        }
    }

    /// Pairs each element with `object`, held weakly; completes at the first
    /// element that arrives after `object` is gone (as RxSwift).
    public func withUnretained<Object: AnyObject>(_ object: Object) -> Observable<(Object, Element)> {
        withUnretained(object) { ($0, $1) }
    }

    /// Combines each element with `object`, held weakly, using
    /// `resultSelector`; completes at the first element that arrives after
    /// `object` is gone.
    ///
    /// - Parameter isolation: leave the default (the caller's isolation). A closure written on
    ///   the main actor is then never called off the main thread: Tick ends the sequence with
    ///   ``TickError/isolationViolation(operator:)`` instead (Docs/Concurrency.md). Pass `nil`
    ///   for a closure that uses no main-actor state.
    public func withUnretained<Object: AnyObject, Result>(
        _ object: Object, resultSelector: @escaping (Object, Element) throws -> Result,
        isolation: (any Actor)? = #isolation
    ) -> Observable<Result> {
        let resultSelector =
            MainActorClosureCheck.forIsolation(isolation, operator: "withUnretained")?.wrap(resultSelector) ?? resultSelector
        return lift { [weak object] sink in
            { [weak object] event in
                switch event {
                case .next(let element):
                    guard !sink.isDisposed else { return }
                    guard let object else {
                        sink.forwardCompleted()
                        return
                    }
                    do { sink.forwardNext(try resultSelector(object, element)) } catch { sink.forwardError(error) }
                case .error(let error): sink.forwardError(error)
                case .completed: sink.forwardCompleted()
                }
            }
        }
    }

    /// Subscribes with closures that also receive `object`, held weakly: once
    /// it is gone, the closures are no longer called (the subscription stays
    /// until it terminates or is disposed, as in RxSwift).
    public func subscribe<Object: AnyObject>(
        with object: Object,
        onNext: ((Object, Element) -> Void)? = nil,
        onError: ((Object, any Error) -> Void)? = nil,
        onCompleted: ((Object) -> Void)? = nil,
        onDisposed: ((Object) -> Void)? = nil,
        isolation: isolated (any Actor)? = #isolation
    ) -> any Disposable {
        subscribe(
            onNext: { [weak object] element in
                guard let object else { return }
                onNext?(object, element)
            },
            onError: { [weak object] error in
                guard let object else { return }
                onError?(object, error)
            },
            onCompleted: { [weak object] in
                guard let object else { return }
                onCompleted?(object)
            },
            onDisposed: { [weak object] in
                guard let object else { return }
                onDisposed?(object)
            })
    }

    /// Drops elements whose property at `keyPath` equals the previous
    /// element's.
    public func distinctUntilChanged<Property: Equatable>(at keyPath: KeyPath<Element, Property>) -> Observable<Element> {
        distinctUntilChanged({ $0[keyPath: keyPath] }, comparer: ==)
    }
}

/// `from(_:scheduler:)`: one scheduled action per element.
final class ScheduledSequenceSink<Iterator: IteratorProtocol>: Sink<Iterator.Element>, @unchecked Sendable {
    // Touched only by the scheduled steps, which run one at a time (each step
    // schedules the next).
    private var iterator: Iterator
    private let scheduler: any Scheduler
    private let pending = SerialDisposable()

    init(downstream: AnyObserver<Iterator.Element>, iterator: Iterator, scheduler: any Scheduler) {
        self.iterator = iterator
        self.scheduler = scheduler
        super.init(downstream: downstream)
    }

    func scheduleStep() {
        // Installed before scheduling, so a scheduler that runs the action at
        // once (and so schedules the next step) cannot be overwritten by it.
        let step = SingleAssignmentDisposable()
        pending.disposable = step
        step.setDisposable(scheduler.schedule { [self] in self.step() })
    }

    private func step() {
        guard !isDisposed else { return }
        if let element = iterator.next() {
            forwardNext(element)
            if !isDisposed { scheduleStep() }
        } else {
            forwardCompleted()
        }
    }

    override func disposeResources() { pending.dispose() }
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

/// `ifEmpty(switchTo:)`.
final class IfEmptySink<Element>: Sink<Element>, @unchecked Sendable {
    private let other: Observable<Element>
    private let current = SerialDisposable()
    /// Written by the source's events only (serialized).
    private var isEmpty = true

    init(downstream: AnyObserver<Element>, other: Observable<Element>) {
        self.other = other
        super.init(downstream: downstream)
    }

    func run(_ source: Observable<Element>) {
        let first = SingleAssignmentDisposable()
        current.disposable = first
        first.setDisposable(source.subscribe(AnyObserver { [self] event in
            switch event {
            case .next:
                isEmpty = false
                forward(event)
            case .error: forward(event)
            case .completed:
                guard isEmpty, !isDisposed else {
                    forward(event)
                    return
                }
                first.dispose()
                let second = SingleAssignmentDisposable()
                current.disposable = second
                second.setDisposable(other.subscribe(AnyObserver(eventHandler: forward)))
            }
        }))
    }

    override func disposeResources() { current.dispose() }
}
