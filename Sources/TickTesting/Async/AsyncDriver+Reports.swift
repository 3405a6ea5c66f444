import Tick

// The failure messages and the stuck report of the async driver, apart from
// its code: each is built only when something went wrong (a scheduler
// released under an iteration, a second scheduler, a stall, a sleep after
// one, a stuck test), so each is compiled without optimization
// (Docs/Performance.md, "Build time"). Static and given values, not the
// driver, so that the driver's own properties keep their optimized accesses.
extension AsyncDriver {
    /// The failure message of `schedulerGone`: compiled without optimization
    /// (Docs/Performance.md, "Build time").
    @_optimize(none)
    static func releasedReport(created site: CallSite?, stranded: Int, pending: Int) -> String {
        let created = site.map { " (created at \($0.fileID):\($0.line))" } ?? ""
        let what = stranded == 1 ? "a task it drove was" : "\(stranded) tasks it drove were"
        return
            "A TestScheduler\(created) was released while \(what) still awaiting an observable's `values` (\(pending) scheduled action\(pending == 1 ? "" : "s") went away with it, so the next element would never come). The iteration throws TestSchedulerReleasedError instead of waiting forever. Keep the scheduler until the task is done: advance it until the loop ends, or cancel the task (or dispose the source) and await it before the scheduler goes out of scope; see Docs/AsyncAwait.md, \"What escapes\"."
    }

    /// The message of `reportSecondScheduler`: compiled without optimization
    /// (Docs/Performance.md, "Build time").
    @_optimize(none)
    static func secondSchedulerReport(created: CallSite?) -> String {
        let otherSite = created.map { " (created at \($0.fileID):\($0.line))" } ?? ""
        return
            "A task that another TestScheduler drives\(otherSite) slept on this TestScheduler's virtualClock. One scheduler per task: a task, and the tasks it starts, belong to the last TestScheduler it created or used asynchronously, and only that scheduler's advance waits for them; this one's advance would race with the sleep, and a test awaiting the task could hang, so the sleep throws CancellationError at once. Drive the second scheduler from a task of its own (`await Task { ... }.value`), or let the first one go before creating the second (a `do { }` scope); see Docs/AsyncAwait.md, \"One scheduler per task\"."
    }

    /// The text of a stall (`checkStall`), built once, when the driver gives
    /// up: compiled without optimization (Docs/Performance.md, "Build time").
    @_optimize(none)
    static func stallReport(limit: Duration, site: CallSite?) -> String {
        let call = site.map { " (the call at \($0.fileID):\($0.line))" } ?? ""
        return
            "a job of the async work this TestScheduler drives has not finished for \(limit.exactDescription) of real time, while the test waited for it\(call) (blocked on a semaphore, a lock, or a synchronous wait for work Tick does not drive?). The scheduler no longer drives its async work: from now on it runs on the runtime's executors, without quiescence; its pending virtual sleeps threw CancellationError, new ones throw at once, and every later async advance or run fails without running anything."
    }

    /// The message of `reportSleepAfterStall`: compiled without optimization
    /// (Docs/Performance.md, "Build time").
    @_optimize(none)
    static func sleepAfterStallReport(_ report: String?) -> String {
        "A task slept on TestScheduler.virtualClock after the scheduler stopped driving its async work because of a stall; the sleep throws CancellationError at once (nothing would ever wake it). The stall: \(report ?? "a job of the async work it drove did not finish within asyncStallLimit.")"
    }

    /// The text of a stuck report (`checkStuck`): the sleeps pending by
    /// deadline, the iterations waiting and the other scheduled actions.
    /// Runs once per stuck episode, so it is compiled without optimization
    /// (Docs/Performance.md, "Build time"); static, and given values, not the
    /// driver, so the driver's properties keep their optimized accesses (the
    /// scheduler is only called: `clock`, `testTime(for:)`).
    @_optimize(none)
    static func stuckReport(
        asleep unordered: [(deadline: SchedulerInstant, isRoot: Bool)], iterations: Int, pending: Int, site: CallSite,
        scheduler: TestScheduler
    ) -> String {
        // By deadline, stably, through the module's one sort (stableOrder).
        let asleep = stableOrder(unordered.map { $0.deadline.offset.totalAttoseconds }).map { unordered[$0] }
        var lines = asleep.prefix(5).map { sleep in
            "  - a sleep on virtualClock by \(sleep.isRoot ? "the test body" : "a task the scheduler drives"), due at \(scheduler.testTime(for: sleep.deadline))"
        }
        if asleep.count > 5 { lines.append("  - \(asleep.count - 5) more sleeps, the last due at \(scheduler.testTime(for: asleep[asleep.count - 1].deadline))") }
        let others = pending - asleep.count
        if iterations > 0 {
            lines.append("  - \(iterations == 1 ? "an iteration" : "\(iterations) iterations") of an observable's `values` by a task the scheduler drives, waiting for an element")
        }
        if others > 0 { lines.append("  - \(others) scheduled action\(others == 1 ? "" : "s") (Rx timers, schedule(...))") }
        return
            "\(site.filePath):\(site.line): warning: Tick: this test looks stuck. Its TestScheduler (created, or last advanced, here) has had virtual work pending at virtual time \(scheduler.clock) for \(stuckReportDelay.exactDescription) of real time, with no advance or run in progress and every task it drives waiting:\n\(lines.joined(separator: "\n"))\nVirtual time moves only when the test moves it: call `await scheduler.advance(by:)`, `advance(to:)` or `run()` before awaiting what virtual time wakes (a task's value, a sleep on virtualClock). Tick does not fail the test for this: it cannot tell a stuck test from one waiting for real work (Docs/AsyncAwait.md, \"A stuck test\")."
    }
}
