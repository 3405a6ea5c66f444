import Tick
import TickTesting

/// Operator throughput scenarios (issue 5): each pushes N elements through one
/// operator and checks the result, so the work cannot be skipped.
enum OperatorScenarios {
    /// N subject elements through `flatMap { just }`: one inner subscription each.
    static func flatMapJust(_ n: Int, repetitions: Int) -> Measurement {
        measure(
            "op_flatMap_just", operations: n, repetitions: repetitions,
            setup: { () -> (PublishSubject<Int>, Sink, any Disposable) in
                let subject = PublishSubject<Int>()
                let sink = Sink()
                let subscription = subject.flatMap { Observable.just($0) }.subscribe(onNext: { _ in sink.count &+= 1 })
                return (subject, sink, subscription)
            }
        ) { state in
            for value in 0..<n { state.0.onNext(value) }
            precondition(state.1.count == n)
            state.2.dispose()
        }
    }

    /// N updates alternating between the two sources of `combineLatest`.
    static func combineLatest(_ n: Int, repetitions: Int) -> Measurement {
        measure(
            "op_combineLatest", operations: n, repetitions: repetitions,
            setup: { () -> (PublishSubject<Int>, PublishSubject<Int>, Sink, any Disposable) in
                let a = PublishSubject<Int>()
                let b = PublishSubject<Int>()
                let sink = Sink()
                let subscription = Observable.combineLatest(a, b) { $0 &+ $1 }.subscribe(onNext: { _ in sink.count &+= 1 })
                return (a, b, sink, subscription)
            }
        ) { state in
            for value in 0..<n { (value % 2 == 0 ? state.0 : state.1).onNext(value) }
            precondition(state.2.count == n - 1)
            state.3.dispose()
        }
    }

    /// N elements one frame apart through `debounce(2 frames)` on the
    /// TestScheduler: N timers armed and cancelled, one pending at a time.
    static func debounce(_ n: Int, repetitions: Int) -> Measurement {
        measure(
            "op_debounce", operations: n, repetitions: repetitions,
            setup: { () -> (TestScheduler, TestableObserver<Int>) in
                let scheduler = TestScheduler(stepBudget: .max)
                let source = scheduler.createHotObservable(
                    (0..<n).map { Recorded.next(TestTime($0 + 1), $0) } + [.completed(TestTime(n + 10))])
                let observer = scheduler.createObserver(Int.self)
                _ = source.debounce(.milliseconds(2), scheduler: scheduler).subscribe(observer)
                return (scheduler, observer)
            }
        ) { state in
            state.0.run()
            precondition(state.1.events.count == 2)
        }
    }
}
