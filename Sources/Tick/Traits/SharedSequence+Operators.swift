// The operators of Driver and Signal: each keeps the shared sequence's
// strategy (its scheduler and its sharing).

// MARK: Operators

extension SharedSequence {
    /// Transforms each element.
    ///
    /// - Parameter isolation: leave the default (the caller's isolation). A closure written on
    ///   the main actor is then never called off the main thread: Tick ends the sequence with
    ///   ``TickError/isolationViolation(operator:)`` instead (Docs/Concurrency.md). Pass `nil`
    ///   for a closure that uses no main-actor state.
    public func map<Result>(
        _ transform: @escaping (Element) -> Result, isolation: (any Actor)? = #isolation
    ) -> SharedSequence<SharingStrategy, Result> {
        .init(source.map(transform, isolation: isolation))
    }

    /// Transforms each element, dropping `nil` results.
    ///
    /// - Parameter isolation: leave the default (the caller's isolation). A closure written on
    ///   the main actor is then never called off the main thread: Tick ends the sequence with
    ///   ``TickError/isolationViolation(operator:)`` instead (Docs/Concurrency.md). Pass `nil`
    ///   for a closure that uses no main-actor state.
    public func compactMap<Result>(
        _ transform: @escaping (Element) -> Result?, isolation: (any Actor)? = #isolation
    ) -> SharedSequence<SharingStrategy, Result> {
        .init(source.compactMap(transform, isolation: isolation))
    }

    /// Keeps the elements for which `predicate` holds.
    ///
    /// - Parameter isolation: leave the default (the caller's isolation). A closure written on
    ///   the main actor is then never called off the main thread: Tick ends the sequence with
    ///   ``TickError/isolationViolation(operator:)`` instead (Docs/Concurrency.md). Pass `nil`
    ///   for a closure that uses no main-actor state.
    public func filter(
        _ predicate: @escaping (Element) -> Bool, isolation: (any Actor)? = #isolation
    ) -> SharedSequence {
        .init(source.filter(predicate, isolation: isolation))
    }

    /// Drops elements whose key equals the previous element's key.
    ///
    /// - Parameter isolation: leave the default (the caller's isolation). A closure written on
    ///   the main actor is then never called off the main thread: Tick ends the sequence with
    ///   ``TickError/isolationViolation(operator:)`` instead (Docs/Concurrency.md). Pass `nil`
    ///   for a closure that uses no main-actor state.
    public func distinctUntilChanged<Key: Equatable>(
        _ keySelector: @escaping (Element) -> Key, isolation: (any Actor)? = #isolation
    ) -> SharedSequence {
        .init(source.distinctUntilChanged(keySelector, isolation: isolation))
    }

    /// Drops elements that `comparer` says equal the previous one.
    ///
    /// - Parameter isolation: leave the default (the caller's isolation). A closure written on
    ///   the main actor is then never called off the main thread: Tick ends the sequence with
    ///   ``TickError/isolationViolation(operator:)`` instead (Docs/Concurrency.md). Pass `nil`
    ///   for a closure that uses no main-actor state.
    public func distinctUntilChanged(
        _ comparer: @escaping (Element, Element) -> Bool, isolation: (any Actor)? = #isolation
    ) -> SharedSequence {
        .init(source.distinctUntilChanged(comparer, isolation: isolation))
    }

    /// Drops elements whose key `comparer` says equals the previous element's key.
    ///
    /// - Parameter isolation: leave the default (the caller's isolation). A closure written on
    ///   the main actor is then never called off the main thread: Tick ends the sequence with
    ///   ``TickError/isolationViolation(operator:)`` instead (Docs/Concurrency.md). Pass `nil`
    ///   for a closure that uses no main-actor state.
    public func distinctUntilChanged<Key>(
        _ keySelector: @escaping (Element) -> Key, comparer: @escaping (Key, Key) -> Bool,
        isolation: (any Actor)? = #isolation
    ) -> SharedSequence {
        .init(source.distinctUntilChanged(keySelector, comparer: comparer, isolation: isolation))
    }

    /// Drops elements whose property at `keyPath` equals the previous element's.
    public func distinctUntilChanged<Property: Equatable>(at keyPath: KeyPath<Element, Property>) -> SharedSequence {
        .init(source.distinctUntilChanged(at: keyPath))
    }

    /// Maps each element to a shared sequence (of any strategy: the result
    /// has the inner sequences' strategy, as in RxCocoa) and mirrors the
    /// latest one.
    ///
    /// - Parameter isolation: leave the default (the caller's isolation). A closure written on
    ///   the main actor is then never called off the main thread: Tick ends the sequence with
    ///   ``TickError/isolationViolation(operator:)`` instead (Docs/Concurrency.md). Pass `nil`
    ///   for a closure that uses no main-actor state.
    public func flatMapLatest<Sharing, Result>(
        _ selector: @escaping (Element) -> SharedSequence<Sharing, Result>, isolation: (any Actor)? = #isolation
    ) -> SharedSequence<Sharing, Result> {
        .init(source.flatMapLatest({ selector($0).source }, isolation: isolation))
    }

    /// Maps an element to a shared sequence (of any strategy, which the
    /// result has) only while none is active.
    ///
    /// - Parameter isolation: leave the default (the caller's isolation). A closure written on
    ///   the main actor is then never called off the main thread: Tick ends the sequence with
    ///   ``TickError/isolationViolation(operator:)`` instead (Docs/Concurrency.md). Pass `nil`
    ///   for a closure that uses no main-actor state.
    public func flatMapFirst<Sharing, Result>(
        _ selector: @escaping (Element) -> SharedSequence<Sharing, Result>, isolation: (any Actor)? = #isolation
    ) -> SharedSequence<Sharing, Result> {
        .init(source.flatMapFirst({ selector($0).source }, isolation: isolation))
    }

    /// Maps each element to a shared sequence (of any strategy, which the
    /// result has) and merges them all.
    ///
    /// - Parameter isolation: leave the default (the caller's isolation). A closure written on
    ///   the main actor is then never called off the main thread: Tick ends the sequence with
    ///   ``TickError/isolationViolation(operator:)`` instead (Docs/Concurrency.md). Pass `nil`
    ///   for a closure that uses no main-actor state.
    public func flatMap<Sharing, Result>(
        _ selector: @escaping (Element) -> SharedSequence<Sharing, Result>, isolation: (any Actor)? = #isolation
    ) -> SharedSequence<Sharing, Result> {
        .init(source.flatMap({ selector($0).source }, isolation: isolation))
    }

    /// Emits `element` first, at subscription.
    public func startWith(_ element: Element) -> SharedSequence {
        .init(source.startWith(element))
    }

    /// Pairs each element with `object`, held weakly, through
    /// `resultSelector`; completes at the first element after `object` is gone.
    public func withUnretained<Object: AnyObject, Out>(
        _ object: Object, resultSelector: @escaping (Object, Element) -> Out
    ) -> SharedSequence<SharingStrategy, Out> {
        .init(source.withUnretained(object, resultSelector: resultSelector))
    }

    /// Pairs each element with `object`, held weakly; completes at the first
    /// element after `object` is gone.
    public func withUnretained<Object: AnyObject>(_ object: Object) -> SharedSequence<SharingStrategy, (Object, Element)> {
        .init(source.withUnretained(object))
    }

    /// Emits the running accumulation.
    ///
    /// - Parameter isolation: leave the default (the caller's isolation). A closure written on
    ///   the main actor is then never called off the main thread: Tick ends the sequence with
    ///   ``TickError/isolationViolation(operator:)`` instead (Docs/Concurrency.md). Pass `nil`
    ///   for a closure that uses no main-actor state.
    public func scan<State>(
        _ seed: State, accumulator: @escaping (State, Element) -> State, isolation: (any Actor)? = #isolation
    ) -> SharedSequence<SharingStrategy, State> {
        .init(source.scan(seed, accumulator: accumulator, isolation: isolation))
    }

    /// Drops the first `count` elements.
    public func skip(_ count: Int) -> SharedSequence {
        .init(source.skip(count))
    }

    /// Emits an element, then drops those arriving within `dueTime`
    /// (``ObservableType/throttle(_:latest:scheduler:)`` on the strategy's
    /// scheduler).
    public func throttle(_ dueTime: Duration, latest: Bool = true) -> SharedSequence {
        .init(source.throttle(dueTime, latest: latest, scheduler: SharingStrategy.scheduler))
    }

    /// Emits an element only after `dueTime` without another one
    /// (``ObservableType/debounce(_:scheduler:)`` on the strategy's scheduler).
    public func debounce(_ dueTime: Duration) -> SharedSequence {
        .init(source.debounce(dueTime, scheduler: SharingStrategy.scheduler))
    }

    /// Shifts the elements and the completion later by `dueTime`.
    public func delay(_ dueTime: Duration) -> SharedSequence {
        .init(source.delay(dueTime, scheduler: SharingStrategy.scheduler))
    }

    /// Combines each element with the latest element of `second`.
    ///
    /// - Parameter isolation: leave the default (the caller's isolation). A closure written on
    ///   the main actor is then never called off the main thread: Tick ends the sequence with
    ///   ``TickError/isolationViolation(operator:)`` instead (Docs/Concurrency.md). Pass `nil`
    ///   for a closure that uses no main-actor state.
    public func withLatestFrom<Second, Result>(
        _ second: SharedSequence<SharingStrategy, Second>,
        resultSelector: @escaping (Element, Second) -> Result, isolation: (any Actor)? = #isolation
    ) -> SharedSequence<SharingStrategy, Result> {
        .init(source.withLatestFrom(second.source, resultSelector: resultSelector, isolation: isolation))
    }

    /// The latest element of `second` at each element of this sequence.
    public func withLatestFrom<Second>(
        _ second: SharedSequence<SharingStrategy, Second>
    ) -> SharedSequence<SharingStrategy, Second> {
        .init(source.withLatestFrom(second.source))
    }

    /// Runs side effects without changing the events.
    ///
    /// - Parameter isolation: leave the default (the caller's isolation). A closure written on
    ///   the main actor is then never called off the main thread: Tick ends the sequence with
    ///   ``TickError/isolationViolation(operator:)`` instead (Docs/Concurrency.md). Pass `nil`
    ///   for a closure that uses no main-actor state.
    public func `do`(
        onNext: ((Element) -> Void)? = nil,
        afterNext: ((Element) -> Void)? = nil,
        onCompleted: (() -> Void)? = nil,
        afterCompleted: (() -> Void)? = nil,
        onSubscribe: (() -> Void)? = nil,
        onSubscribed: (() -> Void)? = nil,
        onDispose: (() -> Void)? = nil,
        isolation: (any Actor)? = #isolation
    ) -> SharedSequence {
        .init(source.do(
            onNext: onNext, afterNext: afterNext, onCompleted: onCompleted, afterCompleted: afterCompleted,
            onSubscribe: onSubscribe, onSubscribed: onSubscribed, onDispose: onDispose, isolation: isolation))
    }

    /// Writes the events to ``DebugOutput`` (see ``ObservableType/debug(_:trimOutput:fileID:line:function:)``).
    public func debug(
        _ identifier: String? = nil, trimOutput: Bool = false,
        fileID: String = #fileID, line: UInt = #line, function: String = #function
    ) -> SharedSequence {
        .init(source.debug(identifier, trimOutput: trimOutput, fileID: fileID, line: line, function: function))
    }
}

extension SharedSequence where Element: Equatable {
    /// Drops elements equal to the previous one.
    public func distinctUntilChanged() -> SharedSequence {
        .init(source.distinctUntilChanged())
    }
}
