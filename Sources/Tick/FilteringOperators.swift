extension ObservableType where Element: Equatable {
    /// Drops elements equal to the previous element (the first element always
    /// passes).
    public func distinctUntilChanged() -> Observable<Element> {
        distinctUntilChanged({ $0 }, comparer: ==)
    }
}

extension ObservableType {
    /// Drops elements whose `keySelector` key equals the previous element's key.
    ///
    /// - Parameter isolation: leave the default (the caller's isolation). A closure written on
    ///   the main actor is then never called off the main thread: Tick ends the sequence with
    ///   ``TickError/isolationViolation(operator:)`` instead (Docs/Concurrency.md). Pass `nil`
    ///   for a closure that uses no main-actor state.
    public func distinctUntilChanged<Key: Equatable>(
        _ keySelector: @escaping (Element) throws -> Key, isolation: (any Actor)? = #isolation
    ) -> Observable<Element> {
        distinctUntilChanged(keySelector, comparer: ==, isolation: isolation)
    }

    /// Drops elements that `comparer` says are equal to the previous element.
    /// An error thrown by `comparer` ends the sequence.
    ///
    /// - Parameter isolation: leave the default (the caller's isolation). A closure written on
    ///   the main actor is then never called off the main thread: Tick ends the sequence with
    ///   ``TickError/isolationViolation(operator:)`` instead (Docs/Concurrency.md). Pass `nil`
    ///   for a closure that uses no main-actor state.
    public func distinctUntilChanged(
        _ comparer: @escaping (Element, Element) throws -> Bool, isolation: (any Actor)? = #isolation
    ) -> Observable<Element> {
        let comparer =
            MainActorClosureCheck.forIsolation(isolation, operator: "distinctUntilChanged")?.wrap(comparer) ?? comparer
        return distinctUntilChanged({ $0 }, comparer: comparer, isolation: nil)
    }

    /// Drops elements whose key, by `comparer`, equals the previous element's
    /// key. An error thrown by either closure ends the sequence.
    ///
    /// "Previous" is the last element *received*, whether or not it was
    /// emitted; since equal runs collapse, that is also the last one emitted.
    ///
    /// - Parameter isolation: leave the default (the caller's isolation). A closure written on
    ///   the main actor is then never called off the main thread: Tick ends the sequence with
    ///   ``TickError/isolationViolation(operator:)`` instead (Docs/Concurrency.md). Pass `nil`
    ///   for a closure that uses no main-actor state.
    public func distinctUntilChanged<Key>(
        _ keySelector: @escaping (Element) throws -> Key,
        comparer: @escaping (Key, Key) throws -> Bool, isolation: (any Actor)? = #isolation
    ) -> Observable<Element> {
        let check = MainActorClosureCheck.forIsolation(isolation, operator: "distinctUntilChanged")
        let keySelector = check?.wrap(keySelector) ?? keySelector
        let comparer = check?.wrap(comparer) ?? comparer
        return lift { sink in
            var previous: Key?
            return { event in
                switch event {
                case .next(let element):
                    guard !sink.isDisposed else { return }
                    do {
                        let key = try keySelector(element)
                        if let last = previous, try comparer(last, key) { return }
                        previous = key
                        sink.forwardNext(element)
                    } catch {
                        sink.forwardError(error)
                    }
                case .error, .completed: sink.forward(event)
                }
            }
        }
    }

    /// Drops the first `count` elements, then emits the rest. A count of 0 or
    /// less drops nothing.
    public func skip(_ count: Int) -> Observable<Element> {
        lift { sink in
            var remaining = count
            return { event in
                if case .next = event, remaining > 0 {
                    remaining -= 1
                    return
                }
                sink.forward(event)
            }
        }
    }

    /// Drops elements while `predicate` holds, then emits every later element
    /// (the predicate is no longer called).
    ///
    /// - Parameter isolation: leave the default (the caller's isolation). A closure written on
    ///   the main actor is then never called off the main thread: Tick ends the sequence with
    ///   ``TickError/isolationViolation(operator:)`` instead (Docs/Concurrency.md). Pass `nil`
    ///   for a closure that uses no main-actor state.
    public func skip(
        while predicate: @escaping (Element) throws -> Bool, isolation: (any Actor)? = #isolation
    ) -> Observable<Element> {
        let predicate =
            MainActorClosureCheck.forIsolation(isolation, operator: "skip(while:)")?.wrap(predicate) ?? predicate
        return lift { sink in
            var skipping = true
            return { event in
                if case .next(let element) = event, skipping {
                    guard !sink.isDisposed else { return }
                    do {
                        skipping = try predicate(element)
                        if skipping { return }
                    } catch {
                        sink.forwardError(error)
                        return
                    }
                }
                sink.forward(event)
            }
        }
    }

    /// Emits elements while `predicate` holds; completes (and disposes the
    /// source) at the first element for which it does not. That element is not
    /// emitted.
    ///
    /// - Parameter isolation: leave the default (the caller's isolation). A closure written on
    ///   the main actor is then never called off the main thread: Tick ends the sequence with
    ///   ``TickError/isolationViolation(operator:)`` instead (Docs/Concurrency.md). Pass `nil`
    ///   for a closure that uses no main-actor state.
    public func take(
        while predicate: @escaping (Element) throws -> Bool, isolation: (any Actor)? = #isolation
    ) -> Observable<Element> {
        let predicate =
            MainActorClosureCheck.forIsolation(isolation, operator: "take(while:)")?.wrap(predicate) ?? predicate
        return lift { sink in
            { event in
                if case .next(let element) = event {
                    guard !sink.isDisposed else { return }
                    do {
                        if try predicate(element) { sink.forwardNext(element) } else { sink.forwardCompleted() }
                    } catch {
                        sink.forwardError(error)
                    }
                    return
                }
                sink.forward(event)
            }
        }
    }

    /// Emits the last `count` elements when the source completes (the
    /// completion follows them at the same instant). An error drops them.
    public func takeLast(_ count: Int) -> Observable<Element> {
        lift { sink in
            var buffer = RingBuffer<Element>(capacity: count)
            return { event in
                switch event {
                case .next(let element): buffer.append(element)
                case .error: sink.forward(event)
                case .completed:
                    for element in buffer.elements(after: 0, totalReceived: UInt64(buffer.count)) {
                        sink.forwardNext(element)
                    }
                    sink.forwardCompleted()
                }
            }
        }
    }

    /// Emits only the element at `index` (0-based), then completes. If the
    /// source completes first, fails with ``TickError/argumentOutOfRange``. A
    /// negative index is reported as misuse and fails the same way.
    public func element(at index: Int) -> Observable<Element> {
        if index < 0 {
            Misuse.report("element(at:) was given a negative index (\(index)).")
            return .error(TickError.argumentOutOfRange)
        }
        return lift { sink in
            var remaining = index
            return { event in
                switch event {
                case .next(let element):
                    if remaining == 0 {
                        sink.forwardNext(element)
                        sink.forwardCompleted()
                    }
                    remaining -= 1
                case .error: sink.forward(event)
                case .completed: sink.forwardError(TickError.argumentOutOfRange)
                }
            }
        }
    }

    /// Emits the first element and completes, or, if the source completes
    /// empty, emits `nil` and completes (RxSwift's `first()` is a `Single` of
    /// an optional; Tick has no `Single`, so this is an observable of one
    /// optional).
    public func first() -> Observable<Element?> {
        lift { sink in
            { event in
                switch event {
                case .next(let element):
                    sink.forwardNext(element)
                    sink.forwardCompleted()
                case .error(let error): sink.forwardError(error)
                case .completed:
                    sink.forwardNext(nil)
                    sink.forwardCompleted()
                }
            }
        }
    }

    /// Drops every element; forwards only the terminal event.
    public func ignoreElements() -> Observable<Never> {
        lift { sink in
            { event in
                switch event {
                case .next: break
                case .error(let error): sink.forwardError(error)
                case .completed: sink.forwardCompleted()
                }
            }
        }
    }
}
