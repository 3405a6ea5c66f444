extension ObservableType {
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
