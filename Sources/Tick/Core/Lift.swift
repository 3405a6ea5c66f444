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

/// One element-wise stage of a chain, and the stages below it. (Abstract:
/// ``MapStage`` and ``CompactMapStage`` are the stages; one allocation per
/// operator applied, none per subscription while the chain is short.)
@usableFromInline
class ElementStages {
    /// Past this many consecutive stages, the chain runs as one fused sink.
    @usableFromInline static var fusionDepth: Int { 32 }

    /// The stage below this one; nil for the first stage over the source.
    fileprivate final var previous: ElementStages?
    /// The number of stages down to and including the first one.
    @usableFromInline final let depth: Int

    @usableFromInline
    init(previous: ElementStages?) {
        self.previous = previous
        self.depth = (previous?.depth ?? 0) + 1
    }

    /// This stage: an element in (as `Any`), the element out, or nil to drop it.
    func apply(_ value: Any) throws -> Any? { nil }

    /// On the first stage: subscribes `handler` to the source.
    func subscribeSource(_ handler: @escaping (Event<Any>) -> Void) -> (any Disposable)? { nil }

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

    /// The stages of the chain, first (the one over the source) to last (this one).
    final func inOrder() -> [ElementStages] {
        var chain: [ElementStages] = []
        chain.reserveCapacity(depth)
        var node: ElementStages? = self
        while let current = node {
            chain.append(current)
            node = current.previous
        }
        chain.reverse()
        return chain
    }

    /// The first stage of the chain (the one over the source).
    final var firstStage: ElementStages {
        var node = self
        while let previous = node.previous { node = previous }
        return node
    }

    /// On the first stage: when the source is a `flatMap` that a merging sink
    /// can take over, the splice that does so with `list` (this chain and the
    /// stages after it) applied to every inner sequence (FlatMap+Stages.swift).
    func spliceOfSource<Output>(then list: StageList) -> ((any MergeHost<Output>) -> Void)? { nil }

    /// Subscribes `observer` to the whole chain with one sink.
    @usableFromInline final func subscribeFused<Output>(_ observer: AnyObserver<Output>) -> any Disposable {
        let chain = inOrder()
        let sink = FusedStagesSink(downstream: observer, stages: chain)
        if let subscription = chain.first?.subscribeSource(sink.on) { sink.setUpstream(subscription) }
        return sink
    }
}

/// A stage whose input elements are `Input`: holds the source when it is the
/// first stage.
@usableFromInline
class TypedStage<Input>: ElementStages {
    /// The source, on the first stage only.
    private let source: Observable<Input>?

    @usableFromInline
    init(over source: Observable<Input>) {
        self.source = source.stages == nil ? source : nil
        super.init(previous: source.stages)
    }

    override final func spliceOfSource<Output>(then list: StageList) -> ((any MergeHost<Output>) -> Void)? {
        source.flatMap { mergeSplice(of: $0, then: list) }
    }

    override final func subscribeSource(_ handler: @escaping (Event<Any>) -> Void) -> (any Disposable)? {
        source?.subscribe(
            AnyObserver<Input>(eventHandler: { event in
                switch event {
                case .next(let element): handler(.next(element as Any))
                case .error(let error): handler(.error(error))
                case .completed: handler(.completed)
                }
            }))
    }
}

/// A `map` stage. While the chain is short enough to run a sink per
/// operator, it also keeps its source, so that the observable's shallow
/// subscription (written in `map`) is a closure that captures only the
/// stage: a closure capturing one object needs no context of its own (one
/// allocation less per `map`).
@usableFromInline
final class MapStage<Input, Output>: TypedStage<Input> {
    @usableFromInline let transform: (Input) throws -> Output
    /// The source, while the chain is at most `fusionDepth` stages deep (the
    /// shallow subscription subscribes it); past that depth, where the chain
    /// subscribes as one fused sink, an observable that holds nothing (never
    /// subscribed). Keeping the source no deeper keeps the release of a long
    /// chain iterative (see `ElementStages.deinit`): what refers to a stage
    /// through a source (a stage's observable, which holds the stage below)
    /// is at most `fusionDepth` levels deep, as when each shallow closure
    /// captured its source. (Not an optional: unwrapping one copied the
    /// observable at each subscription, about 120 instructions.)
    @usableFromInline let shallowSource: Observable<Input>

    @usableFromInline
    init(over source: Observable<Input>, _ transform: @escaping (Input) throws -> Output) {
        self.transform = transform
        self.shallowSource =
            (source.stages?.depth ?? 0) < ElementStages.fusionDepth ? source : Observable { _ in Disposables.create() }
        super.init(over: source)
    }

    override func apply(_ value: Any) throws -> Any? {
        // The stage below produced an `Input` (the chain is built typed);
        // `as Any` keeps an optional element boxed as one.
        guard let input = value as? Input else { return nil }
        return .some(try transform(input) as Any)
    }
}

/// A `compactMap` stage.
@usableFromInline
final class CompactMapStage<Input, Output>: TypedStage<Input> {
    private let transform: (Input) throws -> Output?

    @usableFromInline
    init(over source: Observable<Input>, _ transform: @escaping (Input) throws -> Output?) {
        self.transform = transform
        super.init(over: source)
    }

    override func apply(_ value: Any) throws -> Any? {
        guard let input = value as? Input, let output = try transform(input) else { return nil }
        return .some(output as Any)
    }
}

extension Observable {
    /// The observable of an element-wise stage (`stages`, whose last stage
    /// outputs `Element`): `shallow` (the operator's own sink) while the chain
    /// is short, one fused sink for the whole chain once it is longer than
    /// `ElementStages.fusionDepth`.
    @usableFromInline
    static func stage(
        _ stages: ElementStages, shallow: @escaping (AnyObserver<Element>) -> any Disposable
    ) -> Observable<Element> {
        guard stages.depth > ElementStages.fusionDepth else { return Observable(shallow, stages: stages) }
        return Observable({ observer in stages.subscribeFused(observer) }, stages: stages)
    }
}

/// The one sink of a fused chain of element-wise stages.
final class FusedStagesSink<Output>: Sink<Output>, @unchecked Sendable {
    private let stages: [ElementStages]

    init(downstream: AnyObserver<Output>, stages: [ElementStages]) {
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
                    guard !isDisposed, let next = try stage.apply(value) else { return }
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
