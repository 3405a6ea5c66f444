extension Observable where Element: FixedWidthInteger {
    /// Emits `count` consecutive integers from `start`, then completes.
    ///
    /// Elements are delivered one step at a time on `scheduler` (by default
    /// the current-thread trampoline, like ``from(_:)``). A negative `count`,
    /// or a range that would overflow `Element`, is reported as misuse and
    /// fails with ``TickError/argumentOutOfRange``.
    public static func range(
        start: Element, count: Element, scheduler: any Scheduler = CurrentThreadScheduler.instance
    ) -> Observable<Element> {
        guard count >= 0 else {
            Misuse.report("range(start:count:) was given a negative count (\(count)).")
            return .error(TickError.argumentOutOfRange)
        }
        if count > 0, start.addingReportingOverflow(count - 1).overflow {
            Misuse.report("range(start: \(start), count: \(count)) overflows \(Element.self).")
            return .error(TickError.argumentOutOfRange)
        }
        // Iterate an offset in 0...count (never overflows), then add it to start.
        return generate(initialState: 0, condition: { $0 < count }, scheduler: scheduler) { $0 + 1 }.map { start + $0 }
    }

    /// Emits `0` after `dueTime`, then, if `period` is given, `1`, `2`, … every
    /// `period` (RxSwift's labelled spelling of ``timer(_:period:scheduler:)``).
    public static func timer(dueTime: Duration, period: Duration? = nil, scheduler: any Scheduler) -> Observable<Element> {
        timer(dueTime, period: period, scheduler: scheduler)
    }

    /// Emits `0`, `1`, `2`, … every `period` (the labelled spelling of
    /// ``interval(_:scheduler:)``).
    public static func interval(period: Duration, scheduler: any Scheduler) -> Observable<Element> {
        interval(period, scheduler: scheduler)
    }
}

extension Observable {
    /// Emits `element` forever, one step at a time on `scheduler` (by default
    /// the current-thread trampoline, so `repeatElement(x).take(3)` stops).
    public static func repeatElement(
        _ element: Element, scheduler: any Scheduler = CurrentThreadScheduler.instance
    ) -> Observable<Element> {
        generate(initialState: element, condition: { _ in true }, scheduler: scheduler) { $0 }
    }

    /// Emits `initialState`, then `iterate(initialState)`, … while `condition`
    /// holds, then completes; one element per step on `scheduler` (by default
    /// the current-thread trampoline). An error thrown by `condition` or
    /// `iterate` ends the sequence.
    ///
    /// - Parameter isolation: leave the default (the caller's isolation). A closure written on
    ///   the main actor is then never called off the main thread: Tick ends the sequence with
    ///   ``TickError/isolationViolation(operator:)`` instead (Docs/Concurrency.md). Pass `nil`
    ///   for a closure that uses no main-actor state.
    public static func generate(
        initialState: Element, condition: @escaping (Element) throws -> Bool,
        scheduler: any Scheduler = CurrentThreadScheduler.instance,
        iterate: @escaping (Element) throws -> Element, isolation: (any Actor)? = #isolation
    ) -> Observable<Element> {
        let check = MainActorClosureCheck.forIsolation(isolation, operator: "generate")
        let condition = check?.wrap(condition) ?? condition
        let iterate = check?.wrap(iterate) ?? iterate
        return Observable { observer in
            let sink = GenerateSink(
                downstream: observer, state: initialState, condition: condition, iterate: iterate, scheduler: scheduler)
            sink.scheduleStep(first: true)
            return sink
        }
    }

    /// Creates a resource with `resourceFactory` for each subscription, and
    /// mirrors the observable `observableFactory` makes from it. The resource
    /// is disposed when the subscription ends (after the observable's
    /// subscription). An error thrown by either factory is sent as the error
    /// (the resource, if it was created, is disposed).
    ///
    /// - Parameter isolation: leave the default (the caller's isolation). A closure written on
    ///   the main actor is then never called off the main thread: Tick ends the sequence with
    ///   ``TickError/isolationViolation(operator:)`` instead (Docs/Concurrency.md). Pass `nil`
    ///   for a closure that uses no main-actor state.
    public static func using<Resource: Disposable>(
        _ resourceFactory: @escaping () throws -> Resource,
        observableFactory: @escaping (Resource) throws -> Observable<Element>,
        isolation: (any Actor)? = #isolation
    ) -> Observable<Element> {
        let check = MainActorClosureCheck.forIsolation(isolation, operator: "using")
        let resourceFactory = check?.wrap(resourceFactory) ?? resourceFactory
        let observableFactory = check?.wrap(observableFactory) ?? observableFactory
        return Observable { observer in
            let sink = AnonymousSink(downstream: observer)
            let resource: Resource
            do { resource = try resourceFactory() } catch {
                sink.forwardError(error)
                return sink
            }
            let source: Observable<Element>
            do { source = try observableFactory(resource) } catch {
                sink.forwardError(error)
                resource.dispose()
                return sink
            }
            let subscription = source.subscribe(AnyObserver(eventHandler: sink.forward))
            sink.setUpstream(Disposables.create(subscription, resource))
            return sink
        }
    }
}

final class GenerateSink<Element>: Sink<Element>, @unchecked Sendable {
    private var current: Element
    private let condition: (Element) throws -> Bool
    private let iterate: (Element) throws -> Element
    private let scheduler: any Scheduler
    private let pending = SerialDisposable()

    init(
        downstream: AnyObserver<Element>, state: Element, condition: @escaping (Element) throws -> Bool,
        iterate: @escaping (Element) throws -> Element, scheduler: any Scheduler
    ) {
        self.current = state
        self.condition = condition
        self.iterate = iterate
        self.scheduler = scheduler
        super.init(downstream: downstream)
    }

    func scheduleStep(first: Bool) {
        guard !isDisposed else { return }
        pending.disposable = scheduler.schedule { [self] in step(first: first) }
    }

    private func step(first: Bool) {
        guard !isDisposed else { return }
        do {
            if !first { current = try iterate(current) }
            if try condition(current) {
                forwardNext(current)
                scheduleStep(first: false)
            } else {
                forwardCompleted()
            }
        } catch {
            forwardError(error)
        }
    }

    override func disposeResources() { pending.dispose() }
}
