import Testing
import Tick
import TickTesting

/// Code under test as users write it: its inputs are `Observable`s.
private struct Shouter {
    let output: Observable<String>
    init(input: Observable<String>) { output = input.map { $0.uppercased() } }
}

private func both(_ first: Observable<Int>, _ second: Observable<Int>) -> Observable<Int> {
    first.merge(with: second)
}

/// Test observables go wherever an `Observable` is expected, with no
/// `.asObservable()` (issue 24, item 9 of the report).
@Suite(.checksResourceLeaks) struct TestObservableAsObservableTests {
    @Test func aHotDiagramIsAnObservableArgument() {
        let scheduler = TestScheduler()
        let shouter = Shouter(input: scheduler.hot("-a-b|"))
        scheduler.expect(shouter.output).toBe("-A-B|")
        scheduler.flush()
    }

    @Test func aColdDiagramIsAnObservableArgumentInAnAsyncTest() async {
        let scheduler = TestScheduler()
        let shouter = Shouter(input: scheduler.cold("--a|"))
        scheduler.expect(shouter.output).toBe("--A|")
        await scheduler.flush()
    }

    @Test func diagramsWithValuesAndRecordingsAreObservableArguments() {
        let scheduler = TestScheduler()
        let merged = both(
            scheduler.cold("-a--|", values: ["a": 1]),
            scheduler.createColdObservable([.next(2, 2), .completed(3)]))
        scheduler.expect(merged).toBe("-ab-|", values: ["a": 1, "b": 2])
        let hot = both(
            scheduler.hot("---c|", values: ["c": 3]), scheduler.createHotObservable([.next(1, 4), .completed(2)]))
        scheduler.expect(hot).toBe("-d-c|", values: ["c": 3, "d": 4])
        scheduler.flush()
    }

    @Test func tickAPIsTakingObservablesTakeDiagrams() {
        // `Observable.merge(_:)` takes `Observable` values, not any source.
        let scheduler = TestScheduler()
        scheduler.expect(Observable.merge(scheduler.cold("-a|"), scheduler.hot("--b|"))).toBe("-ab|")
        scheduler.flush()
    }

    @Test func aDeclaredObservableConstantTakesADiagram() {
        let scheduler = TestScheduler()
        let query: Observable<String> = scheduler.hot("-a-^-b-|")
        scheduler.expect(query).toBe("--b-|")
        scheduler.flush()
    }

    @Test func aClosureReturningAnObservableTakesADiagram() {
        let scheduler = TestScheduler()
        let outer = scheduler.cold("-a--b|")
        let makeInner: (String) -> Observable<String> = { _ in scheduler.cold("x|") }
        scheduler.expect(outer.flatMap(makeInner)).toBe("-x--x|")
        scheduler.flush()
    }

    @Test func aPlainConstantIsStillTheTestObservableWithItsLog() {
        // Without a context asking for an Observable, the test observable
        // itself is made: its subscription log is there to check.
        let scheduler = TestScheduler()
        let source = scheduler.cold("-a|")
        #expect(type(of: source) == ColdObservable<String>.self)
        let hot = scheduler.hot("-a|", values: ["a": 1])
        #expect(type(of: hot) == HotObservable<Int>.self)
        scheduler.expect(Shouter(input: source.asObservable()).output).toBe("-A|")
        scheduler.expectSubscriptions(source.subscriptions).toBe("^-!")
        scheduler.flush()
    }
}
