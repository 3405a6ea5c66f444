// Bridges between the traits and Swift concurrency, with RxSwift's names:
// `value` (await a Single, Maybe or Completable), `Single.create` from an
// async closure, non-throwing `values` of Infallible, Driver and Signal, and
// `asObservable()` of an AsyncSequence.

import Synchronization

/// Resumes a continuation once: the first of the subscription's outcomes
/// wins, later ones (`onDisposed` after success, say) are ignored.
private final class ResumeOnce<Value: Sendable>: Sendable {
    private let continuation: Mutex<CheckedContinuation<Value, any Error>?>

    init(_ continuation: CheckedContinuation<Value, any Error>) {
        self.continuation = Mutex(continuation)
    }

    func resume(with result: Result<Value, any Error>) {
        let pending = continuation.withLock { slot -> CheckedContinuation<Value, any Error>? in
            let pending = slot
            slot = nil
            return pending
        }
        pending?.resume(with: result)
    }
}

/// Awaits the one outcome of a subscription that `subscribe` makes,
/// passing it callbacks for the value and the error. If the subscription
/// ends without either (it was disposed because the task was cancelled, or
/// the source ended without an outcome), throws `CancellationError`, as
/// RxSwift does.
private func awaitOutcome<Value: Sendable>(
    _ subscribe: (_ onValue: @escaping (Value) -> Void, _ onError: @escaping (any Error) -> Void,
                  _ onDisposed: @escaping () -> Void) -> any Disposable
) async throws -> Value {
    let subscription = SingleAssignmentDisposable()
    return try await withTaskCancellationHandler {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Value, any Error>) in
            let once = ResumeOnce(continuation)
            subscription.setDisposable(subscribe(
                { once.resume(with: .success($0)) },
                { once.resume(with: .failure($0)) },
                { once.resume(with: .failure(CancellationError())) }))
        }
    } onCancel: {
        subscription.dispose()
    }
}

extension PrimitiveSequence where Trait == SingleTrait, Element: Sendable {
    /// Awaits the single's element; throws its error.
    ///
    /// Subscribes when awaited. Cancelling the awaiting task disposes the
    /// subscription and throws `CancellationError` (as RxSwift's `value`).
    ///
    /// ```swift
    /// let user = try await api.user(id: 42).value
    /// ```
    public var value: Element {
        get async throws {
            try await awaitOutcome { onValue, onError, onDisposed in
                subscribe(onSuccess: onValue, onFailure: onError, onDisposed: onDisposed, isolation: nil)
            }
        }
    }
}

extension PrimitiveSequence where Trait == SingleTrait {
    /// A single whose every subscription starts a task running `work`: it
    /// succeeds with what `work` returns, or fails with what it throws.
    /// Disposing the subscription cancels the task.
    ///
    /// - Parameters:
    ///   - detached: run `work` in a detached task instead of a task that
    ///     inherits the subscriber's priority and task-local values.
    ///   - priority: the task's priority.
    ///
    /// The task is started by `subscribe`; under a `TestScheduler` that
    /// drives async work (Docs/AsyncAwait.md) it is driven too, like
    /// ``Observable/fromAsync(_:)``'s.
    @_disfavoredOverload
    public static func create(
        detached: Bool = false, priority: TaskPriority? = nil,
        work: @escaping @Sendable () async throws -> Element
    ) -> Single<Element> {
        Single.create(subscribe: { observer in
            // Only the task below calls the observer; `create` drops any call
            // after the first and after disposal, from whatever thread.
            let sendable = UncheckedSendableBox(value: observer)
            let operation: @Sendable () async -> Void = {
                do {
                    sendable.value(.success(try await work()))
                } catch {
                    sendable.value(.failure(error))
                }
            }
            let task = detached
                ? Task.detached(priority: priority, operation: operation)
                : Task(priority: priority, operation: operation)
            return Disposables.create { task.cancel() }
        }, isolation: nil)
    }
}

extension PrimitiveSequence where Trait == MaybeTrait, Element: Sendable {
    /// Awaits the maybe's element, `nil` if it completes without one; throws
    /// its error.
    ///
    /// Cancelling the awaiting task disposes the subscription and throws
    /// `CancellationError` (as RxSwift's `value`).
    public var value: Element? {
        get async throws {
            let element: Element? = try await awaitOutcome { onValue, onError, onDisposed in
                subscribe(
                    onSuccess: { onValue($0) }, onError: onError, onCompleted: { onValue(nil) },
                    onDisposed: onDisposed, isolation: nil)
            }
            return element
        }
    }
}

extension PrimitiveSequence where Trait == CompletableTrait, Element == Never {
    /// Awaits the completable's completion; throws its error.
    ///
    /// Cancelling the awaiting task disposes the subscription and throws
    /// `CancellationError` (as RxSwift's `value`).
    public var value: Void {
        get async throws {
            let done: Void = try await awaitOutcome { onValue, onError, onDisposed in
                subscribe(onCompleted: { onValue(()) }, onError: onError, onDisposed: onDisposed, isolation: nil)
            }
            return done
        }
    }
}

/// The elements of an infallible sequence as an `AsyncStream`: one
/// subscription, made when the property is read; ends when the sequence
/// completes; cancelling the iterating task disposes the subscription.
private func infallibleValues<Element: Sendable>(_ source: Observable<Element>) -> AsyncStream<Element> {
    let (stream, continuation) = AsyncStream<Element>.makeStream()
    let subscription = source.subscribe(
        onNext: { continuation.yield($0) }, onCompleted: { continuation.finish() }, isolation: nil)
    continuation.onTermination = { _ in subscription.dispose() }
    return stream
}

extension Infallible where Element: Sendable {
    /// The elements as an `AsyncStream`, which cannot throw (an infallible
    /// cannot fail), as RxSwift's `Infallible.values`:
    ///
    /// ```swift
    /// for await element in infallible.values { ... }
    /// ```
    ///
    /// Reading the property subscribes; elements are buffered until the
    /// iterating task takes them; the stream ends when the sequence
    /// completes; cancelling the task, or dropping the stream, disposes the
    /// subscription.
    public var values: AsyncStream<Element> { infallibleValues(source) }
}

extension SharedSequence where Element: Sendable {
    /// The elements as an `AsyncStream`, which cannot throw (a driver or a
    /// signal cannot fail), as RxCocoa's `values`. Same rules as
    /// ``Infallible/values``.
    ///
    /// RxCocoa marks it `@MainActor`; Tick does not need to: subscribing is
    /// thread-safe, and the elements are delivered on ``SharingScheduler``
    /// whatever the reading context.
    public var values: AsyncStream<Element> { infallibleValues(source) }
}

extension AsyncSequence where Self: Sendable {
    /// This async sequence as an observable, as RxSwift's
    /// `AsyncSequence.asObservable(priority:)`.
    ///
    /// Each subscription starts a detached task (with `priority`) that
    /// iterates the sequence: each element is sent as it arrives, then
    /// `completed` at the end; an error the iteration throws is sent as
    /// `error`, except `CancellationError`, which completes. Disposing the
    /// subscription cancels the task.
    ///
    /// ``Observable/from(_:)`` does the same in a task that inherits the
    /// subscriber's context instead of a detached one.
    public func asObservable(priority: TaskPriority? = nil) -> Observable<Element> {
        Observable.create({ observer in
            // Only the task below uses the observer; the sink behind it
            // (`create`) is safe against disposal from another thread.
            let sendable = UncheckedSendableBox(value: observer)
            let task = Task.detached(priority: priority) {
                do {
                    for try await element in self {
                        sendable.value.onNext(element)
                    }
                    sendable.value.onCompleted()
                } catch is CancellationError {
                    sendable.value.onCompleted()
                } catch {
                    sendable.value.onError(error)
                }
            }
            return Disposables.create { task.cancel() }
        }, isolation: nil)
    }
}
