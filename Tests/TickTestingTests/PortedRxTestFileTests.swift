// The ported RxTest file of Docs/PortingFromRxSwift.md ("A ported RxTest
// file"), run by XCTest: only its import lines differ from the RxTest
// original (and the documented TestScheduler settings). Keep the two copies
// the same.
import XCTest
import TickTesting

final class ProfileTests: XCTestCase {
    struct LookupFailed: Error, Equatable {}

    func testProfileZipsUserAndAvatar() {
        let scheduler = TestScheduler(initialClock: 0, frame: .seconds(1), simulateProcessingDelay: true)
        let user: TestableObservable<String> = scheduler.createColdObservable([.next(10, "ada"), .completed(10)])
        let avatar: TestableObservable<String> = scheduler.createColdObservable([.next(30, "ada.png"), .completed(30)])
        let res = scheduler.start {
            Single.zip(user.asSingle(), avatar.asSingle()) { "\($0) \($1)" }.asObservable()
        }
        XCTAssertEqual(res.events, Recorded.events(.next(230, "ada ada.png"), .completed(230)))
        XCTAssertEqual(user.subscriptions, [Subscription(200, 210)])
        XCTAssertEqual(avatar.subscriptions, [Subscription(200, 230)])
    }

    func testNamesFallBackInsteadOfFailing() {
        let scheduler = TestScheduler(initialClock: 0, frame: .seconds(1), simulateProcessingDelay: true)
        let names = scheduler.createHotObservable([.next(210, "ada"), .error(220, LookupFailed()), .next(230, "bob")])
        let observer = scheduler.createObserver(String.self)
        _ = names.asInfallible(onErrorJustReturn: "?").bind(to: observer)
        scheduler.start()
        XCTAssertEqual(observer.events, [.next(210, "ada"), .next(220, "?"), .completed(220)])
    }

    func testZipOfACollectionReportsEachOutcome() {
        var events: [SingleEvent<Int>] = []
        _ = Single.zip([Single.just(1), Single.just(2)]) { $0.reduce(0, +) }.subscribe { events.append($0) }
        _ = Single.zip([Single.just(1), Single<Int>.error(LookupFailed())]) { $0.reduce(0, +) }
            .subscribe { events.append($0) }
        XCTAssertEqual(events, [.success(3), .failure(LookupFailed())])

        var completions: [CompletableEvent] = []
        _ = Completable.concat([Completable.empty(), Completable.empty()]).subscribe { completions.append($0) }
        XCTAssertEqual(completions, [.completed])
    }
}
