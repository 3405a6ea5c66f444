extension ObservableType {
    /// Transforms each element with `transform`; an error it throws ends the
    /// sequence with that error.
    ///
    /// - Parameter isolation: leave the default (the caller's isolation). A closure written on
    ///   the main actor is then never called off the main thread: Tick ends the sequence with
    ///   ``TickError/isolationViolation(operator:)`` instead (Docs/Concurrency.md). Pass `nil`
    ///   for a closure that uses no main-actor state.
    @inlinable
    public func map<Result>(
        _ transform: @escaping (Element) throws -> Result, isolation: (any Actor)? = #isolation
    ) -> Observable<Result> {
        let source = asObservable()
        // Main-actor closures are checked (OperatorIsolation.swift); others run as given.
        let transform = MainActorClosureCheck.forIsolation(isolation, operator: "map")?.wrap(transform) ?? transform
        // A stage of a fusable chain (Lift.swift): long chains run as one sink.
        // The shallow subscription captures only the stage, which keeps the
        // source and the transform (no closure context to allocate).
        let stage = MapStage(over: source, transform)
        return Observable.stage(stage) { observer in
            // `Observable.stage` subscribes this way only up to
            // `fusionDepth` stages, where the stage keeps its source;
            // deeper, the fused subscription (the same events, one sink).
            guard stage.depth <= ElementStages.fusionDepth else { return stage.subscribeFused(observer) }
            let sink = MapSink(downstream: observer, transform: stage.transform)
            sink.setUpstream(stage.shallowSource.subscribe(AnyObserver(eventHandler: sink.on)))
            return sink
        }
    }
}

@usableFromInline
final class MapSink<Input, Output>: Sink<Output>, @unchecked Sendable {
    @usableFromInline let transform: (Input) throws -> Output

    @inlinable
    init(downstream: AnyObserver<Output>, transform: @escaping (Input) throws -> Output) {
        self.transform = transform
        super.init(downstream: downstream)
    }

    @inlinable
    func on(_ event: Event<Input>) {
        switch event {
        case .next(let element):
            guard !isDisposed else { return }
            do { forwardNext(try transform(element)) } catch { forwardError(error) }
        case .error(let error): forwardError(error)
        case .completed: forwardCompleted()
        }
    }
}
