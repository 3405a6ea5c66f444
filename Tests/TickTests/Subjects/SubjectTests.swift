import Testing
import Tick
import TickTesting

@Suite(.checksResourceLeaks) struct SubjectTests {
    @Test func publishDeliversOnlyLaterEventsInSubscriptionOrder() {
        let subject = PublishSubject<Int>()
        var log: [String] = []
        subject.onNext(0)
        let a = subject.subscribe(onNext: { log.append("a\($0)") })
        let b = subject.subscribe(onNext: { log.append("b\($0)") })
        subject.onNext(1)
        a.dispose()
        subject.onNext(2)
        #expect(log == ["a1", "b1", "b2"])
        b.dispose()
    }

    @Test func publishGivesLateSubscribersTheTerminalEventOnly() {
        let subject = PublishSubject<Int>()
        subject.onNext(1)
        subject.onCompleted()
        subject.onNext(2)
        var events: [Event<Int>] = []
        _ = subject.subscribe { events.append($0) }
        #expect(events == [.completed])
        #expect(subject.isStopped)
        #expect(!subject.hasObservers)
    }

    @Test func behaviorReplaysTheCurrentValueThenLiveOnes() throws {
        let subject = BehaviorSubject(value: "initial")
        var first: [String] = []
        let a = subject.subscribe(onNext: { first.append($0) })
        subject.onNext("x")
        var second: [String] = []
        let b = subject.subscribe(onNext: { second.append($0) })
        subject.onNext("y")
        #expect(first == ["initial", "x", "y"])
        #expect(second == ["x", "y"])
        #expect(try subject.value() == "y")
        a.dispose()
        b.dispose()
    }

    @Test func behaviorAfterAnErrorThrowsFromValueAndGivesOnlyTheError() {
        let subject = BehaviorSubject(value: 1)
        subject.onError(TestError(5))
        #expect(throws: TestError(5)) { try subject.value() }
        var events: [Event<Int>] = []
        _ = subject.subscribe { events.append($0) }
        #expect(events == [.error(TestError(5))])
    }

    @Test func behaviorAfterCompletionKeepsItsLastValue() throws {
        let subject = BehaviorSubject(value: 1)
        subject.onNext(2)
        subject.onCompleted()
        #expect(try subject.value() == 2)
    }

    @Test func replayReplaysTheBufferThenTheTerminal() {
        let subject = ReplaySubject<Int>.create(bufferSize: 2)
        for value in 1...4 { subject.onNext(value) }
        var early: [Event<Int>] = []
        let a = subject.subscribe { early.append($0) }
        subject.onNext(5)
        subject.onCompleted()
        var late: [Event<Int>] = []
        _ = subject.subscribe { late.append($0) }
        #expect(early == [.next(3), .next(4), .next(5), .completed])
        #expect(late == [.next(4), .next(5), .completed])
        a.dispose()
    }

    @Test func unboundedReplayKeepsEverything() {
        let subject = ReplaySubject<Int>.createUnbounded()
        for value in 1...100 { subject.onNext(value) }
        var received: [Int] = []
        let subscription = subject.subscribe(onNext: { received.append($0) })
        #expect(received == Array(1...100))
        subscription.dispose()
    }

    @Test func aSubjectFedFromInsideItsOwnObserverDeliversDepthFirst() {
        let subject = PublishSubject<Int>()
        var log: [String] = []
        let a = subject.subscribe(onNext: { value in
            log.append("a\(value)")
            if value == 1 { subject.onNext(2) }
        })
        let b = subject.subscribe(onNext: { log.append("b\($0)") })
        subject.onNext(1)
        #expect(log == ["a1", "a2", "b2", "b1"])
        a.dispose()
        b.dispose()
    }

    @Test func aSubscriberAddedDuringReplayDeliveryCatchesUpWithoutDuplicates() {
        let subject = BehaviorSubject(value: 0)
        var received: [Int] = []
        var inner: (any Disposable)?
        // While receiving its replayed value, the first subscriber pushes a new
        // value: it must see both, in order, once each.
        inner = subject.subscribe(onNext: { value in
            received.append(value)
            if value == 0 { subject.onNext(1) }
        })
        #expect(received == [0, 1])
        inner?.dispose()
    }

    @Test func subscriptionsCountAsResourcesUntilDisposed() {
        let scope = Resources.Scope()
        let subject = PublishSubject<Int>()
        let subscription = scope.run { subject.subscribe(AnyObserver { _ in }) }
        #expect(scope.live == 1)
        subscription.dispose()
        #expect(scope.live == 0)
    }
}
