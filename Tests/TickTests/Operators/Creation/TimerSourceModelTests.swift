import Testing
import Tick
import TickTesting

/// A one-shot timer and a periodic one are sources of two kinds
/// (`OneShotTimerSource`, `PeriodicTimerSource`, Timer.swift), each with
/// three ways in: its observable's first closure subscription (the source
/// is the sink), a later closure subscription (a sink of its own, the
/// source's generic action), and any other subscription (a `TimerSink`).
/// Every way, for several element types (`Int` takes a specialized action,
/// the others the generic one), must give what a model of `timer`'s
/// contract gives, written here from the contract alone: `0` at the due
/// time, then completion for a one-shot timer, or `k` at `due + k × period`
/// for a periodic one; a disposal before an element stops it; at the same
/// instant, the work scheduled first runs first.
@Suite(.checksResourceLeaks) struct TimerSourceModelTests {
    final class Log: @unchecked Sendable {
        var entries: [String] = []
        var subscription: (any Disposable)?
    }

    /// The ways in to a timer's source.
    enum Path: CaseIterable {
        case firstClosureSubscription
        case laterClosureSubscription
        case throughAnObserver
    }

    /// What the contract says the log holds: the subscription at 0, the
    /// disposal at `disposal` (scheduled before the subscription when
    /// `disposeFirst`), the scheduler advanced to 20.
    static func model(due: Int, period: Int?, disposal: Int, disposeFirst: Bool) -> [String] {
        guard let period else {
            // The timer's action runs first at its instant unless the
            // disposal was scheduled before it.
            if due < disposal || (due == disposal && !disposeFirst) {
                return ["next(0)@\(due)", "completed@\(due)", "disposed@\(due)"]
            }
            return ["disposed@\(disposal)"]
        }
        var entries: [String] = []
        var k = 0
        var time = due
        while time < disposal || (time == disposal && k == 0 && !disposeFirst) {
            entries.append("next(\(k))@\(time)")
            k += 1
            time += period
        }
        entries.append("disposed@\(disposal)")
        return entries
    }

    /// Runs one case on a fresh scheduler and returns the log.
    static func run<Element: FixedWidthInteger>(
        _: Element.Type, path: Path, due: Int, period: Int?, disposal: Int, disposeFirst: Bool
    ) -> [String] {
        let scheduler = TestScheduler()
        let log = Log()
        var timer = Observable<Element>.timer(
            .milliseconds(due), period: period.map { .milliseconds($0) }, scheduler: scheduler)
        switch path {
        case .firstClosureSubscription:
            break
        case .laterClosureSubscription:
            // The first closure subscription takes the source as its sink;
            // this one, disposed at once, leaves the next one a sink of its own.
            timer.subscribe(onNext: { _ in }).dispose()
        case .throughAnObserver:
            // `filter { _ in true }` passes everything: a `TimerSink` behind it.
            timer = timer.filter { _ in true }
        }
        if disposeFirst { scheduler.scheduleAt(TestTime(disposal)) { log.subscription?.dispose() } }
        log.subscription = timer.subscribe(
            onNext: { log.entries.append("next(\($0))@\(scheduler.clock)") },
            onError: { _ in log.entries.append("error@\(scheduler.clock)") },
            onCompleted: { log.entries.append("completed@\(scheduler.clock)") },
            onDisposed: { log.entries.append("disposed@\(scheduler.clock)") })
        if !disposeFirst { scheduler.scheduleAt(TestTime(disposal)) { log.subscription?.dispose() } }
        scheduler.advance(to: 20)
        #expect(scheduler.pendingCount == 0)
        log.subscription = nil
        return log.entries
    }

    @Test(arguments: Path.allCases)
    func everyPathMatchesTheModel(path: Path) {
        var generator = SeededGenerator(seed: 25)
        var cases = 0
        while cases < 200 {
            let due = Int.random(in: 0...6, using: &generator)
            let period: Int? = Bool.random(using: &generator) ? Int.random(in: 1...4, using: &generator) : nil
            let disposal = Int.random(in: 0...16, using: &generator)
            let disposeFirst = Bool.random(using: &generator)
            // A periodic element after the first is rescheduled by the one
            // before it, so at a disposal's very instant the two run in an
            // order the model leaves to the scheduler (compared path against
            // path in `DirectTimerTests`): not drawn here.
            if let period, disposal > due, (disposal - due) % period == 0 { continue }
            cases += 1
            let expected = Self.model(due: due, period: period, disposal: disposal, disposeFirst: disposeFirst)
            let what = "due \(due), period \(String(describing: period)), disposal \(disposal), first \(disposeFirst)"
            #expect(
                Self.run(Int.self, path: path, due: due, period: period, disposal: disposal, disposeFirst: disposeFirst)
                    == expected, "Int: \(what)")
            #expect(
                Self.run(UInt8.self, path: path, due: due, period: period, disposal: disposal, disposeFirst: disposeFirst)
                    == expected, "UInt8: \(what)")
            #expect(
                Self.run(Int64.self, path: path, due: due, period: period, disposal: disposal, disposeFirst: disposeFirst)
                    == expected, "Int64: \(what)")
        }
    }

    /// The periodic timer's first element is the one-shot timer's, at the
    /// same instant, on every path: the two kinds of source agree where
    /// their contracts overlap.
    @Test func aPeriodicTimersFirstElementIsTheOneShotTimers() {
        for path in Path.allCases {
            for due in 0...5 {
                let oneShot = Self.run(Int.self, path: path, due: due, period: nil, disposal: 20, disposeFirst: false)
                let periodic = Self.run(Int.self, path: path, due: due, period: 7, disposal: due, disposeFirst: false)
                #expect(oneShot.first == periodic.first, "\(path), due \(due)")
                #expect(oneShot.first == "next(0)@\(due)")
            }
        }
    }
}
