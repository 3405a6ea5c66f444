import Synchronization

// The sink of a closure subscription (`subscribe(onNext:onError:onCompleted:onDisposed:)`,
// Observable.swift): one object that is both the observer and the
// disposable, and how it lets go of its closures without racing a delivery.

/// The observer made by `subscribe(onNext:onError:onCompleted:onDisposed:)`,
/// and the disposable it returns: one object per subscription.
///
/// Order on a terminal event, as in RxSwift: `onError`/`onCompleted`, then
/// `onDisposed`, then the upstream subscription is disposed. On disposal: the
/// upstream subscription is disposed, then `onDisposed` runs. Disposing it,
/// or a terminal event, lets go of the closures, so a closure that captures
/// its owner does not keep the owner alive through the owner's dispose bag.
///
/// ## Letting go of the closures without racing with a delivery
/// Events arrive one at a time (the Rx contract), but a disposal may come
/// from any thread, during a delivery. Everything is decided on one atomic
/// word, `state`:
/// - A delivery first adds `delivering` (one unit of a count of deliveries in
///   progress: a reentrant delivery, or concurrent senders to a subject,
///   nest) and, from the same read-modify-write, learns whether the sink has
///   `ended`; only if not does it read (borrow) and call a closure. It
///   subtracts its unit when it is done.
/// - `ended` is set once, by `dispose()` or by the terminal event (with
///   `terminated`); from then on no delivery calls a closure.
/// - Exactly one caller claims `finishing` (with the same read-modify-write
///   as `ended` for a disposal, just after the terminal closures for an
///   event): it disposes the upstream and lets go of it (leaves it alone if
///   the upstream is a one-shot timer's action that has started:
///   `upstreamSpent`; it then goes with the sink), runs
///   `onDisposed` for a disposal, then sets `finished`.
/// - The closures are written (replaced by empty ones) only once `finished`
///   is set and no delivery is in progress: whoever makes the word reach
///   that state (the finisher, or the last delivery to leave) claims
///   `closuresReleased` and lets go of them. A delivery that enters after
///   `ended` never reads a closure, and nothing clears `ended`, so the
///   claimer is alone with the field; acquire/release orderings on every
///   read-modify-write order the deliveries' reads before the claimer's
///   write. Deliveries only ever read the closures, so they may overlap.
///
/// ## A direct source's own sink
/// Not `final`: a ``DirectSource`` (a timer's source) is a closure
/// sink too, made unclaimed (``init()``: no closures, not counted as a live
/// resource, `unclaimed` set). The first closure subscription of its
/// observable claims it (``claim()``, one compare-and-exchange from
/// exactly `unclaimed` to nothing), gives it its closures and uses
/// it as its sink, so a directly subscribed timer is one object; every
/// later subscription, or one that loses the race, makes a sink of its own.
/// The claimer writes the closures and the token before it schedules
/// anything, so before any delivery or disposal can reach the sink. Every
/// member is `final`: calls to them are direct.
///
/// @unchecked Sendable: every mutable field is guarded by that protocol on
/// `state` (`closures` is only read until the one write above, besides the
/// claimer's write before the sink is shared; `upstream` and `token` are
/// touched by one caller at a time, as described), and `state` is atomic.
@usableFromInline
class ClosureSink<Element>: NestedSources, Cancelable, @unchecked Sendable {
    /// The closures: read (borrowed) by deliveries, replaced by empty ones
    /// once, by the caller that claims `closuresReleased` (see above), so
    /// no access overlaps a write: runtime checks off.
    @usableFromInline @exclusivity(unchecked) final var closures: ClosureSlots<Element>
    @usableFromInline final let state: Atomic<Int>
    /// Written before `upstreamSet` is published, then touched only by the
    /// caller that claimed `finishing` (or by `setUpstream` if that came first).
    @exclusivity(unchecked) private final var upstream: any Disposable = NopDisposable()
    #if DEBUG
    /// Counts this subscription as live until it ends (for a direct
    /// source: from its claim). Debug builds only, as every resource
    /// count: in a release build the field would be a byte (an empty
    /// token's optional) and, with its padding, the 8 that take a one-shot
    /// timer's source past `malloc`'s fast bins (`OneShotTimerSource`).
    @exclusivity(unchecked) private final var token: ResourceToken?
    #endif

    @usableFromInline static var upstreamSet: Int { ClosureSinkBits.upstreamSet }
    /// `dispose()` was called (``isDisposed``).
    @usableFromInline static var disposeCalled: Int { 2 }
    /// No closure is called any more (disposed, or a terminal event arrived).
    @usableFromInline static var ended: Int { 4 }
    /// Set with `ended` when a terminal event ended the sink.
    @usableFromInline static var terminated: Int { 8 }
    /// Claimed by the one caller that disposes the upstream.
    @usableFromInline static var finishing: Int { ClosureSinkBits.finishing }
    /// The upstream is disposed and `onDisposed` has run.
    @usableFromInline static var finished: Int { 32 }
    /// Claimed by the one caller that lets go of the closures.
    @usableFromInline static var closuresReleased: Int { 64 }
    /// A direct source's sink that no subscription has claimed yet (see
    /// "A direct source's own sink"): only ever set alone, by ``init()``.
    @usableFromInline static var unclaimed: Int { 256 }
    /// Set (after `upstreamSet`) when the upstream is a single scheduled
    /// action that has started running (a directly subscribed one-shot
    /// timer; past `maximumNestedSubscriptions`, the placeholder disposable
    /// that holds that action): disposing it could no longer do anything,
    /// so the finisher leaves it alone (as `Sink.upstreamSpentBit`), and it
    /// goes with the sink.
    @usableFromInline static var upstreamSpent: Int { 128 }
    /// One delivery in progress; the bits from here up count them.
    @usableFromInline static var delivering: Int { 512 }

    @usableFromInline
    init(
        onNext: ((Element) -> Void)?, onError: ((any Error) -> Void)?,
        onCompleted: (() -> Void)?, onDisposed: (() -> Void)?
    ) {
        self.closures = ClosureSlots(onNext: onNext, onError: onError, onCompleted: onCompleted, onDisposed: onDisposed)
        self.state = Atomic(0)
        #if DEBUG
        self.token = ResourceToken()
        #endif
        super.init()
        #if DEBUG
        token?.name(ClosureSink<Element>.self)
        #endif
    }

    /// A direct source's own sink, unclaimed: no closures, no token (see
    /// "A direct source's own sink").
    @usableFromInline
    override init() {
        self.closures = ClosureSlots(onNext: nil, onError: nil, onCompleted: nil, onDisposed: nil)
        self.state = Atomic(Self.unclaimed)
        #if DEBUG
        self.token = nil
        #endif
        super.init()
    }

    /// Takes this direct source's sink for a closure subscription: `true`
    /// for the first caller, which then owns the sink and must give it its
    /// closures (``install(onNext:onError:onCompleted:onDisposed:)``)
    /// before it schedules anything, then set its upstream; `false` for
    /// every later one (or a sink made by the other initializer).
    @inlinable
    final func claim() -> Bool {
        state.load(ordering: .relaxed) == Self.unclaimed
            && state.compareExchange(expected: Self.unclaimed, desired: 0, ordering: .acquiringAndReleasing).exchanged
    }

    /// The claimer's closures (and, in a debug build, its resource token),
    /// written after ``claim()`` and before anything is scheduled, so
    /// before any delivery or disposal can reach the sink. The closures
    /// are consumed: the caller's references move into the sink (as into
    /// the initializer of a sink of its own) instead of being copied.
    /// (Inlinable, so that the write is specialized where it is used.)
    @inlinable
    final func install(
        onNext: consuming ((Element) -> Void)?, onError: consuming ((any Error) -> Void)?,
        onCompleted: consuming (() -> Void)?, onDisposed: consuming (() -> Void)?
    ) {
        // Written over the unclaimed sink's empty slots without destroying
        // them: they hold no closure (``init()``), so there is nothing to
        // let go of, and destroying them costs two calls.
        initialize(
            &closures,
            overEmpty: ClosureSlots(onNext: onNext, onError: onError, onCompleted: onCompleted, onDisposed: onDisposed))
        #if DEBUG
        countClaim()
        #endif
    }

    #if DEBUG
    /// The claimer's resource token (see ``install(onNext:onError:onCompleted:onDisposed:)``).
    @usableFromInline
    final func countClaim() {
        token = ResourceToken()
        token?.name(ClosureSink<Element>.self)
    }

    /// The end of the resource count, for ``deliverOnce(_:)``'s one-step
    /// ending (inlinable code cannot reach the private token).
    @usableFromInline
    final func countEnd() { token = nil }
    #endif

    /// `true` once ``dispose()`` has been called (not after a terminal event
    /// alone, as for any disposable that was not disposed).
    @inlinable
    final var isDisposed: Bool { state.load(ordering: .relaxed) & Self.disposeCalled != 0 }

    @inlinable
    final func on(_ event: Event<Element>) {
        switch event {
        case .next(let element):
            let old = state.wrappingAdd(Self.delivering, ordering: .acquiringAndReleasing).oldValue
            if old & Self.ended == 0 { closures.next(element) }
            leave()
        case .error(let error):
            guard enterEnding() else { return }
            closures.error(error)
            finishEnding()
        case .completed:
            guard enterEnding() else { return }
            closures.completed()
            finishEnding()
        }
    }

    /// Ends a delivery; the last one out after `finished` lets go of the closures.
    @inlinable @inline(__always)
    final func leave() {
        let new = state.wrappingSubtract(Self.delivering, ordering: .acquiringAndReleasing).newValue
        if new & Self.finished != 0 { releaseClosuresIfIdle(new) }
    }

    /// Lets go of the closures if `state`, just read as `new`, shows no
    /// delivery in progress (the rare path of ``leave()``).
    @usableFromInline
    final func releaseClosuresIfIdle(_ new: Int) {
        if new < Self.delivering { releaseClosures() }
    }

    /// For a terminal event: enters as a delivery and sets `ended` and
    /// `terminated`, in one step; `false` (and nothing changed) if already ended.
    @usableFromInline
    final func enterEnding() -> Bool {
        var current = state.load(ordering: .relaxed)
        while current & Self.ended == 0 {
            let (exchanged, original) = state.compareExchange(
                expected: current, desired: (current | Self.ended | Self.terminated) &+ Self.delivering,
                ordering: .acquiringAndReleasing)
            if exchanged { return true }
            current = original
        }
        return false
    }

    /// Stores the upstream subscription; disposes it at once if this sink has
    /// already finished without it.
    ///
    /// Called once per sink, while `upstream` still holds the placeholder
    /// `NopDisposable` it was made with (nothing writes the field before:
    /// a finisher that comes first sees no `upstreamSet` and leaves it
    /// alone). The upstream is therefore written over the placeholder
    /// without destroying it (``initialize(_:overPlaceholder:)``).
    @usableFromInline
    final func setUpstream(_ disposable: consuming any Disposable) {
        setUpstreamInline(disposable)
    }

    /// ``setUpstream(_:)`` written into its caller: where the upstream is
    /// made by the call that returns it (`OneShotTimerSource.startAsOwnSink()`),
    /// the two calls become one, and the returned disposable is stored
    /// without a second move.
    @inline(__always)
    final func setUpstreamInline(_ disposable: consuming any Disposable) {
        assert(upstream is NopDisposable, "a closure sink's upstream is set once")
        initialize(&upstream, overPlaceholder: disposable)
        var current = state.load(ordering: .relaxed)
        while current & ClosureSinkBits.finishing == 0 {
            let (exchanged, original) = state.compareExchange(
                expected: current, desired: current | ClosureSinkBits.upstreamSet, ordering: .acquiringAndReleasing)
            if exchanged { return }
            current = original
        }
        // The finisher came first and saw no upstream: it is ours to dispose.
        takeUpstream().dispose()
    }

    @usableFromInline
    final func dispose() {
        let old = state.bitwiseOr(
            Self.disposeCalled | Self.ended | Self.finishing, ordering: .acquiringAndReleasing).oldValue
        guard old & Self.finishing == 0 else { return }
        if old & Self.upstreamSet != 0 { disposeUpstreamInPlace(spent: old & Self.upstreamSpent != 0) }
        // A terminal event that got in first runs `onDisposed` itself.
        if old & Self.terminated == 0 { closures.disposed() }
        #if DEBUG
        token = nil
        #endif
        let new = state.wrappingAdd(Self.finished, ordering: .acquiringAndReleasing).newValue
        if new < Self.delivering { releaseClosures() }
    }

    /// After the terminal closures ran: disposes the upstream unless a
    /// disposal already claimed that, then leaves (the delivery that
    /// `enterEnding` entered).
    @usableFromInline @inline(__always)
    final func finishEnding() {
        let old = state.bitwiseOr(Self.finishing, ordering: .acquiringAndReleasing).oldValue
        guard old & Self.finishing == 0 else {
            leave()
            return
        }
        if old & Self.upstreamSet != 0 { disposeUpstreamInPlace(spent: old & Self.upstreamSpent != 0) }
        #if DEBUG
        token = nil
        #endif
        let new = state.wrappingAdd(Self.finished &- Self.delivering, ordering: .acquiringAndReleasing).newValue
        if new < Self.delivering { releaseClosures() }
    }

    /// Lets go of the closures, once: only called when `finished` is set and
    /// no delivery was in progress.
    @usableFromInline
    final func releaseClosures() {
        let old = state.bitwiseOr(Self.closuresReleased, ordering: .acquiringAndReleasing).oldValue
        guard old & Self.closuresReleased == 0 else { return }
        // Destroying a closure can run a deinitializer that reaches this
        // sink again (disposes it, sends it an event): all no-ops by now,
        // none of which reads `closures`.
        closures = ClosureSlots(onNext: nil, onError: nil, onCompleted: nil, onDisposed: nil)
    }

    /// Disposes the upstream subscription where it is stored, then lets go
    /// of it (only the finisher calls this, once: nothing else touches the
    /// field then, and moving an existential out costs more). A scheduled
    /// action that already started (`spent`) is neither disposed nor let go
    /// of here: it has run and holds nothing of it any more (a test
    /// scheduler's entry is its sequence number and the scheduler's link; a
    /// real scheduler's action has dropped its closure), so it goes with the
    /// sink, which saves replacing the existential (about 30 instructions a
    /// one-shot timer).
    @inline(__always)
    private final func disposeUpstreamInPlace(spent: Bool) {
        guard !spent else { return }
        Tick.disposeInPlace(&upstream)
        upstream = NopDisposable()
    }

    /// The action of a directly subscribed one-shot timer (`OneShotTimerSource`):
    /// records that the upstream (this very action) has started, so that
    /// finishing lets go of it without disposing it, then delivers `value`
    /// and completion, as `TimerSink.fireOnce` forwards them.
    ///
    /// One delivery from start to end: a single compare-and-exchange enters
    /// it and marks the upstream spent, `onNext` runs, a second turns the
    /// same delivery into the terminal one (`ended`, `terminated`) unless a
    /// disposal ended the sink meanwhile (in `onNext` itself, or from another
    /// thread), and `finishEnding` leaves it. The same events, closures and
    /// order as `on(.next(value))` then `on(.completed)`, with two atomic
    /// read-modify-writes fewer (and no separate load before the second).
    @inlinable
    final func deliverOnce(_ value: Element) {
        var current = state.load(ordering: .relaxed)
        while true {
            // The spent mark only once the upstream is stored (otherwise
            // `setUpstream`, coming later, disposes what it stores: a no-op
            // for an action that ran).
            let spent = current & Self.upstreamSet != 0 ? Self.upstreamSpent : 0
            let (exchanged, original) = state.compareExchange(
                expected: current, desired: (current &+ Self.delivering) | spent, ordering: .acquiringAndReleasing)
            if exchanged { break }
            current = original
        }
        guard current & Self.ended == 0 else { return leave() }
        closures.next(value)
        current = state.load(ordering: .relaxed)
        while current & Self.ended == 0 {
            // With the upstream spent, the finisher has nothing to dispose,
            // so the terminal transition claims `finishing` too (one
            // read-modify-write fewer): a disposal from now on finds the
            // sink finished by this delivery, as it would once
            // `finishEnding` had claimed it, and runs no `onDisposed`
            // (`terminated`) either way.
            let spent = current & Self.upstreamSpent != 0
            if spent && closures.hasNoTerminals && current &- Self.delivering < Self.delivering {
                // Nothing would run between the terminal transition and the
                // end (no terminal closure, no upstream to dispose), and this
                // is the only delivery in progress: one step ends it all,
                // `finishSpentEnding`'s and `releaseClosures`' too
                // (`finished`, this delivery's unit out, the claim on the
                // closures, which cannot be claimed yet: `finished` was not
                // set). The closures are then `onNext` alone.
                let (exchanged, original) = state.compareExchange(
                    expected: current,
                    desired: (current | Self.ended | Self.terminated | Self.finishing | Self.finished
                        | Self.closuresReleased) &- Self.delivering,
                    ordering: .acquiringAndReleasing)
                if exchanged {
                    #if DEBUG
                    countEnd()
                    #endif
                    closures.releaseOnNext()
                    return
                }
                current = original
                continue
            }
            let (exchanged, original) = state.compareExchange(
                expected: current,
                desired: current | Self.ended | Self.terminated | (spent ? Self.finishing : 0),
                ordering: .acquiringAndReleasing)
            if exchanged {
                closures.completed()
                return spent ? finishSpentEnding() : finishEnding()
            }
            current = original
        }
        leave()
    }

    /// `finishEnding` for a delivery whose terminal transition claimed
    /// `finishing` (the upstream spent: nothing to dispose): sets
    /// `finished`, leaves, and lets go of the closures if idle.
    @usableFromInline @inline(__always)
    final func finishSpentEnding() {
        #if DEBUG
        token = nil
        #endif
        let new = state.wrappingAdd(Self.finished &- Self.delivering, ordering: .acquiringAndReleasing).newValue
        if new < Self.delivering { releaseClosures() }
    }

    /// Moves the upstream subscription out, leaving "none" behind.
    @inline(__always)
    private final func takeUpstream() -> any Disposable {
        var taken: any Disposable = NopDisposable()
        swap(&upstream, &taken)
        return taken
    }
}

/// Two of ``ClosureSink``'s state bits, outside the generic class: written
/// into unspecialized generic code (``ClosureSink/setUpstreamInline(_:)``
/// in `OneShotTimerSource`), the generic class's static getters are called
/// there instead of folded.
@usableFromInline
enum ClosureSinkBits {
    @inlinable static var upstreamSet: Int { 1 }
    @inlinable static var finishing: Int { 16 }
}

/// Writes `value` into `slot` without destroying what `slot` holds, which
/// must be a `NopDisposable` (an empty struct stored inline in the
/// existential: destroying it does nothing, so not destroying it leaks
/// nothing). Plain assignment destroys the old value through the
/// existential's value witnesses whatever it is (about 20 instructions).
/// `slot` is a class's stored property passed with `&`: its own storage
/// for the duration of the call.
@inline(__always)
func initialize(_ slot: UnsafeMutablePointer<any Disposable>, overPlaceholder value: consuming any Disposable) {
    slot.initialize(to: value)
}

/// Writes `slots` into `slot` without destroying what `slot` holds, which
/// must be empty slots (no closure, no terminal closures: nothing to let go
/// of). `slot` is a class's stored property passed with `&`: its own
/// storage for the duration of the call.
/// (Through a raw pointer: `UnsafeMutablePointer.initialize(to:)` for a
/// noncopyable type, used here in generic code, changes how other generic
/// code in the module uses it for copyable ones, `FIFOQueue.append` among
/// them, at about 20 instructions an operation in `op_flatMap_just`.)
@inlinable @inline(__always)
func initialize<Element>(
    _ slot: UnsafeMutablePointer<ClosureSlots<Element>>, overEmpty slots: consuming ClosureSlots<Element>
) {
    UnsafeMutableRawPointer(slot).initializeMemory(as: ClosureSlots<Element>.self, to: slots)
}

/// The closures of a ``ClosureSink``. Noncopyable, so that the sink's
/// deliveries borrow them where they are stored and call them without
/// retaining them (a closure read from a class's `var` is copied: a retain
/// and a release around every call), and with read accesses only, which
/// may overlap (a reentrant delivery, or concurrent senders to a subject).
///
/// `onNext` is stored inline; the three terminal closures, when any is
/// given, in one ``TerminalClosures`` object. A sink with only `onNext`
/// (the usual `subscribe(onNext:)`) is then 88 bytes in a release build,
/// not 128, which `malloc` keeps in its fast bins: freeing many sinks in a
/// burst costs about a third of what the larger chunks did. (A timer's
/// first closure subscription has no sink of its own: its source is the
/// sink, `OneShotTimerSource` or `PeriodicTimerSource`.)
@usableFromInline
struct ClosureSlots<Element>: ~Copyable {
    /// (A `var` for ``releaseOnNext()`` alone.)
    @usableFromInline var onNext: ((Element) -> Void)?
    @usableFromInline let terminals: TerminalClosures?

    @inlinable
    init(
        onNext: ((Element) -> Void)?, onError: ((any Error) -> Void)?,
        onCompleted: (() -> Void)?, onDisposed: (() -> Void)?
    ) {
        self.onNext = onNext
        if onError == nil && onCompleted == nil && onDisposed == nil {
            self.terminals = nil
        } else {
            self.terminals = TerminalClosures(onError: onError, onCompleted: onCompleted, onDisposed: onDisposed)
        }
    }

    @inlinable @inline(__always)
    borrowing func next(_ element: Element) { onNext?(element) }

    /// No terminal closure was given (the usual `subscribe(onNext:)`).
    @inlinable @inline(__always)
    var hasNoTerminals: Bool { terminals == nil }

    /// Lets go of `onNext`: all there is to let go of when
    /// ``hasNoTerminals`` (the terminal slot is already empty).
    @inlinable @inline(__always)
    mutating func releaseOnNext() { onNext = nil }

    /// `onError`, then `onDisposed`.
    @inlinable
    borrowing func error(_ error: any Error) {
        guard let terminals else { return }
        terminals.onError?(error)
        terminals.onDisposed?()
    }

    /// `onCompleted`, then `onDisposed`.
    @inlinable
    borrowing func completed() {
        guard let terminals else { return }
        terminals.onCompleted?()
        terminals.onDisposed?()
    }

    @inlinable
    borrowing func disposed() { terminals?.onDisposed?() }
}

/// The terminal closures of a ``ClosureSink`` that has any (see
/// ``ClosureSlots``). Immutable; the sink lets go of it with its closures.
@usableFromInline
final class TerminalClosures {
    @usableFromInline let onError: ((any Error) -> Void)?
    @usableFromInline let onCompleted: (() -> Void)?
    @usableFromInline let onDisposed: (() -> Void)?

    @inlinable
    init(onError: ((any Error) -> Void)?, onCompleted: (() -> Void)?, onDisposed: (() -> Void)?) {
        self.onError = onError
        self.onCompleted = onCompleted
        self.onDisposed = onDisposed
    }
}
