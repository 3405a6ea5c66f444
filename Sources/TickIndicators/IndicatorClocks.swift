import Tick

// One time source: every time-based indicator API that takes a `Scheduler`
// also takes a `Clock`, the one the async code of the same type already
// has (`ContinuousClock()` in production, a `TestScheduler`'s
// `virtualClock` in tests). Each converts it with `Clock.asScheduler`: the
// virtual clock gives its own TestScheduler (exact virtual time, the same
// timeline as the sleeps), any other clock a `ClockScheduler` on it (actions
// on the main actor). The rules of each API are those of its scheduler form.

extension ObservableType where Element == Bool {
    /// ``delayedVisibility(showAfter:minimumVisible:hideAfter:scheduler:)``
    /// on `clock`'s time (see ``Tick/Clock/asScheduler``): the same rule, the
    /// same deadlines, for a type whose only time source is a clock.
    public func delayedVisibility(
        showAfter: Duration, minimumVisible: Duration = .zero, hideAfter: Duration = .zero,
        clock: some Clock<Duration>
    ) -> Observable<Bool> {
        delayedVisibility(
            showAfter: showAfter, minimumVisible: minimumVisible, hideAfter: hideAfter, scheduler: clock.asScheduler)
    }
}

extension ObservableType where Element == ActivityIndicator.State {
    /// The ``ActivityIndicator`` form of the delayed-visibility rule on
    /// `clock`'s time (see ``Tick/Clock/asScheduler``).
    public func delayedVisibility(
        showAfter: Duration, minimumVisible: Duration = .zero, hideAfter: Duration = .zero,
        clock: some Clock<Duration>
    ) -> Observable<ActivityIndicator.State> {
        delayedVisibility(
            showAfter: showAfter, minimumVisible: minimumVisible, hideAfter: hideAfter, scheduler: clock.asScheduler)
    }
}

extension ErrorTracker {
    /// A tracker whose reset timers run on `clock`'s time (see
    /// ``Tick/Clock/asScheduler``).
    public convenience init(clock: some Clock<Duration>) {
        self.init(scheduler: clock.asScheduler)
    }

    /// A tracker on `clock`'s time that also resets on every element of
    /// `resetSignal` (see ``init(resetSignal:scheduler:)``).
    public convenience init<Signal: ObservableType>(resetSignal: Signal, clock: some Clock<Duration>) {
        self.init(resetSignal: resetSignal, scheduler: clock.asScheduler)
    }
}

extension NetworkActivityIndicatorManager {
    /// A manager whose timers run on `clock`'s time (see
    /// ``Tick/Clock/asScheduler``); the delays as in
    /// ``init(scheduler:startDelay:completionDelay:)``.
    public convenience init(
        clock: some Clock<Duration>, startDelay: Duration = .seconds(1), completionDelay: Duration = .milliseconds(200)
    ) {
        self.init(scheduler: clock.asScheduler, startDelay: startDelay, completionDelay: completionDelay)
    }
}

extension ActivityIndicatorButton {
    /// A button whose changes are stamped with `clock`'s time (see
    /// ``Tick/Clock/asScheduler``).
    public convenience init(clock: some Clock<Duration>, state: ActivityIndicatorButtonState = ActivityIndicatorButtonState()) {
        self.init(scheduler: clock.asScheduler, state: state)
    }
}
