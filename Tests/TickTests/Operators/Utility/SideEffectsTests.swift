import Testing
import Tick
import TickTesting

@Suite(.checksResourceLeaks) struct SideEffectsTests {
    final class Log: @unchecked Sendable {
        var entries: [String] = []
        func add(_ entry: String) { entries.append(entry) }
    }

    @Test func doCallsEveryHookInOrder() {
        let log = Log()
        let subject = PublishSubject<Int>()
        let observable = subject.do(
            onNext: { log.add("onNext \($0)") }, afterNext: { log.add("afterNext \($0)") },
            onError: { _ in log.add("onError") }, afterError: { _ in log.add("afterError") },
            onCompleted: { log.add("onCompleted") }, afterCompleted: { log.add("afterCompleted") },
            onSubscribe: { log.add("onSubscribe") }, onSubscribed: { log.add("onSubscribed") },
            onDispose: { log.add("onDispose") })
        let d = observable.subscribe(onNext: { log.add("observer \($0)") }, onCompleted: { log.add("observer completed") })
        subject.onNext(1)
        subject.onCompleted()
        #expect(log.entries == [
            "onSubscribe", "onSubscribed", "onNext 1", "observer 1", "afterNext 1",
            "onCompleted", "observer completed", "afterCompleted", "onDispose",
        ])
        d.dispose()
        #expect(log.entries.filter { $0 == "onDispose" }.count == 1)
    }

    @Test func doErrorHooksAndDisposal() {
        let log = Log()
        let subject = PublishSubject<Int>()
        let observable = subject.do(onError: { _ in log.add("onError") }, afterError: { _ in log.add("afterError") }, onDispose: { log.add("onDispose") })
        _ = observable.subscribe(onError: { _ in log.add("observer error") })
        subject.onError(TestError(1))
        #expect(log.entries == ["onError", "observer error", "afterError", "onDispose"])

        let log2 = Log()
        let subject2 = PublishSubject<Int>()
        let d = subject2.do(onNext: { log2.add("onNext \($0)") }, onDispose: { log2.add("onDispose") }).subscribe()
        subject2.onNext(1)
        d.dispose()
        subject2.onNext(2)
        #expect(log2.entries == ["onNext 1", "onDispose"])
        #expect(!subject2.hasObservers)
    }

    @Test func doTickByTick() {
        let scheduler = TestScheduler()
        let xs = scheduler.createHotObservable([.next(150, 1), .next(210, 2), .next(220, 3), .completed(250)])
        var seen: [Int] = []
        let res = scheduler.start { xs.do(onNext: { seen.append($0) }) }
        #expect(res.events == [.next(210, 2), .next(220, 3), .completed(250)])
        #expect(seen == [2, 3])
        #expect(xs.subscriptions == [Subscription(200, 250)])
    }

    @Test func doThrowingHooksBecomeErrors() {
        let scheduler = TestScheduler()
        let xs = scheduler.createHotObservable([.next(210, 2), .next(220, 3), .completed(250)])
        let res = scheduler.start { xs.do(onNext: { if $0 == 3 { throw TestError(1) } }) }
        #expect(res.events == [.next(210, 2), .error(220, TestError(1))])
        #expect(xs.subscriptions == [Subscription(200, 220)])

        let s2 = TestScheduler()
        let ys = s2.createHotObservable([.next(210, 2), .completed(250)])
        let after = s2.start { ys.do(afterNext: { _ in throw TestError(2) }) }
        #expect(after.events == [.next(210, 2), .error(210, TestError(2))])

        let s3 = TestScheduler()
        let zs = s3.createHotObservable([.completed(250, Int.self)])
        let completed = s3.start { zs.do(onCompleted: { throw TestError(3) }) }
        #expect(completed.events == [.error(250, TestError(3))])
    }

    @Test func doOrderWhenTheSourceEndsWhileBeingSubscribed() {
        for fails in [false, true] {
            var log: [String] = []
            let source = Observable<Int>.create { observer in
                log.append("source subscribed")
                observer.onNext(0)
                if fails { observer.onError(TestError(1)) } else { observer.onCompleted() }
                return Disposables.create { log.append("source disposed") }
            }
            _ = source.do(
                onNext: { _ in log.append("onNext") },
                onError: { _ in log.append("onError") },
                onCompleted: { log.append("onCompleted") },
                onSubscribe: { log.append("onSubscribe") },
                onSubscribed: { log.append("onSubscribed") },
                onDispose: { log.append("onDispose") }
            ).subscribe { _ in }
            // RxSwift's order: onSubscribed after the source's subscribe returned (the
            // source already disposed), onDispose last.
            #expect(log == [
                "onSubscribe", "source subscribed", "onNext", fails ? "onError" : "onCompleted",
                "source disposed", "onSubscribed", "onDispose",
            ])
        }
    }

    @Test func doDisposedMidStreamEmptyNever() {
        let scheduler = TestScheduler()
        let xs = scheduler.createHotObservable([.next(210, 2), .next(220, 3)])
        var disposedAt: TestTime?
        let res = scheduler.start(disposed: 215) { xs.do(onDispose: { disposedAt = scheduler.clock }) }
        #expect(res.events == [.next(210, 2)])
        #expect(disposedAt == 215)
        #expect(xs.subscriptions == [Subscription(200, 215)])
        var completed = false
        #expect(TestScheduler().start { Observable<Int>.empty().do(onCompleted: { completed = true }) }.events == [.completed(200)])
        #expect(completed)
        #expect(TestScheduler().start { Observable<Int>.never().do(onNext: { _ in }) }.events.isEmpty)
    }
}
