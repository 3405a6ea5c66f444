import Testing
import TickIndicators
import TickTesting

/// An independent model of the delayed-visibility rule, written from its
/// specification rather than from the implementation: it walks the timeline
/// one frame at a time and, at every frame, first applies the deadlines
/// ("a deadline comes before any input at the same instant"), then the inputs
/// of that frame in order.
struct DelayedVisibilityModel {
    let showAfter: Int
    let minimumVisible: Int
    let hideAfter: Int

    func timeline(_ inputs: [(Int, Bool)], until end: Int) -> String {
        var output = ["hide@0"]
        var working = false
        var visible = false
        var workingSince: Int?  // continuous work while hidden
        var shownAt = 0
        var hideAt: Int?
        var nextInput = 0
        for frame in 0...end {
            // 1. Deadlines due at this frame.
            if visible, !working, let due = hideAt, frame >= due {
                visible = false
                hideAt = nil
                output.append("hide@\(frame)")
            }
            if !visible, let since = workingSince, frame >= since + showAfter {
                visible = true
                shownAt = since + showAfter
                workingSince = nil
                output.append("show@\(frame)")
            }
            // 2. This frame's inputs, in order.
            while nextInput < inputs.count, inputs[nextInput].0 == frame {
                let value = inputs[nextInput].1
                nextInput += 1
                if value == working { continue }
                working = value
                if value {
                    if visible {
                        hideAt = nil
                    } else if showAfter == 0 {
                        visible = true
                        shownAt = frame
                        output.append("show@\(frame)")
                    } else {
                        workingSince = frame
                    }
                } else if visible {
                    let due = max(shownAt + minimumVisible, frame + hideAfter)
                    if due <= frame {
                        visible = false
                        output.append("hide@\(frame)")
                    } else {
                        hideAt = due
                    }
                } else {
                    workingSince = nil
                }
            }
        }
        return output.joined(separator: " ")
    }
}

@Suite(.checksResourceLeaks) struct DelayedVisibilityModelTests {
    /// A random timeline on a coarse grid (so inputs often fall exactly on
    /// deadlines), with ±1-frame jitter, same-instant stop/start pairs and
    /// repeated values.
    static func randomCase(_ generator: inout SeededGenerator) -> (DelayedVisibilityModel, [(Int, Bool)]) {
        let durations = [0, 50, 100, 150, 200]
        let model = DelayedVisibilityModel(
            showAfter: durations.randomElement(using: &generator) ?? 0,
            minimumVisible: durations.randomElement(using: &generator) ?? 0,
            hideAfter: durations.randomElement(using: &generator) ?? 0)
        var inputs: [(Int, Bool)] = []
        var time = 0
        var working = false
        for _ in 0..<Int.random(in: 1...12, using: &generator) {
            var gap = 50 * Int.random(in: 0...5, using: &generator)
            if Int.random(in: 0..<4, using: &generator) == 0 { gap += Int.random(in: -1...1, using: &generator) }
            time = max(time, time + gap)
            // Mostly toggles, sometimes a repeat.
            if Int.random(in: 0..<6, using: &generator) != 0 { working.toggle() }
            inputs.append((time, working))
        }
        return (model, inputs)
    }

    @Test(arguments: [11, 22, 33, 44] as [UInt64]) func matchesTheModelOnRandomTimelines(seed: UInt64) {
        var generator = SeededGenerator(seed: seed)
        var mismatches: [String] = []
        for index in 0..<1_000 {
            let (model, inputs) = Self.randomCase(&generator)
            let end = (inputs.last?.0 ?? 0) + 1_000
            let expected = model.timeline(inputs, until: end)
            for order in SameInstantOrder.allCases {
                let actual = visibilityTimeline(
                    inputs.map { (TestTime($0.0), $0.1) }, showAfter: model.showAfter,
                    minimumVisible: model.minimumVisible, hideAfter: model.hideAfter, order: order, until: TestTime(end))
                if actual != expected, mismatches.count < 5 {
                    mismatches.append("case \(index) \(order) \(model) \(inputs):\n  got      \(actual)\n  expected \(expected)")
                }
            }
        }
        #expect(mismatches.isEmpty, "\(mismatches.joined(separator: "\n"))")
    }

    @Test func theModelAgreesWithTheDocumentedExamples() {
        // The model itself, on the rules' worked examples (so that a wrong
        // model cannot agree with a wrong implementation unnoticed).
        let spinner = DelayedVisibilityModel(showAfter: 500, minimumVisible: 500, hideAfter: 0)
        #expect(spinner.timeline([(0, true), (499, false)], until: 2000) == "hide@0")
        #expect(spinner.timeline([(0, true), (500, false)], until: 2000) == "hide@0 show@500 hide@1000")
        #expect(spinner.timeline([(0, true), (600, false), (1000, true), (3000, false)], until: 4000)
            == "hide@0 show@500 hide@1000 show@1500 hide@3000")
        let grace = DelayedVisibilityModel(showAfter: 500, minimumVisible: 0, hideAfter: 300)
        #expect(grace.timeline([(0, true), (600, false), (899, true), (2000, false)], until: 3000)
            == "hide@0 show@500 hide@2300")
    }
}
