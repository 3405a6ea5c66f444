// Generated arities 2…4 of combineLatest and zip (see Combining.swift for the sinks).

extension Observable {
    /// Combines the latest elements of 2 sources with `resultSelector`,
    /// each time any of them emits, once all of them have emitted.
    ///
    /// Completes when every source has completed (as in RxSwift), or when a
    /// source emits while all the others have completed and one of them never
    /// emitted. Each source's subscription is disposed when it completes. The
    /// first error ends it.
    public static func combineLatest<O1: ObservableType, O2: ObservableType>(
        _ source1: O1, _ source2: O2,
        resultSelector: @escaping (O1.Element, O2.Element) throws -> Element
    ) -> Observable<Element> {
        Observable { observer in
            var value1: O1.Element?
            var value2: O2.Element?
            let sink = CombineLatestSink<Element>(downstream: observer, arity: 2) {
                guard let v1 = value1, let v2 = value2 else { return { throw TickError.noElements } }
                return { try resultSelector(v1, v2) }
            }
            sink.subscribe(source1, index: 0) { value1 = $0 }
            sink.subscribe(source2, index: 1) { value2 = $0 }
            return sink
        }
    }

    /// Pairs up the elements of 2 sources by index (the first of each, then
    /// the second of each, …) with `resultSelector`.
    ///
    /// Completes when every source has completed, or when a source emits an
    /// element that cannot be paired while all the others have completed
    /// (RxSwift's rule). Each source's subscription is disposed when it
    /// completes. The first error ends it.
    public static func zip<O1: ObservableType, O2: ObservableType>(
        _ source1: O1, _ source2: O2,
        resultSelector: @escaping (O1.Element, O2.Element) throws -> Element
    ) -> Observable<Element> {
        Observable { observer in
            var queue1 = FIFOQueue<O1.Element>()
            var queue2 = FIFOQueue<O2.Element>()
            let sink = ZipSink<Element>(downstream: observer, arity: 2) {
                guard let v1 = queue1.removeFirst(), let v2 = queue2.removeFirst() else { return { throw TickError.noElements } }
                return { try resultSelector(v1, v2) }
            }
            sink.subscribe(source1, index: 0) { queue1.append($0) }
            sink.subscribe(source2, index: 1) { queue2.append($0) }
            return sink
        }
    }

    /// Combines the latest elements of 3 sources with `resultSelector`,
    /// each time any of them emits, once all of them have emitted.
    ///
    /// Completes when every source has completed (as in RxSwift), or when a
    /// source emits while all the others have completed and one of them never
    /// emitted. Each source's subscription is disposed when it completes. The
    /// first error ends it.
    public static func combineLatest<O1: ObservableType, O2: ObservableType, O3: ObservableType>(
        _ source1: O1, _ source2: O2, _ source3: O3,
        resultSelector: @escaping (O1.Element, O2.Element, O3.Element) throws -> Element
    ) -> Observable<Element> {
        Observable { observer in
            var value1: O1.Element?
            var value2: O2.Element?
            var value3: O3.Element?
            let sink = CombineLatestSink<Element>(downstream: observer, arity: 3) {
                guard let v1 = value1, let v2 = value2, let v3 = value3 else { return { throw TickError.noElements } }
                return { try resultSelector(v1, v2, v3) }
            }
            sink.subscribe(source1, index: 0) { value1 = $0 }
            sink.subscribe(source2, index: 1) { value2 = $0 }
            sink.subscribe(source3, index: 2) { value3 = $0 }
            return sink
        }
    }

    /// Pairs up the elements of 3 sources by index (the first of each, then
    /// the second of each, …) with `resultSelector`.
    ///
    /// Completes when every source has completed, or when a source emits an
    /// element that cannot be paired while all the others have completed
    /// (RxSwift's rule). Each source's subscription is disposed when it
    /// completes. The first error ends it.
    public static func zip<O1: ObservableType, O2: ObservableType, O3: ObservableType>(
        _ source1: O1, _ source2: O2, _ source3: O3,
        resultSelector: @escaping (O1.Element, O2.Element, O3.Element) throws -> Element
    ) -> Observable<Element> {
        Observable { observer in
            var queue1 = FIFOQueue<O1.Element>()
            var queue2 = FIFOQueue<O2.Element>()
            var queue3 = FIFOQueue<O3.Element>()
            let sink = ZipSink<Element>(downstream: observer, arity: 3) {
                guard let v1 = queue1.removeFirst(), let v2 = queue2.removeFirst(), let v3 = queue3.removeFirst() else { return { throw TickError.noElements } }
                return { try resultSelector(v1, v2, v3) }
            }
            sink.subscribe(source1, index: 0) { queue1.append($0) }
            sink.subscribe(source2, index: 1) { queue2.append($0) }
            sink.subscribe(source3, index: 2) { queue3.append($0) }
            return sink
        }
    }

    /// Combines the latest elements of 4 sources with `resultSelector`,
    /// each time any of them emits, once all of them have emitted.
    ///
    /// Completes when every source has completed (as in RxSwift), or when a
    /// source emits while all the others have completed and one of them never
    /// emitted. Each source's subscription is disposed when it completes. The
    /// first error ends it.
    public static func combineLatest<O1: ObservableType, O2: ObservableType, O3: ObservableType, O4: ObservableType>(
        _ source1: O1, _ source2: O2, _ source3: O3, _ source4: O4,
        resultSelector: @escaping (O1.Element, O2.Element, O3.Element, O4.Element) throws -> Element
    ) -> Observable<Element> {
        Observable { observer in
            var value1: O1.Element?
            var value2: O2.Element?
            var value3: O3.Element?
            var value4: O4.Element?
            let sink = CombineLatestSink<Element>(downstream: observer, arity: 4) {
                guard let v1 = value1, let v2 = value2, let v3 = value3, let v4 = value4 else { return { throw TickError.noElements } }
                return { try resultSelector(v1, v2, v3, v4) }
            }
            sink.subscribe(source1, index: 0) { value1 = $0 }
            sink.subscribe(source2, index: 1) { value2 = $0 }
            sink.subscribe(source3, index: 2) { value3 = $0 }
            sink.subscribe(source4, index: 3) { value4 = $0 }
            return sink
        }
    }

    /// Pairs up the elements of 4 sources by index (the first of each, then
    /// the second of each, …) with `resultSelector`.
    ///
    /// Completes when every source has completed, or when a source emits an
    /// element that cannot be paired while all the others have completed
    /// (RxSwift's rule). Each source's subscription is disposed when it
    /// completes. The first error ends it.
    public static func zip<O1: ObservableType, O2: ObservableType, O3: ObservableType, O4: ObservableType>(
        _ source1: O1, _ source2: O2, _ source3: O3, _ source4: O4,
        resultSelector: @escaping (O1.Element, O2.Element, O3.Element, O4.Element) throws -> Element
    ) -> Observable<Element> {
        Observable { observer in
            var queue1 = FIFOQueue<O1.Element>()
            var queue2 = FIFOQueue<O2.Element>()
            var queue3 = FIFOQueue<O3.Element>()
            var queue4 = FIFOQueue<O4.Element>()
            let sink = ZipSink<Element>(downstream: observer, arity: 4) {
                guard let v1 = queue1.removeFirst(), let v2 = queue2.removeFirst(), let v3 = queue3.removeFirst(), let v4 = queue4.removeFirst() else { return { throw TickError.noElements } }
                return { try resultSelector(v1, v2, v3, v4) }
            }
            sink.subscribe(source1, index: 0) { queue1.append($0) }
            sink.subscribe(source2, index: 1) { queue2.append($0) }
            sink.subscribe(source3, index: 2) { queue3.append($0) }
            sink.subscribe(source4, index: 3) { queue4.append($0) }
            return sink
        }
    }

    /// Combines the latest elements of 2 sources into tuples (see
    /// ``Observable/combineLatest(_:_:resultSelector:)``).
    public static func combineLatest<O1: ObservableType, O2: ObservableType>(
        _ source1: O1, _ source2: O2
    ) -> Observable<(O1.Element, O2.Element)> where Element == (O1.Element, O2.Element) {
        combineLatest(source1, source2) { ($0, $1) }
    }

    /// Pairs up the elements of 2 sources by index into tuples.
    public static func zip<O1: ObservableType, O2: ObservableType>(
        _ source1: O1, _ source2: O2
    ) -> Observable<(O1.Element, O2.Element)> where Element == (O1.Element, O2.Element) {
        zip(source1, source2) { ($0, $1) }
    }

    /// Combines the latest elements of 3 sources into tuples (see
    /// ``Observable/combineLatest(_:_:resultSelector:)``).
    public static func combineLatest<O1: ObservableType, O2: ObservableType, O3: ObservableType>(
        _ source1: O1, _ source2: O2, _ source3: O3
    ) -> Observable<(O1.Element, O2.Element, O3.Element)> where Element == (O1.Element, O2.Element, O3.Element) {
        combineLatest(source1, source2, source3) { ($0, $1, $2) }
    }

    /// Pairs up the elements of 3 sources by index into tuples.
    public static func zip<O1: ObservableType, O2: ObservableType, O3: ObservableType>(
        _ source1: O1, _ source2: O2, _ source3: O3
    ) -> Observable<(O1.Element, O2.Element, O3.Element)> where Element == (O1.Element, O2.Element, O3.Element) {
        zip(source1, source2, source3) { ($0, $1, $2) }
    }

    /// Combines the latest elements of 4 sources into tuples (see
    /// ``Observable/combineLatest(_:_:resultSelector:)``).
    public static func combineLatest<O1: ObservableType, O2: ObservableType, O3: ObservableType, O4: ObservableType>(
        _ source1: O1, _ source2: O2, _ source3: O3, _ source4: O4
    ) -> Observable<(O1.Element, O2.Element, O3.Element, O4.Element)> where Element == (O1.Element, O2.Element, O3.Element, O4.Element) {
        combineLatest(source1, source2, source3, source4) { ($0, $1, $2, $3) }
    }

    /// Pairs up the elements of 4 sources by index into tuples.
    public static func zip<O1: ObservableType, O2: ObservableType, O3: ObservableType, O4: ObservableType>(
        _ source1: O1, _ source2: O2, _ source3: O3, _ source4: O4
    ) -> Observable<(O1.Element, O2.Element, O3.Element, O4.Element)> where Element == (O1.Element, O2.Element, O3.Element, O4.Element) {
        zip(source1, source2, source3, source4) { ($0, $1, $2, $3) }
    }
}
