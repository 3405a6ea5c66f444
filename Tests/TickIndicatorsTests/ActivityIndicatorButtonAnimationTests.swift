import Foundation
import Testing
import TickIndicators
import TickTesting

@Suite struct ActivityIndicatorButtonEasingTests {
    @Test func easeOutMatchesTheBezierDefinitionEverywhere() {
        for i in 0...1000 {
            let f = Double(i) / 1000
            #expect(close(TimingCurve.easeOut.value(at: f), referenceEaseOut(f), 1e-9), "f = \(f)")
        }
    }

    @Test func curvesPinTheirEnds() {
        for curve in [TimingCurve.linear, .easeIn, .easeOut, .easeInOut, .cubicBezier(x1: 0.25, y1: 0.1, x2: 0.25, y2: 1)] {
            #expect(curve.value(at: 0) == 0)
            #expect(curve.value(at: 1) == 1)
            #expect(curve.value(at: -0.5) == 0)
            #expect(curve.value(at: 1.5) == 1)
            #expect(curve.value(at: .nan) == 0)
        }
    }

    @Test func easeOutIsFasterThanLinearAndEaseInSlower() {
        for i in 1..<100 {
            let f = Double(i) / 100
            #expect(TimingCurve.easeOut.value(at: f) > f)
            #expect(TimingCurve.easeIn.value(at: f) < f)
            #expect(TimingCurve.linear.value(at: f) == f)
        }
        // ease-in-out is symmetric about the middle.
        #expect(close(TimingCurve.easeInOut.value(at: 0.5), 0.5, 1e-9))
        #expect(close(TimingCurve.easeInOut.value(at: 0.3) + TimingCurve.easeInOut.value(at: 0.7), 1, 1e-9))
    }
}

@Suite struct ActivityIndicatorButtonSpinnerTests {
    /// (ms, strokeStart, strokeEnd) read off the original's keyframes.
    static let keyframes: [(Int, Double, Double)] = [
        (0, 0, 0), (1, 0.25 / 900, 1.0 / 900), (450, 0.125, 0.5), (899, 0.25 * 899 / 900, 899.0 / 900),
        (900, 0.25, 1), (901, 0.25, 1), (925, 0.25, 1), (950, 0.25, 1),
        (951, 0.25 + 0.65 / 600, 1), (1250, 0.575, 1), (1549, 0.25 + 0.65 * 599 / 600, 1),
        (1550, 0.9, 1), (1575, 0.9, 1), (1600, 0.9, 1), (1601, 0.901, 1), (1650, 0.95, 1), (1699, 0.999, 1),
        (1700, 0, 0), (1701, 0.25 / 900, 1.0 / 900), (2150, 0.125, 0.5), (3400, 0, 0),
    ]

    @Test func strokeCycleFollowsTheOriginalKeyframes() {
        let (scheduler, button) = makeButton()
        scheduler.advance(to: at(1000))
        button.activityState = ActivityIndicatorButtonState(progressBarStyle: .spinning)  // spinning starts at 1 s
        for (ms, start, end) in Self.keyframes {
            let a = button.appearance(at: at(1000 + ms))
            #expect(close(a.strokeStart, start), "strokeStart at \(ms) ms: \(a.strokeStart)")
            #expect(close(a.strokeEnd, end), "strokeEnd at \(ms) ms: \(a.strokeEnd)")
            #expect(a.progressOpacity == 1)
        }
    }

    @Test func strokeCycleTickByTickIsContinuousMonotonicAndPeriodic() {
        let (_, button) = makeButton(state: ActivityIndicatorButtonState(progressBarStyle: .spinning))
        var previous = button.appearance(at: at(0))
        for ms in 1..<1700 {
            let a = button.appearance(at: at(ms))
            #expect(a.strokeStart >= previous.strokeStart && a.strokeEnd >= previous.strokeEnd, "at \(ms) ms")
            #expect(a.strokeEnd >= a.strokeStart)
            // fastest slope: strokeEnd 1/0.9 s and strokeStart 0.1/0.1 s → at most 1/900 per ms
            #expect(a.strokeStart - previous.strokeStart <= 1.0 / 900 + 1e-12)
            #expect(a.strokeEnd - previous.strokeEnd <= 1.0 / 900 + 1e-12)
            let later = button.appearance(at: at(ms + 3 * 1700))
            #expect(close(later.strokeStart, a.strokeStart) && close(later.strokeEnd, a.strokeEnd))
            previous = a
        }
    }

    @Test func rotationTurnsOnceEveryThreeSeconds() {
        let (_, button) = makeButton(state: ActivityIndicatorButtonState(progressBarStyle: .spinning))
        let expected: [(Int, Double)] = [
            (0, 0), (1, 2 * .pi / 3000), (750, .pi / 2), (1500, .pi), (2999, 2 * .pi * 2999 / 3000), (3000, 0),
            (3001, 2 * .pi / 3000), (4500, .pi),
        ]
        for (ms, angle) in expected {
            #expect(close(button.appearance(at: at(ms)).rotation, angle), "rotation at \(ms) ms")
        }
        // one attosecond before a full turn is still (almost) 2π, at the turn exactly 0
        #expect(button.appearance(at: at(3000) - attosecond).rotation > 2 * .pi - 1e-9)
    }

    @Test func spinnerKeepsItsPhaseAcrossAChangeThatStaysSpinning() {
        let (scheduler, button) = makeButton(state: ActivityIndicatorButtonState(progressBarStyle: .spinning))
        scheduler.advance(to: at(500))
        button.update { $0.tintColor = red }
        let a = button.appearance(at: at(900))
        #expect(close(a.strokeStart, 0.25) && close(a.strokeEnd, 1))
        #expect(close(a.rotation, 2 * .pi * 0.3))
    }

    @Test func spinnerRestartsWhenSpinningBeginsAgain() {
        let (scheduler, button) = makeButton(state: ActivityIndicatorButtonState(progressBarStyle: .spinning))
        scheduler.advance(to: at(500))
        button.update { $0.progressBarStyle = .inactive }
        #expect(button.appearance.progressOpacity == 0)
        #expect(button.appearance.strokeEnd == 0 && button.appearance.rotation == 0)
        scheduler.advance(to: at(600))
        button.update { $0.progressBarStyle = .spinning }
        let a = button.appearance(at: at(1050))
        #expect(close(a.strokeStart, 0.125) && close(a.strokeEnd, 0.5))
    }
}

@Suite struct ActivityIndicatorButtonTransitionTests {
    @Test func outlineTrackFadesOutWhenSpinningAndBackIn() {
        let (scheduler, button) = makeButton(style: .outline)
        #expect(button.appearance.trackOpacity == 1)
        scheduler.advance(to: at(100))
        button.update { $0.progressBarStyle = .spinning }
        let expected: [(SchedulerInstant, Double)] = [
            (at(100), 1), (at(100, plus: attosecond), 1 - referenceEaseOut(1e-18 / 0.2)),
            (at(150), 1 - referenceEaseOut(0.25)), (at(200), 1 - referenceEaseOut(0.5)),
            (at(299), 1 - referenceEaseOut(0.995)), (at(300) - attosecond, 1 - referenceEaseOut(1 - 5e-18)),
            (at(300), 0), (at(301), 0),
        ]
        for (t, value) in expected {
            #expect(close(button.appearance(at: t).trackOpacity, value), "track opacity at \(t)")
        }
        #expect(button.appearance(at: at(299)).trackOpacity > 0)
        scheduler.advance(to: at(1000))
        button.update { $0.progressBarStyle = .inactive }
        #expect(button.appearance(at: at(1000)).trackOpacity == 0)
        #expect(close(button.appearance(at: at(1100)).trackOpacity, referenceEaseOut(0.5)))
        #expect(button.appearance(at: at(1200)).trackOpacity == 1)
    }

    @Test func solidTrackStaysWhileSpinning() {
        let (_, button) = makeButton(style: .solid)
        button.update { $0.progressBarStyle = .spinning }
        for ms in [0, 100, 200, 1000] { #expect(button.appearance(at: at(ms)).trackOpacity == 1) }
    }

    @Test func trackSnapsWhenNotAnimated() {
        let (_, button) = makeButton(style: .outline)
        button.update(animated: false) { $0.progressBarStyle = .spinning }
        #expect(button.appearance.trackOpacity == 0)
    }

    @Test func percentageAnimatesFromZeroThenFromThePreviousPercentage() {
        let (scheduler, button) = makeButton()
        button.update { $0.setProgress(0.5) }
        #expect(button.appearance(at: at(0)).strokeEnd == 0)
        #expect(close(button.appearance(at: at(100)).strokeEnd, 0.5 * referenceEaseOut(0.5)))
        #expect(close(button.appearance(at: at(199)).strokeEnd, 0.5 * referenceEaseOut(0.995)))
        #expect(button.appearance(at: at(200)).strokeEnd == 0.5)
        #expect(button.appearance(at: at(201)).strokeEnd == 0.5)
        #expect(button.appearance(at: at(200)).strokeStart == 0)
        scheduler.advance(to: at(1000))
        button.update { $0.setProgress(0.8) }
        #expect(button.appearance(at: at(1000)).strokeEnd == 0.5)
        let eight = Double(Float(0.8))  // progress values are Floats
        #expect(close(button.appearance(at: at(1100)).strokeEnd, 0.5 + (eight - 0.5) * referenceEaseOut(0.5)))
        #expect(button.appearance(at: at(1200)).strokeEnd == eight)
    }

    @Test func percentageAfterSpinningStartsFromZero() {
        let (scheduler, button) = makeButton(state: ActivityIndicatorButtonState(progressBarStyle: .spinning))
        scheduler.advance(to: at(450))  // spinner stroke end is 0.5 here
        button.update { $0.setProgress(0.35) }
        let a = button.appearance(at: at(450))
        #expect(a.strokeStart == 0 && a.strokeEnd == 0 && a.rotation == 0)
        #expect(button.appearance(at: at(650)).strokeEnd == Double(Float(0.35)))
    }

    @Test func interruptedPercentageContinuesFromThePresentedValue() {
        let (scheduler, button) = makeButton()
        button.update { $0.setProgress(0.5) }
        scheduler.advance(to: at(100))
        let presented = button.appearance.strokeEnd
        #expect(close(presented, 0.5 * referenceEaseOut(0.5)))
        button.update { $0.setProgress(0.8) }
        #expect(button.appearance(at: at(100)).strokeEnd == presented)  // no jump
        let eight = Double(Float(0.8))  // progress values are Floats
        #expect(close(button.appearance(at: at(200)).strokeEnd, presented + (eight - presented) * referenceEaseOut(0.5)))
        #expect(button.appearance(at: at(299)).strokeEnd < eight)
        #expect(button.appearance(at: at(300)).strokeEnd == eight)
    }

    @Test func anUnrelatedChangeDoesNotRestartARunningAnimation() {
        let (scheduler, button) = makeButton()
        button.update { $0.setProgress(0.5) }
        scheduler.advance(to: at(100))
        button.update(animated: true) { $0.trackColor = red }
        #expect(button.appearance(at: at(200)).strokeEnd == 0.5)
    }

    @Test func percentageIsClamped() {
        let (_, button) = makeButton()
        button.update(animated: false) { $0.setProgress(1.5) }
        #expect(button.appearance.strokeEnd == 1)
        button.update(animated: false) { $0.setProgress(-2) }
        #expect(button.appearance.strokeEnd == 0)
        button.update(animated: false) { $0.setProgress(.nan) }
        #expect(button.appearance.strokeEnd == 0)
        #expect(ProgressBarStyle.percentage(2) == .percentage(1))
        #expect(ProgressBarStyle.percentage(0.5) != .percentage(0.6))
        #expect(ProgressBarStyle.percentage(0) != .inactive)
    }

    @Test func solidTintGrowsFromTheCentre() {
        let (scheduler, button) = makeButton()
        scheduler.advance(to: at(100))
        button.update { $0.tintColor = red }
        let start = button.appearance(at: at(100))
        #expect(start.fillColor == .systemBlue)
        #expect(start.tintGrowth == TintGrowthAppearance(color: red, fraction: 0))
        #expect(start.progressColor == red)  // strokes switch at once
        #expect(close(button.appearance(at: at(200)).tintGrowth?.fraction ?? -1, referenceEaseOut(0.5)))
        #expect(button.appearance(at: at(300) - attosecond).tintGrowth != nil)
        let end = button.appearance(at: at(300))
        #expect(end.tintGrowth == nil && end.fillColor == red)
        #expect(button.appearance(at: at(301)).fillColor == red)
    }

    @Test func tintGrowthIsSkippedWhenNotAnimatedOrOutline() {
        let (_, solid) = makeButton()
        solid.update(animated: false) { $0.tintColor = red }
        #expect(solid.appearance.tintGrowth == nil && solid.appearance.fillColor == red)
        let (_, outline) = makeButton(style: .outline)
        outline.update { $0.tintColor = red }
        #expect(outline.appearance.tintGrowth == nil && outline.appearance.fillColor == .clear)
    }

    @Test func interruptedTintGrowthFinishesAndTheNewestTintGrows() {
        let (scheduler, button) = makeButton()
        button.update { $0.tintColor = red }
        scheduler.advance(to: at(100))
        button.update { $0.tintColor = green }
        let a = button.appearance(at: at(100))
        #expect(a.fillColor == red)
        #expect(a.tintGrowth == TintGrowthAppearance(color: green, fraction: 0))
        #expect(button.appearance(at: at(300)).fillColor == green)
    }

    @Test func newImageIsRevealedWhenAnimated() {
        let (scheduler, button) = makeButton()
        let tick = ButtonImage(name: "complete")
        button.image = tick
        #expect(button.appearance(at: at(0)).imageReveal == 0)
        #expect(close(button.appearance(at: at(100)).imageReveal, referenceEaseOut(0.5)))
        #expect(button.appearance(at: at(199)).imageReveal < 1)
        #expect(button.appearance(at: at(200)).imageReveal == 1)
        #expect(button.appearance(at: at(201)).imageReveal == 1)
        scheduler.advance(to: at(500))
        button.update { $0.tintColor = red }  // same image: no new reveal
        #expect(button.appearance.imageReveal == 1)
        button.update(animated: false) { $0.image = ButtonImage(name: "error") }
        #expect(button.appearance.imageReveal == 1)
    }

    @Test func rippleAndScaleOnTouch() {
        let (scheduler, button) = makeButton()
        button.frameSize = ButtonSize(width: 40, height: 30)
        scheduler.advance(to: at(1000))
        button.touchDown()
        let start = button.appearance(at: at(1000))
        #expect(start.ripples == [RippleAppearance(radius: 0, opacity: 1, color: ButtonColor.gray.withAlpha(0.5))])
        #expect(start.scale == 1)
        let mid = button.appearance(at: at(1250))
        #expect(close(mid.ripple?.radius ?? -1, 25 * referenceEaseOut(0.5)))
        #expect(close(mid.ripple?.opacity ?? -1, 1 - referenceEaseOut(0.5)))
        #expect(close(mid.scale, 1 - 0.02 * referenceEaseOut(0.5)))
        #expect(button.appearance(at: at(1500) - attosecond).ripples.count == 1)
        let end = button.appearance(at: at(1500))
        #expect(end.ripples.isEmpty && end.scale == 0.98)
        #expect(button.appearance(at: at(1501)).scale == 0.98)

        scheduler.advance(to: at(2000))
        button.touchUp(inside: true)
        #expect(button.appearance(at: at(2000)).ripples.count == 1)
        #expect(button.appearance(at: at(2000)).scale == 0.98)
        #expect(button.appearance(at: at(2500)).scale == 1)
    }

    @Test func touchUpOutsideScalesBackWithoutRippleAndDisabledIgnoresTouches() {
        let (scheduler, button) = makeButton()
        button.touchDown()
        scheduler.advance(to: at(100))
        let pressed = button.appearance.scale
        button.touchUp(inside: false)
        let a = button.appearance(at: at(100))
        #expect(a.ripples.count == 1 && a.scale == pressed)  // only touch-down's ripple; scale from presented
        #expect(button.appearance(at: at(600)).scale == 1)
        button.isEnabled = false
        button.touchDown()
        #expect(button.appearance(at: at(600)).ripples.isEmpty)
        #expect(button.appearance(at: at(700)).scale == 1)
    }

    @Test func samplingBeforeTheLastChangeIsClampedToIt() {
        let (scheduler, button) = makeButton()
        scheduler.advance(to: at(500))
        button.update { $0.setProgress(1) }
        #expect(button.appearance(at: at(0)) == button.appearance(at: at(500)))
    }

    @Test func intrinsicSizeRule() {
        let (_, button) = makeButton()
        #expect(button.intrinsicContentSize == ButtonSize(width: 35, height: 35))
        button.image = ButtonImage(name: "small", size: ButtonSize(width: 20, height: 10))
        #expect(button.intrinsicContentSize == ButtonSize(width: 56, height: 56))
        button.image = ButtonImage(name: "big", size: ButtonSize(width: 50, height: 40))
        #expect(button.intrinsicContentSize == ButtonSize(width: 71, height: 61))
        #expect(button.size == ButtonSize(width: 71, height: 61))
        button.frameSize = ButtonSize(width: 44, height: 44)
        #expect(button.size == ButtonSize(width: 44, height: 44))
        #expect(button.appearance.size == ButtonSize(width: 44, height: 44))
        let a = button.appearance
        #expect(a.progressRadius == 22 - 1 - 1.5)
        #expect(a.backgroundRadius == 22 - 4.75)
    }

    @Test func stateEqualityIncludesNameAndForeground() {
        let base = ActivityIndicatorButtonState(name: "A", tintColor: red)
        var renamed = base
        renamed.name = "B"
        var recoloured = base
        recoloured.foregroundColor = .black
        #expect(base != renamed)
        #expect(base != recoloured)
        #expect(base == ActivityIndicatorButtonState(name: "A", tintColor: red, progressBarStyle: .inactive))
    }
}
