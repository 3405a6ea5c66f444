import Testing
import Tick
@testable import TickTesting

/// The hint a TestScheduler gives when it goes away with work the test
/// scheduled and never drove (the rule is in TestScheduler+PendingWork.swift
/// and Docs/Schedulers.md). It is a hint: captured here through the internal
/// handler, it is a warning-severity issue otherwise, never a failure.
@Suite struct TestSchedulerPendingWorkHintTests {
    /// The hints given while `body` runs, with their lines.
    func hints(_ body: () -> Void) -> [(message: String, line: UInt)] {
        let hints = Locked<[(String, UInt)]>([])
        PendingWorkLog.$hintHandler.withValue({ message, site in hints.withLock { $0.append((message, site.line)) } }) {
            body()
        }
        return hints.withLock { $0 }
    }

    @Test func aSchedulerNeverAdvancedGivesAHintWhenItGoesAway() {
        var line: UInt = 0
        let given = hints {
            line = #line + 1
            let scheduler = TestScheduler()
            let bag = DisposeBag()
            let subject = PublishSubject<String>()
            subject.debounce(.milliseconds(300), scheduler: scheduler).subscribe(onNext: { _ in }).disposed(by: bag)
            subject.onNext("query")
            // The test forgot to advance: the debounce never fired. Its bag
            // goes away here, cancelling the timer, and the scheduler with it.
        }
        #expect(given.count == 1)
        #expect(given.first?.line == line)
        let message = given.first?.message ?? ""
        #expect(
            message.contains(
                "1 item(s) of virtual work were scheduled on the TestScheduler made here and it was never advanced, the first due at 300, so they never had a chance to run (cancelled since: its subscription was disposed)"
            ))
        #expect(message.contains("advance the scheduler"))
    }

    @Test func workScheduledAfterTheLastAdvanceGivesAHint() {
        let given = hints {
            let scheduler = TestScheduler()
            scheduler.advance(to: 10)
            _ = scheduler.schedule(after: .milliseconds(5)) {}
            _ = scheduler.schedule(after: .milliseconds(2)) {}
        }
        #expect(given.count == 1)
        #expect(
            given.first?.message.contains(
                "2 item(s) of virtual work were scheduled on the TestScheduler made here after it was last advanced (now 10), the first due at 15, so they never had a chance to run (2 still pending as it went away)"
            ) == true)
    }

    @Test func aForgottenFlushIsOneFailureAndNoHint() {
        // One mistake, one message: the never-checked failure at the
        // `expect` line already says to flush.
        let failures = Locked<[String]>([])
        let given = hints {
            TestFailureReporter.withHandler({ failure in failures.withLock { $0.append(failure.message) } }) {
                let scheduler = TestScheduler()
                scheduler.expect(scheduler.cold("-a|")).toBe("-a|")
            }
        }
        #expect(failures.withLock { $0 }.count == 1)
        #expect(failures.withLock { $0 }.first?.contains("never checked") == true)
        #expect(given.isEmpty)
        // Its expectations checked, the same scheduler's later undriven work
        // gets its hint again.
        let afterFlush = hints {
            let scheduler = TestScheduler()
            scheduler.expect(scheduler.cold("-a|")).toBe("-a|")
            scheduler.flush()
            _ = scheduler.schedule(after: .milliseconds(5)) {}
        }
        #expect(afterFlush.count == 1)
    }

    @Test func workADriveLeftPendingGivesNoHint() {
        // A periodic timer still running when the test stops at its target:
        // scheduled by the drive itself, on purpose.
        let given = hints {
            let scheduler = TestScheduler()
            let observer = scheduler.createObserver(Int.self)
            let subscription = Observable<Int>.interval(.milliseconds(100), scheduler: scheduler).subscribe(observer)
            scheduler.advance(to: 250)
            #expect(observer.events == [.next(100, 0), .next(200, 1)])
            subscription.dispose()
        }
        #expect(given.isEmpty)
    }

    @Test func aSchedulerWithNothingPendingGivesNoHint() {
        let given = hints {
            let scheduler = TestScheduler()
            let subscription = scheduler.schedule(after: .seconds(1)) {}
            subscription.dispose()
            _ = scheduler.scheduleAt(5) {}
            scheduler.run()
        }
        #expect(given.isEmpty)
    }

    @Test func anAsyncAdvanceCountsAsADrive() async {
        let given = await PendingWorkLog.$hintHandler.withValue({ _, _ in Issue.record("unexpected hint") }) {
            let scheduler = TestScheduler()
            let observer = scheduler.createObserver(Int.self)
            let subscription = Observable<Int>.interval(.milliseconds(100), scheduler: scheduler).subscribe(observer)
            await scheduler.advance(to: 150)
            #expect(observer.events == [.next(100, 0)])
            subscription.dispose()
            return true
        }
        #expect(given)
    }

    /// The hint's one toolchain check, both ways: before Swift 6.3, Swift
    /// Testing records no warnings, so a hint inside a Swift Testing test goes
    /// to standard error, as it does outside any test.
    @Test func withoutWarningSeveritiesTheHintGoesToStandardError() {
        #expect(PendingWorkLog.hintDestination(inSwiftTestingTest: true, toolchainRecordsWarnings: true) == .testWarning)
        #expect(PendingWorkLog.hintDestination(inSwiftTestingTest: true, toolchainRecordsWarnings: false) == .standardError)
        #expect(PendingWorkLog.hintDestination(inSwiftTestingTest: false, toolchainRecordsWarnings: true) == .standardError)
        #expect(PendingWorkLog.hintDestination(inSwiftTestingTest: false, toolchainRecordsWarnings: false) == .standardError)
        let site = CallSite(fileID: "MyTests/SearchTests.swift", filePath: "/x/SearchTests.swift", line: 12, column: 5)
        #expect(
            PendingWorkLog.standardErrorLine("Hint: 1 item(s) …", at: site) == "MyTests/SearchTests.swift:12: Hint: 1 item(s) …\n")
    }

    @Test func outsideATestNoHintIsGiven() async {
        // Made where no test runs (a detached task): the scheduler is no
        // test's, so it gives no hint even with work never driven.
        let given = Locked<Int>(0)
        await PendingWorkLog.$hintHandler.withValue({ _, _ in given.withLock { $0 += 1 } }) {
            await Task.detached {
                let scheduler = TestScheduler()
                _ = scheduler.scheduleAt(5) {}
            }.value
        }
        #expect(given.withLock { $0 } == 0)
    }
}

/// A property check makes one scheduler per run and may stop a run before its
/// inputs are driven: those schedulers never give the hint (the runner owns
/// them). Without the silencing, each such run gave one.
@Suite struct PropertyRunPendingWorkHintTests {
    @Test func runsThatNeverAdvanceGiveNoHint() {
        let hints = Locked<Int>(0)
        var runs = 0
        PendingWorkLog.$hintHandler.withValue({ _, _ in hints.withLock { $0 += 1 } }) {
            forAllTimelines(runs: 20, seed: 7) { run in
                runs += 1
                // A timer scheduled, never advanced: the body checks at once.
                _ = Observable<Int>.timer(.milliseconds(5), scheduler: run.scheduler).subscribe(onNext: { _ in })
                return true
            }
        }
        #expect(runs == 20)
        #expect(hints.withLock { $0 } == 0)
        // The same scheduling on a test's own scheduler does give one.
        PendingWorkLog.$hintHandler.withValue({ _, _ in hints.withLock { $0 += 1 } }) {
            let scheduler = TestScheduler()
            _ = Observable<Int>.timer(.milliseconds(5), scheduler: scheduler).subscribe(onNext: { _ in })
        }
        #expect(hints.withLock { $0 } == 1)
    }
}
