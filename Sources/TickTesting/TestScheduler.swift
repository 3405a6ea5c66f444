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
///   actions, a negative delay (treated as zero).
public final class TestScheduler: Scheduler, @unchecked Sendable {
    /// The duration of one frame: what an integer ``TestTime`` counts.
    public let frame: Duration
    /// Whether work due at or before ``now`` runs one frame later (RxTest's behaviour).
    public let simulateProcessingDelay: Bool

    private let lock = Lock()
    /// Everything mutable, guarded by `lock` and changed through `State`'s
    /// methods (one exclusive access per operation).
    private let storage: UnsafeMutablePointer<State>
    /// The state behind `lock`. It lives behind a pointer allocated once, so
    /// accessing it costs no dynamic exclusivity check (the lock already makes
    /// every access exclusive).
    private var state: State {
        _read { yield storage.pointee }
        _modify { yield &storage.pointee }
    }
    private let counter = ResourceCounter()
    /// What the disposables of scheduled work refer to (weakly, to the scheduler).
    private let handle = CancellationHandle()
    /// Marble expectations waiting for ``run()``/``flush()`` (see `MarbleTesting.swift`).
    let marbleExpectations = MarbleExpectationStore()

    /// A scheduled action. Wrapping the closure in a concrete struct keeps it
    /// in its natural representation inside the generic heap; stored bare as
    /// the heap's `Payload`, every closure would be rewrapped in a
    /// reabstraction thunk (one allocation per scheduled action).
    private struct Work {
        let run: () -> Void
    }

    private struct State {
        var heap = SchedulerHeap<Work>()
        var sequence: UInt64 = 0
        var current: Duration
        /// One bit per sequence number ever scheduled: set once the entry ran or
        /// was cancelled. Entries leave the heap in strictly increasing (due,
        /// sequence) order, so this is all cancellation needs to know, and the
        /// disposable it hands out can be two words with no allocation.
        var done: [UInt64] = []
        /// Cancelled entries still sitting in the heap.
        var cancelledInHeap = 0
        var isAdvancing = false
        var stopRequested = false
        var budget: Int

        var pending: Int { heap.count - cancelledInHeap }

        func isDone(_ sequence: UInt64) -> Bool {
            done[Int(sequence >> 6)] & (1 << (sequence & 63)) != 0
        }

        mutating func markDone(_ sequence: UInt64) {
            done[Int(sequence >> 6)] |= 1 << (sequence & 63)
        }

        mutating func enqueue(
            due: Duration, frame: Duration, simulateProcessingDelay: Bool, _ action: @escaping () -> Void
        ) -> UInt64 {
            var due = due
            if due <= current {
                due = simulateProcessingDelay ? current + frame : current
            }
            let key = sequence
            if sequence & 63 == 0 { done.append(0) }
            heap.push(.init(due: due, sequence: sequence, payload: Work(run: action)))
            sequence &+= 1
            return key
        }

        /// Marks a pending entry cancelled; `false` if it already ran or was cancelled.
        mutating func cancel(_ sequence: UInt64) -> Bool {
            guard sequence < self.sequence, !isDone(sequence) else { return false }
            markDone(sequence)
            cancelledInHeap += 1
            return true
        }

        /// When every entry left in the heap is cancelled, takes them all out
        /// (to be released by the caller outside the lock). Cancelled actions
        /// otherwise stay in the heap until the clock passes them, and one that
        /// captures this scheduler (any time operator's sink does) would keep it
        /// alive in a reference cycle if the clock never gets there.
        mutating func takeAllIfAllCancelled() -> SchedulerHeap<Work>? {
            guard cancelledInHeap == heap.count else { return nil }
            cancelledInHeap = 0
            defer { heap = .init() }
            return heap
        }

        /// `true` if an entry that was not cancelled is due at or before `limit`
        /// (any, if nil). Drops cancelled entries found at the front.
        mutating func hasRunnable(notAfter limit: Duration?) -> Bool {
            while limit.map({ heap.firstIsDue(notAfter: $0) }) ?? !heap.isEmpty {
                guard let sequence = heap.first?.sequence, isDone(sequence) else { return true }
                _ = heap.popFirst()
                cancelledInHeap -= 1
            }
            return false
        }

        /// Takes the next entry due at or before `limit` (any, if nil) that was
        /// not cancelled, and moves the clock to its due time.
        mutating func takeNext(notAfter limit: Duration?) -> (() -> Void)? {
            while limit.map({ heap.firstIsDue(notAfter: $0) }) ?? !heap.isEmpty {
                let entry = heap.popFirst().unsafelyUnwrapped
                if isDone(entry.sequence) {
                    cancelledInHeap -= 1
                    continue
                }
                markDone(entry.sequence)
                current = entry.due
                return entry.payload.run
            }
            return nil
        }
    }

    /// The default ``stepBudget``.
    public static let defaultStepBudget = 100_000

    /// A scheduler whose clock reads `initialClock`.
    ///
    /// - Parameters:
    ///   - initialClock: the starting time, in frames.
    ///   - frame: the duration of one frame (1 ms by default); must be positive.
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
        if frame <= .zero {
            TestFailureReporter.fail(
                "TestScheduler frame must be positive, got \(frame); using 1 ms.",
                at: CallSite(fileID: fileID, filePath: filePath, line: line, column: column))
            frame = .milliseconds(1)
        }
        self.frame = frame
        self.frameAttoseconds = frame.totalAttoseconds
        self.simulateProcessingDelay = simulateProcessingDelay
        self.storage = .allocate(capacity: 1)
        storage.initialize(to: State(current: .zero, budget: max(1, stepBudget)))
        self.state.current = instant(for: initialClock).offset
        self.handle.scheduler = self
    }

    deinit {
        storage.deinitialize(count: 1)
        storage.deallocate()
    }

    // MARK: Clock

    public var now: SchedulerInstant { SchedulerInstant(offset: lock.withLock { state.current }) }

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
    private let frameAttoseconds: Int128

    /// The instant of a frame time.
    public func instant(for time: TestTime) -> SchedulerInstant {
        let attos = frameAttoseconds &* Int128(truncatingIfNeeded: time.frames)
        let offset = time.remainder == .zero ? attos : attos &+ time.remainder.totalAttoseconds
        return SchedulerInstant(offset: Duration(totalAttoseconds: offset))
    }

    /// The frame time of an instant (exact: whole frames plus the rest).
    public func testTime(for instant: SchedulerInstant) -> TestTime {
        let frameAttos = frameAttoseconds
        let attos = instant.offset.totalAttoseconds
        // Fast path: both fit in 64 bits (about ±9.2 s of attoseconds), so the
        // division needs no 128-bit arithmetic.
        if let small = Int64(exactly: attos), let frame64 = Int64(exactly: frameAttos) {
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
        return TestTime(frames: Int(frames), remainder: Duration(totalAttoseconds: rest))
    }

    /// The duration of `frames` frames.
    public func duration(_ frames: Int) -> Duration { frame * frames }

    // MARK: Scheduling

    @discardableResult
    public func schedule(_ action: @escaping () -> Void) -> any Disposable {
        enqueue(due: nil, action)
    }

    @discardableResult
    public func schedule(after delay: Duration, _ action: @escaping () -> Void) -> any Disposable {
        let delay = checkDelay(delay, "schedule(after:)")
        return enqueue(after: delay, action)
    }

    /// Schedules `action` at frame time `time` (at ``now`` if that is in the past).
    @discardableResult
    public func scheduleAt(_ time: TestTime, action: @escaping () -> Void) -> any Disposable {
        let due = instant(for: time)
        return enqueue(due: due, action)
    }

    @discardableResult
    public func schedulePeriodic(
        after delay: Duration, period: Duration, _ action: @escaping () -> Void
    ) -> any Disposable {
        let delay = checkDelay(delay, "schedulePeriodic(after:period:)")
        guard period > .zero else {
            TestFailureReporter.fail(
                "schedulePeriodic was given a period of \(period.exactDescription); a period must be positive. Nothing was scheduled.",
                at: CallSite())
            return Disposables.create()
        }
        let task = PeriodicTask(scheduler: self, period: period, action: action)
        task.start(at: now + delay)
        return task
    }

    private func checkDelay(_ delay: Duration, _ what: String) -> Duration {
        guard delay < .zero else { return delay }
        TestFailureReporter.fail(
            "\(what) was given a negative delay (\(delay.exactDescription)); it runs as if the delay were zero.",
            at: CallSite())
        return .zero
    }

    /// Schedules at an absolute instant (now if nil), clamped to now (plus a
    /// frame when simulating processing delay).
    fileprivate func enqueue(due: SchedulerInstant?, _ action: @escaping () -> Void) -> ScheduledEntry {
        lock.lock()
        let key = state.enqueue(
            due: due?.offset ?? state.current, frame: frame, simulateProcessingDelay: simulateProcessingDelay, action)
        lock.unlock()
        counter.increment()
        return ScheduledEntry(handle: handle, sequence: key)
    }

    private func enqueue(after delay: Duration, _ action: @escaping () -> Void) -> ScheduledEntry {
        lock.lock()
        let key = state.enqueue(
            due: state.current + delay, frame: frame, simulateProcessingDelay: simulateProcessingDelay, action)
        lock.unlock()
        counter.increment()
        return ScheduledEntry(handle: handle, sequence: key)
    }

    fileprivate func cancel(_ sequence: UInt64) {
        var released: SchedulerHeap<Work>?
        lock.lock()
        let cancelled = state.cancel(sequence)
        if cancelled { released = state.takeAllIfAllCancelled() }
        lock.unlock()
        if cancelled { counter.decrement() }
        // The cancelled actions are released here, outside the lock: releasing
        // one can run deinitializers that call back into this scheduler.
        withExtendedLifetime(released) {}
    }

    // MARK: Running

    /// Runs everything due up to and including `time`, then sets the clock to `time`.
    public func advance(
        to time: TestTime,
        fileID: String = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
    ) {
        advance(
            toInstant: instant(for: time), described: "advance(to: \(time))",
            site: CallSite(fileID: fileID, filePath: filePath, line: line, column: column))
    }

    /// Runs everything due up to and including the instant `time`, then sets the clock to it.
    public func advance(
        to time: SchedulerInstant,
        fileID: String = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
    ) {
        advance(
            toInstant: time, described: "advance(to: \(time))",
            site: CallSite(fileID: fileID, filePath: filePath, line: line, column: column))
    }

    /// Moves the clock forward by `duration`, running everything due meanwhile.
    public func advance(
        by duration: Duration,
        fileID: String = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
    ) {
        let site = CallSite(fileID: fileID, filePath: filePath, line: line, column: column)
        guard duration >= .zero else {
            TestFailureReporter.fail(
                "advance(by: \(duration.exactDescription)) would move time backwards; virtual time never goes backwards. Nothing was run.",
                at: site)
            return
        }
        advance(toInstant: now + duration, described: "advance(by: \(duration.exactDescription))", site: site)
    }

    /// Moves the clock forward by `frames` frames, running everything due meanwhile.
    public func advance(
        by frames: Int,
        fileID: String = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
    ) {
        advance(by: frame * frames, fileID: fileID, filePath: filePath, line: line, column: column)
    }

    /// Runs scheduled work until nothing is pending (within the step budget).
    /// The clock ends at the due time of the last action run. Then checks the
    /// pending marble expectations (`expect(...).toBe(...)`), exactly like
    /// ``flush(fileID:filePath:line:column:)``.
    public func run(
        fileID: String = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
    ) {
        advance(
            toInstant: nil, described: "run()",
            site: CallSite(fileID: fileID, filePath: filePath, line: line, column: column))
        marbleExpectations.checkAll()
    }

    /// Stops the `advance`/`run` in progress after the current action.
    public func stop() {
        lock.withLock { state.stopRequested = true }
    }

    private func advance(toInstant target: SchedulerInstant?, described: String, site: CallSite) {
        lock.lock()
        if state.isAdvancing {
            lock.unlock()
            TestFailureReporter.fail(
                "\(described) was called from inside an action of the same TestScheduler; only the test drives virtual time. Schedule the work instead. Ignored.",
                at: site)
            return
        }
        if let target, target.offset < state.current {
            let now = state.current
            lock.unlock()
            TestFailureReporter.fail(
                "\(described) is in the past (now is \(testTime(for: SchedulerInstant(offset: now)))); virtual time never goes backwards. Ignored.",
                at: site)
            return
        }
        state.isAdvancing = true
        state.stopRequested = false
        let budget = state.budget
        let limit = target?.offset
        var steps = 0
        var exceeded = false
        while !state.stopRequested {
            if steps == budget {
                exceeded = state.hasRunnable(notAfter: limit)
                if exceeded { break }
            }
            guard let action = state.takeNext(notAfter: limit) else { break }
            steps += 1
            lock.unlock()
            counter.decrement()
            action()
            lock.lock()
        }
        if let limit, !exceeded, !state.stopRequested, limit > state.current { state.current = limit }
        state.isAdvancing = false
        state.stopRequested = false
        let (pending, now) = (state.pending, state.current)
        lock.unlock()
        if exceeded {
            TestFailureReporter.fail(
                "\(described) stopped after \(budget) actions, the step budget, with \(pending) still pending at \(testTime(for: SchedulerInstant(offset: now))). An endless timer or a source that reschedules itself? Advance to a fixed time, dispose it, or raise TestScheduler.stepBudget.",
                at: site)
        }
    }
}

/// Lets the disposables of scheduled work reach their scheduler without
/// keeping it alive: one per scheduler, shared by all of them.
final class CancellationHandle: @unchecked Sendable {
    weak var scheduler: TestScheduler?
}

/// The disposable for one pending entry of a ``TestScheduler``: two words, no
/// allocation of its own. Disposing it cancels the entry if it has not run;
/// disposing again, or after it ran, does nothing.
struct ScheduledEntry: Disposable {
    let handle: CancellationHandle
    let sequence: UInt64

    func dispose() {
        handle.scheduler?.cancel(sequence)
    }
}

/// Periodic work on a test scheduler: each run is due exactly `period` after
/// the previous due time, never after the time it actually ran.
private final class PeriodicTask: Disposable, @unchecked Sendable {
    private weak var scheduler: TestScheduler?
    private let period: Duration
    private var action: (() -> Void)?
    private let lock = Lock()
    private var pending: ScheduledEntry?
    private var disposed = false

    init(scheduler: TestScheduler, period: Duration, action: @escaping () -> Void) {
        self.scheduler = scheduler
        self.period = period
        self.action = action
    }

    func start(at due: SchedulerInstant) {
        guard let scheduler else { return }
        let entry = scheduler.enqueue(due: due) { [self] in fire(due: due) }
        let keep = lock.withLock { () -> Bool in
            guard !disposed else { return false }
            pending = entry
            return true
        }
        if !keep { entry.dispose() }
    }

    private func fire(due: SchedulerInstant) {
        let action = lock.withLock { disposed ? nil : self.action }
        action?()
        start(at: due + period)
    }

    func dispose() {
        let entry = lock.withLock { () -> ScheduledEntry? in
            guard !disposed else { return nil }
            disposed = true
            action = nil
            defer { pending = nil }
            return pending
        }
        entry?.dispose()
    }
}
