import Testing
import Tick
import TickTesting

@Suite(.checksResourceLeaks) struct CombiningTests {
    // MARK: combineLatest

    @Test func combineLatestTwo() {
        let scheduler = TestScheduler()
        let xs = scheduler.createHotObservable([.next(150, 1), .next(210, 2), .next(240, 3), .completed(300)])
        let ys = scheduler.createHotObservable([.next(220, "a"), .next(250, "b"), .completed(320)])
        let res = scheduler.start { Observable.combineLatest(xs, ys) { "\($0)\($1)" } }
        #expect(res.events == [.next(220, "2a"), .next(240, "3a"), .next(250, "3b"), .completed(320)])
        #expect(xs.subscriptions == [Subscription(200, 300)])
        #expect(ys.subscriptions == [Subscription(200, 320)])
    }

    @Test func combineLatestCompletesWhenASourceCompletesEmpty() {
        let scheduler = TestScheduler()
        let xs = scheduler.createHotObservable([.completed(230, Int.self)])
        let ys = scheduler.createHotObservable([.next(220, 1), .next(250, 2), .completed(320)])
        let res = scheduler.start { Observable.combineLatest(xs, ys) { $0 + $1 } }
        // As in RxSwift: not at 230 when xs completes empty, but when ys next emits and no
        // combination is possible.
        #expect(res.events == [.completed(250)])
        #expect(ys.subscriptions == [Subscription(200, 250)])
    }

    @Test func combineLatestErrorAndSelectorThrows() {
        let scheduler = TestScheduler()
        let xs = scheduler.createHotObservable([.next(210, 1), .next(240, 3)])
        let ys = scheduler.createHotObservable([.next(220, 10), .error(235, TestError(1))])
        let res = scheduler.start { Observable.combineLatest(xs, ys) { $0 + $1 } }
        #expect(res.events == [.next(220, 11), .error(235, TestError(1))])
        #expect(xs.subscriptions == [Subscription(200, 235)])

        let s2 = TestScheduler()
        let a = s2.createHotObservable([.next(210, 1), .next(240, 3)])
        let b = s2.createHotObservable([.next(220, 10)])
        let thrown = s2.start {
            Observable.combineLatest(a, b) { x, y -> Int in
                if x == 3 { throw TestError(2) }
                return x + y
            }
        }
        #expect(thrown.events == [.next(220, 11), .error(240, TestError(2))])
        #expect(b.subscriptions == [Subscription(200, 240)])
    }

    @Test func combineLatestDisposedMidStreamAndNever() {
        let scheduler = TestScheduler()
        let xs = scheduler.createHotObservable([.next(210, 1), .next(240, 3)])
        let ys = scheduler.createHotObservable([.next(220, 10), .next(250, 20)])
        let res = scheduler.start(disposed: 245) { Observable.combineLatest(xs, ys) { $0 + $1 } }
        #expect(res.events == [.next(220, 11), .next(240, 13)])
        #expect(xs.subscriptions == [Subscription(200, 245)])
        #expect(ys.subscriptions == [Subscription(200, 245)])
        let never = TestScheduler().start {
            Observable.combineLatest(Observable<Int>.never(), Observable.just(1)) { $0 + $1 }
        }
        #expect(never.events.isEmpty)
    }

    @Test func combineLatestThreeAndFourAsTuples() {
        let scheduler = TestScheduler()
        let a = scheduler.createHotObservable([.next(210, 1), .completed(400)])
        let b = scheduler.createHotObservable([.next(220, "b"), .completed(400)])
        let c = scheduler.createHotObservable([.next(230, true), .next(240, false), .completed(400)])
        let d = scheduler.createHotObservable([.next(235, 2.5), .completed(410)])
        let three = scheduler.createObserver(String.self)
        let four = scheduler.createObserver(String.self)
        var subscriptions: [any Disposable] = []
        scheduler.scheduleAt(200) {
            subscriptions.append(Observable.combineLatest(a, b, c).map { "\($0)\($1)\($2)" }.subscribe(three))
            subscriptions.append(Observable.combineLatest(a, b, c, d).map { "\($0)\($1)\($2)\($3)" }.subscribe(four))
        }
        scheduler.run()
        #expect(three.events == [.next(230, "1btrue"), .next(240, "1bfalse"), .completed(400)])
        #expect(four.events == [.next(235, "1btrue2.5"), .next(240, "1bfalse2.5"), .completed(410)])
        for s in subscriptions { s.dispose() }
    }

    @Test func combineLatestCollection() {
        let scheduler = TestScheduler()
        let sources = [
            scheduler.createHotObservable([.next(210, 1), .next(240, 4), .completed(300)]),
            scheduler.createHotObservable([.next(220, 2), .completed(310)]),
            scheduler.createHotObservable([.next(230, 3), .completed(320)]),
        ]
        let res = scheduler.start { Observable.combineLatest(sources) }
        #expect(res.events == [.next(230, [1, 2, 3]), .next(240, [4, 2, 3]), .completed(320)])
        let summed = TestScheduler().start {
            Observable.combineLatest([Observable.just(1), Observable.just(2)]) { $0.reduce(0, +) }
        }
        #expect(summed.events == [.next(200, 3), .completed(200)])
        // As in RxSwift, no sources make one empty combination.
        let empty = TestScheduler().start { Observable<Int>.combineLatest([Observable<Int>]()) }
        #expect(empty.events == [.next(200, []), .completed(200)])
    }

    @Test func combineLatestReentrantSubject() {
        let subject = PublishSubject<Int>()
        var received: [Int] = []
        let d = Observable.combineLatest(subject, Observable.just(100)) { $0 + $1 }
            .subscribe(onNext: { value in
                received.append(value)
                if value < 103 { subject.onNext(value - 99) }
            })
        subject.onNext(1)
        #expect(received == [101, 102, 103])
        d.dispose()
        #expect(!subject.hasObservers)
    }

    // MARK: startWith

    @Test func startWithPrependsAtSubscription() {
        let scheduler = TestScheduler()
        let xs = scheduler.createHotObservable([.next(150, 1), .next(210, 2), .completed(250)])
        #expect(scheduler.start { xs.startWith(7, 8) }.events == [.next(200, 7), .next(200, 8), .next(210, 2), .completed(250)])
        #expect(xs.subscriptions == [Subscription(200, 250)])
    }

    @Test func startWithErrorDisposalEmptyNever() {
        let scheduler = TestScheduler()
        let xs = scheduler.createHotObservable([.next(210, 2), .error(220, TestError(1))])
        #expect(scheduler.start { xs.startWith(0) }.events == [.next(200, 0), .next(210, 2), .error(220, TestError(1))])
        #expect(TestScheduler().start { Observable<Int>.empty().startWith(1) }.events == [.next(200, 1), .completed(200)])
        #expect(TestScheduler().start { Observable<Int>.never().startWith(1) }.events == [.next(200, 1)])
        // take(1) completes during the prefix; it only learns about the subscription it must
        // dispose once startWith's subscribe returns, so the source is subscribed and disposed at once.
        let s2 = TestScheduler()
        let ys = s2.createHotObservable([.next(210, 2)])
        #expect(s2.start { ys.startWith(5, 6).take(1) }.events == [.next(200, 5), .completed(200)])
        #expect(ys.subscriptions == [Subscription(200, 200)])
    }

    // MARK: merge

    @Test func mergeInterleavesAndCompletesAfterAll() {
        let scheduler = TestScheduler()
        let xs = scheduler.createHotObservable([.next(150, 0), .next(210, 1), .next(230, 3), .completed(240)])
        let ys = scheduler.createHotObservable([.next(220, 2), .next(250, 4), .completed(260)])
        let res = scheduler.start { Observable.merge(xs.asObservable(), ys.asObservable()) }
        #expect(res.events == [.next(210, 1), .next(220, 2), .next(230, 3), .next(250, 4), .completed(260)])
        #expect(xs.subscriptions == [Subscription(200, 240)])
        #expect(ys.subscriptions == [Subscription(200, 260)])
    }

    @Test func mergeErrorDisposalEmptyNever() {
        let scheduler = TestScheduler()
        let xs = scheduler.createHotObservable([.next(210, 1), .error(225, TestError(1))])
        let ys = scheduler.createHotObservable([.next(220, 2), .next(250, 4)])
        let res = scheduler.start { xs.merge(with: ys) }
        #expect(res.events == [.next(210, 1), .next(220, 2), .error(225, TestError(1))])
        #expect(ys.subscriptions == [Subscription(200, 225)])

        let s2 = TestScheduler()
        let a = s2.createHotObservable([.next(210, 1), .next(230, 3)])
        let b = s2.createHotObservable([.next(220, 2)])
        #expect(s2.start(disposed: 225) { a.merge(with: b) }.events == [.next(210, 1), .next(220, 2)])
        #expect(a.subscriptions == [Subscription(200, 225)])

        #expect(TestScheduler().start { Observable<Int>.merge() }.events == [.completed(200)])
        #expect(TestScheduler().start { Observable.merge(Observable<Int>.never(), .empty()) }.events.isEmpty)
    }

    @Test func mergeMaxConcurrent() {
        let scheduler = TestScheduler()
        let a = scheduler.createColdObservable([.next(10, 1), .completed(30)])
        let b = scheduler.createColdObservable([.next(10, 2), .completed(30)])
        let c = scheduler.createColdObservable([.next(10, 3), .completed(30)])
        let res = scheduler.start {
            Observable.of(a.asObservable(), b.asObservable(), c.asObservable()).merge(maxConcurrent: 2)
        }
        #expect(res.events == [.next(210, 1), .next(210, 2), .next(240, 3), .completed(260)])
        #expect(c.subscriptions == [Subscription(230, 260)])
    }

    @Test func mergeReentrancyAndDisposalFromOnNext() {
        let subject = PublishSubject<Int>()
        var received: [Int] = []
        var subscription: (any Disposable)?
        subscription = Observable.merge(subject.asObservable(), Observable<Int>.never()).subscribe(onNext: { value in
            received.append(value)
            if value < 3 { subject.onNext(value + 1) } else { subscription?.dispose() }
        })
        subject.onNext(1)
        subject.onNext(10)
        #expect(received == [1, 2, 3])
        #expect(!subject.hasObservers)
    }
}

@Suite(.checksResourceLeaks) struct MergeMoreTests {
    @Test func mergeOfObservablesAndMaxConcurrentMisuse() {
        let scheduler = TestScheduler()
        let a = scheduler.createColdObservable([.next(10, 1), .completed(30)])
        let b = scheduler.createColdObservable([.next(5, 2), .completed(10)])
        let res = scheduler.start { Observable.of(a.asObservable(), b.asObservable()).merge() }
        #expect(res.events == [.next(205, 2), .next(210, 1), .completed(230)])
        var clamped: [Recorded<Event<Int>>] = []
        withKnownIssue {
            let s2 = TestScheduler()
            let c = s2.createColdObservable([.next(10, 1), .completed(30)])
            let d = s2.createColdObservable([.next(5, 2), .completed(10)])
            clamped = s2.start { Observable.of(c.asObservable(), d.asObservable()).merge(maxConcurrent: 0) }.events
        }
        // Treated as 1: d waits for c.
        #expect(clamped == [.next(210, 1), .next(235, 2), .completed(240)])
    }

    @Test func replayAllAndMulticastWithAFixedSubject() {
        let scheduler = TestScheduler()
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .completed(300)])
        let all = xs.replayAll()
        let subject = PublishSubject<Int>()
        let multicast = xs.multicast(subject)
        let late = scheduler.createObserver(Int.self)
        let direct = scheduler.createObserver(Int.self)
        let bag = DisposeBag()
        scheduler.scheduleAt(200) {
            all.connect().disposed(by: bag)
            multicast.subscribe(direct).disposed(by: bag)
            multicast.connect().disposed(by: bag)
        }
        scheduler.scheduleAt(250) { all.subscribe(late).disposed(by: bag) }
        scheduler.run()
        #expect(late.events == [.next(250, 1), .next(250, 2), .completed(300)])
        #expect(direct.events == [.next(210, 1), .next(220, 2), .completed(300)])
        #expect(xs.subscriptions == [Subscription(200, 300), Subscription(200, 300)])
        bag.dispose()
    }
}
