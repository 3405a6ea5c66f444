import Foundation
import Synchronization
import Testing
@_spi(TickInternals) import Tick

// Virtual work left pending when a test ends: what the leak trait names
// (the schedulers of its test that are still alive, with their pending
// work), and the hint a scheduler gives when it goes away with work the
// test scheduled and never drove.
//
// ## The hint's rule (Docs/Schedulers.md, "Work the test never drove")
// A TestScheduler that goes away inside a test (Swift Testing or XCTest:
// asked only then, so a scheduler that has nothing to hint about never pays
// for reading `Test.current`) gives a hint,
// never a failure, when it goes away if work was scheduled on it from
// outside its actions after it was last driven (or it was never driven: no
// `advance`, `run`, `flush` or `start`): work that never had a chance to
// run, because the test subscribed, or called the code under test, and then
// did not advance. Such work counts whether it is still pending at the end or
// was cancelled since (the usual end of a test: its subscriptions are
// disposed, by a `DisposeBag` going away, and the scheduler with them).
// Work scheduled by the scheduler's own actions (a periodic timer re-arming
// during an `advance`) never counts, so a test that stops time in the middle
// of a timer on purpose gets no hint. A scheduler that is never released (an
// observable kept alive outside the test holds it) gives none either, nor
// does one with marble expectations reported never checked (that failure,
// at each `expect` line, already says to flush: one mistake, one message). Under
// Swift Testing the hint is an issue of severity `.warning` at the line that
// made the scheduler; under XCTest, which has no warnings, it is written to
// standard error.

/// What a ``TestScheduler`` knows about how it was driven, for the hint.
///
/// Stored inline in the scheduler (a non-copyable struct of atomics, which
/// the scheduler's fixed address keeps in place): as a class it was an
/// object of its own, allocated and released with every scheduler (about
/// 300 instructions).
struct PendingWorkLog: ~Copyable, Sendable {
    /// Where the scheduler was made.
    let site: CallSite
    /// Whether the scheduler goes away inside a test (Swift Testing or
    /// XCTest), asked only when a hint is due: reading `Test.current` costs
    /// about 640 instructions (a copy of the whole `Test`), which every
    /// scheduler paid at creation before.
    static var insideATest: Bool { Test.current != nil || XCTestTracker.shared.state == .running }
    private let everDriven = Atomic<Bool>(false)
    /// Set by a runner that makes and drives the scheduler itself (a
    /// property check's run): the hint is the runner's business, not the test's.
    let isSilenced = Atomic<Bool>(false)
    /// How many items were scheduled from outside the scheduler's actions
    /// since it was last driven (an atomic add per such item).
    private let undriven = Atomic<Int>(0)
    /// The due time of the first of them, in attoseconds (its two halves),
    /// meaningful while `undriven` is not 0: written by the item that took
    /// `undriven` from 0, read when the hint is due (as the scheduler goes
    /// away, when nothing schedules on it any more). Two atomics rather than
    /// a lock: a lock is an allocation, paid by every scheduler.
    private let firstDueLow = Atomic<UInt64>(0)
    private let firstDueHigh = Atomic<UInt64>(0)

    /// Receives the hint instead of the test framework (for Tick's own tests
    /// of the hint).
    @TaskLocal static var hintHandler: (@Sendable (String, CallSite) -> Void)?

    init(site: CallSite) {
        self.site = site
    }

    /// An `advance`/`run` starts.
    func driven() {
        everDriven.store(true, ordering: .relaxed)
        // The first due time is read only while `undriven` is not 0.
        undriven.store(0, ordering: .releasing)
    }

    /// Work due at `due` was scheduled while the scheduler was not running.
    @inline(__always)
    func scheduledOutsideADrive(due: @autoclosure () -> Duration) {
        if undriven.wrappingAdd(1, ordering: .acquiringAndReleasing).oldValue == 0 {
            let attoseconds = due().totalAttoseconds
            firstDueLow.store(UInt64(truncatingIfNeeded: attoseconds), ordering: .releasing)
            firstDueHigh.store(UInt64(truncatingIfNeeded: attoseconds &>> 64), ordering: .releasing)
        }
    }

    /// Whether there is work the rule counts (one load: the usual answer,
    /// no, without building `undrivenWork`'s optional tuple).
    var hasUndrivenWork: Bool { undriven.load(ordering: .acquiring) > 0 }

    /// The work the rule counts, if any.
    var undrivenWork: (everDriven: Bool, count: Int, firstDue: Duration?)? {
        let count = undriven.load(ordering: .acquiring)
        guard count > 0 else { return nil }
        let low = firstDueLow.load(ordering: .acquiring)
        let high = firstDueHigh.load(ordering: .acquiring)
        let attoseconds = Int128(Int64(bitPattern: high)) << 64 | Int128(low)
        return (everDriven.load(ordering: .relaxed), count, Duration(totalAttoseconds: attoseconds))
    }
}

extension TestScheduler {
    /// The scheduler starts running (every `advance`, `run`, `flush`,
    /// synchronous or async): hot observables of the marble API are set up
    /// (see `HotObservable(deferredOn:)`), and the drive is noted for the
    /// pending-work hint.
    func willDrive() {
        marbleExpectations.runSetups()
        // After the setups: the events they schedule are part of this drive.
        pendingWork.driven()
    }

    /// The earliest due time of the work still pending, if any (cancelled
    /// entries at the front of the queue are dropped on the way).
    func earliestPendingTime() -> TestTime? {
        var dropped: [() -> Void] = []
        lock.lock()
        while let first = state.queue.first(), state.isDone(first.sequence) {
            dropped.append(state.queue.removeFirst(isPacked: first.isPacked))
            state.cancelledInHeap -= 1
        }
        let due = state.queue.first()?.due
        lock.unlock()
        // Released outside the lock: a released action may call back in.
        withExtendedLifetime(dropped) {}
        return due.map { testTime(for: SchedulerInstant(offset: Duration(totalAttoseconds: $0))) }
    }

    /// One line on the work pending on this scheduler, or nil if none.
    func pendingWorkSummary() -> String? {
        let count = pendingCount
        guard count > 0 else { return nil }
        let earliest = earliestPendingTime().map { ", the earliest due at \($0)" } ?? ""
        return "\(count) scheduled item(s) pending on the TestScheduler made at \(pendingWork.site.fileID):\(pendingWork.site.line) (now \(clock)\(earliest))"
    }

    /// Called as the scheduler goes away: the hint, if the rule says so.
    /// The usual answer, no work left undriven, is one load here: the rest
    /// is out of line, since its code set up the metadata of the message's
    /// types before its first check (about 100 instructions a scheduler).
    @inline(__always)
    func hintAboutUndrivenWork() {
        guard pendingWork.hasUndrivenWork else { return }
        hintAboutUndrivenWorkLeft()
    }

    /// ``hintAboutUndrivenWork()`` once some work was scheduled and not driven.
    @inline(never)
    private func hintAboutUndrivenWorkLeft() {
        guard !pendingWork.isSilenced.load(ordering: .relaxed), let work = pendingWork.undrivenWork, PendingWorkLog.insideATest,
            !marbleExpectations.hasUncheckedExpectations
        else { return }
        let when = work.everDriven ? "after it was last advanced (now \(clock))" : "and it was never advanced"
        let earliest = work.firstDue.map { ", the first due at \(testTime(for: SchedulerInstant(offset: $0)))" } ?? ""
        let pending = pendingCount
        let message =
            "Hint: \(work.count) item(s) of virtual work were scheduled on the TestScheduler made here \(when)\(earliest), so they never had a chance to run\(pending > 0 ? " (\(pending) still pending as it went away)" : " (cancelled since: its subscription was disposed)"). If the test expected them to run, advance the scheduler (`advance(by:)`, `advance(to:)`, `run()`) before checking. (A hint, never a failure.)"
        let site = pendingWork.site
        if let handler = PendingWorkLog.hintHandler {
            handler(message, site)
            return
        }
        switch PendingWorkLog.hintDestination(inSwiftTestingTest: Test.current != nil) {
        case .testWarning:
            #if compiler(>=6.3)
            // Issue severities are Swift Testing's from Swift 6.3 on.
            Issue.record(
                Comment(rawValue: message), severity: .warning,
                sourceLocation: SourceLocation(
                    fileID: site.fileID, filePath: "\(site.filePath)", line: Int(site.line), column: Int(site.column)))
            #endif
        case .standardError:
            FileHandle.standardError.write(Data(PendingWorkLog.standardErrorLine(message, at: site).utf8))
        }
    }
}

extension PendingWorkLog {
    /// Where a hint goes when no handler takes it.
    enum HintDestination: Equatable {
        /// A Swift Testing issue of severity `.warning`, at the scheduler's line.
        case testWarning
        /// A line on standard error (an XCTest test, no test, or a toolchain
        /// whose Swift Testing records no warnings).
        case standardError
    }

    /// Whether this toolchain's Swift Testing records issues of severity
    /// `.warning` (Swift 6.3 on). The one toolchain check of the hint: the
    /// path an older toolchain takes is `hintDestination`'s answer for
    /// `false`, which Tick's tests exercise on every toolchain.
    static let toolchainRecordsWarnings: Bool = {
        #if compiler(>=6.3)
        return true
        #else
        return false
        #endif
    }()

    /// The hint's destination: a test warning only inside a Swift Testing
    /// test on a toolchain that records warnings, else standard error.
    static func hintDestination(
        inSwiftTestingTest: Bool, toolchainRecordsWarnings: Bool = PendingWorkLog.toolchainRecordsWarnings
    ) -> HintDestination {
        inSwiftTestingTest && toolchainRecordsWarnings ? .testWarning : .standardError
    }

    /// The hint as written to standard error: `file:line: message`.
    static func standardErrorLine(_ message: String, at site: CallSite) -> String {
        "\(site.fileID):\(site.line): \(message)\n"
    }
}

/// The TestSchedulers made while each leak-trait scope was current, held
/// weakly, for the trait's report of what is still pending.
final class ScopedSchedulers: @unchecked Sendable {
    static let shared = ScopedSchedulers()

    private struct Entry {
        weak var scope: Resources.Scope?
        /// The scheduler, through its link (not `weak`: see `SchedulerLink`).
        let link: SchedulerLink
        var scheduler: TestScheduler? { link.scheduler }
    }

    // `entries` is guarded by `lock`.
    private let lock = Lock()
    private var entries: [Entry] = []

    func add(_ scheduler: TestScheduler, in scope: Resources.Scope) {
        lock.withLock {
            entries.removeAll { $0.scope == nil || $0.scheduler == nil }
            entries.append(Entry(scope: scope, link: scheduler.handle))
        }
    }

    /// Removes the schedulers of `scope` and returns those still alive.
    func take(_ scope: Resources.Scope) -> [TestScheduler] {
        lock.withLock {
            var taken: [TestScheduler] = []
            entries.removeAll { entry in
                guard let entryScope = entry.scope, let scheduler = entry.scheduler else { return true }
                guard entryScope === scope else { return false }
                taken.append(scheduler)
                return true
            }
            return taken
        }
    }
}
