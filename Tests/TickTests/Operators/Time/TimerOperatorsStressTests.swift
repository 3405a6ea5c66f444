import Dispatch
import Synchronization
import Testing
import Tick
import TickTesting

/// Timer operators on a real queue while the source emits on another thread:
/// deliveries never overlap, stay in order, and the last element survives.
/// The final clean-up runs on the queue just after the completion the test
/// waits for, so `run` drains the queue before returning.
@Suite(.checksResourceLeaks) struct TimerOperatorsStressTests {
    final class Recorder: @unchecked Sendable {
        let inside = Atomic<Bool>(false)
        let overlaps = Atomic<Int>(0)
        var values: [Int] = []
        var subscription: (any Disposable)?
    }

    func run(
        on scheduler: DispatchQueueScheduler, _ makeOperator: @escaping (Observable<Int>) -> Observable<Int>
    ) async -> Recorder {
        let recorder = Recorder()
        let subject = PublishSubject<Int>()
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            recorder.subscription = makeOperator(subject.asObservable()).subscribe(
                onNext: { value in
                    if recorder.inside.exchange(true, ordering: .acquiringAndReleasing) {
                        recorder.overlaps.add(1, ordering: .relaxed)
                    }
                    recorder.values.append(value)
                    recorder.inside.store(false, ordering: .releasing)
                },
                onCompleted: { continuation.resume() })
            DispatchQueue.global().async {
                for i in 0..<5_000 { subject.onNext(i) }
                subject.onCompleted()
            }
        }
        recorder.subscription?.dispose()
        #expect(await drain(scheduler))
        return recorder
    }

    @Test func debounceOnADispatchQueue() async {
        let scheduler = DispatchQueueScheduler(label: "debounce-stress")
        let recorder = await run(on: scheduler) { $0.debounce(.microseconds(20), scheduler: scheduler) }
        #expect(recorder.overlaps.load(ordering: .relaxed) == 0)
        #expect(recorder.values.last == 4_999)
        #expect(zip(recorder.values, recorder.values.dropFirst()).allSatisfy { $0 < $1 })
    }

    @Test func throttleOnADispatchQueue() async {
        let scheduler = DispatchQueueScheduler(label: "throttle-stress")
        let recorder = await run(on: scheduler) { $0.throttle(.microseconds(20), scheduler: scheduler) }
        #expect(recorder.overlaps.load(ordering: .relaxed) == 0)
        #expect(recorder.values.first == 0)
        #expect(recorder.values.last == 4_999)
        #expect(zip(recorder.values, recorder.values.dropFirst()).allSatisfy { $0 < $1 })
    }
}
