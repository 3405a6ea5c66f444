import Testing
import Tick  // deliberately without @_spi: this file is written as a user's module would be

/// A scheduler written the way a user writes one, with `import Tick` alone:
/// the protocol's requirements that have defaults must not need naming
/// (they once were SPI, and a conformance outside Tick did not compile).
private final class ManualScheduler: Scheduler, @unchecked Sendable {
    // @unchecked Sendable: each test uses it on its own thread only.
    private struct Work {
        var due: SchedulerInstant
        let period: Duration?
        let action: () -> Void
        let cancel = BooleanDisposable()
    }
    private(set) var now = SchedulerInstant.origin
    private var pending: [Work] = []

    func schedule(_ action: @escaping () -> Void) -> any Disposable { schedule(after: .zero, action) }

    func schedule(after delay: Duration, _ action: @escaping () -> Void) -> any Disposable {
        let work = Work(due: now + max(delay, .zero), period: nil, action: action)
        pending.append(work)
        return work.cancel
    }

    func schedulePeriodic(after delay: Duration, period: Duration, _ action: @escaping () -> Void) -> any Disposable {
        let work = Work(due: now + max(delay, .zero), period: period, action: action)
        pending.append(work)
        return work.cancel
    }

    /// Runs everything due up to `now + step`, earliest first, ties in scheduling order.
    func advance(by step: Duration) {
        let end = now + step
        while true {
            pending.removeAll { $0.cancel.isDisposed }
            guard
                let next = pending.indices.filter({ pending[$0].due <= end })
                    .min(by: { pending[$0].due < pending[$1].due })
            else { break }
            var work = pending.remove(at: next)
            now = work.due
            work.action()
            if let period = work.period, !work.cancel.isDisposed {
                work.due += period
                pending.append(work)
            }
        }
        now = end
    }
}

@Suite struct SchedulerConformanceTests {
    @Test func aSchedulerWrittenOutsideTickKeepsTheDefaults() {
        let scheduler = ManualScheduler()
        #expect(scheduler._referenceForTimers === scheduler)
        #expect(scheduler._schedulesOnlyForLater == false)
    }

    @Test func timeOperatorsRunOnASchedulerWrittenOutsideTick() {
        let scheduler = ManualScheduler()
        var seen: [String] = []
        let timer = Observable<Int>.timer(.milliseconds(30), scheduler: scheduler)
            .subscribe(onNext: { seen.append("timer \($0) at \(scheduler.now)") })
        let ticks = Observable<Int>.interval(.milliseconds(20), scheduler: scheduler).take(2)
            .subscribe(onNext: { seen.append("interval \($0) at \(scheduler.now)") })
        let delayed = Observable.just("x").delay(.milliseconds(25), scheduler: scheduler)
            .subscribe(onNext: { seen.append("delay \($0) at \(scheduler.now)") })
        scheduler.advance(by: .milliseconds(29))
        #expect(seen == ["interval 0 at 0.02 seconds", "delay x at 0.025 seconds"])
        scheduler.advance(by: .milliseconds(1))
        #expect(seen.suffix(1) == ["timer 0 at 0.03 seconds"])
        scheduler.advance(by: .milliseconds(100))
        #expect(seen.suffix(2) == ["timer 0 at 0.03 seconds", "interval 1 at 0.04 seconds"])
        #expect(seen.count == 4)
        timer.dispose()
        ticks.dispose()
        delayed.dispose()
    }
}
