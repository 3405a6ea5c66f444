import Foundation
import TickIndicators
import TickTesting

/// The instant `ms` milliseconds after the origin.
func at(_ ms: Int) -> SchedulerInstant { SchedulerInstant(offset: .milliseconds(ms)) }

/// The instant `ms` milliseconds and `extra` after the origin (for "one attosecond past" checks).
func at(_ ms: Int, plus extra: Duration) -> SchedulerInstant { at(ms) + extra }

/// One attosecond: the smallest step of virtual time.
let attosecond = Duration(totalAttoseconds: 1)

/// Whether `a` and `b` differ by at most `tolerance`.
func close(_ a: Double, _ b: Double, _ tolerance: Double = 1e-9) -> Bool { abs(a - b) <= tolerance }

/// Ease-out at elapsed fraction `f`, computed independently of `TimingCurve` by
/// bisection on the Bernstein form of the Bézier (0, 0, 0.58, 1).
func referenceEaseOut(_ f: Double) -> Double {
    if f <= 0 { return 0 }
    if f >= 1 { return 1 }
    func x(_ s: Double) -> Double { 3 * (1 - s) * s * s * 0.58 + s * s * s }
    func y(_ s: Double) -> Double { 3 * (1 - s) * (1 - s) * s * 0 + 3 * (1 - s) * s * s * 1 + s * s * s }
    var lo = 0.0, hi = 1.0
    for _ in 0..<100 {
        let mid = (lo + hi) / 2
        if x(mid) < f { lo = mid } else { hi = mid }
    }
    return y((lo + hi) / 2)
}

/// A fresh test scheduler and a button on it, with the clock at the origin.
func makeButton(
    style: ActivityIndicatorButtonStyle = .solid, state: ActivityIndicatorButtonState = ActivityIndicatorButtonState()
) -> (TestScheduler, ActivityIndicatorButton) {
    let scheduler = TestScheduler()
    let button = ActivityIndicatorButton(scheduler: scheduler, state: state)
    button.style = style
    return (scheduler, button)
}

let red = ButtonColor(red: 1, green: 0, blue: 0)
let green = ButtonColor(red: 0, green: 0.78, blue: 0.33)
let blue = ButtonColor(red: 0, green: 0, blue: 1)
