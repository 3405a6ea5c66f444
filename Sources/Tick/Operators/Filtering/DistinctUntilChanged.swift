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


    /// Drops elements whose property at `keyPath` equals the previous
    /// element's.
    public func distinctUntilChanged<Property: Equatable>(at keyPath: KeyPath<Element, Property>) -> Observable<Element> {
        distinctUntilChanged({ $0[keyPath: keyPath] }, comparer: ==)
    }
}
