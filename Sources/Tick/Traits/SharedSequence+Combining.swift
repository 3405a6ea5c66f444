// Combining shared sequences, with RxCocoa's overloads: merge, concat,
// switchLatest, and zip and combineLatest of two or more sequences (with or
// without a selector) and of collections. Every source shares the result's
// strategy, so the result delivers on its scheduler and cannot fail.

extension SharedSequence {
    /// Merges `sources`; completes when all completed.
    public static func merge(_ sources: SharedSequence...) -> SharedSequence {
        merge(sources)
    }

    /// Merges the shared sequences of `sources` (an array or any other
    /// collection); completes when all completed.
    public static func merge<C: Collection>(_ sources: C) -> SharedSequence where C.Element == SharedSequence {
        SharedSequence(Observable.merge(sources.map(\.source)))
    }

    /// The elements of each of `sources`' shared sequences, one after the
    /// other, each subscribed when the previous one completed.
    public static func concat<S: Sequence>(_ sources: S) -> SharedSequence where S.Element == SharedSequence {
        SharedSequence(Observable.concat(sources.map(\.source)))
    }

    /// Combines the latest elements of two or more shared sequences with
    /// `resultSelector` (``Observable/combineLatest(_:resultSelector:isolation:)``).
    ///
    /// - Parameter isolation: leave the default (the caller's isolation). A closure written on
    ///   the main actor is then never called off the main thread: Tick ends the sequence with
    ///   ``TickError/isolationViolation(operator:)`` instead (Docs/Concurrency.md). Pass `nil`
    ///   for a closure that uses no main-actor state.
    public static func combineLatest<E1, each E>(
        _ source1: SharedSequence<SharingStrategy, E1>, _ sources: repeat SharedSequence<SharingStrategy, each E>,
        resultSelector: @escaping (E1, repeat each E) -> Element, isolation: (any Actor)? = #isolation
    ) -> SharedSequence {
        .init(Observable.combineLatest(source1, repeat each sources, resultSelector: resultSelector, isolation: isolation))
    }

    /// Combines the latest elements of two or more shared sequences into tuples.
    public static func combineLatest<E1, E2, each E>(
        _ source1: SharedSequence<SharingStrategy, E1>, _ source2: SharedSequence<SharingStrategy, E2>,
        _ sources: repeat SharedSequence<SharingStrategy, each E>
    ) -> SharedSequence where Element == (E1, E2, repeat each E) {
        .init(Observable.combineLatest(source1, source2, repeat each sources))
    }

    /// Combines the latest elements of every shared sequence in `collection`
    /// with `resultSelector`; an empty collection emits `resultSelector([])`
    /// and completes.
    public static func combineLatest<C: Collection, Result>(
        _ collection: C, resultSelector: @escaping ([Element]) -> Result
    ) -> SharedSequence<SharingStrategy, Result> where C.Element == SharedSequence {
        .init(Observable.combineLatest(collection.map(\.source), resultSelector: resultSelector, isolation: nil))
    }

    /// Combines the latest elements of every shared sequence in `collection`
    /// into arrays (`Driver<Int>.combineLatest(drivers)` is a `Driver<[Int]>`).
    public static func combineLatest<C: Collection>(_ collection: C) -> SharedSequence<SharingStrategy, [Element]>
    where C.Element == SharedSequence {
        .init(Observable.combineLatest(collection.map(\.source)))
    }

    /// Pairs up the elements of two or more shared sequences by index with
    /// `resultSelector` (``Observable/zip(_:resultSelector:isolation:)``).
    ///
    /// - Parameter isolation: leave the default (the caller's isolation). A closure written on
    ///   the main actor is then never called off the main thread: Tick ends the sequence with
    ///   ``TickError/isolationViolation(operator:)`` instead (Docs/Concurrency.md). Pass `nil`
    ///   for a closure that uses no main-actor state.
    public static func zip<E1, each E>(
        _ source1: SharedSequence<SharingStrategy, E1>, _ sources: repeat SharedSequence<SharingStrategy, each E>,
        resultSelector: @escaping (E1, repeat each E) -> Element, isolation: (any Actor)? = #isolation
    ) -> SharedSequence {
        .init(Observable.zip(source1, repeat each sources, resultSelector: resultSelector, isolation: isolation))
    }

    /// Pairs up the elements of two or more shared sequences by index into tuples.
    public static func zip<E1, E2, each E>(
        _ source1: SharedSequence<SharingStrategy, E1>, _ source2: SharedSequence<SharingStrategy, E2>,
        _ sources: repeat SharedSequence<SharingStrategy, each E>
    ) -> SharedSequence where Element == (E1, E2, repeat each E) {
        .init(Observable.zip(source1, source2, repeat each sources))
    }

    /// Pairs up the elements of every shared sequence in `collection` by
    /// index with `resultSelector`; an empty collection completes without
    /// emitting.
    public static func zip<C: Collection, Result>(
        _ collection: C, resultSelector: @escaping ([Element]) -> Result
    ) -> SharedSequence<SharingStrategy, Result> where C.Element == SharedSequence {
        .init(Observable.zip(collection.map(\.source), resultSelector: resultSelector, isolation: nil))
    }

    /// Pairs up the elements of every shared sequence in `collection` by
    /// index into arrays (`Driver<Int>.zip(drivers)` is a `Driver<[Int]>`).
    public static func zip<C: Collection>(_ collection: C) -> SharedSequence<SharingStrategy, [Element]>
    where C.Element == SharedSequence {
        .init(Observable.zip(collection.map(\.source)))
    }
}

extension SharedSequence where Element: SharedSequenceConvertibleType {
    /// Mirrors the latest inner shared sequence, disposing the previous one
    /// (``ObservableType/switchLatest()``). The result has the inner
    /// sequences' strategy, as in RxCocoa.
    public func switchLatest() -> SharedSequence<Element.SharingStrategy, Element.Element> {
        .init(source.flatMapLatest({ $0.asSharedSequence().source }, isolation: nil))
    }

    /// Merges the inner shared sequences; completes when this one and every
    /// inner one completed. The result has the inner sequences' strategy.
    public func merge() -> SharedSequence<Element.SharingStrategy, Element.Element> {
        .init(source.flatMap({ $0.asSharedSequence().source }, isolation: nil))
    }

    /// Merges the inner shared sequences, at most `maxConcurrent` subscribed
    /// at a time; the others wait their turn (``ObservableType/merge(maxConcurrent:)``).
    /// The result has the inner sequences' strategy.
    public func merge(maxConcurrent: Int) -> SharedSequence<Element.SharingStrategy, Element.Element> {
        .init(source.map({ $0.asSharedSequence().source }, isolation: nil).merge(maxConcurrent: maxConcurrent))
    }
}
