import Testing
import Tick
import TickTesting

/// Issue 16, items 1, 2 and 9: every time a TestScheduler can reach reads
/// back as a TestTime; work due past the end of time is "never"; instant
/// arithmetic saturates instead of trapping; the frame is validated.
@Suite(.checksResourceLeaks) struct TimeRangeTests {
    /// `Duration`'s largest value: `now + huge` overflows from any positive `now`.
    let huge = Duration(totalAttoseconds: .max)

    @Test func delayPastTheEndOfTimeNeverRunsAndTheClockStaysReadable() {
        let scheduler = TestScheduler()
        let observer = scheduler.createObserver(Int.self)
        let subscription = Observable.just(1).delay(.seconds(Int64.max), scheduler: scheduler).subscribe(observer)
        scheduler.run()
        #expect(observer.events.isEmpty)
        #expect(scheduler.pendingCount == 1)
        #expect(scheduler.clock == 0)
        subscription.dispose()
        #expect(scheduler.pendingCount == 0)
    }

    @Test func aFourHundredYearTimerWithNanosecondFramesIsPastTheEndOfTime() {
        let scheduler = TestScheduler(frame: .nanoseconds(1))
        let years400 = Duration.seconds(400 * 365 * 86_400)
        let observer = scheduler.createObserver(Int.self)
        let subscription = Observable<Int>.timer(years400, scheduler: scheduler).subscribe(observer)
        // Int.max nanoseconds is 292 years: the timer is due "never".
        scheduler.run()
        #expect(observer.events.isEmpty)
        #expect(scheduler.pendingCount == 1)
        scheduler.advance(to: TestScheduler.endOfTime)
        #expect(observer.events.isEmpty)
        #expect(scheduler.clock == TestScheduler.endOfTime)
        subscription.dispose()
        #expect(scheduler.pendingCount == 0)
    }

    @Test func advancingPastTheEndOfTimeStopsTheClockThere() {
        let scheduler = TestScheduler()
        var ranAt: TestTime?
        scheduler.scheduleAt(TestScheduler.endOfTime) { ranAt = scheduler.clock }
        scheduler.advance(by: 1)
        #expect(scheduler.clock == 1)
        scheduler.advance(to: TestTime(Int.max - 1))
        scheduler.advance(by: 1)
        #expect(ranAt == TestScheduler.endOfTime)
        scheduler.advance(by: 1)
        scheduler.advance(by: .seconds(Int64.max))
        #expect(scheduler.clock == TestScheduler.endOfTime)
        #expect(scheduler.clock.frames == Int.max)
    }

    @Test func theStepBudgetMessageAtTheEndOfTimeNamesTheTime() {
        let scheduler = TestScheduler(stepBudget: 1)
        scheduler.scheduleAt(TestScheduler.endOfTime) {}
        scheduler.scheduleAt(TestScheduler.endOfTime) {}
        withKnownIssue {
            scheduler.run()
        } matching: { issue in
            issue.comments.contains { $0.rawValue.contains("1 still pending at \(Int.max)") }
        }
        scheduler.run()
        #expect(scheduler.pendingCount == 0)
    }

    @Test func theStepBudgetIsNotSpentOnWorkDueNever() {
        let scheduler = TestScheduler(stepBudget: 1)
        let first = scheduler.schedule(after: .seconds(Int64.max)) {}
        let second = scheduler.schedule(after: .seconds(Int64.max)) {}
        scheduler.run()
        #expect(scheduler.pendingCount == 2)
        #expect(scheduler.clock == 0)
        first.dispose()
        second.dispose()
    }

    @Test func testTimeOfInstantsOutsideTheRangeIsClamped() {
        let scheduler = TestScheduler()
        #expect(scheduler.testTime(for: .distantFuture) == TestTime(Int.max))
        #expect(scheduler.testTime(for: .distantPast) == TestTime(Int.min))
        #expect(scheduler.testTime(for: scheduler.instant(for: TestTime(Int.max))) == TestTime(Int.max))
        let last = TestTime(frames: Int.max, remainder: .milliseconds(1) - .nanoseconds(1))
        #expect(scheduler.testTime(for: scheduler.instant(for: last)) == last)
    }

    // MARK: Saturating instants (item 2)

    @Test func instantArithmeticSaturates() {
        let now = SchedulerInstant(offset: .seconds(1))
        #expect(now + huge == .distantFuture)
        #expect(SchedulerInstant.distantFuture + .seconds(1) == .distantFuture)
        #expect(SchedulerInstant.distantPast - .seconds(1) == .distantPast)
        #expect(now - huge - huge == .distantPast)
        #expect(SchedulerInstant.distantFuture - SchedulerInstant.distantPast == huge)
        #expect(SchedulerInstant.distantPast.duration(to: .distantFuture) == huge)
        var moving = now
        moving += huge
        #expect(moving == .distantFuture)
        // Exact below the bounds.
        #expect(now + .seconds(2) == SchedulerInstant(offset: .seconds(3)))
    }

    @Test func delayAndTimeoutWithDurationsPastTheRangeAreNever() {
        let scheduler = TestScheduler()
        let observer = scheduler.start {
            Observable<Int>.merge(
                Observable.just(1).delay(huge, scheduler: scheduler),
                Observable<Int>.never().timeout(huge, scheduler: scheduler),
                Observable.just(2).delaySubscription(huge, scheduler: scheduler))
        }
        #expect(observer.events.isEmpty)
        #expect(scheduler.clock == 1000)
    }

    @Test func scheduleAfterAHugeDelayNeverRuns() {
        let scheduler = TestScheduler(initialClock: 5)
        var ran = false
        let entry = scheduler.schedule(after: huge) { ran = true }
        let periodic = scheduler.schedulePeriodic(after: .zero, period: huge) {}
        scheduler.run()
        #expect(!ran)
        #expect(scheduler.pendingCount == 2)
        entry.dispose()
        periodic.dispose()
    }

    @Test func currentThreadSchedulerDropsWorkDueNever() {
        var ran = false
        let disposable = CurrentThreadScheduler.instance.schedule(after: huge) { ran = true }
        #expect(!ran)
        disposable.dispose()
    }

    @Test func dispatchQueueSchedulerAcceptsHugeDelays() {
        let scheduler = DispatchQueueScheduler(label: "huge-delay")
        let once = scheduler.schedule(after: huge) {}
        let almost = scheduler.schedule(after: huge - .nanoseconds(1) / 2) {}
        let periodic = scheduler.schedulePeriodic(after: huge, period: huge) {}
        once.dispose()
        almost.dispose()
        periodic.dispose()
    }

    // MARK: The frame (item 9)

    @Test func aFrameTooLongForExactTimesIsReported() {
        withKnownIssue {
            let scheduler = TestScheduler(frame: .seconds(Int64.max))
            #expect(scheduler.frame == .milliseconds(1))
        } matching: { issue in
            issue.comments.contains { $0.rawValue.contains("at most TestScheduler.maximumFrame (2^64 - 1 attoseconds") }
        }
        withKnownIssue {
            _ = TestScheduler(frame: TestScheduler.maximumFrame + Duration(totalAttoseconds: 1))
        }
    }

    @Test func theLongestFrameKeepsEveryTestTimeExact() {
        let scheduler = TestScheduler(frame: TestScheduler.maximumFrame)
        #expect(scheduler.frame == TestScheduler.maximumFrame)
        for time in [TestTime(Int.max), TestTime(Int.min), TestTime(-1), TestTime(frames: Int.max, remainder: .seconds(18))] {
            #expect(scheduler.testTime(for: scheduler.instant(for: time)) == time)
        }
        scheduler.advance(by: huge)
        #expect(scheduler.clock == TestScheduler.endOfTime)
    }
}
