extension ActivityIndicatorButton {
    /// The button's appearance on a frame clock: frames at exactly subscription +
    /// k × period (k = 0, 1, 2, …) on the button's scheduler, each the appearance
    /// at that instant. The first frame is scheduled work due at once (a
    /// `TestScheduler` delivers it when advanced, even by zero). Never completes;
    /// dispose to stop.
    ///
    /// A period that is not positive is reported as misuse by the scheduler and
    /// nothing is emitted.
    public func appearances(every period: Duration) -> Observable<ActivityIndicatorButtonAppearance> {
        let scheduler = self.scheduler
        return Observable<Int>.timer(.zero, period: period, scheduler: scheduler)
            .map { [self] _ in self.appearance(at: scheduler.now) }
    }
}
