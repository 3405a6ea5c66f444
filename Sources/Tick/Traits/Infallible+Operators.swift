// The operators of Infallible, RxSwift's set: each is the observable
// operator of the same name over the infallible's source, with closures that
// cannot throw and inner sequences that cannot fail, so the result is still
// infallible. (RxSwift's closures may throw and its inner sequences may be
// any observable, which lets an "infallible" fail; Tick's signatures rule
// that out. Every port that does not throw compiles unchanged.)

// MARK: Transforming and filtering

extension Infallible {
    /// Transforms each element.
    ///
    /// - Parameter isolation: leave the default (the caller's isolation). A closure written on
    ///   the main actor is then never called off the main thread: Tick ends the sequence with
    ///   ``TickError/isolationViolation(operator:)`` instead (Docs/Concurrency.md). Pass `nil`
    ///   for a closure that uses no main-actor state.
    public func map<Result>(
        _ transform: @escaping (Element) -> Result, isolation: (any Actor)? = #isolation
    ) -> Infallible<Result> {
        Infallible<Result>(raw: source.map(transform, isolation: isolation))
    }

    /// Transforms each element, dropping `nil` results.
    ///
    /// - Parameter isolation: leave the default (the caller's isolation). A closure written on
    ///   the main actor is then never called off the main thread: Tick ends the sequence with
    ///   ``TickError/isolationViolation(operator:)`` instead (Docs/Concurrency.md). Pass `nil`
    ///   for a closure that uses no main-actor state.
    public func compactMap<Result>(
        _ transform: @escaping (Element) -> Result?, isolation: (any Actor)? = #isolation
    ) -> Infallible<Result> {
        Infallible<Result>(raw: source.compactMap(transform, isolation: isolation))
    }

    /// Keeps the elements for which `predicate` holds.
    ///
    /// - Parameter isolation: leave the default (the caller's isolation). A closure written on
    ///   the main actor is then never called off the main thread: Tick ends the sequence with
    ///   ``TickError/isolationViolation(operator:)`` instead (Docs/Concurrency.md). Pass `nil`
    ///   for a closure that uses no main-actor state.
    public func filter(
        _ predicate: @escaping (Element) -> Bool, isolation: (any Actor)? = #isolation
    ) -> Infallible<Element> {
        Infallible(raw: source.filter(predicate, isolation: isolation))
    }

    /// Emits the running accumulation, starting from `seed`.
    ///
    /// - Parameter isolation: leave the default (the caller's isolation). A closure written on
    ///   the main actor is then never called off the main thread: Tick ends the sequence with
    ///   ``TickError/isolationViolation(operator:)`` instead (Docs/Concurrency.md). Pass `nil`
    ///   for a closure that uses no main-actor state.
    public func scan<Seed>(
        _ seed: Seed, accumulator: @escaping (Seed, Element) -> Seed, isolation: (any Actor)? = #isolation
    ) -> Infallible<Seed> {
        Infallible<Seed>(raw: source.scan(seed, accumulator: accumulator, isolation: isolation))
    }

    /// Emits the running accumulation, updated in place.
    ///
    /// - Parameter isolation: leave the default (the caller's isolation). A closure written on
    ///   the main actor is then never called off the main thread: Tick ends the sequence with
    ///   ``TickError/isolationViolation(operator:)`` instead (Docs/Concurrency.md). Pass `nil`
    ///   for a closure that uses no main-actor state.
    public func scan<Seed>(
        into seed: Seed, accumulator: @escaping (inout Seed, Element) -> Void, isolation: (any Actor)? = #isolation
    ) -> Infallible<Seed> {
        Infallible<Seed>(raw: source.scan(into: seed, accumulator: accumulator, isolation: isolation))
    }

    /// Emits `element` first, at subscription.
    public func startWith(_ element: Element) -> Infallible<Element> {
        Infallible(raw: source.startWith(element))
    }

    /// Pairs each element with `object`, held weakly, through
    /// `resultSelector`; completes at the first element after `object` is
    /// gone.
    public func withUnretained<Object: AnyObject, Out>(
        _ object: Object, resultSelector: @escaping (Object, Element) -> Out
    ) -> Infallible<Out> {
        Infallible<Out>(raw: source.withUnretained(object, resultSelector: resultSelector))
    }

    /// Pairs each element with `object`, held weakly; completes at the first
    /// element after `object` is gone.
    public func withUnretained<Object: AnyObject>(_ object: Object) -> Infallible<(Object, Element)> {
        Infallible<(Object, Element)>(raw: source.withUnretained(object))
    }

    /// Writes the events to ``DebugOutput`` (see ``ObservableType/debug(_:trimOutput:fileID:line:function:)``).
    public func debug(
        _ identifier: String? = nil, trimOutput: Bool = false,
        fileID: String = #fileID, line: UInt = #line, function: String = #function
    ) -> Infallible<Element> {
        Infallible(raw: source.debug(identifier, trimOutput: trimOutput, fileID: fileID, line: line, function: function))
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
    ) -> Infallible<Element> {
        Infallible(raw: source.do(
            onNext: onNext, afterNext: afterNext, onCompleted: onCompleted, afterCompleted: afterCompleted,
            onSubscribe: onSubscribe, onSubscribed: onSubscribed, onDispose: onDispose, isolation: isolation))
    }

    /// Shares one subscription among all observers, replaying the latest
    /// `replay` elements (``ObservableType/share(replay:scope:)``).
    public func share(replay: Int = 0, scope: SubjectLifetimeScope = .whileConnected) -> Infallible<Element> {
        Infallible(raw: source.share(replay: replay, scope: scope))
    }
}

// MARK: distinctUntilChanged

extension Infallible where Element: Equatable {
    /// Drops elements equal to the previous one.
    public func distinctUntilChanged() -> Infallible<Element> {
        Infallible(raw: source.distinctUntilChanged())
    }
}

extension Infallible {
    /// Drops elements whose key equals the previous element's key.
    ///
    /// - Parameter isolation: leave the default (the caller's isolation). A closure written on
    ///   the main actor is then never called off the main thread: Tick ends the sequence with
    ///   ``TickError/isolationViolation(operator:)`` instead (Docs/Concurrency.md). Pass `nil`
    ///   for a closure that uses no main-actor state.
    public func distinctUntilChanged<Key: Equatable>(
        _ keySelector: @escaping (Element) -> Key, isolation: (any Actor)? = #isolation
    ) -> Infallible<Element> {
        Infallible(raw: source.distinctUntilChanged(keySelector, isolation: isolation))
    }

    /// Drops elements that `comparer` says equal the previous one.
    ///
    /// - Parameter isolation: leave the default (the caller's isolation). A closure written on
    ///   the main actor is then never called off the main thread: Tick ends the sequence with
    ///   ``TickError/isolationViolation(operator:)`` instead (Docs/Concurrency.md). Pass `nil`
    ///   for a closure that uses no main-actor state.
    public func distinctUntilChanged(
        _ comparer: @escaping (Element, Element) -> Bool, isolation: (any Actor)? = #isolation
    ) -> Infallible<Element> {
        Infallible(raw: source.distinctUntilChanged(comparer, isolation: isolation))
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
    ) -> Infallible<Element> {
        Infallible(raw: source.distinctUntilChanged(keySelector, comparer: comparer, isolation: isolation))
    }

    /// Drops elements whose property at `keyPath` equals the previous element's.
    public func distinctUntilChanged<Property: Equatable>(at keyPath: KeyPath<Element, Property>) -> Infallible<Element> {
        Infallible(raw: source.distinctUntilChanged(at: keyPath))
    }
}

// MARK: Time

extension Infallible {
    /// Emits an element only after `dueTime` without another one
    /// (``ObservableType/debounce(_:scheduler:)``).
    public func debounce(_ dueTime: Duration, scheduler: any Scheduler) -> Infallible<Element> {
        Infallible(raw: source.debounce(dueTime, scheduler: scheduler))
    }

    /// Emits an element, then drops those arriving within `dueTime`
    /// (``ObservableType/throttle(_:latest:scheduler:)``).
    public func throttle(_ dueTime: Duration, latest: Bool = true, scheduler: any Scheduler) -> Infallible<Element> {
        Infallible(raw: source.throttle(dueTime, latest: latest, scheduler: scheduler))
    }

    /// Emits the elements of the first `duration` after subscription, then
    /// completes (``ObservableType/take(for:scheduler:)``).
    public func take(for duration: Duration, scheduler: any Scheduler) -> Infallible<Element> {
        Infallible(raw: source.take(for: duration, scheduler: scheduler))
    }
}

// MARK: take and skip

extension Infallible {
    /// Emits the first `count` elements, then completes.
    public func take(_ count: Int) -> Infallible<Element> {
        Infallible(raw: source.take(count))
    }

    /// Emits elements until `other` emits, then completes.
    ///
    /// `other` must be infallible (an ``Infallible``, a relay, a driver or a
    /// signal): RxSwift also takes any observable, whose error would fail
    /// this infallible.
    public func take<Other: InfallibleType>(until other: Other) -> Infallible<Element> {
        Infallible(raw: source.take(until: other))
    }

    /// Emits elements until `predicate` holds for one; then completes,
    /// emitting that element first with `.inclusive`.
    ///
    /// - Parameter isolation: leave the default (the caller's isolation). A closure written on
    ///   the main actor is then never called off the main thread: Tick ends the sequence with
    ///   ``TickError/isolationViolation(operator:)`` instead (Docs/Concurrency.md). Pass `nil`
    ///   for a closure that uses no main-actor state.
    public func take(
        until predicate: @escaping (Element) -> Bool, behavior: TakeBehavior = .exclusive,
        isolation: (any Actor)? = #isolation
    ) -> Infallible<Element> {
        Infallible(raw: source.take(until: predicate, behavior: behavior, isolation: isolation))
    }

    /// Emits elements while `predicate` holds; completes at the first for
    /// which it does not (emitted first with `.inclusive`).
    ///
    /// - Parameter isolation: leave the default (the caller's isolation). A closure written on
    ///   the main actor is then never called off the main thread: Tick ends the sequence with
    ///   ``TickError/isolationViolation(operator:)`` instead (Docs/Concurrency.md). Pass `nil`
    ///   for a closure that uses no main-actor state.
    public func take(
        while predicate: @escaping (Element) -> Bool, behavior: TakeBehavior = .exclusive,
        isolation: (any Actor)? = #isolation
    ) -> Infallible<Element> {
        Infallible(raw: source.take(while: predicate, behavior: behavior, isolation: isolation))
    }

    /// Drops elements while `predicate` holds, then emits the rest.
    ///
    /// - Parameter isolation: leave the default (the caller's isolation). A closure written on
    ///   the main actor is then never called off the main thread: Tick ends the sequence with
    ///   ``TickError/isolationViolation(operator:)`` instead (Docs/Concurrency.md). Pass `nil`
    ///   for a closure that uses no main-actor state.
    public func skip(
        while predicate: @escaping (Element) -> Bool, isolation: (any Actor)? = #isolation
    ) -> Infallible<Element> {
        Infallible(raw: source.skip(while: predicate, isolation: isolation))
    }

    /// Drops elements until `other` emits, then emits the rest. `other` must
    /// be infallible (see ``take(until:)-(Other)``).
    public func skip<Other: InfallibleType>(until other: Other) -> Infallible<Element> {
        Infallible(raw: source.skip(until: other))
    }
}

// MARK: Flattening

extension Infallible {
    /// Maps each element to an infallible sequence and merges them all.
    ///
    /// - Parameter isolation: leave the default (the caller's isolation). A closure written on
    ///   the main actor is then never called off the main thread: Tick ends the sequence with
    ///   ``TickError/isolationViolation(operator:)`` instead (Docs/Concurrency.md). Pass `nil`
    ///   for a closure that uses no main-actor state.
    public func flatMap<Source: InfallibleType>(
        _ selector: @escaping (Element) -> Source, isolation: (any Actor)? = #isolation
    ) -> Infallible<Source.Element> {
        Infallible<Source.Element>(raw: source.flatMap(selector, isolation: isolation))
    }

    /// Maps each element to an infallible sequence and mirrors the latest one.
    ///
    /// - Parameter isolation: leave the default (the caller's isolation). A closure written on
    ///   the main actor is then never called off the main thread: Tick ends the sequence with
    ///   ``TickError/isolationViolation(operator:)`` instead (Docs/Concurrency.md). Pass `nil`
    ///   for a closure that uses no main-actor state.
    public func flatMapLatest<Source: InfallibleType>(
        _ selector: @escaping (Element) -> Source, isolation: (any Actor)? = #isolation
    ) -> Infallible<Source.Element> {
        Infallible<Source.Element>(raw: source.flatMapLatest(selector, isolation: isolation))
    }

    /// Maps an element to an infallible sequence only while none is active.
    ///
    /// - Parameter isolation: leave the default (the caller's isolation). A closure written on
    ///   the main actor is then never called off the main thread: Tick ends the sequence with
    ///   ``TickError/isolationViolation(operator:)`` instead (Docs/Concurrency.md). Pass `nil`
    ///   for a closure that uses no main-actor state.
    public func flatMapFirst<Source: InfallibleType>(
        _ selector: @escaping (Element) -> Source, isolation: (any Actor)? = #isolation
    ) -> Infallible<Source.Element> {
        Infallible<Source.Element>(raw: source.flatMapFirst(selector, isolation: isolation))
    }

    /// Maps each element to an infallible sequence and concatenates them, one
    /// after the other.
    ///
    /// - Parameter isolation: leave the default (the caller's isolation). A closure written on
    ///   the main actor is then never called off the main thread: Tick ends the sequence with
    ///   ``TickError/isolationViolation(operator:)`` instead (Docs/Concurrency.md). Pass `nil`
    ///   for a closure that uses no main-actor state.
    public func concatMap<Source: InfallibleType>(
        _ selector: @escaping (Element) -> Source, isolation: (any Actor)? = #isolation
    ) -> Infallible<Source.Element> {
        Infallible<Source.Element>(raw: source.concatMap(selector, isolation: isolation))
    }
}

// MARK: Concatenating and merging

extension Infallible {
    /// This sequence's elements, then, once it completed, `second`'s.
    public func concat<Second: InfallibleType>(_ second: Second) -> Infallible<Element>
    where Second.Element == Element {
        Infallible(raw: source.concat(second))
    }

    /// The elements of each of `sequence`'s infallibles, one after the other.
    public static func concat<S: Sequence>(_ sequence: S) -> Infallible<Element>
    where S.Element == Infallible<Element> {
        Infallible(raw: Observable.concat(sequence.map(\.source)))
    }

    /// The elements of each of `sources`, one after the other.
    public static func concat(_ sources: Infallible<Element>...) -> Infallible<Element> {
        concat(sources)
    }

    /// The elements of all `sources`, merged; completes when all completed.
    ///
    /// RxSwift's collection form concatenates instead of merging (its
    /// `Infallible.merge(_: Collection)` calls `concat`); Tick merges, as the
    /// name and RxSwift's array and variadic forms say.
    public static func merge<C: Collection>(_ sources: C) -> Infallible<Element>
    where C.Element == Infallible<Element> {
        Infallible(raw: Observable.merge(sources.map(\.source)))
    }

    /// The elements of all `sources`, merged; completes when all completed.
    public static func merge(_ sources: Infallible<Element>...) -> Infallible<Element> {
        merge(sources)
    }
}

// MARK: Combining

extension Infallible {
    /// Combines each element with the latest element of `second`
    /// (elements arriving before `second` emitted are dropped).
    ///
    /// - Parameter isolation: leave the default (the caller's isolation). A closure written on
    ///   the main actor is then never called off the main thread: Tick ends the sequence with
    ///   ``TickError/isolationViolation(operator:)`` instead (Docs/Concurrency.md). Pass `nil`
    ///   for a closure that uses no main-actor state.
    public func withLatestFrom<Second: InfallibleType, Result>(
        _ second: Second, resultSelector: @escaping (Element, Second.Element) -> Result,
        isolation: (any Actor)? = #isolation
    ) -> Infallible<Result> {
        Infallible<Result>(raw: source.withLatestFrom(second, resultSelector: resultSelector, isolation: isolation))
    }

    /// The latest element of `second` at each element of this sequence.
    public func withLatestFrom<Second: InfallibleType>(_ second: Second) -> Infallible<Second.Element> {
        Infallible<Second.Element>(raw: source.withLatestFrom(second))
    }

    /// Combines the latest elements of two or more infallibles with
    /// `resultSelector` (``Observable/combineLatest(_:resultSelector:isolation:)``).
    ///
    /// - Parameter isolation: leave the default (the caller's isolation). A closure written on
    ///   the main actor is then never called off the main thread: Tick ends the sequence with
    ///   ``TickError/isolationViolation(operator:)`` instead (Docs/Concurrency.md). Pass `nil`
    ///   for a closure that uses no main-actor state.
    public static func combineLatest<S1: InfallibleType, each S: InfallibleType>(
        _ source1: S1, _ sources: repeat each S,
        resultSelector: @escaping (S1.Element, repeat (each S).Element) -> Element, isolation: (any Actor)? = #isolation
    ) -> Infallible<Element> {
        Infallible(raw: Observable.combineLatest(
            source1, repeat each sources, resultSelector: resultSelector, isolation: isolation))
    }

    /// Combines the latest elements of two or more infallibles into tuples.
    public static func combineLatest<S1: InfallibleType, S2: InfallibleType, each S: InfallibleType>(
        _ source1: S1, _ source2: S2, _ sources: repeat each S
    ) -> Infallible<(S1.Element, S2.Element, repeat (each S).Element)>
    where Element == (S1.Element, S2.Element, repeat (each S).Element) {
        Infallible(raw: Observable.combineLatest(source1, source2, repeat each sources))
    }

    /// Combines the latest elements of every infallible in `collection` with
    /// `resultSelector` (``Observable/combineLatest(_:resultSelector:isolation:)``).
    public static func combineLatest<C: Collection>(
        _ collection: C, resultSelector: @escaping ([C.Element.Element]) -> Element
    ) -> Infallible<Element> where C.Element: InfallibleType {
        Infallible(raw: Observable.combineLatest(collection, resultSelector: resultSelector, isolation: nil))
    }

    /// Combines the latest elements of every infallible in `collection` into
    /// arrays (`Infallible<Int>.combineLatest(sources)` is an `Infallible<[Int]>`).
    public static func combineLatest<C: Collection>(_ collection: C) -> Infallible<[Element]>
    where C.Element: InfallibleType, C.Element.Element == Element {
        Infallible<[Element]>(raw: Observable.combineLatest(collection))
    }

    /// Pairs up the elements of two or more infallibles by index with
    /// `resultSelector` (``Observable/zip(_:resultSelector:isolation:)``).
    ///
    /// - Parameter isolation: leave the default (the caller's isolation). A closure written on
    ///   the main actor is then never called off the main thread: Tick ends the sequence with
    ///   ``TickError/isolationViolation(operator:)`` instead (Docs/Concurrency.md). Pass `nil`
    ///   for a closure that uses no main-actor state.
    public static func zip<S1: InfallibleType, each S: InfallibleType>(
        _ source1: S1, _ sources: repeat each S,
        resultSelector: @escaping (S1.Element, repeat (each S).Element) -> Element, isolation: (any Actor)? = #isolation
    ) -> Infallible<Element> {
        Infallible(raw: Observable.zip(source1, repeat each sources, resultSelector: resultSelector, isolation: isolation))
    }

    /// Pairs up the elements of two or more infallibles by index into tuples.
    public static func zip<S1: InfallibleType, S2: InfallibleType, each S: InfallibleType>(
        _ source1: S1, _ source2: S2, _ sources: repeat each S
    ) -> Infallible<(S1.Element, S2.Element, repeat (each S).Element)>
    where Element == (S1.Element, S2.Element, repeat (each S).Element) {
        Infallible(raw: Observable.zip(source1, source2, repeat each sources))
    }
}
