import Dispatch
import Testing
import Tick
import TickTesting

/// The disposable that `subscribe(onNext:…)` returns is the observer itself,
/// which lets go of its closures when disposed or terminated: never while one
/// of them runs, even if the disposal comes from another thread during a
/// delivery (ClosureSink's protocol, ClosureSink.swift).
@Suite(.checksResourceLeaks) struct ClosureSubscriptionStressTests {
    /// What the closures capture: the test watches it go away.
    final class Captured: @unchecked Sendable {
        let counts = Locked((next: 0, disposed: 0, nextAfterRelease: 0))
        var alive = true
        deinit { alive = false }
    }

    @Test func disposingDuringDeliveriesOnAnotherThreadReleasesTheClosuresOnce() {
        for round in 0..<500 {
            let subject = PublishSubject<Int>()
            weak var weakCaptured: Captured?
            let subscription: any Disposable
            do {
                let captured = Captured()
                weakCaptured = captured
                subscription = subject.subscribe(
                    onNext: { _ in
                        // Still alive while its closure runs.
                        if !captured.alive { captured.counts.withLock { $0.nextAfterRelease += 1 } }
                        captured.counts.withLock { $0.next += 1 }
                    },
                    onDisposed: { captured.counts.withLock { $0.disposed += 1 } })
            }
            let held = Locked<(any Disposable)?>(subscription)
            DispatchQueue.concurrentPerform(iterations: 2) { index in
                if index == 0 {
                    for value in 0..<(round % 50) { subject.onNext(value) }
                } else {
                    held.withLock { $0 }?.dispose()
                }
            }
            // The subscription is still held, its closures are not.
            #expect(weakCaptured == nil)
            #expect((held.current as? any Cancelable)?.isDisposed == true)
            subject.onNext(-1)
            withExtendedLifetime(held) {}
        }
    }

    @Test func concurrentSendersAndADisposalReleaseTheClosuresOnceNoneRuns() {
        for _ in 0..<300 {
            let subject = PublishSubject<Int>()
            weak var weakCaptured: Captured?
            let subscription: any Disposable
            do {
                let captured = Captured()
                weakCaptured = captured
                subscription = subject.subscribe(onNext: { _ in
                    if !captured.alive { captured.counts.withLock { $0.nextAfterRelease += 1 } }
                })
            }
            let held = Locked<(any Disposable)?>(subscription)
            // Two senders deliver to the same subscription at once (a subject
            // allows it), while a third thread disposes it.
            DispatchQueue.concurrentPerform(iterations: 3) { index in
                if index < 2 {
                    for value in 0..<20 { subject.onNext(value) }
                } else {
                    held.withLock { $0 }?.dispose()
                }
            }
            #expect(weakCaptured == nil)
            withExtendedLifetime(held) {}
        }
    }

    @Test func aTerminalEventRacingADisposalRunsOnDisposedOnceAndReleasesTheClosures() {
        for round in 0..<1_000 {
            let subject = PublishSubject<Int>()
            let counts = Locked((completed: 0, disposed: 0))
            weak var weakCaptured: Captured?
            let subscription: any Disposable
            do {
                let captured = Captured()
                weakCaptured = captured
                subscription = subject.subscribe(
                    onNext: { _ in _ = captured },
                    onCompleted: { counts.withLock { $0.completed += 1 } },
                    onDisposed: { counts.withLock { $0.disposed += 1 } })
            }
            let held = Locked<(any Disposable)?>(subscription)
            DispatchQueue.concurrentPerform(iterations: 2) { index in
                if (index == 0) == (round % 2 == 0) {
                    subject.onNext(1)
                    subject.onCompleted()
                } else {
                    held.withLock { $0 }?.dispose()
                }
            }
            #expect(counts.current.disposed == 1)
            #expect(counts.current.completed <= 1)
            #expect(weakCaptured == nil)
            #expect(!subject.hasObservers)
            withExtendedLifetime(held) {}
        }
    }

    @Test func disposingFromInsideOnNextReleasesTheClosuresWhenItReturns() {
        let subject = PublishSubject<Int>()
        let held = Locked<(any Disposable)?>(nil)
        weak var weakCaptured: Captured?
        var aliveAfterDispose: Bool?
        do {
            let captured = Captured()
            weakCaptured = captured
            held.withLock {
                $0 = subject.subscribe(onNext: { _ in
                    held.withLock { $0 }?.dispose()
                    // Disposed, but this closure is still running: what it
                    // captured is still there.
                    aliveAfterDispose = captured.alive
                })
            }
        }
        subject.onNext(1)
        #expect(aliveAfterDispose == true)
        #expect(weakCaptured == nil)
        #expect((held.current as? any Cancelable)?.isDisposed == true)
    }

    @Test func aCompletedSubscriptionIsNotDisposedUntilDisposedButHasLetGoOfItsClosures() {
        weak var weakCaptured: Captured?
        var completed = false
        let subscription: any Disposable
        do {
            let captured = Captured()
            weakCaptured = captured
            subscription = Observable.just(1).subscribe(onNext: { _ in _ = captured }, onCompleted: { completed = true })
        }
        #expect(completed)
        #expect(weakCaptured == nil)
        #expect((subscription as? any Cancelable)?.isDisposed == false)
        subscription.dispose()
        #expect((subscription as? any Cancelable)?.isDisposed == true)
    }

    /// A directly subscribed one-shot timer delivers `next(0)` and the
    /// completion in one delivery (`ClosureSink.deliverOnce`). Disposed from
    /// another thread while it fires, the closures see one of three coherent
    /// stories, never anything else: the disposal came first (only
    /// `onDisposed`), it came during `onNext` (no completion; `onDisposed`
    /// runs on the disposing thread without waiting for `onNext`, as in
    /// RxSwift, so the two log lines land in either order), or after
    /// (`next`, `completed`, `onDisposed`); `onDisposed` runs exactly once
    /// and the closures are let go of either way.
    @Test func aDirectTimerFiringWhileDisposedOnAnotherThreadTellsOneCoherentStory() {
        var stories = Set<[String]>()
        for round in 0..<1_000 {
            let scheduler = TestScheduler()
            let log = Locked<[String]>([])
            weak var weakCaptured: Captured?
            let subscription: any Disposable
            do {
                let captured = Captured()
                weakCaptured = captured
                subscription = Observable<Int>.timer(.milliseconds(10), scheduler: scheduler).subscribe(
                    onNext: { value in
                        _ = captured
                        log.withLock { $0.append("next(\(value))") }
                    },
                    onCompleted: { log.withLock { $0.append("completed") } },
                    onDisposed: { log.withLock { $0.append("disposed") } })
            }
            let held = Locked<(any Disposable)?>(subscription)
            DispatchQueue.concurrentPerform(iterations: 2) { index in
                if (index == 0) == (round % 2 == 0) {
                    scheduler.advance(to: 10)
                } else {
                    held.withLock { $0 }?.dispose()
                }
            }
            let story = log.current
            #expect(
                [["disposed"], ["next(0)", "disposed"], ["disposed", "next(0)"], ["next(0)", "completed", "disposed"]]
                    .contains(story))
            stories.insert(story)
            #expect(weakCaptured == nil)
            #expect(scheduler.pendingCount == 0)
            withExtendedLifetime(held) {}
        }
        // Not vacuous: both orders were seen (which one comes first is up to
        // the threads; each is reached in most runs of a thousand rounds).
        #expect(stories.count >= 2)
    }

    /// The same race with `onNext` alone, whose delivery ends in one step
    /// (`ClosureSink.deliverOnce`, no terminal closure): `onNext` runs at
    /// most once, the closure is let go of whichever side wins, and the
    /// disposal is recorded either way.
    @Test func aDirectTimerWithOnlyOnNextFiringWhileDisposedOnAnotherThreadEndsOnce() {
        var outcomes = Set<Int>()
        for round in 0..<1_000 {
            let scheduler = TestScheduler()
            let calls = Locked<Int>(0)
            weak var weakCaptured: Captured?
            let subscription: any Disposable
            do {
                let captured = Captured()
                weakCaptured = captured
                subscription = Observable<Int>.timer(.milliseconds(10), scheduler: scheduler).subscribe(
                    onNext: { value in
                        _ = captured
                        calls.withLock { $0 += 1 }
                    })
            }
            let held = Locked<(any Disposable)?>(subscription)
            DispatchQueue.concurrentPerform(iterations: 2) { index in
                if (index == 0) == (round % 2 == 0) {
                    scheduler.advance(to: 10)
                } else {
                    held.withLock { $0 }?.dispose()
                }
            }
            let count = calls.withLock { $0 }
            #expect(count <= 1)
            outcomes.insert(count)
            #expect(weakCaptured == nil)
            #expect((subscription as? any Cancelable)?.isDisposed == true)
            #expect(scheduler.pendingCount == 0)
            withExtendedLifetime(held) {}
        }
        // Not vacuous: the timer fired in some rounds.
        #expect(outcomes.contains(1))
    }

    /// A timer's first closure subscription takes the timer's source as its
    /// sink (`ClosureSink.claim`); concurrent first subscriptions race for
    /// it, and exactly one wins: every subscription, the winner's and the
    /// losers' (each with a sink of its own), fires once, completes and is
    /// disposed once, and lets go of its closures.
    @Test func concurrentFirstSubscriptionsOfOneTimerEachFireOnce() {
        let threads = 4
        for _ in 0..<100 {
            let scheduler = TestScheduler()
            let timer = Observable<Int>.timer(.milliseconds(10), scheduler: scheduler)
            let log = Locked<[String]>([])
            let subscriptions = Locked<[any Disposable]>([])
            weak var weakCaptured: Captured?
            do {
                let captured = Captured()
                weakCaptured = captured
                DispatchQueue.concurrentPerform(iterations: threads) { index in
                    let subscription = timer.subscribe(
                        onNext: { value in
                            _ = captured
                            log.withLock { $0.append("next(\(value)) \(index)") }
                        },
                        onCompleted: { log.withLock { $0.append("completed \(index)") } },
                        onDisposed: { log.withLock { $0.append("disposed \(index)") } })
                    subscriptions.withLock { $0.append(subscription) }
                }
            }
            #expect(scheduler.pendingCount == threads)
            scheduler.advance(to: 10)
            let entries = log.current
            for index in 0..<threads {
                #expect(entries.filter { $0.hasSuffix(" \(index)") } == ["next(0) \(index)", "completed \(index)", "disposed \(index)"])
            }
            #expect(weakCaptured == nil)
            #expect(scheduler.pendingCount == 0)
            subscriptions.withLock { $0.forEach { $0.dispose() } }
            #expect(log.current.count == 3 * threads)
        }
    }
}
