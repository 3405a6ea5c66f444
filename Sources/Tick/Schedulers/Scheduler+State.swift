// RxSwift's scheduling methods with a state and an action that returns a
// disposable (`ImmediateSchedulerType.schedule(_:action:)`,
// `SchedulerType.scheduleRelative(_:dueTime:action:)` and
// `schedulePeriodic(_:startAfter:period:action:)`), on every Tick scheduler,
// so that code and tests written against them port unchanged. Each is the
// closure-only method of `Scheduler` underneath.


extension Scheduler {
    /// Schedules `action` with `state` to run as soon as possible.
    ///
    /// Disposing the result cancels the action if it has not run, and
    /// disposes the disposable it returned if it has.
    @discardableResult
    public func schedule<State>(_ state: State, action: @escaping (State) -> any Disposable) -> any Disposable {
        let returned = SingleAssignmentDisposable()
        let scheduled = schedule { returned.setDisposable(action(state)) }
        return Disposables.create(scheduled, returned)
    }

    /// Schedules `action` with `state` to run after `dueTime`.
    ///
    /// Disposing the result cancels the action if it has not run, and
    /// disposes the disposable it returned if it has.
    @discardableResult
    public func scheduleRelative<State>(
        _ state: State, dueTime: Duration, action: @escaping (State) -> any Disposable
    ) -> any Disposable {
        let returned = SingleAssignmentDisposable()
        let scheduled = schedule(after: dueTime) { returned.setDisposable(action(state)) }
        return Disposables.create(scheduled, returned)
    }

    /// Schedules `action` to run after `startAfter` and then every `period`,
    /// each run receiving the state the previous one returned (`state` for
    /// the first).
    @discardableResult
    public func schedulePeriodic<State>(
        _ state: State, startAfter: Duration, period: Duration, action: @escaping (State) -> State
    ) -> any Disposable {
        // The scheduler runs a periodic action's runs one at a time, so the
        // state is only read and written by one run at a time.
        let current = StateBox(state)
        return schedulePeriodic(after: startAfter, period: period) {
            current.value = action(current.value)
        }
    }
}

/// The state of a periodic action: runs never overlap (the Rx contract for
/// a scheduler's actions), so one run at a time reads and writes it.
private final class StateBox<State> {
    var value: State
    init(_ value: State) { self.value = value }
}
