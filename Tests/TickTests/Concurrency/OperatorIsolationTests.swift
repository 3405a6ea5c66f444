import Dispatch
import Foundation
import Testing
import Tick
import TickTesting

/// An operator closure written on the main actor is never called off the main
/// queue (Docs/Concurrency.md, "What Tick checks and what it trusts"): when
/// its events arrive elsewhere, Tick does not call it, reports the misuse once
/// per operator and ends the sequence with `TickError.isolationViolation`.
///
/// Each violation test builds its chain in a `@MainActor` test, moves the
/// events to a background `DispatchQueueScheduler` before the operator (or
/// subscribes there, for closures called at subscription), and checks three
/// facts: the closure never ran off the main queue, the sequence failed with
/// the error, the report was made. Without the check (a `forIsolation` that
/// returns nil) the closure runs off main and the sequence does not fail, so
/// every one of them fails. Waits are on `TestExpectation`s fulfilled by the
/// code under test (the timeout is a safety net, not a timing assertion).
///
/// Serialized: the reports are made on background threads, where TickTesting
/// cannot attribute them to a test, so they are collected process-wide
/// (`IsolationReports`) and each test takes what its chain reported.
@Suite(.serialized, .checksResourceLeaks) struct OperatorIsolationTests {
    // MARK: Element closures

    @Test @MainActor func map() async {
        let probe = Probe()
        await expectViolation("map", probe) { $0.map { probe.record($0) } }
    }

    @Test @MainActor func compactMap() async {
        let probe = Probe()
        await expectViolation("compactMap", probe) { $0.compactMap { Optional(probe.record($0)) } }
    }

    @Test @MainActor func filter() async {
        let probe = Probe()
        await expectViolation("filter", probe) { $0.filter { probe.record($0) > 0 } }
    }

    @Test @MainActor func scanAndReduce() async {
        let probe = Probe()
        await expectViolation("scan", probe) { $0.scan(0) { $0 + probe.record($1) } }
        await expectViolation("scan(into:)", probe) { $0.scan(into: 0) { $0 += probe.record($1) } }
        await expectViolation("reduce", probe) { $0.reduce(0) { $0 + probe.record($1) } }
        await expectViolation("reduce", probe) {
            $0.reduce(0, accumulator: { $0 + probe.record($1) }, mapResult: { probe.record($0) })
        }
    }

    @Test @MainActor func flatMapFamily() async {
        let probe = Probe()
        await expectViolation("flatMap", probe) { $0.flatMap { Observable.just(probe.record($0)) } }
        await expectViolation("flatMapLatest", probe) { $0.flatMapLatest { Observable.just(probe.record($0)) } }
        await expectViolation("flatMapFirst", probe) { $0.flatMapFirst { Observable.just(probe.record($0)) } }
        await expectViolation("concatMap", probe) { $0.concatMap { Observable.just(probe.record($0)) } }
    }

    @Test @MainActor func doHooksOnEvents() async {
        let probe = Probe()
        await expectViolation("do", probe) { $0.do(onNext: { probe.record($0) }) }
        await expectViolation("do", probe) { $0.do(afterNext: { probe.record($0) }) }
        await expectViolation("do", probe) { $0.do(onCompleted: { probe.record(0) }) }
        await expectViolation("do", probe) {
            $0.concat(Observable.error(TestError.boom)).do(onError: { _ in probe.record(0) })
        }
    }

    @Test @MainActor func doHooksAtSubscription() async {
        let probe = Probe()
        await expectViolation("do", probe, subscribeOffMain: true) { $0.do(onSubscribe: { probe.record(0) }) }
        await expectViolation("do", probe, subscribeOffMain: true) { $0.do(onSubscribed: { probe.record(0) }) }
    }

    @Test @MainActor func doOnDisposeOffMainIsSkippedAndReported() async {
        let probe = Probe()
        let background = suiteQueue("OperatorIsolationTests.onDispose")
        _ = IsolationReports.take()
        // The subscription ends on the background queue (its completion), so
        // that is where `onDispose` would run: it is skipped, the sequence
        // completes as usual (disposal has nothing left to fail).
        let elements = Locked(0)
        let done = TestExpectation()
        let subscription = Observable.from([1, 2]).do(onDispose: { probe.record(0) }).subscribe(on: background)
            .subscribe(onNext: { _ in elements.withLock { $0 += 1 } }, onCompleted: { done.fulfill() })
        #expect(await done.wait(timeout: .seconds(300)))
        // The completion reaches this closure before the operators' clean-up
        // on the background queue has finished: let it finish there before
        // disposing here (a dispose from main would run `onDispose` on main).
        #expect(await drain(background))
        subscription.dispose()
        #expect(elements.current == 2)
        #expect(probe.calls == 0)
        #expect(IsolationReports.take().map(\.operatorName) == ["do"])
    }

    @Test @MainActor func catchAndRetryWhen() async {
        let probe = Probe()
        await expectViolation("catch", probe) {
            $0.concat(Observable.error(TestError.boom)).catch { _ in Observable.just(probe.record(0)) }
        }
        await expectViolation("retry(when:)", probe, subscribeOffMain: true) {
            $0.retry(when: { (errors: Observable<any Error>) in probe.record(0) == 0 ? errors : errors })
        }
        await expectViolation("retry(when:)", probe, subscribeOffMain: true) {
            $0.retry(when: { (errors: Observable<TestError>) in probe.record(0) == 0 ? errors : errors })
        }
    }

    @Test @MainActor func filteringPredicates() async {
        let probe = Probe()
        await expectViolation("distinctUntilChanged", probe) { $0.distinctUntilChanged { probe.record($0) } }
        await expectViolation("distinctUntilChanged", probe) {
            $0.distinctUntilChanged { probe.record($0) == $1 }
        }
        await expectViolation("distinctUntilChanged", probe) {
            $0.distinctUntilChanged({ probe.record($0) }, comparer: { $0 == $1 })
        }
        await expectViolation("take(while:)", probe) { $0.take(while: { probe.record($0) > 0 }) }
        await expectViolation("take(while:behavior:)", probe) {
            $0.take(while: { probe.record($0) > 0 }, behavior: .inclusive)
        }
        await expectViolation("take(until:)", probe) { $0.take(until: { probe.record($0) > 5 }) }
        await expectViolation("skip(while:)", probe) { $0.skip(while: { probe.record($0) < 0 }) }
        await expectViolation("take(while:)", probe) { $0.takeWhile { probe.record($0) > 0 } }
        await expectViolation("skip(while:)", probe) { $0.skipWhile { probe.record($0) < 0 } }
        await expectViolation("single", probe) { $0.single { probe.record($0) == 1 } }
    }

    @Test @MainActor func combiningSelectors() async {
        let probe = Probe()
        await expectViolation("withLatestFrom", probe) {
            $0.withLatestFrom(Observable.just(10)) { probe.record($0) + $1 }
        }
        await expectViolation("combineLatest", probe) {
            Observable.combineLatest($0, Observable.just(10)) { probe.record($0) + $1 }
        }
        await expectViolation("zip", probe) { Observable.zip($0, Observable.just(10)) { probe.record($0) + $1 } }
        await expectViolation("combineLatest", probe) {
            Observable.combineLatest([$0, Observable.just(10)]) { probe.record($0.reduce(0, +)) }
        }
        await expectViolation("zip", probe) { Observable.zip([$0, Observable.just(10)]) { probe.record($0[0]) } }
        let owner = Owner()
        await expectViolation("withUnretained", probe) {
            $0.withUnretained(owner) { owner, value in probe.record(value + owner.offset) }
        }
        await expectViolation("groupBy", probe) {
            $0.groupBy { probe.record($0) % 2 }.flatMap { $0.asObservable() }
        }
    }

    @Test @MainActor func creationClosuresRunAtSubscription() async {
        let probe = Probe()
        await expectViolation("create", probe, subscribeOffMain: true) { source in
            Observable.create { observer in
                probe.record(0)
                return source.subscribe(observer)
            }
        }
        await expectViolation("deferred", probe, subscribeOffMain: true) { source in
            Observable.deferred {
                probe.record(0)
                return source
            }
        }
        await expectViolation("generate", probe, subscribeOffMain: true) { _ in
            Observable.generate(initialState: 0, condition: { probe.record($0) < 3 }) { $0 + 1 }
        }
        await expectViolation("using", probe, subscribeOffMain: true) { source in
            Observable.using(
                {
                    probe.record(0)
                    return BooleanDisposable()
                }, observableFactory: { _ in source })
        }
        await expectViolation("multicast", probe, subscribeOffMain: true) { source in
            source.multicast({ probe.record(0) == 0 ? PublishSubject<Int>() : PublishSubject<Int>() },
                selector: { $0 })
        }
    }

    @Test @MainActor func traits() async {
        let probe = Probe()
        await expectViolation("map", probe) { $0.take(1).asSingle().map { probe.record($0) }.asObservable() }
        await expectViolation("flatMap", probe) {
            $0.take(1).asSingle().flatMap { Single.just(probe.record($0)) }.asObservable()
        }
        await expectViolation("filter", probe) { $0.take(1).asMaybe().filter { probe.record($0) > 0 }.asObservable() }
        await expectViolation("do", probe) { $0.take(1).asSingle().do(onSuccess: { probe.record($0) }).asObservable() }
        await expectViolation("catch", probe, subscribeOffMain: true) { _ in
            Completable.error(TestError.boom).catch { _ in probe.record(0) == 0 ? .empty() : .empty() }.asObservable()
        }
        await expectViolation("create", probe, subscribeOffMain: true) { _ in
            Single<Int>.create { observer in
                observer(.success(probe.record(1)))
                return Disposables.create()
            }.asObservable()
        }
    }

    @Test @MainActor func driverClosuresAreCheckedToo() async {
        // A Driver delivers on its sharing scheduler: mocked here with a
        // background one, its main-actor closures are not called there.
        let probe = Probe()
        let background = suiteQueue("OperatorIsolationTests.driver")
        _ = IsolationReports.take()
        let driver = SharingScheduler.mock(scheduler: background) {
            Observable.from([1, 2, 3]).asDriver(onErrorJustReturn: -1).map { probe.record($0) }
        }
        let outcome = await Outcome.of(driver.asObservable())
        #expect(probe.calls == 0)
        #expect(outcome.error as? TickError == .isolationViolation(operator: "map"))
        #expect(await drain(background))
        #expect(IsolationReports.take().map(\.operatorName) == ["map"])
    }

    // MARK: One report per operator

    @Test @MainActor func oneReportPerOperatorHoweverManySubscriptions() async {
        let probe = Probe()
        let background = suiteQueue("OperatorIsolationTests.once")
        _ = IsolationReports.take()
        let mapped = Observable.from([1, 2, 3]).observe(on: background).map { probe.record($0) }
        let first = await Outcome.of(mapped)
        let second = await Outcome.of(mapped)
        #expect(first.error as? TickError == .isolationViolation(operator: "map"))
        #expect(second.error as? TickError == .isolationViolation(operator: "map"))
        #expect(probe.calls == 0)
        #expect(await drain(background))
        #expect(IsolationReports.take().map(\.operatorName) == ["map"])
    }

    @Test @MainActor func theReportNamesTheOperatorAndTheFixes() async {
        let probe = Probe()
        let background = suiteQueue("OperatorIsolationTests.message")
        _ = IsolationReports.take()
        _ = await Outcome.of(Observable.just(1).observe(on: background).filter { probe.record($0) > 0 })
        #expect(await drain(background))
        let message = IsolationReports.take().first?.message ?? ""
        #expect(message.contains("filter"))
        #expect(message.contains("off the main thread"))
        #expect(message.contains("observe(on: MainScheduler.instance)"))
        #expect(message.contains("isolation: nil"))
    }

    // MARK: No false positives

    @Test @MainActor func onMainWithATestSchedulerNothingChanges() {
        // The test scheduler runs its actions here, on the main queue: every
        // closure runs, exactly as before, and nothing is reported.
        _ = IsolationReports.take()
        let probe = Probe()
        let scheduler = TestScheduler()
        let source = scheduler.createHotObservable([
            .next(210, 1), .next(220, 2), .next(230, 2), .next(240, 3), .completed(250),
        ])
        let result = scheduler.start {
            source
                .map { probe.record($0) * 10 }
                .filter { probe.record($0) > 10 }
                .distinctUntilChanged { probe.record($0) }
                .scan(0) { $0 + probe.record($1) }
                .do(onNext: { probe.record($0) }, onSubscribe: { probe.record(0) }, onDispose: { probe.record(0) })
                .flatMap { Observable.just(probe.record($0)) }
                .withLatestFrom(Observable.just(1)) { probe.record($0) + $1 }
        }
        #expect(result.events == [.next(220, 21), .next(240, 51), .completed(250)])
        #expect(probe.calls > 0)
        #expect(probe.offMainCalls == 0)
        #expect(IsolationReports.take().isEmpty)
    }

    @Test @MainActor func observingOnMainBeforeTheOperatorIsTheFix() async {
        let probe = Probe()
        let background = suiteQueue("OperatorIsolationTests.fix")
        _ = IsolationReports.take()
        let outcome = await Outcome.of(
            Observable.from([1, 2, 3]).subscribe(on: background).observe(on: MainScheduler.instance)
                .map { probe.record($0) })
        #expect(outcome.elements == 3)
        #expect(outcome.completed)
        #expect(probe.calls == 3)
        #expect(probe.offMainCalls == 0)
        #expect(await drain(background))
        #expect(IsolationReports.take().isEmpty)
    }

    @Test @MainActor func isolationNilOptsOut() async {
        let probe = Probe()
        let background = suiteQueue("OperatorIsolationTests.optOut")
        _ = IsolationReports.take()
        let outcome = await Outcome.of(
            Observable.from([1, 2, 3]).observe(on: background)
                .map({ probe.record($0) }, isolation: nil)
                .filter({ probe.record($0) > 1 }, isolation: nil))
        #expect(outcome.elements == 2)
        #expect(outcome.completed)
        #expect(probe.calls == 6)
        #expect(probe.offMainCalls == 6)
        #expect(await drain(background))
        #expect(IsolationReports.take().isEmpty)
    }

    @Test func nonisolatedChainsOnBackgroundQueuesAreUntouched() async {
        let probe = Probe()
        let background = suiteQueue("OperatorIsolationTests.nonisolated")
        _ = IsolationReports.take()
        let done = TestExpectation()
        let values = Locked<[Int]>([])
        let subscription = Self.nonisolatedChain(probe, background).subscribe(
            onNext: { value in values.withLock { $0.append(value) } },
            onError: { _ in done.fulfill() },
            onCompleted: { done.fulfill() })
        #expect(await done.wait(timeout: .seconds(300)))
        subscription.dispose()
        #expect(values.current == [20, 30])
        #expect(probe.calls > 0)
        #expect(probe.offMainCalls == probe.calls)
        #expect(await drain(background))
        #expect(IsolationReports.take().isEmpty)
    }

    private static func nonisolatedChain(_ probe: Probe, _ background: DispatchQueueScheduler) -> Observable<Int> {
        Observable.create { observer in
            probe.record(0)
            return Observable.from([1, 2, 3]).subscribe(observer)
        }
        .subscribe(on: background)
        .map { probe.record($0) * 10 }
        .filter { probe.record($0) > 10 }
        .do(onNext: { probe.record($0) })
    }

    @Test func closuresOfOtherActorsAreTrusted() async {
        // Swift cannot check without trapping whether a thread runs a given
        // actor: a closure isolated to another actor is called as given.
        let probe = Probe()
        let background = suiteQueue("OperatorIsolationTests.otherActor")
        _ = IsolationReports.take()
        let chain = await Builder().chain(Observable.from([1, 2]).observe(on: background), probe)
        let done = TestExpectation()
        let subscription = chain.subscribe(onError: { _ in done.fulfill() }, onCompleted: { done.fulfill() })
        #expect(await done.wait(timeout: .seconds(300)))
        subscription.dispose()
        #expect(probe.calls == 2)
        #expect(await drain(background))
        #expect(IsolationReports.take().isEmpty)
    }
}

// MARK: - Support

extension OperatorIsolationTests {
    /// Builds a chain with closures isolated to this actor.
    actor Builder {
        func chain(_ source: Observable<Int>, _ probe: Probe) -> Observable<Int> {
            source.map { probe.record($0) }
        }
    }

    final class Owner {
        let offset = 0
    }

    enum TestError: Error { case boom }

    /// Counts the calls of the closures under test and where they ran.
    final class Probe: @unchecked Sendable {
        private let state = Locked((calls: 0, offMain: 0))

        /// Records a call and returns `value`.
        @discardableResult
        func record(_ value: Int) -> Int {
            let onMain = MainQueueProbe.isCurrent
            state.withLock {
                $0.calls += 1
                if !onMain { $0.offMain += 1 }
            }
            return value
        }

        var calls: Int { state.current.calls }
        var offMainCalls: Int { state.current.offMain }
    }

    /// How a sequence ended, as a `@MainActor` subscriber saw it.
    @MainActor final class Outcome {
        var elements = 0
        var error: (any Error)?
        var completed = false

        /// Subscribes from the main actor (the closures run on main) and
        /// waits for the terminal event.
        static func of<Element>(_ sequence: Observable<Element>) async -> Outcome {
            let outcome = Outcome()
            let done = TestExpectation()
            let subscription = sequence.subscribe(
                onNext: { _ in outcome.elements += 1 },
                onError: { error in
                    outcome.error = error
                    done.fulfill()
                },
                onCompleted: {
                    outcome.completed = true
                    done.fulfill()
                })
            #expect(await done.wait(timeout: .seconds(300)))
            subscription.dispose()
            return outcome
        }
    }

    /// Builds a chain with `build` (its closures are written here, on the
    /// main actor), runs it with events on a background queue, and checks
    /// that the closures never ran off main, that the sequence failed with
    /// `TickError.isolationViolation(operator: operatorName)` and that one
    /// report named the operator.
    ///
    /// The events reach the operator off main: the source is observed on a
    /// background queue, or, with `subscribeOffMain` (closures called at
    /// subscription), the whole chain is subscribed there.
    @MainActor
    func expectViolation<Output>(
        _ operatorName: String, _ probe: Probe, subscribeOffMain: Bool = false,
        sourceLocation: SourceLocation = #_sourceLocation,
        _ build: (Observable<Int>) -> Observable<Output>
    ) async {
        let background = suiteQueue("OperatorIsolationTests.\(operatorName)")
        _ = IsolationReports.take()
        let callsBefore = probe.calls
        let source = Observable.from([1, 2, 3])
        let chain =
            subscribeOffMain
            ? build(source).subscribe(on: background)
            : build(source.observe(on: background))
        let outcome = await Outcome.of(chain)
        #expect(probe.offMainCalls == 0, "\(operatorName): the closure ran off main", sourceLocation: sourceLocation)
        #expect(probe.calls == callsBefore, "\(operatorName): the closure ran", sourceLocation: sourceLocation)
        #expect(
            outcome.error as? TickError == .isolationViolation(operator: operatorName),
            "\(operatorName): ended with \(String(describing: outcome.error)), completed: \(outcome.completed)",
            sourceLocation: sourceLocation)
        #expect(await drain(background), sourceLocation: sourceLocation)
        let reports = IsolationReports.take()
        #expect(reports.map(\.operatorName) == [operatorName], sourceLocation: sourceLocation)
    }
}

/// The misuse reports about main-actor operator closures made on this
/// suite's background queues (``suiteQueue(_:)``), collected
/// process-wide. They are made on background threads, where TickTesting
/// cannot attribute them to a test (there is no current test there): the
/// handler installed here takes them, and passes every other report on
/// (and these too when a test is current, so they still fail it).
enum IsolationReports {
    struct Report {
        let message: String
        /// The operator named in ``TickError/isolationViolation(operator:)``.
        var operatorName: String {
            guard let start = message.range(of: "isolationViolation(operator: \""),
                let end = message[start.upperBound...].firstIndex(of: "\"")
            else { return "?" }
            return String(message[start.upperBound..<end])
        }
    }

    private static let reports = Locked<[Report]>([])

    private static let installed: Void = {
        TestFailureReporter.reportMisuseAsTestFailures()
        let previous = Locked<Misuse.Handler?>(nil)
        let old = Misuse.setHandler { report in
            // Only the reports made on this suite's queues: other tests (the
            // Docs/Concurrency.md example) make such reports in parallel.
            if report.message.contains("is isolated to the main actor"), DispatchQueue.getSpecific(key: suiteQueueKey) != nil {
                reports.withLock { $0.append(Report(message: report.message)) }
                if Test.current == nil { return }
            }
            previous.current?(report)
        }
        previous.withLock { $0 = old }
    }()

    /// The reports made since the last call (installs the handler first).
    static func take() -> [Report] {
        _ = installed
        return reports.withLock { reports in
            defer { reports = [] }
            return reports
        }
    }
}

/// Marks this suite's background queues, so that `IsolationReports` tells
/// their reports from those of other tests running in parallel.
private let suiteQueueKey = DispatchSpecificKey<Bool>()

/// A background scheduler on a queue of this suite.
func suiteQueue(_ label: String) -> DispatchQueueScheduler {
    let queue = DispatchQueue(label: label)
    queue.setSpecific(key: suiteQueueKey, value: true)
    return DispatchQueueScheduler(queue: queue)
}
