import Testing
import Tick
import TickTesting

/// The time rules of the TestScheduler, each pinned at the exact instant.
@Suite(.checksResourceLeaks) struct TestSchedulerTests {
    @Test func sameTimeWorkRunsInSchedulingOrder() {
        let scheduler = TestScheduler()
        var log: [String] = []
        scheduler.scheduleAt(10) { log.append("a") }
        scheduler.scheduleAt(5) { log.append("early") }
        scheduler.scheduleAt(10) { log.append("b") }
        scheduler.schedule(after: .milliseconds(10)) { log.append("c") }
        scheduler.run()
        #expect(log == ["early", "a", "b", "c"])
        #expect(scheduler.clock == 10)
    }

    @Test func advanceRunsWorkDueExactlyAtTheTargetButNotAfter() {
        let scheduler = TestScheduler()
        var ran: [TestTime] = []
        for time: TestTime in [999, 1000, 1001] {
            scheduler.scheduleAt(time) { ran.append(scheduler.clock) }
        }
        scheduler.advance(to: 999)
        #expect(ran == [999])
        scheduler.advance(to: 1000)
        #expect(ran == [999, 1000])
        #expect(scheduler.clock == 1000)
        scheduler.advance(by: 1)
        #expect(ran == [999, 1000, 1001])
    }

    @Test func advanceLeavesTheClockAtTheTargetEvenWithNothingDue() {
        let scheduler = TestScheduler()
        scheduler.advance(to: 250)
        #expect(scheduler.clock == 250)
        scheduler.advance(by: .milliseconds(50))
        #expect(scheduler.clock == 300)
        #expect(scheduler.now == SchedulerInstant(offset: .milliseconds(300)))
    }

    @Test func nowDuringAnActionIsItsDueTime() {
        let scheduler = TestScheduler()
        var seen: TestTime?
        scheduler.scheduleAt(42) { seen = scheduler.clock }
        scheduler.advance(to: 100)
        #expect(seen == 42)
    }

    @Test func pastDueWorkRunsAtNowAfterWorkAlreadyDueNow() {
        let scheduler = TestScheduler()
        var log: [(String, TestTime)] = []
        scheduler.advance(to: 100)
        scheduler.schedule { log.append(("now", scheduler.clock)) }
        scheduler.scheduleAt(40) { log.append(("past", scheduler.clock)) }
        scheduler.run()
        #expect(log.map(\.0) == ["now", "past"])
        #expect(log.map(\.1) == [100, 100])
    }

    @Test func workScheduledDuringAnAdvanceInsideTheWindowRunsInTheSameCall() {
        let scheduler = TestScheduler()
        var log: [TestTime] = []
        scheduler.scheduleAt(10) {
            log.append(scheduler.clock)
            scheduler.schedule(after: .milliseconds(5)) { log.append(scheduler.clock) }  // 15: inside
            scheduler.schedule(after: .milliseconds(20)) { log.append(scheduler.clock) }  // 30: outside
            scheduler.schedule { log.append(scheduler.clock) }  // 10: now
        }
        scheduler.advance(to: 20)
        #expect(log == [10, 10, 15])
        #expect(scheduler.pendingCount == 1)
        scheduler.run()
        #expect(log == [10, 10, 15, 30])
    }

    @Test func reentrantSchedulingAtTheSameInstantKeepsOrder() {
        let scheduler = TestScheduler()
        var log: [Int] = []
        scheduler.scheduleAt(5) {
            log.append(1)
            scheduler.schedule { log.append(3) }
        }
        scheduler.scheduleAt(5) { log.append(2) }
        scheduler.run()
        #expect(log == [1, 2, 3])
    }

    @Test func cancellationBeforeTheDueTime() {
        let scheduler = TestScheduler()
        var ran = false
        let work = scheduler.scheduleAt(10) { ran = true }
        scheduler.advance(to: 9)
        work.dispose()
        #expect(scheduler.pendingCount == 0)
        scheduler.run()
        #expect(!ran)
        #expect(scheduler.clock == 9, "cancelled work does not move the clock")
    }

    @Test func cancellationAtTheDueTimeByEarlierWorkAtThatInstant() {
        let scheduler = TestScheduler()
        var ran = false
        var work: (any Disposable)?
        scheduler.scheduleAt(10) { work?.dispose() }
        work = scheduler.scheduleAt(10) { ran = true }
        scheduler.run()
        #expect(!ran)
    }

    @Test func cancellingWorkThatAlreadyRanOrIsRunningIsHarmless() {
        let scheduler = TestScheduler()
        var count = 0
        var selfRef: (any Disposable)?
        selfRef = scheduler.scheduleAt(10) {
            count += 1
            selfRef?.dispose()
        }
        let other = scheduler.scheduleAt(11) { count += 1 }
        scheduler.run()
        other.dispose()
        other.dispose()
        #expect(count == 2)
        #expect(scheduler.pendingCount == 0)
    }

    @Test func periodicWorkIsDriftFree() {
        let scheduler = TestScheduler()
        var times: [TestTime] = []
        let periodic = scheduler.schedulePeriodic(after: .milliseconds(3), period: .milliseconds(7)) {
            times.append(scheduler.clock)
        }
        scheduler.advance(to: 45)
        periodic.dispose()
        scheduler.run()
        #expect(times == [3, 10, 17, 24, 31, 38, 45])
    }

    @Test func periodicWorkCancelledBetweenTicksStops() {
        let scheduler = TestScheduler()
        var times: [TestTime] = []
        let periodic = scheduler.schedulePeriodic(after: .milliseconds(10), period: .milliseconds(10)) {
            times.append(scheduler.clock)
        }
        scheduler.scheduleAt(25) { periodic.dispose() }
        scheduler.run()
        #expect(times == [10, 20])
        #expect(scheduler.clock == 25)
    }

    @Test func periodicWorkCancelledFromItsOwnAction() {
        let scheduler = TestScheduler()
        var count = 0
        var periodic: (any Disposable)?
        periodic = scheduler.schedulePeriodic(after: .zero, period: .milliseconds(1)) {
            count += 1
            if count == 3 { periodic?.dispose() }
        }
        scheduler.run()
        #expect(count == 3)
        #expect(scheduler.clock == 2)
    }

    @Test func aZeroPeriodRepeatsOneFrameLaterWithProcessingDelayAsInRxTest() {
        let scheduler = TestScheduler(frame: .seconds(1), simulateProcessingDelay: true)
        let res = scheduler.start(disposed: 205) { Observable<Int>.interval(.zero, scheduler: scheduler) }
        #expect(res.events == [.next(201, 0), .next(202, 1), .next(203, 2), .next(204, 3)])
        let plain = TestScheduler(stepBudget: 10)
        var count = 0
        let periodic = plain.schedulePeriodic(after: .zero, period: .zero) { count += 1 }
        withKnownIssue {
            plain.run()
        } matching: { issue in
            issue.comments.contains { $0.rawValue.contains("step budget") }
        }
        #expect(count == 10)
        #expect(plain.clock == 0)
        periodic.dispose()
    }

    @Test func aNegativePeriodIsReportedAndNothingRuns() {
        let scheduler = TestScheduler()
        var ran = 0
        withKnownIssue {
            scheduler.schedulePeriodic(after: .zero, period: .milliseconds(-1)) { ran += 1 }
        } matching: { issue in
            issue.comments.contains { $0.rawValue.contains("period") }
        }
        var events: [Event<Int>] = []
        var subscription: (any Disposable)?
        withKnownIssue {
            subscription = Observable<Int>.timer(.milliseconds(1), period: .milliseconds(-1), scheduler: scheduler)
                .subscribe { events.append($0) }
        } matching: { issue in
            issue.comments.contains { $0.rawValue.contains("period") }
        }
        scheduler.run()
        #expect(ran == 0)
        #expect(events.isEmpty, "not even the first element")
        #expect(scheduler.pendingCount == 0)
        subscription?.dispose()
    }

    @Test func stepBudgetStopsAnEndlessRunAndSaysSo() {
        let scheduler = TestScheduler(stepBudget: 50)
        var count = 0
        let periodic = scheduler.schedulePeriodic(after: .zero, period: .milliseconds(1)) { count += 1 }
        withKnownIssue {
            scheduler.run()
        } matching: { issue in
            issue.comments.contains { $0.rawValue.contains("step budget") && $0.rawValue.contains("50") }
        }
        #expect(count == 50)
        #expect(scheduler.clock == 49)
        periodic.dispose()
    }

    @Test func stepBudgetAppliesPerCall() {
        let scheduler = TestScheduler(stepBudget: 10)
        var count = 0
        for time in 1...20 { scheduler.scheduleAt(TestTime(time)) { count += 1 } }
        scheduler.advance(to: 10)
        scheduler.advance(to: 20)
        #expect(count == 20)
    }

    @Test func advancingFromInsideAnActionIsReportedAndIgnored() {
        let scheduler = TestScheduler()
        var after: TestTime?
        scheduler.scheduleAt(10) {
            scheduler.advance(to: 500)
            after = scheduler.clock
        }
        withKnownIssue {
            scheduler.advance(to: 20)
        } matching: { issue in
            issue.comments.contains { $0.rawValue.contains("from inside an action") }
        }
        #expect(after == 10)
        #expect(scheduler.clock == 20)
    }

    @Test func advancingToThePastIsReportedAtTheCallersLine() {
        let scheduler = TestScheduler()
        scheduler.advance(to: 100)
        let line = #line + 2
        withKnownIssue {
            scheduler.advance(to: 50)
        } matching: { issue in
            issue.sourceLocation?.line == line && issue.comments.contains { $0.rawValue.contains("past") }
        }
        #expect(scheduler.clock == 100)
    }

    @Test func negativeDelayIsReportedAndTreatedAsZero() {
        let scheduler = TestScheduler()
        scheduler.advance(to: 10)
        var ranAt: TestTime?
        withKnownIssue {
            scheduler.schedule(after: .milliseconds(-5)) { ranAt = scheduler.clock }
        } matching: { issue in
            issue.comments.contains { $0.rawValue.contains("negative delay") }
        }
        scheduler.run()
        #expect(ranAt == 10)
    }

    @Test func simulatedProcessingDelayRunsNowWorkOneFrameLater() {
        let plain = TestScheduler()
        let rxTestLike = TestScheduler(simulateProcessingDelay: true)
        var plainTime: TestTime?
        var rxTestTime: TestTime?
        plain.scheduleAt(10) { plain.schedule { plainTime = plain.clock } }
        rxTestLike.scheduleAt(10) { rxTestLike.schedule { rxTestTime = rxTestLike.clock } }
        plain.run()
        rxTestLike.run()
        #expect(plainTime == 10)
        #expect(rxTestTime == 11)
    }

    @Test func framesAreConfigurableAndTimesBetweenFramesAreExact() {
        let scheduler = TestScheduler(frame: .milliseconds(10))
        var times: [TestTime] = []
        scheduler.schedule(after: .milliseconds(25)) { times.append(scheduler.clock) }
        scheduler.schedule(after: .milliseconds(30)) { times.append(scheduler.clock) }
        scheduler.run()
        #expect(times == [TestTime(frames: 2, remainder: .milliseconds(5)), 3])
        #expect(scheduler.instant(for: 3) == SchedulerInstant(offset: .milliseconds(30)))
        #expect(times[0].description == "2+5ms")
    }

    @Test func attosecondPrecisionSurvivesRoundTrips() {
        let scheduler = TestScheduler()
        let odd = Duration(totalAttoseconds: 1_234_567_890_123_456_789)
        scheduler.advance(by: odd)
        #expect(scheduler.now.offset == odd)
        #expect(scheduler.testTime(for: scheduler.now) == TestTime(frames: 1234, remainder: Duration(totalAttoseconds: 567_890_123_456_789)))
    }

    @Test func negativeTimesFloorToWholeFrames() {
        let scheduler = TestScheduler()
        let time = scheduler.testTime(for: SchedulerInstant(offset: .microseconds(-1500)))
        #expect(time == TestTime(frames: -2, remainder: .microseconds(500)))
        #expect(scheduler.instant(for: time).offset == .microseconds(-1500))
    }

    @Test func initialClock() {
        let scheduler = TestScheduler(initialClock: 500)
        #expect(scheduler.clock == 500)
        var ran: TestTime?
        scheduler.schedule(after: .milliseconds(1)) { ran = scheduler.clock }
        scheduler.run()
        #expect(ran == 501)
    }

    @Test func virtualTimeOperatorsSeeExactDeadlines() {
        let scheduler = TestScheduler()
        let observer = scheduler.start {
            Observable<Int>.timer(.milliseconds(300), scheduler: scheduler)
        }
        #expect(observer.events == [.next(500, 0), .completed(500)])
    }

    @Test func intervalIsDriftFreeThroughAnOperator() {
        let scheduler = TestScheduler()
        let observer = scheduler.start(disposed: 551) {
            Observable<Int>.interval(.milliseconds(70), scheduler: scheduler)
        }
        #expect(observer.events.map(\.time) == [270, 340, 410, 480, 550])
        #expect(observer.events.map { $0.value.element } == [0, 1, 2, 3, 4])
    }
}

/// `scheduleAt` is absolute, as RxTest's: `simulateProcessingDelay` moves only
/// work scheduled relative to now (RxTest's `adjustScheduledTime`), so the
/// RxTest scenario with `created: 0, subscribed: 0` subscribes at 0 (RxSwift's
/// InfallibleCombineLatest tests, found by the ported suite). Before, an
/// absolute time equal to now ran one frame later.
@Suite struct AbsoluteSchedulingUnderProcessingDelayTests {
    @Test func scheduleAtRunsAtItsTimeOrNowNeverAFrameLater() {
        let scheduler = TestScheduler(initialClock: 0, frame: .seconds(1), simulateProcessingDelay: true)
        var ranAt: [TestTime] = []
        scheduler.scheduleAt(0) { ranAt.append(scheduler.clock) }
        scheduler.scheduleAt(5) {
            ranAt.append(scheduler.clock)
            // In the past, and at now: both run now (time never goes back).
            scheduler.scheduleAt(4) { ranAt.append(scheduler.clock) }
            scheduler.scheduleAt(5) { ranAt.append(scheduler.clock) }
            // Relative work still gets the processing delay: one frame on.
            _ = Observable.just(1, scheduler: scheduler).subscribe(onNext: { _ in ranAt.append(scheduler.clock) })
        }
        scheduler.run()
        #expect(ranAt == [0, 5, 5, 5, 6])
    }

    @Test func theRxTestScenarioFromZeroSubscribesAtZero() {
        let scheduler = TestScheduler(initialClock: 0, frame: .seconds(1), simulateProcessingDelay: true)
        let xs = scheduler.createHotObservable([.next(0, 1), .next(1, 2), .completed(3)])
        let observer = scheduler.start(created: 0, subscribed: 0, disposed: 100) { xs.map { $0 * 10 } }
        // The hot event at 0 was scheduled before the subscription, so it
        // runs first at 0 and is missed, as in RxTest (scheduling order at a tie).
        #expect(observer.events == [.next(1, 20), .completed(3)])
        #expect(xs.subscriptions == [Subscription(0, 3)])
    }
}

/// `schedule(at: SchedulerInstant)` on a TestScheduler takes the instant as
/// it is (`delay` re-arms its timer with it) and must do exactly what the
/// protocol's default, `schedule(after: max(.zero, time - now))`, does:
/// checked against that default at -1, 0 and +1 frame from now, with and
/// without the processing delay, in scheduling order at ties.
@Suite(.checksResourceLeaks) struct ScheduleAtInstantTests {
    /// When each of three actions runs, and in what order: scheduled at one
    /// frame before now, at now and one frame after (from an action at 5),
    /// with a relative action at the same instant scheduled between them.
    func runs(simulateProcessingDelay: Bool, byInstant: Bool) -> [String] {
        let scheduler = TestScheduler(initialClock: 0, frame: .seconds(1), simulateProcessingDelay: simulateProcessingDelay)
        var log: [String] = []
        scheduler.scheduleAt(5) {
            for (name, offset) in [("before", -1), ("now", 0), ("after", 1)] {
                let instant = scheduler.now + .seconds(offset)
                let action = { log.append("\(name)@\(scheduler.clock)") }
                if byInstant {
                    scheduler.schedule(at: instant, action)
                } else {
                    scheduler.schedule(after: max(.zero, instant - scheduler.now), action)
                }
                scheduler.schedule(after: .seconds(1)) { log.append("relative-\(name)@\(scheduler.clock)") }
            }
        }
        scheduler.run()
        return log
    }

    @Test(arguments: [false, true])
    func scheduleAtAnInstantIsScheduleAfterTheRest(simulateProcessingDelay: Bool) {
        let byInstant = runs(simulateProcessingDelay: simulateProcessingDelay, byInstant: true)
        #expect(byInstant == runs(simulateProcessingDelay: simulateProcessingDelay, byInstant: false))
        // The instants themselves, written out: without the processing
        // delay a past or present instant runs at 5; with it, at 6.
        let late = simulateProcessingDelay ? 6 : 5
        #expect(byInstant.contains("before@\(late)") && byInstant.contains("now@\(late)") && byInstant.contains("after@6"))
    }

    @Test func cancellingWorkScheduledAtAnInstantRunsNothing() {
        let scheduler = TestScheduler()
        var ran = false
        let disposable = scheduler.schedule(at: scheduler.now + .milliseconds(3)) { ran = true }
        #expect(scheduler.pendingCount == 1)
        disposable.dispose()
        scheduler.run()
        #expect(!ran)
        #expect(scheduler.pendingCount == 0)
    }
}
