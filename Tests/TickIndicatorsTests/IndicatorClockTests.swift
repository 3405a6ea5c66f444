import Testing
import TickIndicators
import TickTesting

/// The indicators take the clock the async code has (issue 24, "one time
/// source"): with a TestScheduler's virtual clock, their deadlines are on
/// the scheduler's timeline, exact to the frame.
@Suite(.checksResourceLeaks) struct IndicatorClockTests {
    @Test func delayedVisibilityOnTheVirtualClockShowsAtItsDeadlineNotAFrameBefore() {
        let scheduler = TestScheduler()
        let working = BehaviorSubject(value: false)
        let observer = scheduler.createObserver(Bool.self)
        let subscription = working
            .delayedVisibility(showAfter: .milliseconds(500), minimumVisible: .milliseconds(300), clock: scheduler.virtualClock)
            .subscribe(observer)
        scheduler.advance(to: 100)
        working.onNext(true)
        scheduler.advance(to: 599)
        #expect(observer.events == [.next(0, false)])
        scheduler.advance(to: 600)
        #expect(observer.events == [.next(0, false), .next(600, true)])
        working.onNext(false)
        // Stopped at 600: the minimum keeps it up until 900, not 899.
        scheduler.advance(to: 899)
        #expect(observer.events.count == 2)
        scheduler.advance(to: 900)
        #expect(observer.events == [.next(0, false), .next(600, true), .next(900, false)])
        subscription.dispose()
    }

    @Test func theIndicatorStateFormTakesAClockToo() {
        let scheduler = TestScheduler()
        let indicator = ActivityIndicator()
        let observer = scheduler.createObserver(ActivityIndicator.State.self)
        let subscription = indicator
            .delayedVisibility(showAfter: .milliseconds(200), clock: scheduler.virtualClock)
            .subscribe(observer)
        let work = PublishSubject<Int>()
        let tracked = work.trackActivity(in: indicator).subscribe()
        scheduler.advance(to: 199)
        #expect(observer.events.map(\.value.element?.loading) == [false])
        scheduler.advance(to: 200)
        #expect(observer.events.map(\.value.element?.loading) == [false, true])
        #expect(observer.events.last?.time == 200)
        tracked.dispose()
        subscription.dispose()
    }

    @Test func anErrorTrackerOnTheVirtualClockResetsAtItsDeadline() {
        let scheduler = TestScheduler()
        let tracker = ErrorTracker(clock: scheduler.virtualClock)
        scheduler.advance(to: 10)
        tracker.update(with: TestError(1), resetAfter: .milliseconds(50))
        scheduler.advance(to: 59)
        #expect(tracker.error != nil)
        scheduler.advance(to: 60)
        #expect(tracker.error == nil)
    }

    @Test func aNetworkIndicatorOnTheVirtualClockShowsAfterItsStartDelay() {
        let scheduler = TestScheduler()
        let manager = NetworkActivityIndicatorManager(clock: scheduler.virtualClock, startDelay: .milliseconds(1000))
        manager.isEnabled = true
        manager.incrementActivityCount()
        scheduler.advance(to: 999)
        #expect(!manager.isNetworkActivityIndicatorVisible)
        scheduler.advance(to: 1000)
        #expect(manager.isNetworkActivityIndicatorVisible)
        manager.decrementActivityCount()
        scheduler.run()
        #expect(!manager.isNetworkActivityIndicatorVisible)
    }

    @Test func aButtonStampsItsChangesWithTheClocksTime() {
        let scheduler = TestScheduler()
        scheduler.advance(to: 40)
        let button = ActivityIndicatorButton(clock: scheduler.virtualClock)
        #expect(button.scheduler === scheduler)
    }

    /// A view model whose only time source is a clock: an async debounce
    /// written with `sleep`, an Rx debounce through `clock.asScheduler`, and
    /// a delayed spinner, all on one timeline.
    @MainActor final class SearchModel {
        let query = PublishSubject<String>()
        let loading = BehaviorSubject(value: false)
        private(set) var searched: [String] = []
        let spinner: Observable<Bool>
        private let bag = DisposeBag()

        init(clock: any Clock<Duration>) {
            spinner = loading.delayedVisibility(showAfter: .milliseconds(100), clock: clock)
            query.debounce(.milliseconds(300), scheduler: clock.asScheduler)
                .subscribe(onNext: { [weak self] text in self?.searched.append(text) })
                .disposed(by: bag)
        }
    }

    @MainActor @Test func aViewModelTakesOneClockForRxTimersSleepsAndIndicators() async {
        let scheduler = TestScheduler()
        let clock = scheduler.virtualClock
        let model = SearchModel(clock: clock)
        let spinner = scheduler.createObserver(Bool.self)
        let subscription = model.spinner.subscribe(spinner)
        model.query.onNext("ti")
        await scheduler.advance(to: 100)
        model.query.onNext("tick")
        let load = Task { @MainActor in
            model.loading.onNext(true)
            try? await clock.sleep(for: .milliseconds(250))
            model.loading.onNext(false)
        }
        await scheduler.advance(to: 399)
        #expect(model.searched.isEmpty)
        await scheduler.advance(to: 400)
        #expect(model.searched == ["tick"])
        await load.value
        // Loading from 100 to 350: shown at 200 (100 after it started), hidden when it stopped.
        #expect(spinner.events == [.next(0, false), .next(200, true), .next(350, false)])
        subscription.dispose()
    }
}
