import Testing
import Tick
import TickTesting

@Suite(.checksResourceLeaks) struct DisposableTests {
    final class Counter: @unchecked Sendable {
        var value = 0
    }

    @Test func anonymousRunsItsActionOnce() {
        let counter = Counter()
        let disposable = Disposables.create { counter.value += 1 }
        #expect(!disposable.isDisposed)
        disposable.dispose()
        disposable.dispose()
        #expect(counter.value == 1)
        #expect(disposable.isDisposed)
    }

    @Test func compositeDisposesInOrderAndDisposesLateInsertsAtOnce() {
        var log: [Int] = []
        let composite = CompositeDisposable()
        composite.insert(Disposables.create { log.append(1) })
        let key = composite.insert(Disposables.create { log.append(2) })
        composite.insert(Disposables.create { log.append(3) })
        composite.remove(for: key!)
        #expect(log == [2])
        #expect(composite.count == 2)
        composite.dispose()
        #expect(log == [2, 1, 3])
        #expect(composite.insert(Disposables.create { log.append(4) }) == nil)
        #expect(log == [2, 1, 3, 4])
    }

    @Test func serialDisposesThePreviousOne() {
        var log: [String] = []
        let serial = SerialDisposable()
        serial.disposable = Disposables.create { log.append("first") }
        serial.disposable = Disposables.create { log.append("second") }
        #expect(log == ["first"])
        serial.dispose()
        #expect(log == ["first", "second"])
        serial.disposable = Disposables.create { log.append("late") }
        #expect(log == ["first", "second", "late"])
    }

    @Test func singleAssignmentDisposesALateAssignment() {
        var disposed = false
        let single = SingleAssignmentDisposable()
        single.dispose()
        single.setDisposable(Disposables.create { disposed = true })
        #expect(disposed)
    }

    @Test func singleAssignmentTwiceIsReportedAndTheSecondIsDisposed() {
        _ = TestScheduler()  // installs the test-failure misuse handler
        var secondDisposed = false
        let single = SingleAssignmentDisposable()
        single.setDisposable(Disposables.create())
        withKnownIssue {
            single.setDisposable(Disposables.create { secondDisposed = true })
        } matching: { issue in
            issue.comments.contains { $0.rawValue.contains("assigned twice") }
        }
        #expect(secondDisposed)
    }

    @Test func disposeBagDisposesOnDeinit() {
        var log: [Int] = []
        do {
            let bag = DisposeBag()
            Disposables.create { log.append(1) }.disposed(by: bag)
            Disposables.create { log.append(2) }.disposed(by: bag)
            #expect(log.isEmpty)
        }
        #expect(log == [1, 2])
    }

    @Test func disposeBagDisposeNowAndLateInserts() {
        var log: [Int] = []
        let bag = DisposeBag()
        Disposables.create { log.append(1) }.disposed(by: bag)
        bag.dispose()
        Disposables.create { log.append(2) }.disposed(by: bag)
        #expect(log == [1, 2])
    }

    @Test func booleanDisposable() {
        let flag = BooleanDisposable()
        #expect(!flag.isDisposed)
        flag.dispose()
        #expect(flag.isDisposed)
    }
}
