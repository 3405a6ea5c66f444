// MARK: Sources that a closure subscription runs itself
//
// `timer(...).subscribe(onNext: ...)` used to make three objects per
// subscription: the timer's sink, the closure subscription's sink, and
// (through `AnyObserver`) a hop between them for every event. A source that
// only schedules work and sends its events to one observer does not need a
// sink of its own when that observer is a closure subscription: the
// `ClosureSink` can hold the scheduled work as its upstream and receive the
// events directly. Such a source is recorded on its observable
// (`Observable.nesting`, the slot for what a subscriber may take over), and
// `subscribe(onNext:onError:onCompleted:onDisposed:isolation:)` with no
// isolation runs it through the trampoline exactly as it would subscribe the
// observable. Anything else (an operator in between, `subscribe(observer)`,
// an isolated subscription) subscribes the observable as usual, which makes
// the source's own sink.

/// A source that a closure subscription may run itself, delivering into its
/// ``ClosureSink`` with no sink of the source's own in between (see above).
/// Abstract: ``TimerSource`` is the one kind.
@usableFromInline
class DirectSource<Element>: NestedSources {
    @usableFromInline override init() {}

    /// Starts the source for `sink` and returns its upstream subscription,
    /// which `sink` disposes when it ends. The events must be those, in the
    /// same order and at the same moments, that subscribing the observable
    /// would send through the source's own sink. (Overridden; the base class
    /// is never instantiated.)
    func subscribeDirect(_ sink: ClosureSink<Element>) -> any Disposable { NopDisposable() }
}

/// `Observable.timer`'s source: its parameters, the usual subscription (a
/// ``TimerSink``) and the direct one.
@usableFromInline
final class TimerSource<Element: FixedWidthInteger>: DirectSource<Element> {
    @usableFromInline let dueTime: Duration
    @usableFromInline let period: Duration?
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
        self.scheduler = scheduler
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
