extension ObservableType {
    /// Emits the source's only element as soon as it arrives and completes
    /// with the source.
    ///
    /// Fails with ``TickError/moreThanOneElement`` when a second element
    /// arrives, and with ``TickError/noElements`` if the source completes
    /// without one, as RxSwift's `single()`.
    public func single() -> Observable<Element> {
        single { _ in true }
    }

    /// ``single()`` counting only the elements for which `predicate` holds;
    /// the others are dropped. An error `predicate` throws ends the sequence.
    ///
    /// - Parameter isolation: leave the default (the caller's isolation). A closure written on
    ///   the main actor is then never called off the main thread: Tick ends the sequence with
    ///   ``TickError/isolationViolation(operator:)`` instead (Docs/Concurrency.md). Pass `nil`
    ///   for a closure that uses no main-actor state.
    public func single(
        _ predicate: @escaping (Element) throws -> Bool, isolation: (any Actor)? = #isolation
    ) -> Observable<Element> {
        let predicate = MainActorClosureCheck.forIsolation(isolation, operator: "single")?.wrap(predicate) ?? predicate
        return lift { sink in
            var seen = false
            return { event in
                switch event {
                case .next(let element):
                    guard !sink.isDisposed else { return }
                    do {
                        guard try predicate(element) else { return }
                    } catch {
                        sink.forwardError(error)
                        return
                    }
                    if seen {
                        sink.forwardError(TickError.moreThanOneElement)
                    } else {
                        seen = true
                        sink.forwardNext(element)
                    }
                case .error: sink.forward(event)
                case .completed:
                    if seen { sink.forwardCompleted() } else { sink.forwardError(TickError.noElements) }
                }
            }
        }
    }
}
