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
        // itself (`DirectSource.swift`); any other subscription makes a
        // `TimerSink`.
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
