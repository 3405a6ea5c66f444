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

// MARK: Fused element-wise stages
//
// A chain of `map`/`compactMap` stages is recorded as a linked list of
// `ElementStages` next to the usual sink-per-operator observables. Up to
// `ElementStages.fusionDepth` stages the usual observables run (fastest for
// the short chains everyone writes); a longer chain subscribes as ONE sink
// that applies every stage in a loop. So subscribing, delivering, disposing
// and releasing a chain of 100,000 `map`s never recurses per stage (issue 16,
// item 3; the limits that remain are in Docs/Operators.md, "Limits").

/// One element-wise stage of a chain, and the stages below it.
@usableFromInline
final class ElementStages {
    /// Past this many consecutive stages, the chain runs as one fused sink.
    @usableFromInline static var fusionDepth: Int { 32 }

    /// The stage below this one; nil for the first stage over the source.
    private var previous: ElementStages?
    /// Subscribes to the source under the first stage (set on the first stage only).
    let subscribeSource: ((@escaping (Event<Any>) -> Void) -> any Disposable)?
    /// This stage: an element in, the element out, or nil to drop it.
    let apply: (Any) throws -> Any?
    /// The number of stages down to and including the first one.
    @usableFromInline let depth: Int

    @usableFromInline
    init<Input, Output>(over source: Observable<Input>, _ stage: @escaping (Input) throws -> Output?) {
        if let below = source.stages {
            previous = below
            subscribeSource = nil
            depth = below.depth + 1
        } else {
            previous = nil
            subscribeSource = { handler in
                source.subscribe(
                    AnyObserver<Input>(eventHandler: { event in
                        switch event {
                        case .next(let element): handler(.next(element as Any))
                        case .error(let error): handler(.error(error))
                        case .completed: handler(.completed)
                        }
                    }))
            }
            depth = 1
        }
        apply = { value in
            // The stage below produced an `Input` (the chain is built typed);
            // `as Any` keeps an optional element boxed as one.
            guard let input = value as? Input, let output = try stage(input) else { return nil }
            return .some(output as Any)
        }
    }

    /// Released iteratively: a chain of 100,000 stages must not recurse in
    /// deinitializers either.
    deinit {
        var next = previous.take()
        while var node = next {
            next = nil
            guard isKnownUniquelyReferenced(&node) else { break }
            next = node.previous.take()
        }
    }

    /// Subscribes `observer` to the whole chain with one sink.
    func subscribeFused<Output>(_ observer: AnyObserver<Output>) -> any Disposable {
        var chain: [(Any) throws -> Any?] = []
        chain.reserveCapacity(depth)
        var node: ElementStages? = self
        var subscribe: ((@escaping (Event<Any>) -> Void) -> any Disposable)?
        while let current = node {
            chain.append(current.apply)
            subscribe = current.subscribeSource
            node = current.previous
        }
        chain.reverse()
        let sink = FusedStagesSink(downstream: observer, stages: chain)
        if let subscribe { sink.setUpstream(subscribe(sink.on)) }
        return sink
    }
}

extension Observable {
    /// The observable of an element-wise stage over `source`: `shallow` (the
    /// operator's own sink) while the chain is short, one fused sink for the
    /// whole chain once it is longer than `ElementStages.fusionDepth`.
    @usableFromInline
    static func stage<Input>(
        over source: Observable<Input>, _ stage: @escaping (Input) throws -> Element?,
        shallow: @escaping (AnyObserver<Element>) -> any Disposable
    ) -> Observable<Element> {
        let stages = ElementStages(over: source, stage)
        guard stages.depth > ElementStages.fusionDepth else { return Observable(shallow, stages: stages) }
        return Observable({ observer in stages.subscribeFused(observer) }, stages: stages)
    }
}

/// The one sink of a fused chain of element-wise stages.
final class FusedStagesSink<Output>: Sink<Output>, @unchecked Sendable {
    private let stages: [(Any) throws -> Any?]

    init(downstream: AnyObserver<Output>, stages: [(Any) throws -> Any?]) {
        self.stages = stages
        super.init(downstream: downstream)
    }

    func on(_ event: Event<Any>) {
        switch event {
        case .next(let element):
            var value = element
            do {
                for stage in stages {
                    // As with one sink per stage, a stage that disposes the
                    // subscription stops the element there.
                    guard !isDisposed, let next = try stage(value) else { return }
                    value = next
                }
            } catch {
                forwardError(error)
                return
            }
            if let output = value as? Output { forwardNext(output) }
        case .error(let error): forwardError(error)
        case .completed: forwardCompleted()
        }
    }
}
