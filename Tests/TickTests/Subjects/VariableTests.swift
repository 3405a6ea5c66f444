import Dispatch
import Testing
import Tick
import TickTesting

/// One observer call, for comparing logs.
struct Call<Value: Equatable>: Equatable, CustomStringConvertible {
    let tag: String
    let new: Value
    let old: Value?
    init(_ tag: String, _ new: Value, _ old: Value?) {
        self.tag = tag
        self.new = new
        self.old = old
    }
    var description: String { "\(tag):(\(new), \(old.map { "\($0)" } ?? "nil"))" }
}

@Suite(.checksResourceLeaks) struct VariableTests {
    @Test func subscribeCallsAtOnceWithCurrentAndNil() {
        let variable = Variable(1)
        let log = Locked<[Call<Int>]>([])
        let subscription = variable.subscribe { new, old in log.withLock { $0.append(Call("a", new, old)) } }
        #expect(log.current == [Call("a", 1, nil)])
        variable.value = 2
        #expect(log.current == [Call("a", 1, nil), Call("a", 2, 1)])
        #expect(variable.value == 2)
        subscription.dispose()
    }

    @Test func everySetNotifiesEvenWithAnEqualValue() {
        let variable = Variable("x")
        let log = Locked<[Call<String>]>([])
        let subscription = variable.subscribe { new, old in log.withLock { $0.append(Call("a", new, old)) } }
        variable.value = "x"
        variable.value = "x"
        #expect(log.current == [Call("a", "x", nil), Call("a", "x", "x"), Call("a", "x", "x")])
        subscription.dispose()
    }

    @Test func observerIsRegisteredBeforeItsFirstCall() {
        let variable = Variable(0)
        let log = Locked<[Call<Int>]>([])
        let subscription = variable.subscribe { new, old in
            log.withLock { $0.append(Call("a", new, old)) }
            if new == 0 { variable.value = 1 }
        }
        #expect(log.current == [Call("a", 0, nil), Call("a", 1, 0)])
        subscription.dispose()
    }

    @Test func observersAreNotifiedInSubscriptionOrder() {
        let variable = Variable(0)
        let log = Locked<[String]>([])
        let bag = DisposeBag()
        for tag in ["a", "b", "c", "d", "e", "f", "g", "h"] {
            variable.subscribe { new, _ in log.withLock { $0.append("\(tag)\(new)") } }.disposed(by: bag)
        }
        log.withLock { $0 = [] }
        variable.value = 1
        #expect(log.current == ["a1", "b1", "c1", "d1", "e1", "f1", "g1", "h1"])
    }

    @Test func aValueSetInsideAnObserverIsDeliveredAfterTheCurrentRound() {
        let variable = Variable(0)
        let log = Locked<[Call<Int>]>([])
        let bag = DisposeBag()
        variable.subscribe { new, old in
            log.withLock { $0.append(Call("a", new, old)) }
            if new == 1 { variable.value = 2 }
        }.disposed(by: bag)
        variable.subscribe { new, old in log.withLock { $0.append(Call("b", new, old)) } }.disposed(by: bag)
        log.withLock { $0 = [] }
        variable.value = 1
        #expect(log.current == [Call("a", 1, 0), Call("b", 1, 0), Call("a", 2, 1), Call("b", 2, 1)])
        #expect(variable.value == 2)
    }

    @Test func disposedObserversGetNothingMoreEvenMidRound() {
        let variable = Variable(0)
        let log = Locked<[String]>([])
        var second: (any Disposable)?
        let first = variable.subscribe { new, _ in
            log.withLock { $0.append("a\(new)") }
            if new == 1 { second?.dispose() }
        }
        second = variable.subscribe { new, _ in log.withLock { $0.append("b\(new)") } }
        variable.value = 1
        variable.value = 2
        #expect(log.current == ["a0", "b0", "a1", "a2"])
        #expect(variable.observerCount == 1)
        first.dispose()
        #expect(variable.observerCount == 0)
    }

    @Test func disposeBagEndsSubscriptions() {
        let variable = Variable(0)
        let count = Locked(0)
        var bag: DisposeBag? = DisposeBag()
        variable.subscribe { _, _ in count.withLock { $0 += 1 } }.disposed(by: bag!)
        variable.value = 1
        bag = nil
        variable.value = 2
        #expect(count.current == 2)
        #expect(variable.observerCount == 0)
    }

    @Test func readOnlyViewObservesTheSameValue() {
        let variable = Variable(10)
        let view: ObservableValue<Int> = variable.asObservableValue
        let log = Locked<[Int]>([])
        let subscription = view.subscribe { new, _ in log.withLock { $0.append(new) } }
        variable.value = 11
        #expect(log.current == [10, 11])
        subscription.dispose()
    }

    @Test func optionalValuesWork() {
        let variable = Variable<Int?>(nil)
        let log = Locked<[String]>([])
        let subscription = variable.subscribe { new, old in log.withLock { $0.append("\(String(describing: new)) \(String(describing: old))") } }
        variable.value = 3
        #expect(variable.value == 3)
        #expect(log.current == ["nil nil", "Optional(3) Optional(nil)"])
        subscription.dispose()
    }

    // MARK: PublishVariable

    @Test func publishVariableStartsEmptyAndMakesNoFirstCall() {
        let subject = PublishVariable<String>()
        let log = Locked<[Call<String>]>([])
        let subscription = subject.subscribe { new, old in log.withLock { $0.append(Call("a", new, old)) } }
        #expect(subject.value == nil)
        #expect(log.current == [])
        subject.update("x")
        subject.update("y")
        #expect(subject.value == "y")
        #expect(log.current == [Call("a", "x", nil), Call("a", "y", "x")])
        subscription.dispose()
    }

    @Test func publishVariableOldValueIsThePreviousStoredOneEvenBeforeSubscribing() {
        let subject = PublishVariable<Int>()
        subject.update(1)
        let log = Locked<[Call<Int>]>([])
        let subscription = subject.subscribe { new, old in log.withLock { $0.append(Call("a", new, old)) } }
        subject.update(2)
        #expect(log.current == [Call("a", 2, 1)])
        subscription.dispose()
    }

    // MARK: Filters

    @Test func filterSeesRawOldButObserverGetsLastPassed() {
        // The original's documented table: values 0...5, filter "even".
        let variable = Variable(0)
        let filterCalls = Locked<[Call<Int>]>([])
        let observerCalls = Locked<[Call<Int>]>([])
        let subscription = variable.subscribe(
            filter: { new, old in
                filterCalls.withLock { $0.append(Call("f", new, old)) }
                return new % 2 == 0
            },
            observer: { new, old in observerCalls.withLock { $0.append(Call("o", new, old)) } })
        for value in 1...5 { variable.value = value }
        #expect(filterCalls.current == [
            Call("f", 0, nil), Call("f", 1, 0), Call("f", 2, 1), Call("f", 3, 2), Call("f", 4, 3), Call("f", 5, 4),
        ])
        #expect(observerCalls.current == [Call("o", 0, nil), Call("o", 2, 0), Call("o", 4, 2)])
        subscription.dispose()
    }

    @Test func subscribeDistinctSkipsEqualValuesAndTheFirstAlwaysPasses() {
        let variable = Variable("a")
        let log = Locked<[Call<String>]>([])
        let subscription = variable.subscribeDistinct { new, old in log.withLock { $0.append(Call("d", new, old)) } }
        variable.value = "a"
        variable.value = "b"
        variable.value = "b"
        variable.value = "a"
        #expect(log.current == [Call("d", "a", nil), Call("d", "b", "a"), Call("d", "a", "b")])
        subscription.dispose()
    }

    @Test func subscribeDistinctOnAPublishVariable() {
        let subject = PublishVariable<Int>()
        let log = Locked<[Call<Int>]>([])
        let subscription = subject.subscribeDistinct { new, old in log.withLock { $0.append(Call("d", new, old)) } }
        subject.update(1)
        subject.update(1)
        subject.update(2)
        #expect(log.current == [Call("d", 1, nil), Call("d", 2, 1)])
        subscription.dispose()
    }

    // MARK: Threads

    @Test func concurrentSetsAreDeliveredOneRoundAtATimeInSetOrder() async {
        let variable = Variable(0)
        let seen = Locked<[Int]>([])
        let olds = Locked<[Int?]>([])
        let inside = Locked(0)
        let overlapped = Locked(false)
        let subscription = variable.subscribe { new, old in
            let depth = inside.withLock { value -> Int in
                value += 1
                return value
            }
            if depth > 1 { overlapped.withLock { $0 = true } }
            seen.withLock { $0.append(new) }
            olds.withLock { $0.append(old) }
            inside.withLock { $0 -= 1 }
        }
        let threads = 8
        let perThread = 500
        await withTaskGroup(of: Void.self) { group in
            for thread in 0..<threads {
                group.addTask {
                    for index in 0..<perThread { variable.value = thread * perThread + index + 1 }
                }
            }
        }
        subscription.dispose()
        let values = seen.current
        #expect(values.count == threads * perThread + 1)
        #expect(!overlapped.current)
        // Each notification's old value is the previous notification's new value.
        #expect(Array(olds.current.dropFirst()) == values.dropLast().map { Optional($0) })
        #expect(variable.value == values.last)
        // Every value set was delivered exactly once.
        #expect(Set(values.dropFirst()).count == threads * perThread)
    }

    @Test func concurrentSubscribeAndDisposeLeavesNoObservers() async {
        let variable = Variable(0)
        await withTaskGroup(of: Void.self) { group in
            for thread in 0..<8 {
                group.addTask {
                    for index in 0..<200 {
                        let subscription = variable.subscribe { _, _ in }
                        variable.value = thread * 1000 + index
                        subscription.dispose()
                    }
                }
            }
        }
        #expect(variable.observerCount == 0)
    }
}
