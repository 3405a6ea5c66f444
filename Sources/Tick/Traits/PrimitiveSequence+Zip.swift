// zip for Single and Maybe: of two or more traits (each of its own element
// type, RxSwift's 2…8 and beyond), and, for Single, of a collection.
// Each overload is Observable.zip over the traits' sources, so the
// completion and disposal rules are those of ``Observable/zip(_:resultSelector:isolation:)``.

extension PrimitiveSequence where Trait == SingleTrait {
    /// Succeeds with `resultSelector` applied to the elements of all the
    /// singles, once every one of them succeeded; the first error fails it
    /// (and disposes the others).
    ///
    /// Takes two or more singles, each of its own element type, like
    /// RxSwift's `Single.zip` of 2 to 8:
    ///
    /// ```swift
    /// let sum: Single<Int> = Single.zip(.just(1), .just(2), .just(3)) { $0 + $1 + $2 }
    /// ```
    ///
    /// - Parameter isolation: leave the default (the caller's isolation). A closure written on
    ///   the main actor is then never called off the main thread: Tick ends the sequence with
    ///   ``TickError/isolationViolation(operator:)`` instead (Docs/Concurrency.md). Pass `nil`
    ///   for a closure that uses no main-actor state.
    public static func zip<E1, each E>(
        _ source1: Single<E1>, _ sources: repeat Single<each E>,
        resultSelector: @escaping (E1, repeat each E) throws -> Element, isolation: (any Actor)? = #isolation
    ) -> Single<Element> {
        Single(raw: Observable.zip(source1, repeat each sources, resultSelector: resultSelector, isolation: isolation))
    }

    /// Succeeds with a tuple of the elements of all the singles, once every
    /// one of them succeeded; the first error fails it.
    ///
    /// ```swift
    /// let pair: Single<(Int, String)> = Single.zip(.just(1), .just("a"))
    /// ```
    public static func zip<E1, E2, each E>(
        _ source1: Single<E1>, _ source2: Single<E2>, _ sources: repeat Single<each E>
    ) -> Single<(E1, E2, repeat each E)> where Element == (E1, E2, repeat each E) {
        Single(raw: Observable.zip(source1, source2, repeat each sources))
    }

    /// Succeeds with `resultSelector` applied to the elements of all
    /// `collection`'s singles, in order, once every one of them succeeded;
    /// the first error fails it.
    ///
    /// An empty collection succeeds with `resultSelector([])` at
    /// subscription (an error it throws fails the single), as in RxSwift.
    public static func zip<C: Collection, Result>(
        _ collection: C, resultSelector: @escaping ([Element]) throws -> Result
    ) -> Single<Result> where C.Element == Single<Element> {
        if collection.isEmpty {
            return Single<Result>(raw: Observable.deferred { .just(try resultSelector([])) })
        }
        return Single<Result>(raw: Observable.zip(collection.map(\.source), resultSelector: resultSelector))
    }

    /// Succeeds with the elements of all `collection`'s singles, in order,
    /// once every one of them succeeded (at subscription with `[]` if there
    /// are none); the first error fails it.
    ///
    /// As in RxSwift, the single's own type is that of the elements:
    /// `Single<Int>.zip(singles)` is a `Single<[Int]>`.
    public static func zip<C: Collection>(_ collection: C) -> Single<[Element]> where C.Element == Single<Element> {
        if collection.isEmpty { return Single<[Element]>(raw: .just([])) }
        return Single<[Element]>(raw: Observable.zip(collection.map(\.source)))
    }
}

extension PrimitiveSequence where Trait == MaybeTrait {
    /// Succeeds with `resultSelector` applied to the elements of all the
    /// maybes, once every one of them succeeded; completes without an
    /// element if one of them completes without one (when, is zip's
    /// completion rule); the first error fails it.
    ///
    /// Takes two or more maybes, each of its own element type, like
    /// RxSwift's `Maybe.zip` of 2 to 8.
    ///
    /// - Parameter isolation: leave the default (the caller's isolation). A closure written on
    ///   the main actor is then never called off the main thread: Tick ends the sequence with
    ///   ``TickError/isolationViolation(operator:)`` instead (Docs/Concurrency.md). Pass `nil`
    ///   for a closure that uses no main-actor state.
    public static func zip<E1, each E>(
        _ source1: Maybe<E1>, _ sources: repeat Maybe<each E>,
        resultSelector: @escaping (E1, repeat each E) throws -> Element, isolation: (any Actor)? = #isolation
    ) -> Maybe<Element> {
        Maybe(raw: Observable.zip(source1, repeat each sources, resultSelector: resultSelector, isolation: isolation))
    }

    /// Succeeds with a tuple of the elements of all the maybes, once every
    /// one of them succeeded; completes empty if one completes empty.
    public static func zip<E1, E2, each E>(
        _ source1: Maybe<E1>, _ source2: Maybe<E2>, _ sources: repeat Maybe<each E>
    ) -> Maybe<(E1, E2, repeat each E)> where Element == (E1, E2, repeat each E) {
        Maybe(raw: Observable.zip(source1, source2, repeat each sources))
    }
}
