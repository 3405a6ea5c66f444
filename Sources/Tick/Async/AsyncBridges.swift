// Bridges between Observables and Swift concurrency: an observable's elements
// as an AsyncSequence, and observables made from an AsyncSequence or from an
// async closure.

import Synchronization

/// Carries a value into a task that the compiler cannot prove safe to send.
/// Each use below says what makes it safe.
struct UncheckedSendableBox<Value>: @unchecked Sendable {
    let value: Value
}

extension ObservableType where Element: Sendable {
    /// The elements of this observable as an `AsyncSequence` that throws the
    /// observable's error.
    ///
    /// ```swift
    /// for try await element in observable.values { ... }
    /// ```
    ///
    /// - Each iteration (`makeAsyncIterator()`, which `for try await` calls
    ///   once) subscribes once, when the iteration starts.
    /// - Elements are buffered without limit until the iterating task takes
    ///   them, in the order the observable sent them.
    /// - The sequence ends after the last element when the observable
    ///   completes, and throws its error when it fails.
    /// - The subscription is disposed when the observable ends, when the
    ///   iterating task is cancelled, and when the iterator is released (the
    ///   loop stopped early).
    /// - Cancelling the iterating task before the observable ended makes the
    ///   pending (or next) `next()` throw `CancellationError`, as RxSwift's
    ///   `values` does; an observable that already completed ends the loop
    ///   normally.
    /// - Elements must be `Sendable`: they cross from the thread that sends
    ///   them to the iterating task.
    public var values: ObservableValues<Element> { ObservableValues(source: asObservable()) }
}

/// The elements of an observable as an `AsyncSequence`: see ``ObservableType/values``.
public struct ObservableValues<Element: Sendable>: AsyncSequence {
    public typealias Failure = any Error

    let source: Observable<Element>

    /// Subscribes to the observable and returns the iterator of its elements.
    public func makeAsyncIterator() -> Iterator { Iterator(source: source) }

    /// Iterates one subscription's elements.
    public struct Iterator: AsyncIteratorProtocol {
        private var elements: AsyncThrowingStream<Element, any Error>.Iterator
        /// Set (before the stream is finished) when the observable ended;
        /// the stream ending without it means the iteration was cancelled.
        private let ended: ObservableEnded
        /// `true` once this iterator returned `nil` or threw.
        private var finished = false
        /// Ends the stream with an error (see `AwaitedIteration`).
        private let awaited: AwaitedIteration

        init(source: Observable<Element>) {
            let (stream, continuation) = AsyncThrowingStream<Element, any Error>.makeStream()
            // The continuation is thread-safe; `yield` only buffers the element
            // for the one task that iterates.
            let sendable = UncheckedSendableBox(value: continuation)
            let ended = ObservableEnded()
            self.ended = ended
            let subscription = source.subscribe(
                onNext: { sendable.value.yield($0) },
                onError: {
                    ended.flag.store(true, ordering: .releasing)
                    sendable.value.finish(throwing: $0)
                },
                onCompleted: {
                    ended.flag.store(true, ordering: .releasing)
                    sendable.value.finish()
                })
            // Disposables are thread-safe: disposing from the stream's
            // termination handler, on whatever thread ends the stream, is fine.
            let disposable = UncheckedSendableBox(value: subscription)
            continuation.onTermination = { _ in disposable.value.dispose() }
            elements = stream.makeAsyncIterator()
            awaited = AwaitedIteration { sendable.value.finish(throwing: $0) }
        }

        /// Tells TickTesting (if linked) that the task waits for the next
        /// element; the returned closure says it no longer does.
        @inline(__always)
        private func willAwait() -> (@Sendable () -> Void)? {
            guard let observer = AwaitedIteration.observer.load() else { return nil }
            return observer.willAwait(awaited)
        }

        /// The next element, `nil` at the end; throws the observable's error,
        /// or `CancellationError` once the task is cancelled before the
        /// observable ended.
        public mutating func next() async throws -> Element? {
            guard !finished else { return nil }
            let awaiting = willAwait()
            defer { awaiting?() }
            do {
                return try ending(await elements.next())
            } catch {
                finished = true
                throw error
            }
        }

        /// The next element, on the caller's actor.
        public mutating func next(isolation actor: isolated (any Actor)?) async throws(any Error) -> Element? {
            guard !finished else { return nil }
            let awaiting = willAwait()
            defer { awaiting?() }
            do {
                return try ending(await elements.next(isolation: actor))
            } catch {
                finished = true
                throw error
            }
        }

        /// `element`, or at the stream's end: `nil` if the observable ended,
        /// `CancellationError` if the iteration was cancelled first.
        private mutating func ending(_ element: Element?) throws -> Element? {
            if let element { return element }
            finished = true
            if ended.flag.load(ordering: .acquiring) { return nil }
            throw CancellationError()
        }
    }
}

/// An iteration of ``ObservableType/values`` waiting for its next element,
/// as a test scheduler sees it: TickTesting ends the iterations that wait on
/// a `TestScheduler` released under them, with an error, instead of letting
/// them wait forever (Docs/AsyncAwait.md, "What escapes").
@_spi(TickInternals)
public final class AwaitedIteration: Sendable {
    private let end: @Sendable (any Error) -> Void

    init(end: @escaping @Sendable (any Error) -> Void) { self.end = end }

    /// Ends the iteration: its pending (or next) `next()` throws `error`.
    public func finish(throwing error: any Error) { end(error) }

    /// Who is told when an iteration waits (set once, by TickTesting).
    public static let observer = AtomicLazyReference<Observer>()

    /// Told when an iteration is about to wait for its next element.
    public final class Observer: Sendable {
        /// Returns what to call once the iteration no longer waits, or nil.
        public let willAwait: @Sendable (AwaitedIteration) -> (@Sendable () -> Void)?

        /// An observer calling `willAwait`.
        public init(willAwait: @escaping @Sendable (AwaitedIteration) -> (@Sendable () -> Void)?) {
            self.willAwait = willAwait
        }
    }
}

/// Whether the observable behind an ``ObservableValues/Iterator`` ended
/// (completed or failed); written by its subscription on any thread, read by
/// the iterating task.
final class ObservableEnded: Sendable {
    let flag = Atomic<Bool>(false)
}

extension Observable {
    /// An observable of the elements of an `AsyncSequence`.
    ///
    /// Each subscription starts a task that iterates `sequence`: every
    /// element is sent as it arrives, then `completed` at the end, or `error`
    /// if the iteration throws. Disposing the subscription cancels the task
    /// (nothing is sent after that).
    ///
    /// The task is an unstructured `Task` started by `subscribe`; when the
    /// subscription is made while a `TestScheduler` drives async work (see
    /// Docs/AsyncAwait.md), the task is driven too and its events keep the
    /// exact virtual time.
    public static func from<Sequence: AsyncSequence & Sendable>(_ sequence: Sequence) -> Observable<Element>
    where Sequence.Element == Element {
        Observable.create { observer in
            // Only the task below uses the observer; the sink behind it
            // (`create`) is safe against disposal from another thread.
            let sendable = UncheckedSendableBox(value: observer)
            let task = Task {
                do {
                    for try await element in sequence {
                        sendable.value.onNext(element)
                    }
                    sendable.value.onCompleted()
                } catch {
                    sendable.value.onError(error)
                }
            }
            return Disposables.create { task.cancel() }
        }
    }

    /// An observable of the one value an async closure returns.
    ///
    /// Each subscription starts a task that runs `operation`: its result is
    /// sent, then `completed`; if it throws, `error`. Disposing the
    /// subscription cancels the task (nothing is sent after that; the
    /// closure sees `Task.isCancelled`).
    ///
    /// ```swift
    /// let user = Observable.fromAsync { try await api.user(id: 42) }
    /// ```
    public static func fromAsync(_ operation: @escaping @Sendable () async throws -> Element) -> Observable<Element> {
        Observable.create { observer in
            // Only the task below uses the observer (see `from(_:)`).
            let sendable = UncheckedSendableBox(value: observer)
            let task = Task {
                do {
                    let value = try await operation()
                    sendable.value.onNext(value)
                    sendable.value.onCompleted()
                } catch {
                    sendable.value.onError(error)
                }
            }
            return Disposables.create { task.cancel() }
        }
    }
}
