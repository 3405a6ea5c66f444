import Foundation
import Testing
import Tick
import TickTesting

@Suite(.checksResourceLeaks) struct DebugTests {
    @Test func debugWritesToTheReplaceableOutput() {
        let scheduler = TestScheduler()
        let xs = scheduler.createHotObservable([.next(210, 1), .completed(220)])
        let lines = DebugOutput.capture {
            _ = scheduler.start { xs.debug("xs") }
        }
        #expect(lines == ["xs -> subscribed", "xs -> Event next(1)", "xs -> Event completed", "xs -> isDisposed"])
        let long = DebugOutput.capture {
            _ = Observable.just(String(repeating: "a", count: 50)).debug("s", trimOutput: true).subscribe()
        }
        #expect(long[1] == "s -> Event next(aaaaaaaaaaaaaaa...aaaaaaaaaaaaaaaaaaa)")
        let s2 = TestScheduler()
        let ys = s2.createHotObservable([.next(210, 1)])
        let disposed = DebugOutput.capture { _ = s2.start(disposed: 230) { ys.debug() } }
        #expect(disposed.count == 3)
        #expect(disposed.last?.hasSuffix("-> isDisposed") == true)
        #expect(disposed.first?.hasPrefix("TickTests/DebugTests.swift:") == true)
    }
}
