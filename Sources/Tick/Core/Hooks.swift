import Synchronization

/// Process-wide hooks, as RxSwift's `Hooks`: what happens to an error that
/// reaches a closure subscription with no `onError`.
///
/// A subscription made with `subscribe(onNext:onError:onCompleted:onDisposed:)`
/// (or a trait's `subscribe(onSuccess:…)`, `drive`, `emit`, …) without an
/// `onError` closure passes the sequence's error to ``defaultErrorHandler``,
/// with the call stack captured when the subscription was made if
/// ``recordCallStackOnError`` is on.
///
/// What Tick decided, and why:
/// - The default handler does nothing: an unhandled error ends the
///   subscription silently, as it always has in Tick (RxSwift prints it in
///   debug builds). Install a handler to log, count or fail on such errors.
/// - The hooks are thread-safe: each is read and written under a lock, and
///   the handlers are `@Sendable`, because the error may arrive on any
///   thread. A handler that records into local state needs a lock-protected
///   box (`Mutex`), not a captured `var` (which Swift 6 rejects for a
///   `@Sendable` closure).
/// - No call stack is captured by default (``customCaptureSubscriptionCallstack``
///   returns `[]`: Tick does not depend on Foundation's `Thread.callStackSymbols`).
///   Set ``recordCallStackOnError`` and a capture closure, such as
///   `{ Thread.callStackSymbols }`, to get one.
/// - The hooks are process-wide: tests that set them must not run in
///   parallel with tests that rely on them, and should put the old value back.
public enum Hooks {
    /// Receives an error no `onError` closure handled, with the call stack
    /// captured at subscription (empty unless ``recordCallStackOnError``).
    public typealias DefaultErrorHandler = @Sendable (_ subscriptionCallStack: [String], _ error: any Error) -> Void
    /// Captures the call stack of a subscription.
    public typealias CustomCaptureSubscriptionCallstack = @Sendable () -> [String]

    private struct State {
        var defaultErrorHandler: DefaultErrorHandler?
        var captureCallStack: CustomCaptureSubscriptionCallstack?
        var recordCallStack = false
    }

    private static let state = Mutex(State())
    /// True once any hook was set: until then subscriptions skip the lock.
    private static let customized = Atomic<Bool>(false)

    private static let ignore: DefaultErrorHandler = { _, _ in }
    private static let noCallStack: CustomCaptureSubscriptionCallstack = { [] }

    /// Called with every error that reaches a closure subscription without
    /// an `onError`. The default does nothing; set it back to the value you
    /// read to restore it.
    public static var defaultErrorHandler: DefaultErrorHandler {
        get { state.withLock { $0.defaultErrorHandler } ?? ignore }
        set {
            state.withLock { $0.defaultErrorHandler = newValue }
            customized.store(true, ordering: .releasing)
        }
    }

    /// Captures the call stack that ``defaultErrorHandler`` receives, called
    /// at each closure subscription without `onError` while
    /// ``recordCallStackOnError`` is on. The default returns `[]`.
    public static var customCaptureSubscriptionCallstack: CustomCaptureSubscriptionCallstack {
        get { state.withLock { $0.captureCallStack } ?? noCallStack }
        set {
            state.withLock { $0.captureCallStack = newValue }
            customized.store(true, ordering: .releasing)
        }
    }

    /// Whether closure subscriptions without `onError` capture their call
    /// stack for ``defaultErrorHandler`` (off by default: capturing costs
    /// time at every such subscription).
    public static var recordCallStackOnError: Bool {
        get { state.withLock { $0.recordCallStack } }
        set {
            state.withLock { $0.recordCallStack = newValue }
            customized.store(true, ordering: .releasing)
        }
    }

    /// The `onError` a closure subscription without one uses: nil (nothing to
    /// call) until a hook is set; otherwise a closure passing the error, and
    /// the call stack captured now, to the handler installed when the error
    /// arrives.
    @usableFromInline
    static func unhandledErrorObserver() -> ((any Error) -> Void)? {
        guard customized.load(ordering: .acquiring) else { return nil }
        let (record, capture) = state.withLock { ($0.recordCallStack, $0.captureCallStack) }
        let callStack = record ? (capture ?? noCallStack)() : []
        return { error in defaultErrorHandler(callStack, error) }
    }
}
