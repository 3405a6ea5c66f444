import Synchronization
@_spi(TickInternals) import Tick

/// A scheduler whose clock moves only when the test says so: virtual time,
/// exact to the attosecond, instant to run, deterministic.
///
/// ```swift
/// let scheduler = TestScheduler()
/// let observer = scheduler.start {
///     Observable.just("a").delay(.seconds(1), scheduler: scheduler)
/// }
/// // observer.events == [.next(1200, "a"), .completed(1200)]
/// ```
///
/// ## Time rules
/// - Pending work lives in a heap (4-ary) ordered by (due time, order of
///   scheduling). Work due at the same instant runs in the order it was
///   scheduled, always.
/// - ``now`` never goes backwards. Work scheduled for the past (a negative
///   delay, which is also reported as misuse, or `schedule(at:)` an earlier
///   time) runs at ``now``, after the work already due then.
/// - While an action runs, ``now`` is that action's due time.
/// - `advance(to: t)` runs everything due at or before `t` — including work
///   scheduled *during* the advance that falls inside the window — in (time,
///   order) order, then leaves ``now`` at exactly `t`.
/// - ``run()`` runs until nothing is pending and leaves ``now`` at the time of
///   the last action.
/// - No hidden processing delay: work scheduled "now" runs at ``now``. With
///   `simulateProcessingDelay: true`, work due at or before ``now`` runs one
///   frame later instead, as RxTest's scheduler does.
/// - Each `advance`/`run` call runs at most ``stepBudget`` actions. Past that
///   it stops and reports a failure naming the budget (an endless timer would
///   otherwise hang the test).
/// - Misuse is reported as a test failure at the caller's line, and ignored:
///   advancing to the past, advancing from inside one of the scheduler's own
///   actions, advancing from a second thread while another thread advances,
///   a negative delay (treated as zero).
///
/// ## The range of time
/// Every ``TestTime`` (any `Int` number of frames) is an exact instant: that
/// is why a frame is at most ``maximumFrame`` (about 18.4 s). The clock never
/// passes ``endOfTime`` (`TestTime(Int.max)`: 292 million years of 1 ms
/// frames, 292 years of 1 ns frames), so reading it never fails:
/// - work due after ``endOfTime`` is "never": it stays pending (it counts in
///   ``pendingCount`` and can be disposed) and never runs, neither by
///   ``run()`` nor by any `advance`. A delay so long that `now + delay`
///   passes `Duration`'s range saturates (see `SchedulerInstant.+`) and is
///   never too.
/// - `advance` to a time after ``endOfTime`` runs everything up to
///   ``endOfTime`` and stops the clock there.
/// - ``testTime(for:)`` of an instant outside the range of `TestTime` (one
///   the clock can never reach) reads as `TestTime(Int.max)` or
///   `TestTime(Int.min)`.
public final class TestScheduler: Scheduler, @unchecked Sendable {
    /// The duration of one frame: what an integer ``TestTime`` counts.
    public let frame: Duration
    /// Whether work due at or before ``now`` runs one frame later (RxTest's behaviour).
    public let simulateProcessingDelay: Bool

    /// Everything mutable, guarded by `lock` and changed through `State`'s
    /// methods (one exclusive access per operation). Stored in the
    /// scheduler (not behind a pointer of its own: one allocation less per
    /// scheduler), with the runtime's exclusivity checks off, since the lock
    /// already makes every access exclusive.
    ///
    /// Declared first, with ``asyncDriverSlot`` right after it: stored
    /// properties are destroyed in the order they are declared, after the
    /// deinit, so the pending actions the state still holds are released
    /// first and the async driver next, before anything else the scheduler
    /// holds, as when the deinit destroyed the state and released the
    /// driver itself.
    @exclusivity(unchecked) var state: State
    /// The async driver once made (see ``asyncDriver``), released when the
    /// scheduler's stored properties are destroyed, right after ``state``.
    private let asyncDriverSlot = AsyncDriverSlot()
    let lock = Lock()
    /// The clock as the state publishes it, for ``now`` (no lock).
    let publishedClock = PublishedClock()
    let counter = ResourceCounter()
    /// What refers to the scheduler without keeping it alive (the
    /// disposables of scheduled work, the async driver, ...): a link, not a
    /// `weak` reference, so that the scheduler's reference count stays
    /// inline (see `SchedulerLink`).
    @usableFromInline let handle = SchedulerLink()
    /// Marble expectations waiting for ``run()``/``flush()`` (see
    /// `MarbleTesting.swift`). Its lock is this scheduler's `lock` (see
    /// `MarbleExpectationStore.lock`).
    @usableFromInline let marbleExpectations: MarbleExpectationStore
    /// Runs the async work this scheduler drives (see `Async/AsyncDriver.swift`).
    ///
    /// Made with the scheduler when that happens inside a task (the task
    /// becomes the driver's root); otherwise at its first use, as if it had
    /// been made with the scheduler outside a task (no root): a synchronous
    /// test outside a task (XCTest, a command-line tool) that never awaits
    /// the scheduler pays for no driver.
    var asyncDriver: AsyncDriver {
        if let driver = loadAsyncDriver() { return driver }
        return storeAsyncDriver(registeringCurrentTask: false)
    }
    /// The driver once made: the address of an instance the scheduler
    /// holds a strong reference to, 0 before; the reference is released
    /// when the slot is destroyed (with the scheduler's stored properties,
    /// right after its state). Not `AtomicLazyReference`, whose
    /// unspecialized `load()` looked up generic metadata at every read
    /// (about 700 instructions an `async_sleep`).
    private struct AsyncDriverSlot: ~Copyable {
        let address = Atomic<UInt>(0)

        deinit {
            let address = address.load(ordering: .acquiring)
            guard let raw = UnsafeRawPointer(bitPattern: address) else { return }
            Unmanaged<AsyncDriver>.fromOpaque(raw).release()
        }
    }

    @inline(__always)
    private func loadAsyncDriver() -> AsyncDriver? {
        let address = asyncDriverSlot.address.load(ordering: .acquiring)
        guard let raw = UnsafeRawPointer(bitPattern: address) else { return nil }
        return Unmanaged<AsyncDriver>.fromOpaque(raw).takeUnretainedValue()
    }

    /// Makes the driver and stores it, unless another thread stored one
    /// first (then that one is the driver).
    private func storeAsyncDriver(registeringCurrentTask: Bool) -> AsyncDriver {
        let driver = AsyncDriver()
        driver.attach(to: self, at: pendingWork.site, registeringCurrentTask: registeringCurrentTask)
        let retained = Unmanaged.passRetained(driver)
        let (stored, _) = asyncDriverSlot.address.compareExchange(
            expected: 0, desired: UInt(bitPattern: retained.toOpaque()), ordering: .acquiringAndReleasing)
        if stored { return driver }
        retained.release()
        return loadAsyncDriver() ?? driver
    }
    /// Where it was made and how it was driven, for the hint about work left
    /// pending (see `TestScheduler+PendingWork.swift`).
    let pendingWork: PendingWorkLog

    /// The default ``stepBudget``.
    public static let defaultStepBudget = 100_000

    /// The longest frame a TestScheduler accepts: 2⁶⁴ − 1 attoseconds (about
    /// 18.4 s). With it, every ``TestTime`` of `Int` frames plus a remainder
    /// is an exact `Duration`.
    public static let maximumFrame = Duration(totalAttoseconds: Int128(UInt64.max))

    /// The last time of every TestScheduler's clock, `TestTime(Int.max)`:
    /// work due later never runs and `advance` stops the clock here.
    public static let endOfTime = TestTime(Int.max)

    /// A scheduler whose clock reads `initialClock`.
    ///
    /// - Parameters:
    ///   - initialClock: the starting time, in frames.
    ///   - frame: the duration of one frame (1 ms by default); must be positive
    ///     and at most ``maximumFrame`` (otherwise reported, and 1 ms is used).
    ///   - simulateProcessingDelay: run work due "now" one frame later, as RxTest does.
    ///   - stepBudget: the most actions one `advance`/`run` call may run.
    public init(
        initialClock: TestTime = 0,
        frame: Duration = .milliseconds(1),
        simulateProcessingDelay: Bool = false,
        stepBudget: Int = TestScheduler.defaultStepBudget,
        fileID: String = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
    ) {
        TestFailureReporter.reportMisuseAsTestFailures()
        var frame = frame
        if frame <= .zero || frame > TestScheduler.maximumFrame {
            TestFailureReporter.fail(
                "TestScheduler frame must be positive and at most TestScheduler.maximumFrame (2^64 - 1 attoseconds, about 18.4s, so that every TestTime is an exact instant), got \(frame.exactDescription); using 1 ms.",
                at: CallSite(fileID: fileID, filePath: filePath, line: line, column: column))
            frame = .milliseconds(1)
        }
        self.frame = frame
        self.frameAttoseconds = frame.totalAttoseconds
        self.frameAttoseconds64 = Int64(exactly: frame.totalAttoseconds) ?? 0
        self.horizon = frame.totalAttoseconds * Int128(Int.max)
        self.simulateProcessingDelay = simulateProcessingDelay
        self.pendingWork = PendingWorkLog(site: CallSite(fileID: fileID, filePath: filePath, line: line, column: column))
        self.marbleExpectations = MarbleExpectationStore(lock: lock)
        self.state = State(current: .zero, budget: max(1, stepBudget), published: publishedClock)
        self.state.current = instant(for: initialClock).offset
        self.handle.attach(self)
        if JobRouting.currentTaskAddress != nil { _ = storeAsyncDriver(registeringCurrentTask: true) }
        // Under the leak trait, its report names what is still pending here.
        if let scope = Resources.current { ScopedSchedulers.shared.add(self, in: scope) }
    }

    deinit {
        // First: nothing reaches this scheduler through its link any more.
        handle.detach()
        // Work the test scheduled and never drove: a hint (never a failure).
        hintAboutUndrivenWork()
        // Async work is no longer routed to this scheduler's driver (which
        // ends the `values` iterations its tasks still await on it).
        let driver = loadAsyncDriver()
        driver?.schedulerGone(pending: state.pending)
        // Work still pending goes with the scheduler: no longer a live
        // resource. (Read without the lock, as above: nothing else can
        // reach the scheduler any more.)
        counter.decrement(by: state.pending)
        // Then, as the stored properties are destroyed: the state (the
        // pending actions with it), the driver (`asyncDriverSlot`), then the
        // rest (see `state`).
    }

    // MARK: Clock

    public var now: SchedulerInstant { SchedulerInstant(offset: publishedClock.read()) }

    /// ``now`` in frames.
    public var clock: TestTime { testTime(for: now) }

    /// The most actions a single `advance`/`run` call may run.
    public var stepBudget: Int {
        get { lock.withLock { state.budget } }
        set { lock.withLock { state.budget = max(1, newValue) } }
    }

    /// The number of scheduled actions not yet run or cancelled.
    public var pendingCount: Int { lock.withLock { state.pending } }

    /// The frame's length in attoseconds (exact arithmetic without `Duration`'s
    /// slower generic multiplication).
    let frameAttoseconds: Int128
    /// The frame in attoseconds if it fits in 64 bits (all frames up to
    /// about 9.2 s), 0 otherwise: the fast path of `testTime(for:)`.
    let frameAttoseconds64: Int64
    /// ``endOfTime`` in attoseconds: the clock never passes it.
    let horizon: Int128

    /// The instant of a frame time (exact for every `TestTime`).
    public func instant(for time: TestTime) -> SchedulerInstant {
        // No overflow: the frame is at most `maximumFrame` (2⁶⁴ − 1 as), so
        // `Int` frames times the frame, plus a remainder below one frame,
        // stays inside Int128.
        let attos = frameAttoseconds &* Int128(truncatingIfNeeded: time.frames)
        // (The remainder compared as attoseconds: `Duration`'s `==` and
        // `.zero` are calls into the standard library, about 30 instructions
        // a scheduled action in `scheduleAt`.)
        guard time.remainder.totalAttoseconds != 0 else { return SchedulerInstant(offset: Duration(totalAttoseconds: attos)) }
        // A remainder longer than the frame (which `TestTime` asks callers
        // not to write) saturates rather than wraps.
        return SchedulerInstant(offset: Duration(totalAttoseconds: attos)) + time.remainder
    }

    /// The frame time of an instant (exact: whole frames plus the rest).
    ///
    /// An instant outside the range of `TestTime` (more frames than `Int`
    /// holds, which the clock never reaches) reads as `TestTime(Int.max)` or
    /// `TestTime(Int.min)`.
    public func testTime(for instant: SchedulerInstant) -> TestTime {
        Self.testTime(
            attoseconds: instant.offset.totalAttoseconds, frameAttoseconds: frameAttoseconds,
            frameAttoseconds64: frameAttoseconds64)
    }

    /// ``testTime(for:)`` of the instant `attos` attoseconds after the
    /// origin, for a frame of `frameAttos` attoseconds (`frameAttoseconds64`:
    /// the same if it fits in 64 bits, 0 otherwise). Static, for a marble
    /// recorder, which reads the published clock without the scheduler.
    @inline(__always)
    static func testTime(attoseconds attos: Int128, frameAttoseconds frameAttos: Int128, frameAttoseconds64: Int64)
        -> TestTime
    {
        // Fast path: both fit in 64 bits (about ±9.2 s of attoseconds), so the
        // division needs no 128-bit arithmetic.
        if frameAttoseconds64 > 0, let small = Int64(exactly: attos) {
            let frame64 = frameAttoseconds64
            var (frames, rest) = small.quotientAndRemainder(dividingBy: frame64)
            if rest < 0 {
                frames -= 1
                rest += frame64
            }
            return TestTime(frames: Int(frames), remainder: rest == 0 ? .zero : Duration(totalAttoseconds: Int128(rest)))
        }
        var frames = attos / frameAttos
        var rest = attos % frameAttos
        if rest < 0 {
            frames -= 1
            rest += frameAttos
        }
        guard let whole = Int(exactly: frames) else { return TestTime(frames > 0 ? Int.max : Int.min) }
        return TestTime(frames: whole, remainder: Duration(totalAttoseconds: rest))
    }

    /// The duration of `frames` frames.
    public func duration(_ frames: Int) -> Duration { frame * frames }

    // MARK: Scheduling

    @discardableResult
    public func schedule(_ action: @escaping () -> Void) -> any Disposable {
        enqueue(due: nil, action)
    }

    @discardableResult
    public func schedule(after delay: Duration, _ action: __owned @escaping () -> Void) -> any Disposable {
        enqueue(checkedAfter: delay, consume action)
    }

    /// `schedule(after:)`'s work, returning the entry itself (for the link's
    /// forwarding, `SchedulerLink.schedule(after:_:)`): a negative delay is
    /// reported and runs as zero. `action` moves into the queue's entry
    /// (consumed all the way down: no retain for the queue's copy).
    @inline(__always)
    func enqueue(checkedAfter delay: Duration, _ action: __owned @escaping () -> Void) -> ScheduledEntry {
        // The check inline, the report (which builds its message) out of line.
        let delay = delay.totalAttoseconds < 0 ? checkDelay(delay, "schedule(after:)") : delay
        return enqueue(after: delay, consume action)
    }

    /// Schedules `action` at the instant `time`: exactly what
    /// `schedule(after: (time - now).clampedToZero)` does (a time not in the
    /// future runs as work due now, a frame later with
    /// `simulateProcessingDelay`), without reading the clock outside the
    /// scheduler's lock.
    @discardableResult
    public func schedule(at time: SchedulerInstant, _ action: @escaping () -> Void) -> any Disposable {
        enqueue(due: time, action)
    }

    /// Schedules `action` at frame time `time` (at ``now`` if that is in the past).
    ///
    /// The time is absolute, as RxTest's `scheduleAt`: `simulateProcessingDelay`
    /// does not move it (it moves only work scheduled relative to now, as
    /// RxTest's `adjustScheduledTime` does), so `start(created: 0, subscribed: 0,
    /// disposed: 1000)` subscribes at 0, and a hot event due at the current
    /// time runs at it.
    @discardableResult
    public func scheduleAt(_ time: TestTime, action: @escaping () -> Void) -> any Disposable {
        let due = instant(for: time)
        return enqueue(due: due, processingDelay: false, action)
    }

    /// Runs `action` after `delay`, then every `period`.
    ///
    /// A zero period is accepted, as RxTest accepts it: each repetition is
    /// due at the instant of the previous one, so with
    /// `simulateProcessingDelay` it runs one frame later
    /// (`interval(.zero)` from 200: 201, 202, …); without it every repetition
    /// falls on the same instant and the ``stepBudget`` stops the run with a
    /// failure. A negative period is reported and nothing is scheduled.
    @discardableResult
    public func schedulePeriodic(
        after delay: Duration, period: Duration, _ action: @escaping () -> Void
    ) -> any Disposable {
        let delay = checkDelay(delay, "schedulePeriodic(after:period:)")
        guard period >= .zero else {
            TestFailureReporter.fail(
                "schedulePeriodic was given a period of \(period.exactDescription); a period must not be negative. Nothing was scheduled.",
                at: CallSite())
            return Disposables.create()
        }
        let task = PeriodicTask(scheduler: self, period: period, action: action)
        task.start(at: now + delay)
        return task
    }

    private func checkDelay(_ delay: Duration, _ what: String) -> Duration {
        guard delay.totalAttoseconds < 0 else { return delay }
        TestFailureReporter.fail(
            "\(what) was given a negative delay (\(delay.exactDescription)); it runs as if the delay were zero.",
            at: CallSite())
        return .zero
    }

    /// Schedules at an absolute instant (now if nil), clamped to now (plus a
    /// frame when simulating processing delay, unless `processingDelay` is
    /// false: ``scheduleAt(_:action:)``).
    func enqueue(due: SchedulerInstant?, processingDelay: Bool = true, _ action: @escaping () -> Void) -> ScheduledEntry {
        lock.lock()
        let key = state.enqueue(
            due: due?.offset ?? state.current, frame: frame,
            simulateProcessingDelay: simulateProcessingDelay && processingDelay, action)
        let outsideADrive = state.isAdvancing ? nil : state.current
        lock.unlock()
        if let now = outsideADrive { pendingWork.scheduledOutsideADrive(due: max(now, due?.offset ?? now)) }
        counter.increment()
        return ScheduledEntry(link: handle, sequence: key)
    }

    /// `delay` is not negative (`enqueue(checkedAfter:)` made it zero), so
    /// the due time `now + delay` is at or after `now`, and only a zero
    /// delay needs `State.enqueue`'s clamp (a frame later with
    /// `simulateProcessingDelay`). The sum saturates at the top only, as
    /// `SchedulerInstant.+` does for a positive delay (a delay past
    /// `Duration`'s range is "never"), computed here inline: its
    /// out-of-line specialization cost about 10 instructions an action.
    private func enqueue(after delay: Duration, _ action: __owned @escaping () -> Void) -> ScheduledEntry {
        let delay = delay.totalAttoseconds
        lock.lock()
        let now = state.current.totalAttoseconds
        let (sum, overflow) = now.addingReportingOverflow(delay)
        let due = overflow ? Int128.max : sum
        let key: UInt64
        if delay != 0 {
            key = state.push(due: due, consume action)
        } else {
            key = state.enqueue(
                due: Duration(totalAttoseconds: due), frame: frame, simulateProcessingDelay: simulateProcessingDelay,
                consume action)
        }
        let outsideADrive = !state.isAdvancing
        lock.unlock()
        // The unclamped due time, as `enqueue(due:)` notes it.
        if outsideADrive { pendingWork.scheduledOutsideADrive(due: Duration(totalAttoseconds: due)) }
        counter.increment()
        return ScheduledEntry(link: handle, sequence: key)
    }

    func cancel(_ sequence: UInt64) {
        var released: WorkQueue.Released?
        lock.lock()
        let cancelled = state.cancel(sequence)
        if cancelled { released = state.takeAllIfAllCancelled() }
        lock.unlock()
        if cancelled { counter.decrement() }
        // The cancelled actions are released here, outside the lock: releasing
        // one can run deinitializers that call back into this scheduler.
        withExtendedLifetime(released) {}
    }

}
