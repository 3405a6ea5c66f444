#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
@_spi(TickInternals) import Tick

// Driving a TestScheduler synchronously: advance, run, stop.

extension TestScheduler {

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

    func advance(toInstant target: SchedulerInstant?, described: String, site: CallSite) {
        // Hot observables of the marble API start now (see HotObservable(deferredOn:)).
        willDrive()
        lock.lock()
        if state.isAdvancing {
            let sameThread = state.advancingThread.map { pthread_equal($0, pthread_self()) != 0 } ?? true
            lock.unlock()
            TestFailureReporter.fail(
                sameThread
                    ? "\(described) was called from inside an action of the same TestScheduler; only the test drives virtual time. Schedule the work instead. Ignored."
                    : "\(described) was called concurrently from two threads: another thread is advancing this TestScheduler. Only one thread at a time may drive virtual time. Ignored.",
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
        state.advancingThread = pthread_self()
        state.stopRequested = false
        let budget = state.budget
        // The clock never passes `endOfTime`: work due later never runs, and
        // a target past it stops the clock there.
        let horizon = Duration(totalAttoseconds: self.horizon)
        let clockTarget = target.map { min($0.offset, horizon) }
        let limit: Duration? = clockTarget ?? horizon
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
        if let clockTarget, !exceeded, !state.stopRequested, clockTarget > state.current { state.current = clockTarget }
        state.isAdvancing = false
        state.advancingThread = nil
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
