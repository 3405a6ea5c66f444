import Synchronization
import Testing
import Tick
import TickTesting

/// The hooks are process-wide: these tests run one at a time, put every hook
/// back, and count only their own errors (codes 9000 and up), since tests
/// running in parallel may reach the handler too.
@Suite(.serialized, .checksResourceLeaks) struct HooksTests {
    @Test func unhandledErrorsGoToTheDefaultErrorHandler() {
        let logged = Mutex<[Int]>([])
        let original = Hooks.defaultErrorHandler
        defer { Hooks.defaultErrorHandler = original }
        _ = Observable<Int>.error(TestError(9001)).subscribe()
        Hooks.defaultErrorHandler = { _, error in
            guard let code = (error as? TestError)?.code, code >= 9000 else { return }
            logged.withLock { $0.append(code) }
        }
        _ = Observable<Int>.error(TestError(9002)).subscribe()
        _ = Single<Int>.error(TestError(9003)).subscribe()
        _ = Observable<Int>.error(TestError(9004)).subscribe(onError: { _ in })
        Hooks.defaultErrorHandler = original
        _ = Observable<Int>.error(TestError(9005)).subscribe()
        #expect(logged.withLock { $0 } == [9002, 9003])
    }

    @Test func theCallStackIsCapturedAtSubscriptionWhenAsked() {
        let stacks = Mutex<[[String]]>([])
        let (handler, capture, record) = (
            Hooks.defaultErrorHandler, Hooks.customCaptureSubscriptionCallstack, Hooks.recordCallStackOnError
        )
        defer {
            Hooks.defaultErrorHandler = handler
            Hooks.customCaptureSubscriptionCallstack = capture
            Hooks.recordCallStackOnError = record
        }
        Hooks.defaultErrorHandler = { stack, error in
            guard (error as? TestError)?.code == 9100 else { return }
            stacks.withLock { $0.append(stack) }
        }
        #expect(Hooks.customCaptureSubscriptionCallstack() == [])
        _ = Observable<Int>.error(TestError(9100)).subscribe()
        Hooks.customCaptureSubscriptionCallstack = { ["frame1"] }
        _ = Observable<Int>.error(TestError(9100)).subscribe()
        Hooks.recordCallStackOnError = true
        let subject = PublishSubject<Int>()
        let subscription = subject.subscribe()
        // Captured at subscription, not when the error arrives.
        Hooks.customCaptureSubscriptionCallstack = { ["frame2"] }
        subject.onError(TestError(9100))
        subscription.dispose()
        #expect(stacks.withLock { $0 } == [[], [], ["frame1"]])
    }
}
