import Testing
import TickIndicators
import TickTesting

@Suite struct ActivityIndicatorButtonColorTests {
    static let normalTint = ButtonColor(red: 0.2, green: 0.4, blue: 0.8)
    static let normalTrack = ButtonColor(white: 0.7)
    static let normalForeground = ButtonColor(red: 1, green: 1, blue: 0.9)
    static let stateTint = red
    static let stateTrack = ButtonColor(white: 0.3)
    static let stateForeground = ButtonColor(red: 0, green: 0, blue: 0)

    struct Cell: CustomTestStringConvertible, Sendable {
        let style: ActivityIndicatorButtonStyle
        let tint: Bool, track: Bool, foreground: Bool
        var testDescription: String { "\(style) tint:\(tint) track:\(track) foreground:\(foreground)" }
    }

    static let cells: [Cell] = ActivityIndicatorButtonStyle.allCases.flatMap { style in
        [false, true].flatMap { t in [false, true].flatMap { k in [false, true].map { f in
            Cell(style: style, tint: t, track: k, foreground: f)
        } } }
    }

    @Test(arguments: cells)
    func colourResolution(cell: Cell) {
        let (_, button) = makeButton(style: cell.style)
        button.tintColor = Self.normalTint
        button.normalTrackColor = Self.normalTrack
        button.normalForegroundColor = Self.normalForeground
        button.transition(to: ActivityIndicatorButtonState(
            tintColor: cell.tint ? Self.stateTint : nil,
            trackColor: cell.track ? Self.stateTrack : nil,
            foregroundColor: cell.foreground ? Self.stateForeground : nil,
            image: ButtonImage(name: "play"),
            progressBarStyle: .percentage(0.5)), animated: false)
        let a = button.appearance
        let tint = cell.tint ? Self.stateTint : Self.normalTint
        let track = cell.track ? Self.stateTrack : Self.normalTrack
        let foreground = cell.foreground ? Self.stateForeground : Self.normalForeground
        #expect(a.progressColor == tint)
        #expect(a.trackColor == track)
        #expect(button.tintColorForCurrentActivityState == tint)
        #expect(button.trackColorForCurrentActivityState == track)
        #expect(button.foregroundColorForCurrentActivityState == foreground)
        switch cell.style {
        case .solid:
            #expect(a.fillColor == tint)
            #expect(a.imageTint == foreground)
            #expect(a.shadowColor == .black)
        case .outline:
            #expect(a.fillColor == .clear)
            #expect(a.imageTint == tint)
            #expect(a.shadowColor == .clear)
        }
    }

    @Test func defaultsAreTheOriginals() {
        let (_, button) = makeButton()
        #expect(button.style == .solid)
        #expect(button.tintColor == .systemBlue)
        #expect(button.normalTrackColor == ButtonColor(white: 2.0 / 3.0))
        #expect(button.normalForegroundColor == .white)
        #expect(button.activityState == ActivityIndicatorButtonState())
        #expect(button.activityState.progressBarStyle == .inactive)
    }

    @Test func disabledDesaturatesTintAndForegroundOnly() {
        let (_, button) = makeButton()
        button.transition(to: ActivityIndicatorButtonState(
            tintColor: red, trackColor: green, foregroundColor: blue, image: ButtonImage(name: "x")), animated: false)
        button.isEnabled = false
        let a = button.appearance
        // red (hue 0, s 1, b 1) at saturation 0.2 → (1, 0.8, 0.8)
        #expect(close(a.fillColor.red, 1) && close(a.fillColor.green, 0.8) && close(a.fillColor.blue, 0.8))
        #expect(close(a.imageTint.red, 0.8) && close(a.imageTint.green, 0.8) && close(a.imageTint.blue, 1))
        #expect(a.trackColor == green)  // the track is not desaturated
        button.isEnabled = true
        #expect(button.appearance.fillColor == red)
    }

    @Test func disabledKeepsHueBrightnessAndAlphaAndLeavesGreysAlone() {
        let colour = ButtonColor(red: 0.1, green: 0.5, blue: 0.3, alpha: 0.6)
        let before = colour.hsb
        let after = colour.disabled.hsb
        #expect(close(after.hue, before.hue) && close(after.brightness, before.brightness))
        #expect(close(after.saturation, 0.2) && after.alpha == 0.6)
        #expect(ButtonColor.white.disabled == .white)
        #expect(ButtonColor(white: 0.4).disabled == ButtonColor(white: 0.4))
        let pale = ButtonColor(hue: 0.5, saturation: 0.1, brightness: 0.9)
        #expect(pale.disabled == pale)
    }

    @Test func hsbRoundTrips() {
        for (r, g, b) in [(1.0, 0.0, 0.0), (0.0, 0.78, 0.33), (0.2, 0.4, 0.8), (0.9, 0.9, 0.1), (0.5, 0.1, 0.7), (0.3, 0.3, 0.3)] {
            let c = ButtonColor(red: r, green: g, blue: b)
            let h = c.hsb
            let back = ButtonColor(hue: h.hue, saturation: h.saturation, brightness: h.brightness)
            #expect(close(back.red, r) && close(back.green, g) && close(back.blue, b), "\(r) \(g) \(b)")
        }
        #expect(close(ButtonColor(red: 0, green: 1, blue: 0).hsb.hue, 1.0 / 3))
        #expect(ButtonColor(red: 2, green: -1, blue: .nan) == ButtonColor(red: 1, green: 0, blue: 0))
        #expect(ButtonColor(red: 1, green: 0.5, blue: 0).hexRGB == "#ff8000")
    }
}
