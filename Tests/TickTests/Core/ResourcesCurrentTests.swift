import Testing
import Tick

/// `Resources.currentIfAnyAlive`, which TickTesting reads instead of
/// `Resources.current` where a scheduler or a marble expectation is made
/// (the leak trait's scope): it skips the task-local read while no
/// `Resources.Scope` is alive in the process, so it must see every scope
/// however it was made and made current. Each scope is made and released on
/// its own, so that no other scope of this test keeps the count above zero.
@Suite struct ResourcesCurrentTests {
    static let makers: [@Sendable () -> Resources.Scope] = [
        { Resources.Scope() },
        { Resources.Scope(recordingDetails: true) },
        { Resources.Scope(recordingDetails: false) },
    ]

    @Test(arguments: 0..<3) func aScopeIsSeenWhileItIsCurrent(maker: Int) {
        let scope = Self.makers[maker]()
        scope.run { #expect(Resources.currentIfAnyAlive === scope) }
        Resources.$current.withValue(scope) { #expect(Resources.currentIfAnyAlive === scope) }
        #expect(Resources.currentIfAnyAlive == nil)
    }

    @Test(arguments: 0..<3) func aScopeIsSeenInATaskMadeWhileItIsCurrent(maker: Int) async {
        let scope = Self.makers[maker]()
        let seen = await scope.run { await Task { Resources.currentIfAnyAlive }.value }
        #expect(seen === scope)
    }

    @Test func theInnerScopeIsSeenThenTheOuterOneAgain() {
        let outer = Resources.Scope()
        outer.run {
            do {
                let inner = Resources.Scope(recordingDetails: true)
                inner.run { #expect(Resources.currentIfAnyAlive === inner) }
            }
            #expect(Resources.currentIfAnyAlive === outer)
        }
    }
}
