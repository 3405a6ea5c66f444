import Tick

// The delayed-visibility rule: a spinner that shows only for work that lasts,
// and never flashes. One state machine serves both public forms (a sequence
// of `Bool` "is working" values, and a sequence of `ActivityIndicator.State`).

extension ObservableType where Element == Bool {
    /// Turns a sequence of "is working" values into the visibility of a
    /// spinner that shows only for work that lasts and never flashes.
    ///
    /// - `showAfter`: visible only once the work has been going on
    ///   **continuously** for this long. Work that stops before, even
    ///   briefly, never shows, and work that starts again waits the whole
    ///   delay again.
    /// - `minimumVisible`: once visible, it stays visible at least this long
    ///   after it appeared, even if the work ends sooner.
    /// - `hideAfter`: once visible, it hides only after the work has been
    ///   stopped for this long, so back-to-back loads do not make it blink.
    ///   Work that starts again in time keeps it up without a change.
    ///
    /// So it hides at `max(shown + minimumVisible, stopped + hideAfter)`,
    /// unless work starts again strictly before that.
    ///
    /// ## Time rules
    /// - **A deadline comes before any input at the same instant**, whatever
    ///   order the scheduler would run them in (the rule of every Tick
    ///   component). Work that stops at exactly start + `showAfter` was still
    ///   running at the deadline: it shows then, and stays for
    ///   `minimumVisible` (with no minimum and no `hideAfter` it shows and
    ///   hides at that same instant). Work that starts at exactly the hide
    ///   deadline is too late to keep it up: it hides, and the new work waits
    ///   a full `showAfter` again.
    /// - Deadlines are logical: the minimum is counted from the deadline the
    ///   spinner showed at, not from when a late timer ran.
    /// - A zero `showAfter` shows at once, in the input's call. Negative
    ///   durations are misuse: reported and treated as zero.
    ///
    /// ## Events
    /// Emits `false` at once on subscription, then only changes: at a
    /// deadline on `scheduler`, or in the call of the input that caused it.
    /// Repeated equal inputs change nothing. When the source completes the
    /// work is over: the result completes once hidden (at once if it is
    /// hidden, otherwise at the hide deadline, after emitting `false`). An
    /// error is forwarded at once. Disposal cancels the timers and the
    /// source. Events reach the observer one at a time, in order, never
    /// while a lock is held.
    public func delayedVisibility(
        showAfter: Duration, minimumVisible: Duration = .zero, hideAfter: Duration = .zero,
        scheduler: any Scheduler
    ) -> Observable<Bool> {
        map { ActivityIndicator.State(loading: $0, message: nil) }
            .delayedVisibility(
                showAfter: showAfter, minimumVisible: minimumVisible, hideAfter: hideAfter, scheduler: scheduler)
            .map(\.loading)
    }
}

extension ObservableType where Element == ActivityIndicator.State {
    /// The delayed-visibility rule applied to an ``ActivityIndicator`` (or to
    /// any sequence of its states): `loading` of the result is the spinner's
    /// visibility, and `message` the message to show with it.
    ///
    /// `loading` follows exactly the rule of
    /// ``ObservableType/delayedVisibility(showAfter:minimumVisible:hideAfter:scheduler:)``
    /// for `Bool` sequences, with the source's `loading` as "is working"
    /// (including its time rules: a deadline comes before any input at the
    /// same instant).
    ///
    /// The message is the one of the activity that is visible: when the
    /// spinner shows, the source's current message; while work goes on, each
    /// change of it; once the work has stopped (while the minimum or
    /// `hideAfter` keeps the spinner up), the last message it had, until new
    /// work brings its own. Hidden states carry no message. Only changes are
    /// emitted; `(loading: false, message: nil)` at once on subscription.
    ///
    /// An indicator gives its current state on subscription: work already
    /// running then counts as starting at the subscription.
    public func delayedVisibility(
        showAfter: Duration, minimumVisible: Duration = .zero, hideAfter: Duration = .zero,
        scheduler: any Scheduler
    ) -> Observable<ActivityIndicator.State> {
        let source = asObservable()
        let rule = VisibilityRule(
            showAfter: checked(showAfter, "showAfter"), minimumVisible: checked(minimumVisible, "minimumVisible"),
            hideAfter: checked(hideAfter, "hideAfter"))
        return Observable.create { observer in
            let machine = DelayedVisibilityMachine(rule: rule, scheduler: scheduler, observer: AnyObserver(observer))
            machine.start(source)
            return Disposables.create { machine.dispose() }
        }
    }
}

private func checked(_ duration: Duration, _ name: String) -> Duration {
    if duration < .zero {
        Misuse.report("delayedVisibility: \(name) cannot be negative (\(duration)); using zero.")
        return .zero
    }
    return duration
}

struct VisibilityRule: Sendable {
    let showAfter: Duration
    let minimumVisible: Duration
    let hideAfter: Duration
}

/// One subscription's state machine. Every input first applies the deadline
/// already due (deadline before input), then itself; timers apply their
/// deadline when they run (if an input has not already done so).
private final class DelayedVisibilityMachine: @unchecked Sendable {
    // Safe to share: every mutable field is guarded by `lock`, and events are
    // delivered by one thread at a time (`delivering`).

    private enum Phase {
        case hidden
        case waitingToShow(due: SchedulerInstant)
        /// `hideDue` is set while the work is stopped.
        case visible(shownAt: SchedulerInstant, hideDue: SchedulerInstant?)
    }

    private let rule: VisibilityRule
    private let scheduler: any Scheduler
    private let observer: AnyObserver<ActivityIndicator.State>
    private let lock = Lock()
    // Guarded by `lock`:
    private var phase = Phase.hidden
    private var working = false
    private var message: String?
    private var completing = false
    private var done = false
    private var emitted = ActivityIndicator.State(loading: false, message: nil)
    private var timer: (any Disposable)?
    private var generation: UInt64 = 0
    private var queue: [Event<ActivityIndicator.State>] = []
    private var delivering = false
    private let upstream = SingleAssignmentDisposable()

    init(rule: VisibilityRule, scheduler: any Scheduler, observer: AnyObserver<ActivityIndicator.State>) {
        self.rule = rule
        self.scheduler = scheduler
        self.observer = observer
    }

    func start(_ source: Observable<ActivityIndicator.State>) {
        lock.withLock { queue.append(.next(emitted)) }
        deliver()
        upstream.setDisposable(source.subscribe { [self] event in on(event) })
    }

    func dispose() {
        let oldTimer: (any Disposable)? = lock.withLock {
            done = true
            queue = []
            generation &+= 1
            defer { timer = nil }
            return timer
        }
        oldTimer?.dispose()
        upstream.dispose()
    }

    private func on(_ event: Event<ActivityIndicator.State>) {
        switch event {
        case .next(let state):
            step { now in
                catchUpLocked(now)
                inputLocked(working: state.loading, message: state.message, now: now)
            }
        case .completed:
            step { now in
                catchUpLocked(now)
                completing = true
                inputLocked(working: false, message: nil, now: now)
                finishIfHiddenLocked()
            }
        case .error(let error):
            step { _ in
                done = true
                generation &+= 1
                queue.append(.error(error))
            }
        }
    }

    private func timerFired(_ firedGeneration: UInt64) {
        step { now in
            guard firedGeneration == generation else { return }
            catchUpLocked(now)
        }
    }

    /// Runs `body` under the lock; then replaces the timer if the pending
    /// deadline changed, and delivers the events queued.
    private func step(_ body: (SchedulerInstant) -> Void) {
        let (oldTimer, schedule): ((any Disposable)?, (UInt64, Duration)?) = lock.withLock {
            guard !done else { return (nil, nil) }
            let before = generation
            let now = scheduler.now
            body(now)
            guard generation != before else { return (nil, nil) }
            defer { timer = nil }
            guard !done, let due = dueLocked else { return (timer, nil) }
            return (timer, (generation, max(.zero, due - now)))
        }
        oldTimer?.dispose()
        if let (scheduledGeneration, delay) = schedule {
            // Scheduled outside the lock (a scheduler may run work inline).
            let scheduled = scheduler.schedule(after: delay) { [weak self] in self?.timerFired(scheduledGeneration) }
            let keep: Bool = lock.withLock {
                guard scheduledGeneration == generation, !done else { return false }
                timer = scheduled
                return true
            }
            if !keep { scheduled.dispose() }
        }
        deliver()
    }

    /// The pending deadline, if any.
    private var dueLocked: SchedulerInstant? {
        switch phase {
        case .hidden: nil
        case .waitingToShow(let due): due
        case .visible(_, let hideDue): hideDue
        }
    }

    /// Enters `newPhase`; a new deadline (or none) invalidates the timer.
    private func enterLocked(_ newPhase: Phase) {
        phase = newPhase
        generation &+= 1
        switch newPhase {
        case .hidden:
            publishLocked(ActivityIndicator.State(loading: false, message: nil))
            finishIfHiddenLocked()
        case .waitingToShow:
            break
        case .visible:
            publishLocked(ActivityIndicator.State(loading: true, message: message))
        }
    }

    /// Applies the deadline that is due at `now`, if any (there is at most
    /// one, and applying it sets no new one that could already be due).
    private func catchUpLocked(_ now: SchedulerInstant) {
        switch phase {
        case .waitingToShow(let due) where due <= now:
            enterLocked(.visible(shownAt: due, hideDue: nil))
        case .visible(_, let hideDue?) where hideDue <= now:
            enterLocked(.hidden)
        default:
            break
        }
    }

    private func inputLocked(working newWorking: Bool, message newMessage: String?, now: SchedulerInstant) {
        let wasWorking = working
        working = newWorking
        if newWorking { message = newMessage }
        switch phase {
        case .hidden:
            guard newWorking else { return }
            if rule.showAfter == .zero {
                enterLocked(.visible(shownAt: now, hideDue: nil))
            } else {
                enterLocked(.waitingToShow(due: now + rule.showAfter))
            }
        case .waitingToShow:
            if !newWorking { enterLocked(.hidden) }
        case .visible(let shownAt, let hideDue):
            if newWorking {
                if hideDue != nil { enterLocked(.visible(shownAt: shownAt, hideDue: nil)) }
                publishLocked(ActivityIndicator.State(loading: true, message: message))
            } else if wasWorking || hideDue == nil {
                let due = max(shownAt + rule.minimumVisible, now + rule.hideAfter)
                enterLocked(due <= now ? .hidden : .visible(shownAt: shownAt, hideDue: due))
            }
        }
    }

    private func finishIfHiddenLocked() {
        guard completing, case .hidden = phase, !done else { return }
        done = true
        queue.append(.completed)
    }

    private func publishLocked(_ state: ActivityIndicator.State) {
        guard state != emitted else { return }
        emitted = state
        queue.append(.next(state))
    }

    /// Delivers the queued events, one thread at a time, outside the lock.
    private func deliver() {
        lock.lock()
        guard !delivering else {
            lock.unlock()
            return
        }
        delivering = true
        while !queue.isEmpty {
            let event = queue.removeFirst()
            lock.unlock()
            observer.on(event)
            lock.lock()
        }
        delivering = false
        lock.unlock()
    }
}
