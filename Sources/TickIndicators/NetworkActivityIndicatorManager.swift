import Foundation
import Tick

/// Decides when the network activity indicator is visible, with a start delay
/// (short requests never show it) and a completion delay (back-to-back
/// requests do not make it flicker). A rebuild of Alamofire's
/// `NetworkActivityIndicatorManager` on an injectable ``Scheduler``.
///
/// Activity is counted two ways, which add up: anonymous
/// ``incrementActivityCount()``/``decrementActivityCount()``, and
/// ``requestDidStart(requestID:)``/``requestDidStop(requestID:)`` on a set of
/// ids. ``observeNotifications(from:names:)`` drives the second from
/// `NotificationCenter`, and ``ObservableType/trackActivity(in:)`` counts an
/// observable's subscriptions.
///
/// ## The state machine (the original's, exactly)
/// After every change of the activity count (while enabled):
/// - ``Phase/notActive`` → ``Phase/delayingStart`` when activity > 0: the start
///   timer is set to ``startDelay`` (read now).
/// - ``Phase/delayingStart``: nothing; changes of the count do not restart
///   the timer.
/// - ``Phase/active`` → ``Phase/delayingCompletion`` when activity == 0: the
///   completion timer is set to ``completionDelay``.
/// - ``Phase/delayingCompletion`` → ``Phase/active`` when activity > 0 (timer
///   cancelled, no new start delay, no flicker, no callback).
///
/// When the start timer fires: ``Phase/active`` (visible) if activity > 0,
/// else ``Phase/notActive``. When the completion timer fires:
/// ``Phase/notActive`` (hidden). So activity shorter than the start delay
/// never shows; activity that stops and restarts within the start delay shows
/// at the *first* start + start delay.
///
/// ## Time rules
/// - **A deadline comes before any input at the same instant.** A request
///   that stops at exactly start + ``startDelay`` was still running at the
///   deadline, so the indicator shows then (and hides ``completionDelay``
///   later). A request that starts at exactly the completion deadline is too
///   late: the indicator hides, and the new request starts a new start delay.
///   This holds whatever order the scheduler would run them in.
/// - Visibility changes only on the manager's scheduler: in a timer, or (when
///   an input at a deadline or ``isEnabled`` changed it) in an action
///   scheduled at once. ``networkActivityIndicatorVisibilityChanged`` and
///   ``visibility`` fire synchronously there, once per real change, in order,
///   never while a lock is held. (The original dispatched the callback
///   asynchronously and read the value at delivery time.)
///
/// ## `isEnabled` (Tick's rule; the original's timers ignored it)
/// While disabled, activity is still counted but the indicator is never
/// visible: disabling cancels both timers and hides it (on the scheduler).
/// Re-enabling with activity in flight behaves as if that activity started
/// at the moment of enabling (a fresh start delay).
///
/// Thread-safe: every method may be called from any thread.
public final class NetworkActivityIndicatorManager: @unchecked Sendable {
    /// The four states of the original's state machine.
    public enum Phase: Sendable, Equatable, CustomStringConvertible {
        /// Hidden, no timer.
        case notActive
        /// Hidden, waiting for the start timer.
        case delayingStart
        /// Visible.
        case active
        /// Visible, waiting for the completion timer.
        case delayingCompletion

        /// The case's name, as in the original (`delayingStart`, …).
        public var description: String {
            switch self {
            case .notActive: "notActive"
            case .delayingStart: "delayingStart"
            case .active: "active"
            case .delayingCompletion: "delayingCompletion"
            }
        }
    }

    /// The shared manager: runs on the main queue and observes Alamofire's
    /// task notifications on `NotificationCenter.default`.
    public static let shared: NetworkActivityIndicatorManager = {
        let manager = NetworkActivityIndicatorManager(scheduler: MainScheduler.instance)
        manager.sharedObservation = manager.observeNotifications()
        return manager
    }()

    /// The scheduler the timers and the visibility callbacks run on.
    public let scheduler: any Scheduler

    private let lock = Lock()
    // Guarded by `lock`:
    private var enabled = true
    private var startDelayValue: Duration
    private var completionDelayValue: Duration
    private var manualCount = 0
    private var requests: Set<AnyHashable> = []
    private var currentPhase: Phase = .notActive
    private var due: SchedulerInstant?
    private var logicalVisible = false
    private var pendingChanges: [Bool] = []
    private var publishedVisible = false
    private var timer: (any Disposable)?
    private var timerGeneration: UInt64 = 0
    private var callback: ((Bool) -> Void)?
    private var sharedObservation: (any Disposable)?

    private let subject = BehaviorSubject(value: false)

    /// A manager whose timers run on `scheduler`.
    ///
    /// - Parameters:
    ///   - startDelay: how long activity must last before the indicator shows
    ///     (1 s by default).
    ///   - completionDelay: how long there must be no activity before the
    ///     indicator hides (0.2 s by default).
    public init(
        scheduler: any Scheduler,
        startDelay: Duration = .seconds(1),
        completionDelay: Duration = .milliseconds(200)
    ) {
        self.scheduler = scheduler
        startDelayValue = Self.checked(startDelay, "startDelay")
        completionDelayValue = Self.checked(completionDelay, "completionDelay")
    }

    deinit {
        timer?.dispose()
        sharedObservation?.dispose()
    }

    private static func checked(_ delay: Duration, _ name: String) -> Duration {
        if delay < .zero {
            Misuse.report("NetworkActivityIndicatorManager.\(name) cannot be negative (\(delay)); using zero.")
            return .zero
        }
        return delay
    }

    // MARK: Configuration

    /// Whether the manager may show the indicator (default `true`). See the
    /// type's documentation for the rule.
    public var isEnabled: Bool {
        get { lock.withLock { enabled } }
        set {
            mutate {
                guard enabled != newValue else { return }
                enabled = newValue
                if newValue { evaluateLocked() } else { enterLocked(.notActive) }
            }
        }
    }

    /// How long activity must last before the indicator shows. Read when a
    /// start delay begins; a negative value is reported and becomes zero.
    public var startDelay: Duration {
        get { lock.withLock { startDelayValue } }
        set {
            let value = Self.checked(newValue, "startDelay")
            lock.withLock { startDelayValue = value }
        }
    }

    /// How long there must be no activity before the indicator hides. Read
    /// when a completion delay begins; a negative value is reported and
    /// becomes zero.
    public var completionDelay: Duration {
        get { lock.withLock { completionDelayValue } }
        set {
            let value = Self.checked(newValue, "completionDelay")
            lock.withLock { completionDelayValue = value }
        }
    }

    /// Called on the manager's scheduler with the new visibility, once per
    /// real change.
    public var networkActivityIndicatorVisibilityChanged: ((Bool) -> Void)? {
        get { lock.withLock { callback } }
        set { lock.withLock { callback = newValue } }
    }

    // MARK: State

    /// Whether the indicator is visible now (as last published on the
    /// scheduler).
    public var isNetworkActivityIndicatorVisible: Bool { lock.withLock { publishedVisible } }

    /// The visibility: the current value at once, then every change (on the
    /// manager's scheduler).
    public var visibility: Observable<Bool> { subject.asObservable() }

    /// The amount of activity: the anonymous count plus the active request ids.
    public var activityCount: Int { lock.withLock { manualCount + requests.count } }

    /// The state machine's current state.
    public var phase: Phase { lock.withLock { currentPhase } }

    // MARK: Counting

    /// One more anonymous activity.
    public func incrementActivityCount() {
        mutate { manualCount += 1 }
    }

    /// One fewer anonymous activity. Never goes below zero: a decrement at
    /// zero does nothing (the original 2.x could leave the indicator up for
    /// ever after a stray decrement).
    public func decrementActivityCount() {
        mutate { manualCount = max(0, manualCount - 1) }
    }

    /// The request `requestID` started. Starting an id already active does
    /// nothing.
    public func requestDidStart(requestID: AnyHashable) {
        mutate { requests.insert(requestID) }
    }

    /// The request `requestID` stopped. Stopping an id that is not active
    /// does nothing.
    public func requestDidStop(requestID: AnyHashable) {
        mutate { requests.remove(requestID) }
    }

    // MARK: Machinery

    private var countLocked: Int { manualCount + requests.count }

    /// Applies an input: first the deadline already due (deadline before
    /// input), then `change`, then the state machine.
    private func mutate(_ change: () -> Void) {
        let (schedule, oldTimer, needsFlush): ((UInt64, Duration)?, (any Disposable)?, Bool) = lock.withLock {
            let generationBefore = timerGeneration
            catchUpLocked(now: scheduler.now)
            change()
            if enabled { evaluateLocked() }
            var schedule: (UInt64, Duration)?
            var oldTimer: (any Disposable)?
            if timerGeneration != generationBefore {
                oldTimer = timer
                timer = nil
                if let due { schedule = (timerGeneration, max(.zero, due - scheduler.now)) }
            }
            return (schedule, oldTimer, !pendingChanges.isEmpty)
        }
        oldTimer?.dispose()
        if let schedule { startTimer(generation: schedule.0, delay: schedule.1) }
        if needsFlush { scheduler.schedule { [self] in flush() } }
    }

    private func startTimer(generation: UInt64, delay: Duration) {
        // Scheduled outside the lock (a scheduler may run work inline).
        let scheduled = scheduler.schedule(after: delay) { [weak self] in
            self?.timerFired(generation: generation)
        }
        let keep: Bool = lock.withLock {
            guard generation == timerGeneration else { return false }
            timer = scheduled
            return true
        }
        if !keep { scheduled.dispose() }
    }

    private func timerFired(generation: UInt64) {
        lock.withLock {
            guard generation == timerGeneration else { return }
            timer = nil
            catchUpLocked(now: scheduler.now)
        }
        flush()
    }

    /// Fires the pending deadline if it is due.
    private func catchUpLocked(now: SchedulerInstant) {
        guard let due, due <= now else { return }
        switch currentPhase {
        case .delayingStart:
            enterLocked(countLocked > 0 ? .active : .notActive)
        case .delayingCompletion:
            enterLocked(.notActive)
        case .notActive, .active:
            break
        }
    }

    /// The original's transitions on a change of the activity count.
    private func evaluateLocked() {
        switch currentPhase {
        case .notActive: if countLocked > 0 { enterLocked(.delayingStart) }
        case .delayingStart: break
        case .active: if countLocked == 0 { enterLocked(.delayingCompletion) }
        case .delayingCompletion: if countLocked > 0 { enterLocked(.active) }
        }
    }

    private func enterLocked(_ phase: Phase) {
        currentPhase = phase
        timerGeneration &+= 1
        switch phase {
        case .notActive:
            due = nil
            setVisibleLocked(false)
        case .delayingStart:
            due = scheduler.now + startDelayValue
        case .active:
            due = nil
            setVisibleLocked(true)
        case .delayingCompletion:
            due = scheduler.now + completionDelayValue
        }
    }

    private func setVisibleLocked(_ visible: Bool) {
        guard visible != logicalVisible else { return }
        logicalVisible = visible
        pendingChanges.append(visible)
    }

    /// Publishes the visibility changes made so far, in order. Runs on the
    /// scheduler (scheduler actions run one at a time, so flushes never overlap).
    private func flush() {
        let (changes, callback): ([Bool], ((Bool) -> Void)?) = lock.withLock {
            defer { pendingChanges = [] }
            if let last = pendingChanges.last { publishedVisible = last }
            return (pendingChanges, self.callback)
        }
        for visible in changes {
            callback?(visible)
            subject.on(.next(visible))
        }
    }
}

// MARK: - Notifications

extension NetworkActivityIndicatorManager {
    /// The notifications that drive the manager, and where the request is.
    public struct NotificationNames: Sendable {
        /// A task was resumed: the request starts.
        public var didResume: Notification.Name
        /// A task was suspended: the request stops.
        public var didSuspend: Notification.Name
        /// A task completed: the request stops.
        public var didComplete: Notification.Name
        /// The `userInfo` key of the request (its identity is the request id).
        /// Without it, the notification's `object` is used.
        public var requestKey: String

        /// Names and key of your own choosing.
        public init(didResume: Notification.Name, didSuspend: Notification.Name, didComplete: Notification.Name, requestKey: String) {
            self.didResume = didResume
            self.didSuspend = didSuspend
            self.didComplete = didComplete
            self.requestKey = requestKey
        }

        /// Alamofire 5's task notifications: the raw values of its
        /// `Request.didResumeTaskNotification`, `didSuspendTaskNotification` and
        /// `didCompleteTaskNotification`, whose `userInfo` holds the `Request`
        /// under `org.alamofire.notification.key.request` (the request object's
        /// identity is the request id).
        public static let alamofire = NotificationNames(
            didResume: Notification.Name("org.alamofire.notification.name.request.didResumeTask"),
            didSuspend: Notification.Name("org.alamofire.notification.name.request.didSuspendTask"),
            didComplete: Notification.Name("org.alamofire.notification.name.request.didCompleteTask"),
            requestKey: "org.alamofire.notification.key.request")
    }

    /// Starts observing `names` on `center`: resume → ``requestDidStart(requestID:)``,
    /// suspend and complete → ``requestDidStop(requestID:)``.
    ///
    /// The request id is the value under ``NotificationNames/requestKey`` in
    /// the notification's `userInfo`, or else its `object`: a hashable value is
    /// used as is, an object by identity. A notification carrying neither is
    /// ignored (its stop could never be matched).
    ///
    /// - Returns: a disposable that stops observing.
    public func observeNotifications(
        from center: NotificationCenter = .default, names: NotificationNames = .alamofire
    ) -> any Disposable {
        let key = names.requestKey
        let start = center.addObserver(forName: names.didResume, object: nil, queue: nil) { [weak self] note in
            if let id = Self.requestID(of: note, key: key) { self?.requestDidStart(requestID: id) }
        }
        let stops = [names.didSuspend, names.didComplete].map { name in
            center.addObserver(forName: name, object: nil, queue: nil) { [weak self] note in
                if let id = Self.requestID(of: note, key: key) { self?.requestDidStop(requestID: id) }
            }
        }
        let tokens = UncheckedSendable([start] + stops)
        return Disposables.create {
            for token in tokens.value { center.removeObserver(token) }
        }
    }

    static func requestID(of notification: Notification, key: String) -> AnyHashable? {
        guard let candidate = notification.userInfo?[key] ?? notification.object else { return nil }
        if type(of: candidate) is AnyClass {
            if let hashable = candidate as? AnyHashable { return hashable }
            return AnyHashable(ObjectIdentifier(candidate as AnyObject))
        }
        return candidate as? AnyHashable
    }
}

// MARK: - Tracking async work

extension NetworkActivityIndicatorManager {
    /// Counts one call of `work` as a request, from the moment it starts to
    /// the moment it returns or throws, or the calling task is cancelled,
    /// whichever comes first (the start and completion delays apply as to
    /// any request).
    ///
    /// ```swift
    /// let data = try await manager.track { try await api.download() }
    /// ```
    ///
    /// Cancellation stops the request at that instant, even if `work` goes
    /// on running (this call still waits for it and returns its result). A
    /// call made from an already cancelled task is never counted. `work` runs
    /// in the caller's isolation; the result and error are `work`'s.
    public func track<T>(
        isolation: isolated (any Actor)? = #isolation, _ work: () async throws -> T
    ) async rethrows -> T {
        let call = TrackedCall(manager: self, id: TrackedSubscriptionCounter.shared.make())
        return try await withTaskCancellationHandler {
            call.start()
            defer { call.stop() }
            return try await work()
        } onCancel: {
            call.stop()
        }
    }
}

/// One tracked async call: starts its request at most once, and stops it at
/// most once, never before it started (a stop first means it never starts).
private final class TrackedCall: Sendable {
    private let manager: NetworkActivityIndicatorManager
    private let id: TrackedSubscriptionID
    /// (started, stopped); the manager is called under this lock, so a
    /// cancellation cannot slip between "started" and the start request.
    private let state = LockedValue((started: false, stopped: false))

    init(manager: NetworkActivityIndicatorManager, id: TrackedSubscriptionID) {
        self.manager = manager
        self.id = id
    }

    func start() {
        state.withLock { state in
            guard !state.stopped, !state.started else { return }
            state.started = true
            manager.requestDidStart(requestID: AnyHashable(id))
        }
    }

    func stop() {
        state.withLock { state in
            guard !state.stopped else { return }
            state.stopped = true
            if state.started { manager.requestDidStop(requestID: AnyHashable(id)) }
        }
    }
}

/// A value guarded by a ``Lock``.
final class LockedValue<Value>: @unchecked Sendable {
    // Safe to share: `value` is only accessed under `lock`.
    private let lock = Lock()
    private var value: Value

    init(_ value: Value) { self.value = value }

    func withLock<R>(_ body: (inout Value) -> R) -> R {
        lock.lock()
        defer { lock.unlock() }
        return body(&value)
    }
}

// MARK: - Tracking observables

/// The id of one tracked subscription: distinct from every user id.
private struct TrackedSubscriptionID: Hashable, Sendable {
    let value: UInt64
}

private final class TrackedSubscriptionCounter: @unchecked Sendable {
    static let shared = TrackedSubscriptionCounter()
    private let lock = Lock()
    private var next: UInt64 = 0
    func make() -> TrackedSubscriptionID {
        lock.withLock {
            next &+= 1
            return TrackedSubscriptionID(value: next)
        }
    }
}

extension ObservableType {
    /// Counts every subscription to this sequence as network activity of
    /// `manager`: the activity starts just before the source is subscribed
    /// and stops (once) when it completes, fails or is disposed.
    public func trackActivity(in manager: NetworkActivityIndicatorManager) -> Observable<Element> {
        let source = asObservable()
        return Observable.deferred {
            let id = AnyHashable(TrackedSubscriptionCounter.shared.make())
            return source.do(
                onSubscribe: { manager.requestDidStart(requestID: id) },
                onDispose: { manager.requestDidStop(requestID: id) })
        }
    }
}
