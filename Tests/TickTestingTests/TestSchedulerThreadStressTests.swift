import Foundation
import Testing
import Tick
import TickTesting

/// Issue 16, item 10: a second thread advancing while one advances is told
/// apart from an advance made inside an action.
@Suite(.checksResourceLeaks) struct TestSchedulerThreadStressTests {
    @Test func advanceFromASecondThreadIsReportedAsConcurrent() {
        let scheduler = TestScheduler()
        let insideAction = DispatchSemaphore(value: 0)
        let mayFinish = DispatchSemaphore(value: 0)
        let finished = DispatchSemaphore(value: 0)
        scheduler.scheduleAt(10) {
            insideAction.signal()
            mayFinish.wait()
        }
        // The other thread advances and parks inside the action at frame 10.
        let thread = Thread {
            scheduler.advance(to: 20)
            finished.signal()
        }
        thread.start()
        insideAction.wait()
        withKnownIssue {
            scheduler.advance(to: 30)
        } matching: { issue in
            issue.comments.contains { $0.rawValue.contains("called concurrently from two threads") }
                && !issue.comments.contains { $0.rawValue.contains("from inside an action") }
        }
        mayFinish.signal()
        finished.wait()
        #expect(scheduler.clock == 20)
    }
}
