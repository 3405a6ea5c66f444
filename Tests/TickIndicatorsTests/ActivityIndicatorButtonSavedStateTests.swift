import Testing
import TickIndicators
import TickTesting

@Suite(.checksResourceLeaks) struct ActivityIndicatorButtonSavedStateTests {
    enum Names {
        static let inactive = "Inactive", spinning = "Spinning", progressBar = "Progress Bar", paused = "Paused"
        static let complete = "Complete", error = "Error"
    }

    static func readmeStates() -> [ActivityIndicatorButtonState] {
        [
            ActivityIndicatorButtonState(name: Names.inactive, image: ButtonImage(name: "inactive")),
            ActivityIndicatorButtonState(name: Names.spinning, progressBarStyle: .spinning),
            ActivityIndicatorButtonState(name: Names.progressBar, image: ButtonImage(name: "pause"), progressBarStyle: .percentage(0)),
            ActivityIndicatorButtonState(name: Names.paused, image: ButtonImage(name: "play"), progressBarStyle: .percentage(0)),
            ActivityIndicatorButtonState(name: Names.complete, tintColor: green, image: ButtonImage(name: "complete")),
            ActivityIndicatorButtonState(name: Names.error, tintColor: red, image: ButtonImage(name: "error")),
        ]
    }

    @Test func saveLookUpChangeAndTransition() throws {
        let (scheduler, button) = makeButton()
        try button.saveStates(Self.readmeStates())
        #expect(button.savedStatesCount == 6)
        button[Names.progressBar]?.setProgress(0.35)
        #expect(button[Names.progressBar]?.progressBarStyle == .percentage(0.35))
        #expect(button.activityState.progressBarStyle == .inactive)  // values: the current state is untouched
        #expect(button.transitionSavedState(Names.progressBar))
        #expect(button.activityState.name == Names.progressBar)
        scheduler.advance(to: at(200))
        #expect(button.appearance.strokeEnd == Double(Float(0.35)))
        #expect(button.appearance.image == ButtonImage(name: "pause"))
        button[Names.progressBar]?.setProgress(0.9)  // saved copy changes; the shown state does not
        #expect(button.activityState.progressBarStyle == .percentage(0.35))
    }

    @Test func unknownNameReturnsFalseAndChangesNothing() throws {
        let (_, button) = makeButton()
        try button.saveStates(Self.readmeStates())
        let before = button.appearance
        #expect(!button.transitionSavedState("Nope"))
        #expect(button.appearance == before)
        #expect(button.activityState == ActivityIndicatorButtonState())
    }

    @Test func transitionWithoutAnimationSnaps() throws {
        let (_, button) = makeButton()
        try button.saveStates(Self.readmeStates())
        #expect(button.transitionSavedState(Names.complete, animated: false))
        let a = button.appearance
        #expect(a.fillColor == green && a.tintGrowth == nil && a.imageReveal == 1)
    }

    @Test func unnamedStateThrowsAndSavesNothing() throws {
        let (_, button) = makeButton()
        button["Kept"] = ActivityIndicatorButtonState(name: "Kept")
        #expect(throws: ActivityIndicatorButtonError.unnamedState(index: 1)) {
            try button.saveStates([ActivityIndicatorButtonState(name: "A"), ActivityIndicatorButtonState(), ActivityIndicatorButtonState(name: "C")])
        }
        #expect(button.savedStatesCount == 1)
        #expect(button["A"] == nil)
        #expect(String(describing: ActivityIndicatorButtonError.unnamedState(index: 1)).contains("index 1"))
    }

    @Test func savingKeepsOthersReplacesSameNameAndNilRemoves() throws {
        let (_, button) = makeButton()
        try button.saveStates([ActivityIndicatorButtonState(name: "A"), ActivityIndicatorButtonState(name: "B")])
        try button.saveStates([ActivityIndicatorButtonState(name: "B", tintColor: red), ActivityIndicatorButtonState(name: "C")])
        #expect(button.savedStatesCount == 3)
        #expect(button["B"]?.tintColor == red)
        button["A"] = nil
        #expect(button.savedStatesCount == 2 && button["A"] == nil)
        button["Z"] = ActivityIndicatorButtonState(name: "other")
        #expect(button["Z"]?.name == "other")  // stored under the key
        #expect(button.transitionSavedState("Z"))
    }
}

@Suite(.checksResourceLeaks) struct ActivityIndicatorButtonBindingTests {
    @Test func loadingDrivesTheSpinner() {
        let (scheduler, button) = makeButton()
        button.image = ButtonImage(name: "download")
        let loading = PublishSubject<Bool>()
        let subscription = loading.bindSpinning(to: button)
        loading.onNext(true)
        #expect(button.activityState.progressBarStyle == .spinning)
        #expect(button.activityState.image == ButtonImage(name: "download"))
        scheduler.advance(to: at(450))
        #expect(close(button.appearance.strokeEnd, 0.5))
        loading.onNext(false)
        #expect(button.activityState.progressBarStyle == .inactive)
        subscription.dispose()
        loading.onNext(true)
        #expect(button.activityState.progressBarStyle == .inactive)
    }

    @Test func progressDrivesThePercentage() {
        let (scheduler, button) = makeButton()
        let progress = PublishSubject<Double>()
        let floats = PublishSubject<Float>()
        let bag = DisposeBag()
        progress.bindProgress(to: button).disposed(by: bag)
        floats.bindProgress(to: button, animated: false).disposed(by: bag)
        progress.onNext(0.25)
        #expect(button.activityState.progressBarStyle == .percentage(0.25))
        scheduler.advance(to: at(200))
        #expect(button.appearance.strokeEnd == 0.25)
        floats.onNext(0.75)
        #expect(button.appearance.strokeEnd == 0.75)
        progress.onNext(3)
        scheduler.advance(to: at(400))
        #expect(button.appearance.strokeEnd == 1)
    }

    struct Failure: Error {}

    @Test func errorsShowTheErrorStateAndClearingRestores() throws {
        let (scheduler, button) = makeButton()
        try button.saveStates([ActivityIndicatorButtonState(name: "Error", tintColor: red, image: ButtonImage(name: "error"))])
        let working = ActivityIndicatorButtonState(name: "Working", progressBarStyle: .spinning)
        button.transition(to: working)
        let errors = PublishSubject<(any Error)?>()
        let subscription = errors.bindError(to: button, showing: "Error")
        errors.onNext(nil)
        #expect(button.activityState == working)
        scheduler.advance(to: at(100))
        errors.onNext(Failure())
        #expect(button.activityState.name == "Error")
        errors.onNext(Failure())
        scheduler.advance(to: at(400))
        #expect(button.appearance.fillColor == red)
        errors.onNext(nil)
        #expect(button.activityState == working)
        subscription.dispose()
    }

    @Test func anActivityIndicatorDrivesTheSpinnerInOneLine() {
        let (scheduler, button) = makeButton()
        let indicator = ActivityIndicator()
        let subscription = indicator.bindSpinning(to: button)
        #expect(button.activityState.progressBarStyle == .inactive)
        let work = Observable.just(1).delay(.milliseconds(300), scheduler: scheduler)
            .trackActivity(in: indicator)
            .subscribe()
        #expect(button.activityState.progressBarStyle == .spinning)
        scheduler.advance(to: at(299))
        #expect(button.activityState.progressBarStyle == .spinning)
        scheduler.advance(to: at(300))
        #expect(button.activityState.progressBarStyle == .inactive)
        work.dispose()
        subscription.dispose()
    }

    @Test func anErrorTrackerDrivesTheErrorStateInOneLine() throws {
        let (scheduler, button) = makeButton()
        try button.saveStates([ActivityIndicatorButtonState(name: "Error", tintColor: red)])
        let tracker = ErrorTracker(scheduler: scheduler)
        let subscription = tracker.bindError(to: button, showing: "Error")
        tracker.update(with: Failure(), resetAfter: .milliseconds(500))
        #expect(button.activityState.name == "Error")
        scheduler.advance(to: at(499))
        #expect(button.activityState.name == "Error")
        scheduler.advance(to: at(500))
        #expect(button.activityState == ActivityIndicatorButtonState())
        subscription.dispose()
    }

    @Test func errorWithoutASavedErrorStateIsReportedAsMisuse() {
        let (_, button) = makeButton()
        let errors = PublishSubject<(any Error)?>()
        let subscription = errors.bindError(to: button, showing: "Missing")
        withKnownIssue {
            errors.onNext(Failure())
        }
        #expect(button.activityState == ActivityIndicatorButtonState())
        subscription.dispose()
    }
}

@Suite(.checksResourceLeaks) struct ActivityIndicatorButtonFrameClockTests {
    @Test func appearancesArriveOnTheFrameClock() {
        let (scheduler, button) = makeButton(state: ActivityIndicatorButtonState(progressBarStyle: .spinning))
        var frames: [ActivityIndicatorButtonAppearance] = []
        let subscription = button.appearances(every: .milliseconds(450)).subscribe(onNext: { frames.append($0) })
        #expect(frames.isEmpty)  // the first frame is scheduled work due now
        scheduler.advance(by: .zero)
        #expect(frames.count == 1)
        scheduler.advance(to: at(449))
        #expect(frames.count == 1)
        scheduler.advance(to: at(450))
        #expect(frames.count == 2)
        scheduler.advance(to: at(900))
        #expect(frames == [0, 450, 900].map { button.appearance(at: at($0)) })
        #expect(close(frames[1].strokeEnd, 0.5))
        subscription.dispose()
        scheduler.advance(to: at(2000))
        #expect(frames.count == 3)
    }

    @Test func updateAppliesTheClosureToTheCurrentState() {
        let (_, button) = makeButton(state: ActivityIndicatorButtonState(name: "A", tintColor: red))
        button.update { $0.setProgress(0.5) }
        #expect(button.activityState == ActivityIndicatorButtonState(name: "A", tintColor: red, progressBarStyle: .percentage(0.5)))
    }
}
