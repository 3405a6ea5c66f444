import Dispatch

// How the closures given to `subscribe(onNext:…)` (and `bind`, `drive`,
// `emit`, the traits' `subscribe`) keep the isolation they were written in
// (Docs/Concurrency.md, "Main-actor closures").
//
// In Swift 6 a closure that is not `@Sendable`, written in an actor-isolated
// context (a `@MainActor` view model), is isolated to that actor: it may touch
// the actor's state without `await`. Those subscribe calls take the caller's
// isolation (`#isolation`). When it is an actor, the subscription's events
// reach the closures through an `IsolatedDelivery`, which runs them on that
// actor and in order:
// - the main actor: at once when the event arrives on the main queue and
//   nothing is waiting to be delivered; otherwise on the main queue, after
//   what is waiting;
// - any other actor: always in a task on that actor (Swift offers no
//   non-trapping way to ask whether the current thread is running a given
//   actor), in order.
// A caller that is not isolated (nil) gets the closures called where the
// events arrive, as before.

/// Runs a subscription's callbacks on the actor its closures are isolated to,
/// one at a time and in the order the events arrived.
@usableFromInline
final class IsolatedDelivery: @unchecked Sendable {
    // @unchecked: `pending` and `isDraining` are guarded by `lock`; the
    // queued callbacks are not Sendable, but each runs exactly once, on the
    // actor they are isolated to (that is the point of this type), after the
    // thread that queued them let go of them.
    private enum Target {
        case main
        case actor(any Actor)
    }

    private let target: Target
    private let lock = Lock()
    @exclusivity(unchecked) private var pending = FIFOQueue<() -> Void>()
    /// A drain is scheduled or running: queued work will be picked up.
    @exclusivity(unchecked) private var isDraining = false

    /// The delivery for closures written with `isolation`, or nil when they
    /// are not isolated (called where the events arrive).
    @usableFromInline
    static func forIsolation(_ isolation: (any Actor)?) -> IsolatedDelivery? {
        guard let isolation else { return nil }
        if isolation === MainActor.shared { return IsolatedDelivery(target: .main) }
        return IsolatedDelivery(target: .actor(isolation))
    }

    private init(target: Target) { self.target = target }

    /// Whether a callback may run right now, on the calling thread: on the
    /// main queue for the main actor, with nothing waiting before it.
    @usableFromInline
    var canRunNow: Bool {
        guard case .main = target, MainQueue.isCurrent else { return false }
        return lock.withLock { pending.isEmpty }
    }

    /// Runs `work` now if ``canRunNow``, otherwise queues it on the actor.
    @usableFromInline
    func run(_ work: @escaping () -> Void) {
        if canRunNow {
            work()
        } else {
            enqueue(work)
        }
    }

    /// Queues `work` to run on the actor after everything already queued.
    @usableFromInline
    func enqueue(_ work: @escaping () -> Void) {
        let startsDrain = lock.withLock { () -> Bool in
            pending.append(work)
            if isDraining { return false }
            isDraining = true
            return true
        }
        guard startsDrain else { return }
        switch target {
        case .main:
            // A main-actor task rather than a block on the main queue (both
            // run there, in order): a TestScheduler driving async work sees
            // the task and waits for it (Docs/AsyncAwait.md, quiescence).
            Task { @MainActor in self.drain() }
        case .actor(let actor):
            Task { await Self.drain(self, on: actor) }
        }
    }

    private static func drain(_ delivery: IsolatedDelivery, on actor: isolated any Actor) {
        delivery.drain()
    }

    /// Runs the queued work in order until none is left (work queued while
    /// draining is picked up by the same drain).
    private func drain() {
        while true {
            let next = lock.withLock { () -> (() -> Void)? in
                if let work = pending.removeFirst() { return work }
                isDraining = false
                return nil
            }
            guard let next else { return }
            next()
        }
    }
}

/// Whether the calling code runs on the main dispatch queue, which is where
/// the main actor runs its jobs.
enum MainQueue {
    private static let key: DispatchSpecificKey<UInt8> = {
        let key = DispatchSpecificKey<UInt8>()
        DispatchQueue.main.setSpecific(key: key, value: 1)
        return key
    }()

    /// `true` on the main queue (the main thread outside any other queue
    /// included), `false` elsewhere. Never traps.
    static var isCurrent: Bool { DispatchQueue.getSpecific(key: key) == 1 }
}

extension ObservableType {
    /// The closure subscription for closures isolated to an actor: every
    /// callback runs through `delivery` (on that actor, in order).
    @usableFromInline
    func subscribeIsolated(
        delivery: IsolatedDelivery,
        onNext: ((Element) -> Void)?, onError: ((any Error) -> Void)?,
        onCompleted: (() -> Void)?, onDisposed: (() -> Void)?
    ) -> any Disposable {
        // `onDisposed` may be triggered by a `dispose()` on any thread.
        let isolatedOnDisposed = onDisposed.map { onDisposed in { delivery.run(onDisposed) } }
        let sink = ClosureSink(
            onNext: onNext, onError: onError, onCompleted: onCompleted, onDisposed: isolatedOnDisposed)
        // The sink checks `isDisposed` when the event is delivered, so queued
        // events are dropped once the subscription is disposed.
        sink.setUpstream(
            subscribe(
                AnyObserver { event in
                    if delivery.canRunNow {
                        sink.on(event)
                    } else {
                        delivery.enqueue { sink.on(event) }
                    }
                }))
        return sink
    }
}
