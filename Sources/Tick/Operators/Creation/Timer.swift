extension Observable where Element: FixedWidthInteger {
    /// Emits `0` after `dueTime`; then, if `period` is given, `1`, `2`, … every
    /// `period`, otherwise completes.
    ///
    /// Elements are due at exactly `subscription + dueTime + k × period`, with
    /// no drift. A negative `dueTime` is reported as misuse and treated as zero;
    /// a negative `period` is reported as misuse and nothing is emitted at
    /// all; a zero period follows the scheduler's rule (the ``Scheduler``
    /// rules for periodic work: on a `TestScheduler` with
    /// `simulateProcessingDelay`, one element per frame, as in RxTest).
    @inlinable
    public static func timer(_ dueTime: Duration, period: Duration? = nil, scheduler: any Scheduler) -> Observable<Element> {
        // A closure subscription with nothing in between runs the source
        // itself (`DirectSource.swift`; the first one with the source as its
        // sink); any other subscription makes a `TimerSink`. A one-shot timer
        // and a periodic one are sources of two kinds: the one-shot's holds
        // only its due time and scheduler, so that it stays below `malloc`'s
        // fast-bin limit (see `OneShotTimerSource`).
        if let period {
            let source = PeriodicTimerSource<Element>(
                dueTime: dueTime, period: period, scheduler: scheduler,
                makeAction: { sink in TimerTicks(sink).tick })
            return Observable({ observer in source.subscribe(observer) }, nesting: source)
        }
        let source = OneShotTimerSource<Element>(dueTime: dueTime, scheduler: scheduler)
        return Observable({ observer in source.subscribe(observer) }, nesting: source)
    }

    /// Emits `0`, `1`, `2`, … every `period`, the first one `period` after
    /// subscription (at exactly `subscription + (k + 1) × period`).
    @inlinable
    public static func interval(_ period: Duration, scheduler: any Scheduler) -> Observable<Element> {
        timer(period, period: period, scheduler: scheduler)
    }
}

@usableFromInline
final class TimerSink<Element: FixedWidthInteger>: Sink<Element>, @unchecked Sendable {
    /// Touched only by the scheduler's actions, one at a time.
    @usableFromInline @exclusivity(unchecked) var count: Element = 0

    @inlinable override init(downstream: AnyObserver<Element>) { super.init(downstream: downstream) }

    @inlinable
    func tick() {
        let value = count
        count &+= 1
        forwardNext(value)
    }

    @inlinable
    func fireOnce() {
        // The upstream is this very action: nothing left to cancel.
        upstreamActionStarted()
        forwardNext(0)
        forwardCompleted()
    }
}

// MARK: The sources
//
// A timer observable's source is a direct source (`DirectSource.swift`):
// also the sink of its observable's first closure subscription, so that
// `timer(…).subscribe(onNext: …)` is this one object, which the scheduler's
// queue holds (through the action's closure) while the timer is pending.
//
// ## What a source holds of its scheduler
// `scheduler._referenceForTimers`: a real scheduler itself (the observable
// keeps it alive, as in RxSwift), a TickTesting `TestScheduler`'s link,
// which reaches it without keeping it alive. A pending timer is held by the
// test scheduler's queue; holding the scheduler back would make a cycle,
// and a test that let go of its scheduler with a timer pending would leak
// both (no undriven-work hint, pending work counted as live). What keeps a
// test scheduler alive is the test's references to it (and what the test
// holds that holds it strongly: its observers, clocks, operators such as
// `delay`); a timer observable alone does not. Subscribing one after its
// test scheduler is gone schedules nothing: no one could have moved that
// clock.

/// A one-shot `Observable.timer`'s source: its due time and scheduler, the
/// usual subscription (a ``TimerSink``) and the direct one.
///
/// Kept to the closure sink's fields and these two (120 bytes in a release
/// build), so that `malloc` serves it from its fast bins (chunks up to 128
/// bytes, the 8-byte header included): ten thousand timers fired and freed
/// in a burst then take `free`'s short path. Hence no stored action maker,
/// as the periodic source has: the direct action is made in
/// ``subscribeDirect(_:)``, reached through the class's vtable, so generic
/// (unspecialized) code, and runs ``fire()``, specialized for `Int` (the
/// generic code checks the type and calls the specialized copy). The
/// measurements are in Docs/PerformanceHistory.md, "Timers (branch
/// timers6, 2026-11-27)".
@usableFromInline
// @unchecked Sendable: as its base class `ClosureSink`'s; its own fields are
// `let`s.
final class OneShotTimerSource<Element: FixedWidthInteger>: DirectSource<Element>, @unchecked Sendable {
    @usableFromInline let dueTime: Duration
    /// The scheduler as `_referenceForTimers` gives it (see "What a source
    /// holds of its scheduler" above).
    @usableFromInline let scheduler: any Scheduler

    @inlinable
    init(dueTime: Duration, scheduler: any Scheduler) {
        self.dueTime = dueTime
        self.scheduler = timerReference(to: scheduler)
        super.init()
    }

    /// The usual subscription: a ``TimerSink`` forwarding to `observer`.
    @inlinable
    func subscribe(_ observer: AnyObserver<Element>) -> any Disposable {
        let sink = TimerSink(downstream: observer)
        sink.setUpstream(scheduler.schedule(after: dueTime) { sink.fireOnce() })
        return sink
    }

    /// The direct subscription: the same scheduling, the action delivering
    /// `0` and completion into `sink` (`ClosureSink.deliverOnce`). When the
    /// sink is this source (its observable's first closure subscription),
    /// the action is ``fire()``, in a closure whose one capture is the
    /// source; a closure written here would capture the generic type as
    /// well, which takes an allocation of its own.
    override func subscribeDirect(_ sink: ClosureSink<Element>) -> any Disposable {
        if sink === self { return scheduler.schedule(after: dueTime, scheduledAction(firing: self)) }
        return scheduler.schedule(after: dueTime) { sink.deliverOnce(.zero) }
    }

    /// The action of the source's own subscription: `0` and completion
    /// into itself. For `Int`, the usual element, the delivery specialized
    /// for `Int` (about 50 instructions a timer less than the generic
    /// one); other element types run the generic code (``fireGeneric()``),
    /// with the same result. The type is tested here, not by an
    /// `@_specialize` entry: that entry first sizes a stack slot for a
    /// generic `Element` (about 15 instructions), which the `Int` path
    /// does not need.
    override func fire() {
        if Element.self == Int.self {
            // The same object: `Element` is `Int`.
            unsafeDowncast(self, to: OneShotTimerSource<Int>.self).deliverOnce(0)
        } else {
            fireGeneric()
        }
    }

    /// ``fire()`` for an element type other than `Int`.
    @inline(never)
    func fireGeneric() { deliverOnce(.zero) }

    /// `subscribeDirect` only calls `schedule(after:_:)`: on a scheduler
    /// that only queues work (a TickTesting `TestScheduler`'s link,
    /// `Scheduler._schedulesOnlyForLater`), the trampoline is skipped while
    /// no thread is at the nesting limit, where it would queue the
    /// subscription instead (`CurrentThreadScheduler.subscribe(direct:_:)`
    /// says why that changes nothing else).
    override func start(_ sink: ClosureSink<Element>) -> any Disposable {
        if scheduler._schedulesOnlyForLater && CurrentThreadScheduler.noThreadIsAtTheNestingLimit {
            return subscribeDirect(sink)
        }
        return CurrentThreadScheduler.subscribe(direct: self, sink)
    }

    /// The source's own subscription (the sink is the source): the
    /// shortcut of ``start(_:)``, scheduling ``fire()`` as
    /// ``subscribeDirect(_:)`` would, and the scheduled action stored as
    /// the upstream in the same call (`setUpstream` written in, the
    /// returned disposable stored where it is made).
    override func startAsOwnSink() {
        if scheduler._schedulesOnlyForLater && CurrentThreadScheduler.noThreadIsAtTheNestingLimit {
            setUpstreamInline(scheduler.schedule(after: dueTime, scheduledAction(firing: self)))
        } else {
            setUpstream(CurrentThreadScheduler.subscribe(direct: self, self))
        }
    }
}

/// A periodic `Observable.timer`'s (and `interval`'s) source: its
/// parameters, the usual subscription (a ``TimerSink``) and the direct one.
@usableFromInline
// @unchecked Sendable: as its base class `ClosureSink`'s; its own fields are
// `let`s.
final class PeriodicTimerSource<Element: FixedWidthInteger>: DirectSource<Element>, @unchecked Sendable {
    @usableFromInline let dueTime: Duration
    @usableFromInline let period: Duration
    /// The scheduler as `_referenceForTimers` gives it (see "What a source
    /// holds of its scheduler" above).
    @usableFromInline let scheduler: any Scheduler
    /// Makes the direct subscription's scheduled action for a sink. A
    /// closure with no captures, written where `timer` is specialized, so
    /// that the action it makes calls specialized code; `subscribeDirect`,
    /// reached through the class's vtable, is not specialized.
    @usableFromInline let makeAction: (ClosureSink<Element>) -> () -> Void

    @inlinable
    init(
        dueTime: Duration, period: Duration, scheduler: any Scheduler,
        makeAction: @escaping (ClosureSink<Element>) -> () -> Void
    ) {
        self.dueTime = dueTime
        self.period = period
        self.scheduler = timerReference(to: scheduler)
        self.makeAction = makeAction
        super.init()
    }

    /// The usual subscription: a ``TimerSink`` forwarding to `observer`.
    @inlinable
    func subscribe(_ observer: AnyObserver<Element>) -> any Disposable {
        let sink = TimerSink(downstream: observer)
        sink.setUpstream(scheduler.schedulePeriodic(after: dueTime, period: period) { sink.tick() })
        return sink
    }

    /// The direct subscription: the same scheduling, the action delivering
    /// into `sink` (``TimerTicks``).
    override func subscribeDirect(_ sink: ClosureSink<Element>) -> any Disposable {
        scheduler.schedulePeriodic(after: dueTime, period: period, makeAction(sink))
    }
}

/// A directly subscribed periodic timer's action: `0`, `1`, `2`, … into a
/// closure subscription, as ``TimerSink/tick()`` forwards them.
@usableFromInline
final class TimerTicks<Element: FixedWidthInteger> {
    @usableFromInline let sink: ClosureSink<Element>
    /// Touched only by the scheduler's actions, one at a time.
    @usableFromInline @exclusivity(unchecked) var count: Element = 0

    @inlinable
    init(_ sink: ClosureSink<Element>) { self.sink = sink }

    @inlinable
    func tick() {
        let value = count
        count &+= 1
        sink.on(.next(value))
    }
}

/// The action that calls `source.fire()`: made in a non-generic function,
/// so that the closure's one capture is the source (its context).
func scheduledAction(firing source: NestedSources) -> () -> Void { { source.fire() } }

/// `scheduler._referenceForTimers`: what a timer's source holds of its
/// scheduler (one call out of line, not a copy in every inlined caller).
@usableFromInline
func timerReference(to scheduler: any Scheduler) -> any Scheduler { scheduler._referenceForTimers }
