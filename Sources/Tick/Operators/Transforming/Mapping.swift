extension ObservableType {
    /// Transforms each element and emits the non-`nil` results; an error
    /// `transform` throws ends the sequence.
    ///
    /// - Parameter isolation: leave the default (the caller's isolation). A closure written on
    ///   the main actor is then never called off the main thread: Tick ends the sequence with
    ///   ``TickError/isolationViolation(operator:)`` instead (Docs/Concurrency.md). Pass `nil`
    ///   for a closure that uses no main-actor state.
    public func compactMap<Result>(
        _ transform: @escaping (Element) throws -> Result?, isolation: (any Actor)? = #isolation
    ) -> Observable<Result> {
        let transform =
            MainActorClosureCheck.forIsolation(isolation, operator: "compactMap")?.wrap(transform) ?? transform
        // A stage of a fusable chain (Lift.swift): long chains run as one sink.
        let shallow = lift { (sink: Sink<Result>) in
            { (event: Event<Element>) in
                switch event {
                case .next(let element):
                    guard !sink.isDisposed else { return }
                    do {
                        if let result = try transform(element) { sink.forwardNext(result) }
                    } catch {
                        sink.forwardError(error)
                    }
                case .error(let error): sink.forwardError(error)
                case .completed: sink.forwardCompleted()
                }
            }
        }
        return Observable.stage(CompactMapStage(over: asObservable(), transform), shallow: shallow.run)
    }

    /// Turns every event into an element: the source's elements, then its
    /// terminal event as an element, then completes. Never fails.
    public func materialize() -> Observable<Event<Element>> {
        lift { sink in
            { event in
                sink.forwardNext(event)
                if event.isStopEvent { sink.forwardCompleted() }
            }
        }
    }
}

extension ObservableType {
    /// The reverse of ``materialize()``: each element that is an event is sent
    /// as that event (a terminal one ends the sequence).
    public func dematerialize<Inner>() -> Observable<Inner> where Element == Event<Inner> {
        lift { sink in
            { event in
                switch event {
                case .next(let inner): sink.forward(inner)
                case .error(let error): sink.forwardError(error)
                case .completed: sink.forwardCompleted()
                }
            }
        }
    }
}

extension ObservableType {
    /// Emits the running accumulation: `accumulator(seed, e0)`, then
    /// `accumulator(that, e1)`, … An error it throws ends the sequence.
    ///
    /// - Parameter isolation: leave the default (the caller's isolation). A closure written on
    ///   the main actor is then never called off the main thread: Tick ends the sequence with
    ///   ``TickError/isolationViolation(operator:)`` instead (Docs/Concurrency.md). Pass `nil`
    ///   for a closure that uses no main-actor state.
    @inlinable
    public func scan<State>(
        _ seed: State, accumulator: @escaping (State, Element) throws -> State,
        isolation: (any Actor)? = #isolation
    ) -> Observable<State> {
        let accumulator =
            MainActorClosureCheck.forIsolation(isolation, operator: "scan")?.wrap(accumulator) ?? accumulator
        return lift { sink in
            let state = ScanState(seed)
            return { event in
                switch event {
                case .next(let element):
                    guard !sink.isDisposed else { return }
                    do {
                        state.value = try accumulator(state.value, element)
                        sink.forwardNext(state.value)
                    } catch {
                        sink.forwardError(error)
                    }
                case .error(let error): sink.forwardError(error)
                case .completed: sink.forwardCompleted()
                }
            }
        }
    }

    /// ``scan(_:accumulator:)`` with an accumulator that mutates the state in place.
    ///
    /// - Parameter isolation: leave the default (the caller's isolation). A closure written on
    ///   the main actor is then never called off the main thread: Tick ends the sequence with
    ///   ``TickError/isolationViolation(operator:)`` instead (Docs/Concurrency.md). Pass `nil`
    ///   for a closure that uses no main-actor state.
    public func scan<State>(
        into seed: State, accumulator: @escaping (inout State, Element) throws -> Void,
        isolation: (any Actor)? = #isolation
    ) -> Observable<State> {
        let accumulator =
            MainActorClosureCheck.forIsolation(isolation, operator: "scan(into:)")?.wrap(accumulator) ?? accumulator
        return scan(
            seed,
            accumulator: { state, element in
                var state = state
                try accumulator(&state, element)
                return state
            }, isolation: nil)
    }

    /// Accumulates every element and, when the source completes, emits
    /// `mapResult` of the final state, then completes. Emits `seed` (mapped)
    /// for an empty source.
    ///
    /// - Parameter isolation: leave the default (the caller's isolation). A closure written on
    ///   the main actor is then never called off the main thread: Tick ends the sequence with
    ///   ``TickError/isolationViolation(operator:)`` instead (Docs/Concurrency.md). Pass `nil`
    ///   for a closure that uses no main-actor state.
    public func reduce<State, Result>(
        _ seed: State, accumulator: @escaping (State, Element) throws -> State,
        mapResult: @escaping (State) throws -> Result, isolation: (any Actor)? = #isolation
    ) -> Observable<Result> {
        let check = MainActorClosureCheck.forIsolation(isolation, operator: "reduce")
        let accumulator = check?.wrap(accumulator) ?? accumulator
        let mapResult = check?.wrap(mapResult) ?? mapResult
        return lift { sink in
            var state = seed
            return { event in
                switch event {
                case .next(let element):
                    guard !sink.isDisposed else { return }
                    do { state = try accumulator(state, element) } catch { sink.forwardError(error) }
                case .error(let error): sink.forwardError(error)
                case .completed:
                    do {
                        sink.forwardNext(try mapResult(state))
                        sink.forwardCompleted()
                    } catch {
                        sink.forwardError(error)
                    }
                }
            }
        }
    }

    /// Accumulates every element and emits the final state when the source completes.
    ///
    /// - Parameter isolation: leave the default (the caller's isolation). A closure written on
    ///   the main actor is then never called off the main thread: Tick ends the sequence with
    ///   ``TickError/isolationViolation(operator:)`` instead (Docs/Concurrency.md). Pass `nil`
    ///   for a closure that uses no main-actor state.
    public func reduce<State>(
        _ seed: State, accumulator: @escaping (State, Element) throws -> State,
        isolation: (any Actor)? = #isolation
    ) -> Observable<State> {
        let accumulator =
            MainActorClosureCheck.forIsolation(isolation, operator: "reduce")?.wrap(accumulator) ?? accumulator
        return reduce(seed, accumulator: accumulator, mapResult: { $0 }, isolation: nil)
    }

    /// Collects every element and emits them as one array when the source
    /// completes (an empty array for an empty source).
    public func toArray() -> Observable<[Element]> {
        reduce(into: [Element]()) { $0.append($1) }
    }

    func reduce<State>(into seed: State, _ accumulator: @escaping (inout State, Element) -> Void) -> Observable<State> {
        lift { sink in
            var state = seed
            return { event in
                switch event {
                case .next(let element): accumulator(&state, element)
                case .error(let error): sink.forwardError(error)
                case .completed:
                    sink.forwardNext(state)
                    sink.forwardCompleted()
                }
            }
        }
    }
}

/// The state of one `scan` subscription. A class of its own rather than a
/// captured `var`: a captured variable is checked for exclusive access at
/// run time on every event, and these accesses are already serialized by
/// the Rx contract (one event at a time per observer).
@usableFromInline
final class ScanState<State>: @unchecked Sendable {
    // @unchecked: touched only by the one subscription's events, which the
    // Rx contract delivers one at a time.
    @usableFromInline @exclusivity(unchecked) var value: State

    @inlinable init(_ value: State) { self.value = value }
}
