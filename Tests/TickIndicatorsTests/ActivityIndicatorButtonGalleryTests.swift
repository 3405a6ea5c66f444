import Foundation
import Testing
import TickIndicators
import TickTesting

/// The SVG gallery shown in Docs/ActivityIndicatorButton.md, rendered from the model.
enum ActivityIndicatorButtonGallery {
    static let downloadImage = ButtonImage(name: "download")
    static let completeState = ActivityIndicatorButtonState(
        name: "Complete", tintColor: ButtonColor(red: 0, green: 0.78, blue: 0.33), image: ButtonImage(name: "complete"))
    static let errorState = ActivityIndicatorButtonState(
        name: "Error", tintColor: ButtonColor(red: 0.84, green: 0, blue: 0), image: ButtonImage(name: "error"))

    /// A button on a fresh TestScheduler in `state` (shown without animation).
    static func button(
        _ style: ActivityIndicatorButtonStyle, _ state: ActivityIndicatorButtonState
    ) -> (TestScheduler, ActivityIndicatorButton) {
        let scheduler = TestScheduler()
        let button = ActivityIndicatorButton(scheduler: scheduler, state: state)
        button.style = style
        return (scheduler, button)
    }

    /// File name → SVG text, in gallery order.
    static func images() -> [(String, String)] {
        var images: [(String, String)] = []

        let (_, inactive) = button(.solid, ActivityIndicatorButtonState(image: downloadImage))
        images.append(("button-inactive.svg", ActivityIndicatorButtonSVG.render(inactive.appearance)))

        for style in ActivityIndicatorButtonStyle.allCases {
            let (_, spinner) = button(style, ActivityIndicatorButtonState(image: ButtonImage(name: "pause"), progressBarStyle: .spinning))
            images.append((
                "button-spinning-\(style)-strip.svg",
                ActivityIndicatorButtonSVG.renderStrip(of: spinner, from: at(0), to: at(1700), step: .milliseconds(100))))
        }

        let (_, progress) = button(.outline, ActivityIndicatorButtonState(image: ButtonImage(name: "pause")))
        progress.update { $0.setProgress(0.35) }  // animates 0 → 0.35 over 0.2 s
        images.append((
            "button-progress-35-strip.svg",
            ActivityIndicatorButtonSVG.renderStrip(of: progress, from: at(0), to: at(250), step: .milliseconds(50))))
        images.append(("button-progress-35.svg", ActivityIndicatorButtonSVG.render(progress.appearance(at: at(200)))))

        let (_, complete) = button(.solid, completeState)
        images.append(("button-complete.svg", ActivityIndicatorButtonSVG.render(complete.appearance)))

        let (_, error) = button(.solid, errorState)
        images.append(("button-error.svg", ActivityIndicatorButtonSVG.render(error.appearance)))

        let (errorScheduler, growing) = button(.solid, ActivityIndicatorButtonState(image: downloadImage))
        growing.transition(to: errorState)  // tint grows from the centre, image revealed
        images.append((
            "button-error-transition-strip.svg",
            ActivityIndicatorButtonSVG.renderStrip(of: growing, from: errorScheduler.now, to: at(250), step: .milliseconds(50))))

        var row: [(appearance: ActivityIndicatorButtonAppearance, label: String)] = []
        for style in ActivityIndicatorButtonStyle.allCases {
            let (_, b) = button(style, ActivityIndicatorButtonState(image: downloadImage, progressBarStyle: .percentage(0.6)))
            row.append((b.appearance, "\(style)"))
        }
        images.append(("button-outline-vs-solid.svg", ActivityIndicatorButtonSVG.renderRow(row)))

        var enabledRow: [(appearance: ActivityIndicatorButtonAppearance, label: String)] = []
        for enabled in [true, false] {
            for style in ActivityIndicatorButtonStyle.allCases {
                let (_, b) = button(style, ActivityIndicatorButtonState(image: downloadImage, progressBarStyle: .percentage(0.6)))
                b.isEnabled = enabled
                enabledRow.append((b.appearance, enabled ? "\(style)" : "disabled"))
            }
        }
        images.append(("button-disabled.svg", ActivityIndicatorButtonSVG.renderRow(enabledRow)))

        let (touchScheduler, touched) = button(.solid, ActivityIndicatorButtonState(image: ButtonImage(name: "play")))
        touched.touchDown()
        images.append((
            "button-touch-ripple-strip.svg",
            ActivityIndicatorButtonSVG.renderStrip(of: touched, from: touchScheduler.now, to: at(500), step: .milliseconds(100))))
        return images
    }

    /// The package root, found from this file's path (Tests/TickIndicatorsTests/<file>).
    static func imagesDirectory(filePath: String = #filePath) -> URL {
        URL(fileURLWithPath: filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Docs").appendingPathComponent("images")
    }
}

@Suite(.checksResourceLeaks) struct ActivityIndicatorButtonGalleryTests {
    /// Regenerates every gallery image and compares it with the committed file.
    /// Set TICK_REGENERATE_GALLERY=1 to write the files instead (then commit them).
    @Test func committedGalleryMatchesTheRenderer() throws {
        let directory = ActivityIndicatorButtonGallery.imagesDirectory()
        let regenerate = ProcessInfo.processInfo.environment["TICK_REGENERATE_GALLERY"] == "1"
        if regenerate {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        }
        let images = ActivityIndicatorButtonGallery.images()
        #expect(images.count == 11)
        for (name, svg) in images {
            let url = directory.appendingPathComponent(name)
            if regenerate {
                try Data(svg.utf8).write(to: url)
                continue
            }
            guard let data = FileManager.default.contents(atPath: url.path) else {
                Issue.record("Docs/images/\(name) is missing; run with TICK_REGENERATE_GALLERY=1 and commit it.")
                continue
            }
            #expect(
                String(decoding: data, as: UTF8.self) == svg,
                "Docs/images/\(name) drifted from what the renderer draws; run with TICK_REGENERATE_GALLERY=1 and commit it.")
        }
    }

    @Test func everyGalleryImageIsLinkedFromTheDocsPage() throws {
        let page = ActivityIndicatorButtonGallery.imagesDirectory().deletingLastPathComponent()
            .appendingPathComponent("ActivityIndicatorButton.md")
        let text = try String(contentsOf: page, encoding: .utf8)
        for (name, _) in ActivityIndicatorButtonGallery.images() {
            #expect(text.contains("images/\(name)"), "\(name) is not shown on the docs page")
        }
    }
}
