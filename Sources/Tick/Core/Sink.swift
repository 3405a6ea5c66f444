import Synchronization

/// The base of every operator's subscription: it forwards events downstream,
/// enforces the observable grammar (nothing after a terminal event or after
/// disposal) and owns the upstream subscription.
///
/// Lock-free: the upstream disposable is published with an atomic state word,
/// so disposing from another thread, from inside a callback, or before the
/// upstream subscription even returned are all safe.
@usableFromInline
class Sink<Output>: Disposable, @unchecked Sendable {
    @usableFromInline final let downstream: AnyObserver<Output>
    @usableFromInline final let state = Atomic<UInt8>(0)
    // Exclusivity is guaranteed by `state` (written before publication, then
    // touched only by the one caller that set the disposed bit), so runtime
    // checks are turned off for these two fields.
    //
    // "No upstream" is a `NopDisposable` rather than `nil`: an optional of a
    // non-class existential is copied and destroyed through the generic
    // `Optional` value witnesses (a metadata lookup and two indirect calls
    // each time), a plain existential through its own witness table; and it
    // is moved in (a consuming argument) and out (`swap`), never copied.
    @exclusivity(unchecked) private final var upstream: any Disposable = NopDisposable()
    /// Counts this subscription as live until it is disposed or terminated.
    @exclusivity(unchecked) private final var token: ResourceToken? = ResourceToken()

    @usableFromInline static var upstreamSet: UInt8 { 1 }
    @usableFromInline static var disposedBit: UInt8 { 2 }
    /// Set by the one caller that releases the upstream and the resources.
    @usableFromInline static var releasedBit: UInt8 { 4 }
    /// Set with the disposed bit when a terminal event ended the sink.
    @usableFromInline static var terminatedBit: UInt8 { 8 }
    /// Set (after `upstreamSet`) when the upstream is a single scheduled action
    /// that has started running: disposing it could no longer do anything, so
    /// it is only let go of.
    @usableFromInline static var upstreamSpentBit: UInt8 { 16 }

    @usableFromInline
    init(downstream: AnyObserver<Output>) {
        self.downstream = downstream
        // For the leak trait's report: the operator this subscription is.
        token?.name(type(of: self))
    }

    /// `true` once disposed or after a terminal event was forwarded.
    @inlinable
    final var isDisposed: Bool {
        state.load(ordering: .relaxed) & Self.disposedBit != 0
    }

    /// `true` if a terminal event (not a disposal) ended this sink. Safe to
    /// read from ``disposeResources()`` on any thread.
    @usableFromInline
    final var isTerminatedByEvent: Bool {
        state.load(ordering: .acquiring) & Self.terminatedBit != 0
    }

    /// Forwards a `next` event unless disposed.
    @inlinable @inline(__always)
    final func forwardNext(_ element: Output) {
        if !isDisposed { downstream.on(.next(element)) }
    }

    /// Forwards any event; a terminal one also disposes this sink. Nothing is
    /// forwarded after a terminal event or after disposal. (Inlinable so
    /// that it is specialized with its operator: unspecialized, every event
    /// cost generic metadata lookups.)
    @inlinable
    final func forward(_ event: Event<Output>) {
        switch event {
        case .next(let element): forwardNext(element)
        case .error, .completed:
            terminate { downstream.on(event) }
        }
    }

    /// Ends this sink: marks it disposed (so nothing else is forwarded), runs
    /// `body` (which delivers the terminal event), then disposes upstream and
    /// this sink's resources. Does nothing if already disposed.
    ///
    /// If downstream disposes this sink while `body` delivers the terminal
    /// event (as every sink does when it receives one), the upstream and the
    /// resources are released right then, inside `body`: so the source
    /// subscription ends before anything downstream of this sink cleans up,
    /// as in RxSwift (`do(onDispose:)` runs after its source was disposed).
    @usableFromInline
    final func terminate(_ body: () -> Void) {
        guard beginDisposal(terminating: true) else { return }
        body()
        let old = state.bitwiseOr(Self.releasedBit, ordering: .acquiringAndReleasing).oldValue
        if old & Self.releasedBit == 0 { finishDisposal(old) }
    }

    /// Forwards `.error(error)` and disposes.
    @inlinable
    final func forwardError(_ error: any Error) { forward(.error(error)) }

    /// Forwards `.completed` and disposes.
    @inlinable
    final func forwardCompleted() { forward(.completed) }

    /// Stores the upstream subscription; disposes it at once if this sink is
    /// already disposed.
    @usableFromInline
    final func setUpstream(_ disposable: consuming any Disposable) {
        upstream = disposable
        let (exchanged, _) = state.compareExchange(
            expected: 0, desired: Self.upstreamSet, ordering: .acquiringAndReleasing)
        if !exchanged {
            // Already disposed: `finishDisposal` saw no upstream, so it is ours.
            takeUpstream().dispose()
        }
    }

    /// Moves the upstream subscription out, leaving "none" behind.
    @inline(__always)
    private final func takeUpstream() -> any Disposable {
        var taken: any Disposable = NopDisposable()
        swap(&upstream, &taken)
        return taken
    }

    /// Records that the upstream subscription is a scheduled action that is
    /// running now (called from that action), so that ending this sink lets
    /// go of it without disposing it: for every scheduler, disposing an
    /// action that already started does nothing (on a `TestScheduler` it
    /// would still take the scheduler's lock to find that out). Does nothing
    /// if the upstream is not stored yet (then it is disposed as usual).
    @inlinable
    final func upstreamActionStarted() {
        if state.load(ordering: .relaxed) & Self.upstreamSet != 0 {
            state.bitwiseOr(Self.upstreamSpentBit, ordering: .relaxed)
        }
    }

    /// Disposes the upstream subscription and this sink's own resources.
    @usableFromInline
    final func dispose() {
        // Disposed and released in one step: the first caller to set the
        // released bit finishes.
        let old = state.bitwiseOr(Self.disposedBit | Self.releasedBit, ordering: .acquiringAndReleasing).oldValue
        if old & Self.releasedBit == 0 { finishDisposal(old) }
    }

    /// Override to release timers and inner subscriptions. Called exactly once,
    /// possibly while this sink is still delivering its terminal event (even
    /// on another thread, if it is disposed from there meanwhile).
    @usableFromInline
    func disposeResources() {}

    /// `true` for the one caller that sets the disposed bit, which a
    /// terminating caller sets with the terminated bit.
    private final func beginDisposal(terminating: Bool) -> Bool {
        var current = state.load(ordering: .relaxed)
        while current & Self.disposedBit == 0 {
            let (exchanged, original) = state.compareExchange(
                expected: current, desired: current | Self.disposedBit | Self.terminatedBit,
                ordering: .acquiringAndReleasing)
            if exchanged { return true }
            current = original
        }
        return false
    }

    /// Releases the upstream and the resources. `old` is the state just
    /// before this caller set the released bit, the disposed bit already
    /// set, so its `upstreamSet` is final: `setUpstream` only publishes an
    /// upstream into an untouched state.
    private final func finishDisposal(_ old: UInt8) {
        // Only the caller that set the released bit gets here, once. If the
        // upstream was published before that, it is ours to dispose; if not,
        // `setUpstream` will see the bit and dispose it itself. Nothing else
        // touches the field now, so it is disposed in place and let go of by
        // overwriting it (no moves of the existential).
        if old & Self.upstreamSet != 0 {
            let spent = (old | state.load(ordering: .relaxed)) & Self.upstreamSpentBit != 0
            if !spent { disposeInPlace(&upstream) }
            upstream = NopDisposable()
        }
        disposeResources()
        token = nil
    }
}
