import Dispatch
import Testing
import Tick
import TickTesting

/// A terminal event and a disposal racing on two threads: since issue 12 a
/// disposal that arrives while a sink delivers its terminal event disposes
/// the source at once, so the clean-up hooks must still run exactly once.
@Suite(.checksResourceLeaks) struct SinkDisposalStressTests {
    @Test func disposingWhileTheTerminalEventIsDeliveredRunsEachHookOnce() {
        for _ in 0..<1_000 {
            let subject = PublishSubject<Int>()
            let counts = Locked((onDispose: 0, onDisposed: 0, onCompleted: 0))
            let subscription = subject.map { $0 + 1 }
                .do(onDispose: { counts.withLock { $0.onDispose += 1 } })
                .filter { _ in true }
                .subscribe(
                    onCompleted: { counts.withLock { $0.onCompleted += 1 } },
                    onDisposed: { counts.withLock { $0.onDisposed += 1 } })
            let held = Locked<(any Disposable)?>(subscription)
            DispatchQueue.concurrentPerform(iterations: 2) { index in
                if index == 0 { subject.onCompleted() } else { held.withLock { $0 }?.dispose() }
            }
            let final = counts.current
            #expect(final.onDispose == 1)
            #expect(final.onDisposed == 1)
            #expect(final.onCompleted <= 1)
            #expect(!subject.hasObservers)
        }
    }
}
