extension ObservableType {
    /// Pairs each element with `object`, held weakly; completes at the first
    /// element that arrives after `object` is gone (as RxSwift).
    public func withUnretained<Object: AnyObject>(_ object: Object) -> Observable<(Object, Element)> {
        withUnretained(object) { ($0, $1) }
    }

    /// Combines each element with `object`, held weakly, using
    /// `resultSelector`; completes at the first element that arrives after
    /// `object` is gone.
    ///
    /// - Parameter isolation: leave the default (the caller's isolation). A closure written on
    ///   the main actor is then never called off the main thread: Tick ends the sequence with
    ///   ``TickError/isolationViolation(operator:)`` instead (Docs/Concurrency.md). Pass `nil`
    ///   for a closure that uses no main-actor state.
    public func withUnretained<Object: AnyObject, Result>(
        _ object: Object, resultSelector: @escaping (Object, Element) throws -> Result,
        isolation: (any Actor)? = #isolation
    ) -> Observable<Result> {
        let resultSelector =
            MainActorClosureCheck.forIsolation(isolation, operator: "withUnretained")?.wrap(resultSelector) ?? resultSelector
        return lift { [weak object] sink in
            { [weak object] event in
                switch event {
                case .next(let element):
                    guard !sink.isDisposed else { return }
                    guard let object else {
                        sink.forwardCompleted()
                        return
                    }
                    do { sink.forwardNext(try resultSelector(object, element)) } catch { sink.forwardError(error) }
                case .error(let error): sink.forwardError(error)
                case .completed: sink.forwardCompleted()
                }
            }
        }
    }

    /// Subscribes with closures that also receive `object`, held weakly: once
    /// it is gone, the closures are no longer called (the subscription stays
    /// until it terminates or is disposed, as in RxSwift).
    public func subscribe<Object: AnyObject>(
        with object: Object,
        onNext: ((Object, Element) -> Void)? = nil,
        onError: ((Object, any Error) -> Void)? = nil,
        onCompleted: ((Object) -> Void)? = nil,
        onDisposed: ((Object) -> Void)? = nil,
        isolation: isolated (any Actor)? = #isolation
    ) -> any Disposable {
        subscribe(
            onNext: { [weak object] element in
                guard let object else { return }
                onNext?(object, element)
            },
            onError: { [weak object] error in
                guard let object else { return }
                onError?(object, error)
            },
            onCompleted: { [weak object] in
                guard let object else { return }
                onCompleted?(object)
            },
            onDisposed: { [weak object] in
                guard let object else { return }
                onDisposed?(object)
            })
    }
}
