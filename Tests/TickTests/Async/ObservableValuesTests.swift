import Testing
import Tick
import TickTesting

/// `values`, the elements of an observable as an `AsyncSequence`: how a loop
/// over it ends.
@Suite(.checksResourceLeaks) struct ObservableValuesTests {
    @Test func cancellingTheLoopBeforeTheObservableEndedThrowsCancellationError() async {
        // As RxSwift's `values`: a cancelled iteration throws, it does not end normally.
        let subject = PublishSubject<Int>()
        let source = UncheckedBox(subject.asObservable())
        let consumer = Task {
            var received: [Int] = []
            for try await value in source.value.values { received.append(value) }
            return received
        }
        consumer.cancel()
        let result = await consumer.result
        #expect(throws: CancellationError.self) { try result.get() }
        #expect(!subject.hasObservers)
    }

    @Test func aLoopOverAnObservableThatAlreadyCompletedEndsNormallyEvenWhenCancelled() async throws {
        let consumer = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            var received: [Int] = []
            for try await value in Observable.of(1, 2).values { received.append(value) }
            return received
        }
        #expect(try await consumer.value == [1, 2])
    }

    @Test func theObservablesErrorIsThrown() async {
        let consumer = Task {
            for try await _ in Observable<Int>.error(TestError(4)).values {}
        }
        let result = await consumer.result
        #expect(throws: TestError(4)) { try result.get() }
    }
}

/// Carries a value the test knows is only used by one task at a time.
private struct UncheckedBox<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}
