@_spi(TickInternals) import Tick

// Driving a TestScheduler from async tests: the async overloads of advance,
// run and flush. Same rules as the synchronous ones, plus quiescence: before
// moving time, after every scheduled action and at the end, they wait until
// the async work the scheduler drives has nothing left to run (see
// `AsyncDriver` and Docs/AsyncAwait.md).

extension TestScheduler {
    /// Moves the clock forward by `duration`, running everything due
    /// meanwhile, and letting the async work it wakes run until it waits
    /// again after each action.
    public func advance(
        by duration: Duration,
        fileID: String = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column,
        isolation: isolated (any Actor)? = #isolation
    ) async {
        let site = CallSite(fileID: fileID, filePath: filePath, line: line, column: column)
        guard duration >= .zero else {
            TestFailureReporter.fail(
                "advance(by: \(duration.exactDescription)) would move time backwards; virtual time never goes backwards. Nothing was run.",
                at: site)
            return
        }
        await advanceDrivingAsyncWork(
            toInstant: now + duration, described: "advance(by: \(duration.exactDescription))", site: site)
    }

    /// Moves the clock forward by `frames` frames, letting the async work run
    /// to quiescence after each action.
    public func advance(
        by frames: Int,
        fileID: String = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column,
        isolation: isolated (any Actor)? = #isolation
    ) async {
        await advance(by: frame * frames, fileID: fileID, filePath: filePath, line: line, column: column)
    }

    /// Runs everything due up to and including frame time `time`, letting the
    /// async work run to quiescence after each action, then sets the clock to `time`.
    public func advance(
        to time: TestTime,
        fileID: String = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column,
        isolation: isolated (any Actor)? = #isolation
    ) async {
        await advanceDrivingAsyncWork(
            toInstant: instant(for: time), described: "advance(to: \(time))",
            site: CallSite(fileID: fileID, filePath: filePath, line: line, column: column))
    }

    /// Runs everything due up to and including the instant `time` (async).
    public func advance(
        to time: SchedulerInstant,
        fileID: String = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column,
        isolation: isolated (any Actor)? = #isolation
    ) async {
        await advanceDrivingAsyncWork(
            toInstant: time, described: "advance(to: \(time))",
            site: CallSite(fileID: fileID, filePath: filePath, line: line, column: column))
    }

    /// Runs scheduled work and the async work it wakes until nothing is
    /// pending and nothing can run (within the step budget), then checks the
    /// pending marble expectations, including those on async sequences.
    public func run(
        fileID: String = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column,
        isolation: isolated (any Actor)? = #isolation
    ) async {
        let site = CallSite(fileID: fileID, filePath: filePath, line: line, column: column)
        await advanceDrivingAsyncWork(toInstant: nil, described: "run()", site: site)
        asyncDriver.checkingAsync = true
        marbleExpectations.checkAll()
        asyncDriver.checkingAsync = false
        // The checks' clean-up cancels the tasks of async expectations: let
        // them finish before returning.
        _ = await asyncDriver.quiescence(budget: stepBudget)
    }

    /// The async ``run(fileID:filePath:line:column:isolation:)`` (the RxJS name).
    public func flush(
        fileID: String = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column,
        isolation: isolated (any Actor)? = #isolation
    ) async {
        await run(fileID: fileID, filePath: filePath, line: line, column: column)
    }

    // The async advance is split in three: what runs before the first wait
    // (`beginDrivingAsyncWork`), the loop, and the report at the end
    // (`endDrivingAsyncWork`). An async function is compiled as one piece per
    // wait, each holding the code from that wait to the next; keeping the
    // loop to its waits keeps that code from being repeated in every piece
    // (Docs/Performance.md, "Build time").
    nonisolated(nonsending) func advanceDrivingAsyncWork(
        toInstant target: SchedulerInstant?, described: String, site: CallSite
    ) async {
        guard var drive = beginDrivingAsyncWork(toInstant: target, described: described, site: site) else { return }
        var outcome = await drive.driver.quiescence(budget: drive.budget)
        lock.lock()
        while outcome == .quiet, let action = nextDrivenAction(&drive) {
            action()
            outcome = await drive.driver.quiescence(budget: drive.budget)
            lock.lock()
        }
        endDrivingAsyncWork(drive, outcome: outcome, described: described, site: site)
    }

    /// One async advance in progress.
    private struct AsyncDrive {
        let driver: AsyncDriver
        let budget: Int
        /// The clock's target, never past the end of time; nil for `run()`.
        let clockTarget: Duration?
        /// The last instant whose work may run.
        let limit: Duration?
        var steps = 0
        var exceeded = false
        var cancelled = false
    }

    /// Checks that the advance may start and marks the scheduler advancing;
    /// nil when it may not (the failure is reported).
    private func beginDrivingAsyncWork(
        toInstant target: SchedulerInstant?, described: String, site: CallSite
    ) -> AsyncDrive? {
        let driver = asyncDriver
        driver.registerCurrentTask()
        driver.noteSite(site)
        // After a stall the scheduler drives nothing: any use fails at once,
        // with the stall's message, and runs nothing.
        if let report = driver.stallReport {
            TestFailureReporter.fail(Self.refusal(.stalled(report), described: described), at: site)
            return nil
        }
        // Hot observables of the marble API start now, as in the synchronous
        // advance (see HotObservable(deferredOn:) and `willDrive`).
        willDrive()
        guard driver.isActive else {
            if JobRouting.installation.switchedOff {
                TestFailureReporter.fail(Self.refusal(.hooksSwitchedOff, described: described), at: site)
                advance(toInstant: target, described: described, site: site)
                return nil
            }
            TestFailureReporter.fail(Self.refusal(.noHooks, described: described), at: site)
            advance(toInstant: target, described: described, site: site)
            return nil
        }
        lock.lock()
        if state.isAdvancing {
            lock.unlock()
            TestFailureReporter.fail(Self.refusal(.alreadyAdvancing, described: described), at: site)
            return nil
        }
        if let target, target.offset < state.current {
            let now = state.current
            lock.unlock()
            TestFailureReporter.fail(
                Self.refusal(.inThePast(now: testTime(for: SchedulerInstant(offset: now))), described: described), at: site)
            return nil
        }
        state.isAdvancing = true
        state.stopRequested = false
        let budget = state.budget
        // The end of time is the synchronous API's (TestScheduler+Advance.swift):
        // the clock never passes `endOfTime`, so work and sleeps due later
        // stay pending and never run, and a target past it stops the clock
        // there.
        let horizon = Duration(totalAttoseconds: self.horizon)
        let clockTarget = target.map { min($0.offset, horizon) }
        let limit: Duration? = clockTarget ?? horizon
        lock.unlock()
        return AsyncDrive(driver: driver, budget: budget, clockTarget: clockTarget, limit: limit)
    }

    /// The next action to run, taken with the lock held: returns it with the
    /// lock released, or nil with the lock still held when the advance stops
    /// (asked to stop, its task cancelled, the step budget spent, or nothing
    /// due).
    private func nextDrivenAction(_ drive: inout AsyncDrive) -> (() -> Void)? {
        guard !state.stopRequested else { return nil }
        // Cancelling the task that advances stops the advance before its
        // next step: it returns at once, the clock at the last entry run.
        if JobRouting.currentTaskIsCancelled {
            drive.cancelled = true
            return nil
        }
        if drive.steps == drive.budget {
            drive.exceeded = state.hasRunnable(notAfter: drive.limit)
            if drive.exceeded { return nil }
        }
        guard let action = state.takeNext(notAfter: drive.limit) else { return nil }
        drive.steps += 1
        lock.unlock()
        counter.decrement()
        return action
    }

    /// Ends the advance, called with the lock held: sets the clock, releases
    /// the lock and reports what stopped it early. Not inlined: each wait of
    /// the async advance would hold a copy.
    @inline(never)
    private func endDrivingAsyncWork(
        _ drive: AsyncDrive, outcome: AsyncDriver.Outcome, described: String, site: CallSite
    ) {
        let (budget, exceeded) = (drive.budget, drive.exceeded)
        let finished = outcome == .quiet && !exceeded && !drive.cancelled && !state.stopRequested
        if let clockTarget = drive.clockTarget, finished, clockTarget > state.current { state.current = clockTarget }
        state.isAdvancing = false
        state.stopRequested = false
        let (pending, now) = (state.pending, state.current)
        lock.unlock()
        if exceeded || outcome != .quiet {
            Self.reportEarlyEnd(
                outcome, exceeded: exceeded, budget: budget, pending: pending, time: testTime(for: SchedulerInstant(offset: now)),
                driver: drive.driver, described: described, site: site)
        }
    }

    /// Why an async advance or run did not start (`beginDrivingAsyncWork`).
    private enum Refusal {
        case stalled(String)
        case hooksSwitchedOff
        case noHooks
        case alreadyAdvancing
        case inThePast(now: TestTime)
    }

    // The failure messages of the async advance, out of its code: they are
    // built only on a failure, so they are compiled without optimization
    // (Docs/Performance.md, "Build time"). Static, and given values, so the
    // scheduler's properties keep their optimized accesses.

    /// The message of an async advance or run that did not start.
    @_optimize(none)
    private static func refusal(_ refusal: Refusal, described: String) -> String {
        switch refusal {
        case .stalled(let report):
            return "\(described): this TestScheduler stopped driving its async work after a stall, so it no longer advances; nothing was run. The stall: \(report)"
        case .hooksSwitchedOff:
            return "\(described): Tick's Concurrency hooks are switched off for this test process (TICK_ASYNC_HOOKS=off in the environment), so it cannot drive async work: async work is not waited for. Time advanced as with the synchronous call. Unset TICK_ASYNC_HOOKS to drive async work, or use the synchronous advance/run (see Docs/AsyncAwait.md, \"Platforms\")."
        case .noHooks:
            return "\(described): this Swift runtime does not expose the Concurrency hooks Tick uses to drive async work (swift_task_enqueueGlobal_hook, swift_task_enqueueMainExecutor_hook); async work is not waited for. Time advanced as with the synchronous call."
        case .alreadyAdvancing:
            return "\(described) was called while this TestScheduler is already advancing (from one of its actions, from the async work it drives, or from a second task); only the test drives virtual time. Ignored."
        case .inThePast(let now):
            return "\(described) is in the past (now is \(now)); virtual time never goes backwards. Ignored."
        }
    }

    /// Reports what stopped an async advance or run early
    /// (`endDrivingAsyncWork`).
    @_optimize(none)
    private static func reportEarlyEnd(
        _ outcome: AsyncDriver.Outcome, exceeded: Bool, budget: Int, pending: Int, time: TestTime, driver: AsyncDriver,
        described: String, site: CallSite
    ) {
        if exceeded {
            TestFailureReporter.fail(
                "\(described) stopped after \(budget) actions, the step budget, with \(pending) still pending at \(time). An endless timer or a source that reschedules itself? Advance to a fixed time, dispose it, or raise TestScheduler.stepBudget.",
                at: site)
        }
        switch outcome {
        case .quiet:
            break
        case .budgetExceeded(let jobs):
            TestFailureReporter.fail(
                "\(described) stopped at \(time): the async work it drives ran \(jobs) jobs without becoming quiescent (the step budget is \(budget)). A loop that never waits on the virtual clock, such as `while true { await Task.yield() }`? Make it wait on scheduler.virtualClock, or raise TestScheduler.stepBudget.",
                at: site)
        case .stalled(let limit):
            TestFailureReporter.fail(
                "\(described) stopped at \(time): \(driver.stallReport ?? "a job of the async work it drives has not finished for \(limit.exactDescription) of real time.")",
                at: site)
        case .abandoned:
            TestFailureReporter.fail(
                "\(described) stopped at \(time): this TestScheduler stopped driving its async work after a stall; nothing more was run. The stall: \(driver.stallReport ?? "see the earlier failure.")",
                at: site)
        }
    }

    /// The longest one job of the async work this scheduler drives may run,
    /// in real time, before an async `advance`/`run` gives up on it with a
    /// failure instead of hanging (10 seconds by default).
    public var asyncStallLimit: Duration {
        get { asyncDriver.stallLimit }
        set { asyncDriver.stallLimit = newValue }
    }
}
