import Foundation
import Tick

/// Checks a property over generated timelines: runs `body` `runs` times,
/// each time with a fresh ``PropertyRun`` (a new ``TestScheduler`` and
/// inputs generated from `seed`), and on the first failing run shrinks its
/// inputs to a minimal failing case, which it reports once, at the caller's
/// line, as marble diagrams of every input and output, with the seed and a
/// one-line replay.
///
/// ```swift
/// forAllTimelines(runs: 500) { run in
///     let keys = run.hot("keys", TimelineGen(of: .int(in: 0...9), within: 0...1000, density: 0.02))
///     let output = run.record("output", keys.debounce(.milliseconds(100), scheduler: run.scheduler))
///     run.scheduler.run()
///     return output.events.count <= keys.recordedEvents.count
/// }
/// ```
///
/// - Parameters:
///   - runs: how many timelines to try (each one is one run of `body`).
///   - seed: the seed of the runs: the same seed gives the same runs on
///     every machine (SplitMix64, see ``SeededGenerator``).
///   - exploringOrder: whether work due at the same virtual instant from
///     different sources runs in a generated order rather than in
///     scheduling order (Docs/PropertyTesting.md states the rule).
///   - shrinkBudget: the most runs shrinking may make.
///   - replay: a case's replay text from a report: runs exactly that case,
///     once.
///   - body: builds the system under test on `run.scheduler`, runs it, and
///     returns whether the property holds. Failures reported through
///     ``PropertyRun/expect(_:_:fileID:filePath:line:column:)``, by
///     TickTesting, or thrown count too: a body that checks only that way
///     ends with `return true`.
/// - Returns: what happened, for tests that look at the counterexample.
@discardableResult
public func forAllTimelines(
    runs: Int = 100, seed: UInt64 = 0, exploringOrder: Bool = false, shrinkBudget: Int = 2000,
    replay: String? = nil,
    fileID: String = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column,
    _ body: (PropertyRun) throws -> Bool
) -> PropertyResult {
    let check = PropertyCheck(
        runs: runs, seed: seed, exploringOrder: exploringOrder, shrinkBudget: shrinkBudget, replay: replay,
        site: CallSite(fileID: fileID, filePath: filePath, line: line, column: column))
    return check.perform { choices in check.execute(choices, body) }
}

/// The asynchronous form, for bodies that await: drive the run's scheduler
/// with the async `advance`/`run` (Docs/AsyncAwait.md). Runs one after the
/// other, never concurrently.
@discardableResult
public func forAllTimelines(
    runs: Int = 100, seed: UInt64 = 0, exploringOrder: Bool = false, shrinkBudget: Int = 2000,
    replay: String? = nil,
    fileID: String = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column,
    isolation: isolated (any Actor)? = #isolation,
    _ body: (PropertyRun) async throws -> Bool
) async -> PropertyResult {
    let check = PropertyCheck(
        runs: runs, seed: seed, exploringOrder: exploringOrder, shrinkBudget: shrinkBudget, replay: replay,
        site: CallSite(fileID: fileID, filePath: filePath, line: line, column: column))
    guard let plan = check.start() else { return check.invalidReplayResult() }
    while let choices = plan.next() {
        plan.record(await check.execute(choices, body))
    }
    return check.finish(plan)
}

/// What a property check found.
public struct PropertyResult: Sendable, CustomStringConvertible {
    /// How many generated runs it made before it stopped (not counting shrinking).
    public let runs: Int
    /// The minimal failing case, or nil if every run held.
    public let counterexample: Counterexample?

    /// Whether every run held.
    public var passed: Bool { counterexample == nil }

    /// The counterexample's report, or how many runs held.
    @_optimize(none)  // cold: a failure or report (Docs/Performance.md, "Build time")
    public var description: String {
        counterexample?.report ?? "property held in \(runs) run\(runs == 1 ? "" : "s")"
    }
}

/// The minimal failing case of a property check.
public struct Counterexample: Sendable {
    /// The index (from 0) of the first failing run; nil for a replayed case.
    public let failingRun: Int?
    /// The check's seed.
    public let seed: UInt64
    /// The text that replays exactly this case
    /// (`forAllTimelines(replay: "...")`).
    public let replay: String
    /// The failures the minimal case collected.
    public let failures: [String]
    /// The inputs and outputs of the minimal case, one line each: name,
    /// kind, and a marble diagram (or a value).
    public let timelines: [String]
    /// The departures from scheduling order the minimal case needs (order
    /// exploration), one line each.
    public let orderNotes: [String]
    /// How many runs shrinking made.
    public let shrinkRuns: Int
    /// Whether shrinking ran out of its budget (then the case may not be minimal).
    public let shrinkStoppedAtBudget: Bool
    /// The whole report, as it is recorded as a test failure.
    public let report: String
}

/// The outcome of one run: whether it failed, its choices, and the run.
struct RunOutcome {
    let failed: Bool
    let drawn: [UInt64]
    let run: PropertyRun
}

/// Runs, shrinks and reports one property check.
///
/// A class, like its `Plan`: one reference instead of a struct of several
/// strings and counters copied at every call keeps down the code a debug
/// build emits for copying them (Docs/Performance.md, "Build time").
final class PropertyCheck: Sendable {
    let runs: Int
    let seed: UInt64
    let exploringOrder: Bool
    let shrinkBudget: Int
    let replay: String?
    let site: CallSite

    init(runs: Int, seed: UInt64, exploringOrder: Bool, shrinkBudget: Int, replay: String?, site: CallSite) {
        self.runs = max(0, runs)
        self.seed = seed
        self.exploringOrder = exploringOrder
        self.shrinkBudget = max(0, shrinkBudget)
        self.replay = replay
        self.site = site
    }

    /// The seed of run `index`: a SplitMix64 step of the check's seed per run,
    /// so runs are independent of each other and of how many there are.
    static func seed(_ seed: UInt64, run index: Int) -> UInt64 {
        var generator = SeededGenerator(seed: seed ^ (UInt64(truncatingIfNeeded: index) &* 0xD1B5_4A32_D192_ED03))
        return generator.next()
    }

    /// What to run next: generated runs, then shrinking, then the final run
    /// of the minimal case (for the report).
    final class Plan {
        enum Stage {
            case generating(index: Int)
            case shrinking(Shrinker, failingRun: Int?)
            case final(Shrinker, failingRun: Int?)
            case finished
        }

        var stage: Stage
        let check: PropertyCheck
        var pending: [UInt64]?
        var generated = 0
        var finalOutcome: RunOutcome?
        var finalShrinker: Shrinker?
        var failingRun: Int?

        init(stage: Stage, check: PropertyCheck) {
            self.stage = stage
            self.check = check
        }

        func next() -> Choices? {
            switch stage {
            case .generating(let index):
                guard index < check.runs else {
                    stage = .finished
                    return nil
                }
                return Choices(seed: PropertyCheck.seed(check.seed, run: index))
            case .shrinking(let shrinker, let failingRun):
                if let candidate = shrinker.next() {
                    pending = candidate
                    return Choices(replaying: candidate)
                }
                stage = .final(shrinker, failingRun: failingRun)
                return Choices(replaying: shrinker.best)
            case .final, .finished:
                return nil
            }
        }

        func record(_ outcome: RunOutcome) {
            switch stage {
            case .generating(let index):
                generated = index + 1
                if outcome.failed {
                    stage = .shrinking(
                        Shrinker(failing: outcome.drawn, budget: check.replay == nil ? check.shrinkBudget : 0),
                        failingRun: check.replay == nil ? index : nil)
                } else {
                    stage = .generating(index: index + 1)
                }
            case .shrinking(let shrinker, _):
                shrinker.record(pending ?? [], failed: outcome.failed, drew: outcome.drawn)
            case .final(let shrinker, let failingRun):
                finalOutcome = outcome
                finalShrinker = shrinker
                self.failingRun = failingRun
                stage = .finished
            case .finished:
                break
            }
        }
    }

    /// The plan of this check, or nil when `replay` cannot be read.
    func start() -> Plan? {
        guard let replay else { return Plan(stage: .generating(index: 0), check: self) }
        guard let choices = ReplayText.decode(replay) else { return nil }
        // A replay is one generated "run" whose choices are given.
        let plan = Plan(stage: .shrinking(Shrinker(failing: choices, budget: 0), failingRun: nil), check: self)
        plan.generated = 1
        return plan
    }

    func invalidReplayResult() -> PropertyResult {
        TestFailureReporter.fail(
            "forAllTimelines: the replay text \"\(replay ?? "")\" is not one a property report writes (it starts with \"\(ReplayText.prefix)\" followed by numbers in base 36 separated by dots). Nothing was run.",
            at: site)
        return PropertyResult(runs: 0, counterexample: nil)
    }

    func perform(_ execute: (Choices) -> RunOutcome) -> PropertyResult {
        guard let plan = start() else { return invalidReplayResult() }
        while let choices = plan.next() {
            plan.record(execute(choices))
        }
        return finish(plan)
    }

    /// One run of `body` with `choices`, its failures collected.
    func execute(_ choices: Choices, _ body: (PropertyRun) throws -> Bool) -> RunOutcome {
        let run = PropertyRun(choices: choices, exploringOrder: exploringOrder)
        let failures = run.failures
        let held = TestFailureReporter.$handlerBox.withValue(.init { failures.append(PropertyCheck.describe($0)) }) { () -> Bool in
            do {
                return try body(run)
            } catch {
                failures.append("the body threw \(error)")
                return true
            }
        }
        run.finish()
        return outcome(of: run, held: held)
    }

    /// One run of an async `body` with `choices`, its failures collected.
    func execute(
        _ choices: Choices, isolation: isolated (any Actor)? = #isolation, _ body: (PropertyRun) async throws -> Bool
    ) async -> RunOutcome {
        let run = PropertyRun(choices: choices, exploringOrder: exploringOrder)
        let failures = run.failures
        let held = await TestFailureReporter.$handlerBox.withValue(.init { failures.append(PropertyCheck.describe($0)) }) {
            () async -> Bool in
            do {
                return try await body(run)
            } catch {
                failures.append("the body threw \(error)")
                return true
            }
        }
        run.finish()
        return outcome(of: run, held: held)
    }

    private func outcome(of run: PropertyRun, held: Bool) -> RunOutcome {
        if !held { run.failures.append("the property returned false") }
        return RunOutcome(failed: !run.failures.all.isEmpty, drawn: run.choices.drawn, run: run)
    }

    @_optimize(none)  // cold: a failure or report (Docs/Performance.md, "Build time")
    static func describe(_ failure: TestFailure) -> String {
        "\(failure.site.fileID):\(failure.site.line): " + (failure.title.map { $0 + ": " } ?? "") + failure.message
    }

    /// Reports the minimal case, if any, and says what happened.
    func finish(_ plan: Plan) -> PropertyResult {
        guard let outcome = plan.finalOutcome, let shrinker = plan.finalShrinker,
            outcome.failed || plan.failingRun != nil
        else {
            // Every run held, or the replayed case held.
            return PropertyResult(runs: plan.generated, counterexample: nil)
        }
        let counterexample = makeCounterexample(
            outcome, shrinker: shrinker, failingRun: plan.failingRun, generated: plan.generated)
        TestFailureReporter.fail(
            TestFailure(title: counterexample.report.prefix { $0 != "\n" }.description, message: counterexample.report, site: site))
        return PropertyResult(runs: plan.generated, counterexample: counterexample)
    }

    // Runs once, for a failing property: `@_optimize(none)` saves a release
    // build of TickTesting the time (Docs/Performance.md, "Build time").
    @_optimize(none)
    private func makeCounterexample(
        _ outcome: RunOutcome, shrinker: Shrinker, failingRun: Int?, generated: Int
    ) -> Counterexample {
        let run = outcome.run
        let replayText = ReplayText.encode(outcome.drawn)
        let width = run.shown.map(\.name.count).max() ?? 0
        let kindWidth = run.shown.map(\.kind.count).max() ?? 0
        let timelines = run.shown.map { entry in
            entry.name.padding(toLength: width, withPad: " ", startingAt: 0) + "  "
                + entry.kind.padding(toLength: kindWidth, withPad: " ", startingAt: 0) + "  " + entry.text()
        }
        let orderNotes = (run.explorer?.departures ?? []).map {
            "at \($0.time): \($0.ran) ran before \($0.insteadOf) (scheduling order runs the latter first)"
        }
        var failures = outcome.failed ? run.failures.all : []
        if !outcome.failed {
            failures = ["the minimal case did not fail when run again: is the property deterministic (no real time, no shared state between runs)?"]
        }
        var lines: [String] = []
        if let failingRun {
            lines.append(
                "property failed in run \(failingRun + 1) of \(runs) (seed \(seed)); minimal case after \(shrinker.attempts) shrinking run\(shrinker.attempts == 1 ? "" : "s")"
                    + (shrinker.stoppedAtBudget ? " (the shrink budget ran out: it may not be minimal)" : "") + ":")
        } else {
            lines.append("property failed on the replayed case:")
        }
        lines += timelines.map { "  " + $0 }
        if !orderNotes.isEmpty {
            lines.append("same-instant order (order exploration):")
            lines += orderNotes.map { "  " + $0 }
        }
        lines.append("failures:")
        lines += failures.map { "  " + $0 }
        lines.append("replay: forAllTimelines(" + (exploringOrder ? "exploringOrder: true, " : "") + "replay: \"\(replayText)\") { ... }")
        return Counterexample(
            failingRun: failingRun, seed: seed, replay: replayText, failures: failures, timelines: timelines,
            orderNotes: orderNotes, shrinkRuns: shrinker.attempts, shrinkStoppedAtBudget: shrinker.stoppedAtBudget,
            report: lines.joined(separator: "\n"))
    }
}
