import Testing
import Tick
import TickTesting

/// The observable grammar: next* (error | completed)?, nothing after a terminal
/// event, nothing after disposal; disposal is idempotent and safe from callbacks.
@Suite(.checksResourceLeaks) struct GrammarTests {
    /// An observable type of a user's own that ignores the grammar.
    struct Unruly: ObservableType {
        typealias Element = Int
        let log: Log
        final class Log { var disposed = 0 }
        func subscribe<Observer: ObserverType>(_ observer: Observer) -> any Disposable where Observer.Element == Int {
            observer.on(.next(1))
            observer.on(.completed)
            observer.on(.next(2))
            observer.on(.error(TestError(1)))
            return Disposables.create { [log] in log.disposed += 1 }
        }
    }

    @Test func asObservableOfAPlainObservableTypeEnforcesTheGrammar() {
        // RxSwift's default asObservable() is a create around subscribe: nothing after the
        // terminal event, and the source's subscription disposed once it ended.
        let log = Unruly.Log()
        var received: [Event<Int>] = []
        _ = Unruly(log: log).asObservable().subscribe { received.append($0) }
        #expect(received == [.next(1), .completed])
        #expect(log.disposed == 1)
    }

    @Test func createDropsEverythingAfterATerminalEvent() {
        var received: [Event<Int>] = []
        var disposedCount = 0
        let source = Observable<Int>.create { observer in
            observer.onNext(1)
            observer.onCompleted()
            observer.onNext(2)
            observer.onError(TestError())
            observer.onCompleted()
            return Disposables.create { disposedCount += 1 }
        }
        _ = source.subscribe { received.append($0) }
        #expect(received == [.next(1), .completed])
        #expect(disposedCount == 1, "the create closure's disposable is disposed after the terminal event")
    }

    @Test func nothingIsDeliveredAfterDisposal() {
        let subject = PublishSubject<Int>()
        var captured: AnyObserver<Int>?
        let source = Observable<Int>.create { observer in
            captured = observer
            return Disposables.create()
        }
        var received: [Int] = []
        let subscription = source.subscribe(onNext: { received.append($0) })
        captured?.onNext(1)
        subscription.dispose()
        captured?.onNext(2)
        captured?.onCompleted()
        #expect(received == [1])
        _ = subject
    }

    @Test func disposeIsIdempotentAndOnDisposedRunsOnce() {
        let subject = PublishSubject<Int>()
        var disposedCalls = 0
        let subscription = subject.map { $0 + 1 }.subscribe(onDisposed: { disposedCalls += 1 })
        subscription.dispose()
        subscription.dispose()
        #expect(disposedCalls == 1)
        #expect(!subject.hasObservers)
    }

    @Test func disposingFromInsideOnNextStopsDeliveryAtOnce() {
        let subject = PublishSubject<Int>()
        var received: [Int] = []
        var subscription: (any Disposable)?
        subscription = subject.filter { _ in true }.subscribe(onNext: { value in
            received.append(value)
            if value == 2 { subscription?.dispose() }
        })
        for value in 1...5 { subject.onNext(value) }
        #expect(received == [1, 2])
        #expect(!subject.hasObservers)
    }

    @Test func terminalCallbacksRunInRxSwiftOrder() {
        var log: [String] = []
        _ = Observable<Int>.create { observer in
            observer.onCompleted()
            return Disposables.create { log.append("source disposed") }
        }.subscribe(onCompleted: { log.append("completed") }, onDisposed: { log.append("disposed") })
        #expect(log == ["completed", "disposed", "source disposed"])
    }

    @Test func anErrorIsTerminalToo() {
        var log: [String] = []
        _ = Observable<Int>.error(TestError(3)).subscribe(
            onNext: { _ in log.append("next") },
            onError: { log.append("error \($0)") },
            onCompleted: { log.append("completed") },
            onDisposed: { log.append("disposed") })
        #expect(log == ["error TestError(3)", "disposed"])
    }

    @Test func synchronousSourcesStartAfterTheChainIsWired() {
        // An endless synchronous source stops because take's disposal reaches it.
        var received: [Int] = []
        _ = Observable.from(1...).map { $0 * 2 }.take(3).subscribe(onNext: { received.append($0) })
        #expect(received == [2, 4, 6])
    }

    @Test func throwingOperatorClosuresEndTheSequenceWithTheError() {
        var events: [Event<Int>] = []
        _ = Observable.of(1, 2, 3).map { value -> Int in
            if value == 2 { throw TestError(2) }
            return value
        }.subscribe { events.append($0) }
        #expect(events == [.next(1), .error(TestError(2))])
    }

    @Test func disposingBeforeTheUpstreamSubscriptionReturnsStillDisposesIt() {
        var sourceDisposed = false
        let source = Observable<Int>.create { observer in
            observer.onNext(1)
            return Disposables.create { sourceDisposed = true }
        }
        var received: [Int] = []
        _ = source.take(1).subscribe(onNext: { received.append($0) })
        #expect(received == [1])
        #expect(sourceDisposed)
    }

    @Test func deferredRunsItsFactoryPerSubscriptionAndForwardsThrownErrors() {
        var calls = 0
        let source = Observable<Int>.deferred {
            calls += 1
            if calls == 2 { throw TestError(9) }
            return .just(calls)
        }
        var events: [Event<Int>] = []
        _ = source.subscribe { events.append($0) }
        _ = source.subscribe { events.append($0) }
        #expect(events == [.next(1), .completed, .error(TestError(9))])
    }

    @Test func disposingReleasesClosuresThatCaptureTheirOwner() {
        final class Owner {
            let bag = DisposeBag()
            var seen = 0
        }
        let subject = PublishSubject<Int>()
        weak var weakOwner: Owner?
        var subscription: (any Disposable)?
        do {
            let owner = Owner()
            weakOwner = owner
            // owner → bag → subscription → closure → owner: a cycle until disposal.
            let s = subject.subscribe(onNext: { owner.seen += $0 })
            s.disposed(by: owner.bag)
            subscription = s
        }
        subject.onNext(1)
        #expect(weakOwner?.seen == 1)
        subscription?.dispose()
        subscription = nil
        #expect(weakOwner == nil, "disposal breaks the cycle, so the owner is freed")
    }

    @Test func neverAndEmpty() {
        var events: [Event<Int>] = []
        let never = Observable<Int>.never().subscribe { events.append($0) }
        _ = Observable<Int>.empty().subscribe { events.append($0) }
        #expect(events == [.completed])
        never.dispose()
    }
}
