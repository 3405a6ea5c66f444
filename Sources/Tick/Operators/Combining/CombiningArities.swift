// combineLatest and zip over any number of sources, with parameter packs
// (see Combining.swift for the sinks). RxSwift stops at 8 sources; these
// take one or more, each of its own element type.

extension Observable {
    /// Combines the latest elements of the sources with `resultSelector`,
    /// each time any of them emits, once all of them have emitted.
    ///
    /// Completes when every source has completed (as in RxSwift), or when a
    /// source emits while all the others have completed and one of them never
    /// emitted. Each source's subscription is disposed when it completes. The
    /// first error ends it.
    ///
    /// - Parameter isolation: leave the default (the caller's isolation). A closure written on
    ///   the main actor is then never called off the main thread: Tick ends the sequence with
    ///   ``TickError/isolationViolation(operator:)`` instead (Docs/Concurrency.md). Pass `nil`
    ///   for a closure that uses no main-actor state.
    public static func combineLatest<each Source: ObservableType>(
        _ source: repeat each Source,
        resultSelector: @escaping (repeat (each Source).Element) throws -> Element,
        isolation: (any Actor)? = #isolation
    ) -> Observable<Element> {
        let sources = (repeat each source)
        // A variadic function value cannot be wrapped generically: the check
        // (nil unless the caller is on the main actor) runs before each call.
        let check = MainActorClosureCheck.forIsolation(isolation, operator: "combineLatest")
        return Observable { observer in
            let slots = (repeat PackSlot(for: each sources))
            let sink = CombineLatestSink<Element>(downstream: observer, arity: packCount(repeat each slots)) {
                do {
                    let values = (repeat try (each slots).latest())
                    return {
                        try check?.check()
                        return try resultSelector(repeat each values)
                    }
                } catch {
                    return { throw error }
                }
            }
            var index = 0
            for (source, slot) in repeat (each sources, each slots) {
                sink.subscribe(source, index: index) { slot.value = $0 }
                index += 1
            }
            return sink
        }
    }

    /// Combines the latest elements of the sources into tuples (see
    /// ``combineLatest(_:resultSelector:)``).
    public static func combineLatest<each Source: ObservableType>(
        _ source: repeat each Source
    ) -> Observable<(repeat (each Source).Element)> where Element == (repeat (each Source).Element) {
        let sources = (repeat each source)
        return Observable { observer in
            let slots = (repeat PackSlot(for: each sources))
            let sink = CombineLatestSink<Element>(downstream: observer, arity: packCount(repeat each slots)) {
                do {
                    let values = (repeat try (each slots).latest())
                    return { values }
                } catch {
                    return { throw error }
                }
            }
            var index = 0
            for (source, slot) in repeat (each sources, each slots) {
                sink.subscribe(source, index: index) { slot.value = $0 }
                index += 1
            }
            return sink
        }
    }

    /// Pairs up the elements of the sources by index (the first of each, then
    /// the second of each, …) with `resultSelector`.
    ///
    /// Completes only when every source has completed, as RxSwift's zip
    /// does: a source that completed early does not end the others, even when
    /// their further elements can never be paired. Each source's subscription
    /// is disposed when it completes. The first error ends it.
    ///
    /// - Parameter isolation: leave the default (the caller's isolation). A closure written on
    ///   the main actor is then never called off the main thread: Tick ends the sequence with
    ///   ``TickError/isolationViolation(operator:)`` instead (Docs/Concurrency.md). Pass `nil`
    ///   for a closure that uses no main-actor state.
    public static func zip<each Source: ObservableType>(
        _ source: repeat each Source,
        resultSelector: @escaping (repeat (each Source).Element) throws -> Element,
        isolation: (any Actor)? = #isolation
    ) -> Observable<Element> {
        let sources = (repeat each source)
        // A variadic function value cannot be wrapped generically: the check
        // (nil unless the caller is on the main actor) runs before each call.
        let check = MainActorClosureCheck.forIsolation(isolation, operator: "zip")
        return Observable { observer in
            let slots = (repeat PackSlot(for: each sources))
            let sink = ZipSink<Element>(downstream: observer, arity: packCount(repeat each slots)) {
                do {
                    let values = (repeat try (each slots).next())
                    return {
                        try check?.check()
                        return try resultSelector(repeat each values)
                    }
                } catch {
                    return { throw error }
                }
            }
            var index = 0
            for (source, slot) in repeat (each sources, each slots) {
                sink.subscribe(source, index: index) { slot.queue.append($0) }
                index += 1
            }
            return sink
        }
    }

    /// Pairs up the elements of the sources by index into tuples (see
    /// ``zip(_:resultSelector:)``).
    public static func zip<each Source: ObservableType>(
        _ source: repeat each Source
    ) -> Observable<(repeat (each Source).Element)> where Element == (repeat (each Source).Element) {
        let sources = (repeat each source)
        return Observable { observer in
            let slots = (repeat PackSlot(for: each sources))
            let sink = ZipSink<Element>(downstream: observer, arity: packCount(repeat each slots)) {
                do {
                    let values = (repeat try (each slots).next())
                    return { values }
                } catch {
                    return { throw error }
                }
            }
            var index = 0
            for (source, slot) in repeat (each sources, each slots) {
                sink.subscribe(source, index: index) { slot.queue.append($0) }
                index += 1
            }
            return sink
        }
    }
}

/// One source's storage in a pack-based combineLatest or zip: its latest
/// element, or its queue of unpaired elements. Written and read only under
/// the sink's lock.
final class PackSlot<Value> {
    var value: Value?
    var queue = FIFOQueue<Value>()

    init<Source: ObservableType>(for source: Source) where Source.Element == Value {}

    /// The latest element (the sink asks only once every source has one).
    func latest() throws -> Value {
        guard let value else { throw TickError.noElements }
        return value
    }

    /// The oldest unpaired element (the sink asks only once every queue has one).
    func next() throws -> Value {
        guard let element = queue.removeFirst() else { throw TickError.noElements }
        return element
    }
}

/// The number of values in a pack.
func packCount<each Value>(_ value: repeat each Value) -> Int {
    var count = 0
    for _ in repeat each value { count += 1 }
    return count
}
