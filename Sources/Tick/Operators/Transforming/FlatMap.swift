/// How a ``MergeSink`` treats a new inner sequence.
enum MergeMode {
    /// Subscribe at most `maxConcurrent` inner sequences at once; queue the rest.
    case merge(maxConcurrent: Int)
    /// Dispose the current inner sequence and switch to the new one.
    case latest
    /// Ignore new inner sequences while one is active.
    case first
}

extension ObservableType {
    /// Maps each element to an observable and merges the elements of all of
    /// them, as they arrive.
    ///
    /// Completes when the source and every inner sequence have completed; the
    /// first error (from the source, an inner sequence or `selector`) ends it.
    /// The source subscription is disposed when the source completes, each
    /// inner subscription when that inner sequence completes.
    ///
    /// - Parameter isolation: leave the default (the caller's isolation). A closure written on
    ///   the main actor is then never called off the main thread: Tick ends the sequence with
    ///   ``TickError/isolationViolation(operator:)`` instead (Docs/Concurrency.md). Pass `nil`
    ///   for a closure that uses no main-actor state.
    public func flatMap<Inner: ObservableType>(
        _ selector: @escaping (Element) throws -> Inner, isolation: (any Actor)? = #isolation
    ) -> Observable<Inner.Element> {
        let selector = MainActorClosureCheck.forIsolation(isolation, operator: "flatMap")?.wrap(selector) ?? selector
        return merging(mode: .merge(maxConcurrent: .max), selector)
    }

    /// Maps each element to an observable and mirrors only the latest one: a
    /// new element disposes the previous inner subscription (after `selector`
    /// returned) and subscribes the new one.
    ///
    /// Completes when the source has completed and the latest inner sequence
    /// has completed.
    ///
    /// - Parameter isolation: leave the default (the caller's isolation). A closure written on
    ///   the main actor is then never called off the main thread: Tick ends the sequence with
    ///   ``TickError/isolationViolation(operator:)`` instead (Docs/Concurrency.md). Pass `nil`
    ///   for a closure that uses no main-actor state.
    public func flatMapLatest<Inner: ObservableType>(
        _ selector: @escaping (Element) throws -> Inner, isolation: (any Actor)? = #isolation
    ) -> Observable<Inner.Element> {
        let selector =
            MainActorClosureCheck.forIsolation(isolation, operator: "flatMapLatest")?.wrap(selector) ?? selector
        return merging(mode: .latest, selector)
    }

    /// Maps an element to an observable only while no inner sequence is
    /// active: elements arriving while one is running are dropped (`selector`
    /// is not even called for them).
    ///
    /// - Parameter isolation: leave the default (the caller's isolation). A closure written on
    ///   the main actor is then never called off the main thread: Tick ends the sequence with
    ///   ``TickError/isolationViolation(operator:)`` instead (Docs/Concurrency.md). Pass `nil`
    ///   for a closure that uses no main-actor state.
    public func flatMapFirst<Inner: ObservableType>(
        _ selector: @escaping (Element) throws -> Inner, isolation: (any Actor)? = #isolation
    ) -> Observable<Inner.Element> {
        let selector =
            MainActorClosureCheck.forIsolation(isolation, operator: "flatMapFirst")?.wrap(selector) ?? selector
        return merging(mode: .first, selector)
    }

    /// Maps each element to an observable and concatenates them: the next inner
    /// sequence is subscribed only when the previous one completed (the
    /// waiting ones are queued, in order).
    ///
    /// - Parameter isolation: leave the default (the caller's isolation). A closure written on
    ///   the main actor is then never called off the main thread: Tick ends the sequence with
    ///   ``TickError/isolationViolation(operator:)`` instead (Docs/Concurrency.md). Pass `nil`
    ///   for a closure that uses no main-actor state.
    public func concatMap<Inner: ObservableType>(
        _ selector: @escaping (Element) throws -> Inner, isolation: (any Actor)? = #isolation
    ) -> Observable<Inner.Element> {
        let selector = MainActorClosureCheck.forIsolation(isolation, operator: "concatMap")?.wrap(selector) ?? selector
        return merging(mode: .merge(maxConcurrent: 1), selector)
    }

    func merging<Inner: ObservableType>(
        mode: MergeMode, _ selector: @escaping (Element) throws -> Inner
    ) -> Observable<Inner.Element> {
        let source = asObservable()
        let select: (Element) throws -> Observable<Inner.Element> = { try selector($0).asObservable() }
        let subscribe: (AnyObserver<Inner.Element>) -> any Disposable = { observer in
            let sink = MergeSink<Element, Inner.Element>(downstream: observer, mode: mode, selector: select)
            sink.run(source)
            return sink
        }
        guard case .merge(let limit) = mode, limit == .max else { return Observable(subscribe) }
        // A `flatMap`/`merge` returned as an inner sequence of another one
        // is taken over by it (see `MergeSources`).
        return Observable(subscribe, nesting: MergeSources<Inner.Element>(.outer { host in host.spliceOuter(source, select) }))
    }
}

extension ObservableType where Element: ObservableType {
    /// Merges the elements of the inner observables this sequence emits,
    /// subscribing at most `maxConcurrent` of them at a time (the others wait,
    /// in order). `maxConcurrent` below 1 is reported as misuse and treated as 1.
    public func merge(maxConcurrent: Int) -> Observable<Element.Element> {
        var limit = maxConcurrent
        if limit < 1 {
            Misuse.report("merge(maxConcurrent:) was given \(maxConcurrent); it must be at least 1. Using 1.")
            limit = 1
        }
        return merging(mode: .merge(maxConcurrent: limit)) { $0 }
    }

    /// Merges the elements of every inner observable this sequence emits.
    public func merge() -> Observable<Element.Element> {
        merging(mode: .merge(maxConcurrent: .max)) { $0 }
    }

    /// Concatenates the inner observables: each one is subscribed when the
    /// previous one completed.
    public func concat() -> Observable<Element.Element> {
        merging(mode: .merge(maxConcurrent: 1)) { $0 }
    }

    /// Mirrors the latest inner observable, disposing the previous one.
    public func switchLatest() -> Observable<Element.Element> {
        merging(mode: .latest) { $0 }
    }
}

extension Observable {
    /// Merges the elements of `sources`, all subscribed at once.
    ///
    /// Completes when all of them completed (at once if there are none); the
    /// first error ends it.
    public static func merge(_ sources: Observable<Element>...) -> Observable<Element> {
        merge(sources)
    }

    /// Merges the elements of `sources` (any sequence, read once at
    /// subscription), all subscribed at once.
    public static func merge<S: Sequence>(_ sources: S) -> Observable<Element> where S.Element == Observable<Element> {
        run(Array(sources), maxConcurrent: .max)
    }

    /// Emits the elements of each of `sources` in turn: each one is subscribed
    /// when the previous one completed. Completes after the last one (at once
    /// if there are none); the first error ends it.
    public static func concat(_ sources: Observable<Element>...) -> Observable<Element> {
        concat(sources)
    }

    /// Emits the elements of each of `sources` in turn (see ``concat(_:)-(Observable<Element>...)``).
    ///
    /// `sources` may be any sequence, even a lazy or endless one: each
    /// subscription makes its own iterator and pulls one source at a time,
    /// only when the previous one completed (as in RxSwift). After a source
    /// that completed synchronously, the next one is subscribed through the
    /// current-thread trampoline: a long chain does not recurse, and a
    /// downstream `take` stops an endless one.
    public static func concat<S: Sequence>(_ sources: S) -> Observable<Element> where S.Element == Observable<Element> {
        Observable(
            { observer in
                let sink = ConcatSink(downstream: observer, iterator: sources.makeIterator())
                sink.moveNext()
                return sink
            }, nesting: ConcatSources<Element> { AnyIterator(sources.makeIterator()) })
    }

    private static func run(_ sources: [Observable<Element>], maxConcurrent: Int) -> Observable<Element> {
        let subscribe: (AnyObserver<Element>) -> any Disposable = { observer in
            let sink = MergeSink<Observable<Element>, Element>(
                downstream: observer, mode: .merge(maxConcurrent: maxConcurrent)) { $0 }
            sink.run(sources: sources)
            return sink
        }
        guard maxConcurrent == .max else { return Observable(subscribe) }
        return Observable(subscribe, nesting: MergeSources<Element>(.inners(sources)))
    }
}

extension ObservableType {
    /// Emits this sequence's elements, then, once it completed, `second`'s.
    public func concat<Second: ObservableType>(_ second: Second) -> Observable<Element> where Second.Element == Element {
        Observable.concat(asObservable(), second.asObservable())
    }

    /// Merges this sequence's elements with `other`'s.
    public func merge<Other: ObservableType>(with other: Other) -> Observable<Element> where Other.Element == Element {
        Observable.merge(asObservable(), other.asObservable())
    }
}

// MARK: Nested concat, flatMap and merge
//
// `concat(a, concat(b, …))`, `merge(a, merge(b, …))` and
// `x.flatMap { _ in y.flatMap { … } }` nested 10,000 deep would deliver every
// event through one sink per level, recursing once per level (issue 16,
// item 3). Instead, such an observable records its sources (`nesting`), and
// when the same operator meets it as one of its own sources (directly, with
// no other operator in between), it takes those sources over: one sink for
// the whole nest, with the same events in the same order, the same
// subscriptions made at the same moments, and the same trampoline steps.
// Limits that remain: Docs/Operators.md, "Limits".

/// A `concat`'s sources: each subscription makes its own iterator.
final class ConcatSources<Element>: NestedSources {
    let makeIterator: () -> AnyIterator<Observable<Element>>

    init(_ makeIterator: @escaping () -> AnyIterator<Observable<Element>>) {
        self.makeIterator = makeIterator
    }
}

/// The sources of a `flatMap`/`merge` with no concurrency limit.
final class MergeSources<Element>: NestedSources {
    enum Parts {
        /// `source.flatMap(selector)`: subscribes its source into a host.
        case outer((any MergeHost<Element>) -> Void)
        /// `Observable.merge(sources)`.
        case inners([Observable<Element>])
    }

    let parts: Parts

    init(_ parts: Parts) { self.parts = parts }
}

/// A merging sink that can take over the source of a nested `flatMap`.
protocol MergeHost<Output>: AnyObject {
    associatedtype Output
    /// Subscribes `source` as one more outer sequence, in place of the
    /// inner sequence being subscribed (the nested `flatMap`).
    func spliceOuter<Source>(_ source: Observable<Source>, _ selector: @escaping (Source) throws -> Observable<Output>)
}

final class MergeSink<Input, Output>: SerializingSink<Output>, MergeHost, @unchecked Sendable {
    private let mode: MergeMode
    private let selector: (Input) throws -> Observable<Output>
    private let outer = SingleAssignmentDisposable()
    private let group = CompositeDisposable()
    private let latestInner = SerialDisposable()
    // Guarded by `lock`:
    private var active = 0
    /// Outer sequences not yet completed: the source, and the sources of
    /// nested `flatMap`s taken over (see `spliceOuter`).
    private var openOuters = 0
    private var waiting = FIFOQueue<Observable<Output>>()
    private var generation: UInt64 = 0
    /// Queued sources whose turn has come, and whether a call is already
    /// subscribing them: a chain of sources that complete synchronously is
    /// started by a loop, not by recursion.
    private var ready = FIFOQueue<Observable<Output>>()
    private var starting = false

    init(downstream: AnyObserver<Output>, mode: MergeMode, selector: @escaping (Input) throws -> Observable<Output>) {
        self.mode = mode
        self.selector = selector
        super.init(downstream: downstream)
    }

    func run<Source: ObservableType>(_ source: Source) where Source.Element == Input {
        lock.withLock { openOuters = 1 }
        outer.setDisposable(source.subscribe(AnyObserver(eventHandler: on)))
    }

    /// Runs over a fixed list of sources: the first `maxConcurrent` are
    /// subscribed at once, the others wait their turn.
    func run(sources: [Observable<Output>]) {
        var limit = Int.max
        if case .merge(let maxConcurrent) = mode { limit = maxConcurrent }
        let now = sources.prefix(limit)
        lock.withLock {
            active = now.count
            for source in now { ready.append(source) }
            for source in sources.dropFirst(now.count) { waiting.append(source) }
            if sources.isEmpty { enqueueLocked(.completed) }
        }
        drain()
        startReady()
    }

    /// Subscribes the sources in `ready`, in order, unless a call up the
    /// stack (or on another thread) is already doing it.
    private func startReady() {
        lock.lock()
        if starting {
            lock.unlock()
            return
        }
        starting = true
        while let source = ready.removeFirst() {
            lock.unlock()
            if !isDisposed { subscribeInner(source, generation: 0) }
            lock.lock()
        }
        starting = false
        lock.unlock()
    }

    private func on(_ event: Event<Input>) {
        switch event {
        case .next(let element):
            guard !isDisposed else { return }
            if case .first = mode, lock.withLock({ active > 0 }) { return }
            let inner: Observable<Output>
            do { inner = try selector(element) } catch {
                locked { enqueueLocked(.error(error)) }
                return
            }
            let generation: UInt64? = lock.withLock {
                switch mode {
                case .merge(let maxConcurrent):
                    if active >= maxConcurrent {
                        waiting.append(inner)
                        return nil
                    }
                    active += 1
                case .latest:
                    self.generation &+= 1
                    active = 1
                case .first:
                    if active > 0 { return nil }
                    active = 1
                }
                return self.generation
            }
            if let generation { subscribeInner(inner, generation: generation) }
        case .error(let error):
            locked { enqueueLocked(.error(error)) }
        case .completed:
            locked {
                openOuters -= 1
                if active == 0 && openOuters == 0 && waiting.isEmpty { enqueueLocked(.completed) }
            }
            outer.dispose()
        }
    }

    private func subscribeInner(_ inner: Observable<Output>, generation: UInt64) {
        if case .merge(let limit) = mode, limit == .max, let nested = inner.nesting as? MergeSources<Output> {
            // Inside a trampoline, as subscribing the nested observable would be.
            switch nested.parts {
            case .outer(let splice): CurrentThreadScheduler.trampolined { splice(self) }
            case .inners(let sources): CurrentThreadScheduler.trampolined { spliceInners(sources) }
            }
            return
        }
        if case .merge(let limit) = mode, limit == .max, let splice = stagedSplice(of: inner) {
            // A nested flatMap under `map`s (FlatMap+Stages.swift).
            CurrentThreadScheduler.trampolined { splice(self) }
            return
        }
        let subscription = SingleAssignmentDisposable()
        if case .latest = mode {
            latestInner.disposable = subscription
            subscription.setDisposable(inner.subscribe(AnyObserver { [self] event in
                onInner(event, generation: generation, key: nil, subscription: subscription)
            }))
            return
        }
        guard let key = group.insert(subscription) else { return }
        subscription.setDisposable(inner.subscribe(AnyObserver { [self] event in
            onInner(event, generation: generation, key: key, subscription: subscription)
        }))
    }

    func spliceOuter<Source>(_ source: Observable<Source>, _ selector: @escaping (Source) throws -> Observable<Output>) {
        // What the nested flatMap's own sink would do, in this sink: its
        // source counts as an outer sequence instead of one inner sequence.
        lock.withLock {
            openOuters += 1
            active -= 1
        }
        let subscription = SingleAssignmentDisposable()
        guard let key = group.insert(subscription) else { return }
        subscription.setDisposable(source.subscribe(AnyObserver { [self] event in
            switch event {
            case .next(let element):
                guard !isDisposed else { return }
                let inner: Observable<Output>
                do { inner = try selector(element) } catch {
                    locked { enqueueLocked(.error(error)) }
                    return
                }
                lock.withLock { active += 1 }
                subscribeInner(inner, generation: 0)
            case .error(let error):
                locked { enqueueLocked(.error(error)) }
            case .completed:
                locked {
                    openOuters -= 1
                    if active == 0 && openOuters == 0 { enqueueLocked(.completed) }
                }
                group.remove(for: key)
            }
        }))
    }

    /// Subscribes `sources` (a nested `merge`'s) in place of the inner
    /// sequence being subscribed, in order, taking over nested `merge`s
    /// among them with a loop rather than recursion.
    private func spliceInners(_ sources: [Observable<Output>]) {
        var pending: [Observable<Output>] = sources.reversed()
        replaceInner(by: sources.count)
        while let source = pending.popLast() {
            guard !isDisposed else { return }
            if let nested = source.nesting as? MergeSources<Output>, case .inners(let parts) = nested.parts {
                replaceInner(by: parts.count)
                pending.append(contentsOf: parts.reversed())
                continue
            }
            subscribeInner(source, generation: 0)
        }
    }

    /// Counts `count` inner sequences in place of one; with none, that one
    /// has completed.
    private func replaceInner(by count: Int) {
        locked {
            active += count - 1
            if active == 0 && openOuters == 0 { enqueueLocked(.completed) }
        }
    }

    private func onInner(
        _ event: Event<Output>, generation: UInt64, key: CompositeDisposable.Key?,
        subscription: SingleAssignmentDisposable
    ) {
        var startNext = false
        let current: Bool = lock.withLock {
            if case .latest = mode, generation != self.generation { return false }
            switch event {
            case .next, .error:
                enqueueLocked(event)
            case .completed:
                if let next = waiting.removeFirst() {
                    ready.append(next)
                    startNext = true
                } else {
                    active -= 1
                    if active == 0 && openOuters == 0 { enqueueLocked(.completed) }
                }
            }
            return true
        }
        guard current else { return }
        drain()
        if case .completed = event {
            if let key { group.remove(for: key) } else { subscription.dispose() }
            if startNext { startReady() }
        }
    }

    override func disposeResources() {
        outer.dispose()
        latestInner.dispose()
        group.dispose()
    }
}

/// concat's sink over a sequence of sources: pulls the next source from the
/// iterator only when the current one completed.
final class ConcatSink<Iterator: IteratorProtocol, Element>: Sink<Element>, @unchecked Sendable
where Iterator.Element == Observable<Element> {
    /// Touched only by `moveNext`, whose calls never overlap: each one is
    /// made by the completion of the source the previous one subscribed.
    private var iterator: Iterator
    /// The iterators of nested `concat`s taken over, innermost last (also
    /// touched only by `moveNext`).
    private var nested: [AnyIterator<Observable<Element>>] = []
    private let current = SerialDisposable()
    private let lock = Lock()
    /// Guarded by `lock`: `moveNext` is subscribing a source.
    private var subscribing = false

    init(downstream: AnyObserver<Element>, iterator: Iterator) {
        self.iterator = iterator
        super.init(downstream: downstream)
    }

    /// Subscribes the next source, or completes if there is none.
    ///
    /// A source that completes while it is being subscribed (synchronously)
    /// has the next one subscribed through the current-thread trampoline,
    /// after this call returned: so a long or endless chain of synchronous
    /// sources neither recurses nor outruns a downstream `take` (whose
    /// disposal reaches this sink only once the subscription returned).
    func moveNext() {
        guard !isDisposed else { return }
        var source: Observable<Element>
        var entered = false
        while true {
            if nested.isEmpty {
                guard let next = iterator.next() else {
                    forwardCompleted()
                    return
                }
                source = next
            } else if let next = nested[nested.count - 1].next() {
                source = next
            } else {
                nested.removeLast()
                if entered {
                    // An empty nested concat completes while it is being
                    // subscribed: the next source comes after a trampoline step.
                    CurrentThreadScheduler.instance.schedule { [self] in moveNext() }
                    return
                }
                continue
            }
            guard let sources = source.nesting as? ConcatSources<Element> else { break }
            // A nested concat: its sources are this sink's next ones.
            nested.append(sources.makeIterator())
            entered = true
        }
        let subscription = SingleAssignmentDisposable()
        current.disposable = subscription
        lock.withLock { subscribing = true }
        subscription.setDisposable(source.subscribe(AnyObserver { [self] event in
            switch event {
            case .next(let element): forwardNext(element)
            case .error(let error): forwardError(error)
            case .completed:
                subscription.dispose()
                if lock.withLock({ subscribing }) {
                    CurrentThreadScheduler.instance.schedule { [self] in moveNext() }
                } else {
                    moveNext()
                }
            }
        }))
        lock.withLock { subscribing = false }
    }

    override func disposeResources() { current.dispose() }
}
