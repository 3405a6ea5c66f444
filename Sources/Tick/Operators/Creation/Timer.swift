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
        // sink); any other subscription makes a `TimerSink`.
        let source = TimerSource<Element>(
            dueTime: dueTime, period: period, scheduler: scheduler,
            makeAction: { sink, periodic in periodic ? TimerTicks(sink).tick : { sink.deliverOnce(0) } })
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

/// `Observable.timer`'s source: its parameters, the usual subscription (a
/// ``TimerSink``) and the direct one.
///
/// A direct source, so also the sink of its observable's first closure
/// subscription (`DirectSource.swift`): `timer(…).subscribe(onNext: …)` is
/// this one object, which the scheduler's queue holds (through the action's
/// closure) while the timer is pending.
///
/// ## What it holds of its scheduler
/// `scheduler.referenceForTimers`: a real scheduler itself (the observable
/// keeps it alive, as in RxSwift), a TickTesting `TestScheduler`'s link,
/// which reaches it without keeping it alive. A pending timer is held by the
/// test scheduler's queue; holding the scheduler back would make a cycle,
/// and a test that let go of its scheduler with a timer pending would leak
/// both (no undriven-work hint, pending work counted as live). What keeps a
/// test scheduler alive is the test's references to it (and what the test
/// holds that holds it strongly: its observers, clocks, operators such as
/// `delay`); a timer observable alone does not. Subscribing one after its
/// test scheduler is gone schedules nothing: no one could have moved that
/// clock.
@usableFromInline
// @unchecked Sendable: as its base class `ClosureSink`'s; its own fields are
// `let`s.
final class TimerSource<Element: FixedWidthInteger>: DirectSource<Element>, @unchecked Sendable {
    @usableFromInline let dueTime: Duration
    @usableFromInline let period: Duration?
    /// The scheduler as `referenceForTimers` gives it (see above).
    @usableFromInline let scheduler: any Scheduler
    /// Makes the direct subscription's scheduled action for a sink (periodic
    /// or not). A closure with no captures, written where `timer` is
    /// specialized, so that the actions it makes capture only the sink (no
    /// allocation for the closure) and call specialized code;
    /// `subscribeDirect`, reached through the class's vtable, is not
    /// specialized.
    @usableFromInline let makeAction: (ClosureSink<Element>, _ periodic: Bool) -> () -> Void

    @inlinable
    init(
        dueTime: Duration, period: Duration?, scheduler: any Scheduler,
        makeAction: @escaping (ClosureSink<Element>, _ periodic: Bool) -> () -> Void
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
        if let period {
            sink.setUpstream(scheduler.schedulePeriodic(after: dueTime, period: period) { sink.tick() })
        } else {
            sink.setUpstream(scheduler.schedule(after: dueTime) { sink.fireOnce() })
        }
        return sink
    }

    /// The direct subscription: the same scheduling, the action delivering
    /// into `sink` (`ClosureSink.deliverOnce`, or ``TimerTicks``).
    override func subscribeDirect(_ sink: ClosureSink<Element>) -> any Disposable {
        if let period {
            return scheduler.schedulePeriodic(after: dueTime, period: period, makeAction(sink, true))
        }
        return scheduler.schedule(after: dueTime, makeAction(sink, false))
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

/// `scheduler.referenceForTimers` (SPI, so not callable from inlinable code
/// itself): what a ``TimerSource`` holds of its scheduler.
@usableFromInline
func timerReference(to scheduler: any Scheduler) -> any Scheduler { scheduler.referenceForTimers }
