/// A width and a height in points.
public struct ButtonSize: Hashable, Sendable, CustomStringConvertible {
    /// The width in points.
    public var width: Double
    /// The height in points.
    public var height: Double

    /// A size of `width` × `height` points.
    public init(width: Double, height: Double) {
        self.width = width
        self.height = height
    }

    public var description: String { "\(SVGNumber.format(width))×\(SVGNumber.format(height))" }
}

/// A reference to an image shown in the centre of an ``ActivityIndicatorButton``.
///
/// The model never loads pixels: it only needs a name (to tell images apart and
/// for a renderer to look one up) and a size (for the intrinsic size rule). The
/// SVG renderer draws a few well-known names as glyphs (`"complete"`, `"error"`,
/// `"pause"`, `"play"`, `"download"`/`"inactive"`) and any other name as a
/// rounded square; images are always drawn as templates tinted by the button.
public struct ButtonImage: Hashable, Sendable {
    /// The image's name; two images are the same image when names and sizes are equal.
    public var name: String
    /// The image's size in points.
    public var size: ButtonSize

    /// An image reference named `name` of the given size (default 15 × 15 points).
    public init(name: String, size: ButtonSize = ButtonSize(width: 15, height: 15)) {
        self.name = name
        self.size = size
    }
}

/// Everything one logical state of an ``ActivityIndicatorButton`` displays:
/// optional colour overrides, an optional image and the progress bar.
///
/// Each colour left `nil` falls back to the button's normal colour (`tintColor`,
/// `normalTrackColor`, `normalForegroundColor`), so a state can, for example,
/// only turn the tint red for an error.
///
/// ## Equality (a deliberate difference from the original)
/// The original's `==` ignored `name` and `foregroundColor`. Here equality is
/// member-wise over **all** properties, `name` and `foregroundColor` included:
/// the foreground colour changes what a solid button draws (its image tint), so
/// two states that draw differently must not compare equal, and the name is what
/// saved states are looked up by. Progress values compare clamped (see ``ProgressBarStyle``).
public struct ActivityIndicatorButtonState: Hashable, Sendable {
    /// An optional label. It does not affect drawing; ``ActivityIndicatorButton/saveStates(_:)``
    /// requires it.
    public var name: String?
    /// Overrides the button's `tintColor` when set.
    public var tintColor: ButtonColor?
    /// Overrides the button's `normalTrackColor` when set.
    public var trackColor: ButtonColor?
    /// Overrides the button's `normalForegroundColor` when set.
    public var foregroundColor: ButtonColor?
    /// The image centred in the button, if any.
    public var image: ButtonImage?
    /// What the progress bar shows.
    public var progressBarStyle: ProgressBarStyle

    /// A state; every parameter is optional (the progress bar defaults to `.inactive`).
    public init(
        name: String? = nil,
        tintColor: ButtonColor? = nil,
        trackColor: ButtonColor? = nil,
        foregroundColor: ButtonColor? = nil,
        image: ButtonImage? = nil,
        progressBarStyle: ProgressBarStyle = .inactive
    ) {
        self.name = name
        self.tintColor = tintColor
        self.trackColor = trackColor
        self.foregroundColor = foregroundColor
        self.image = image
        self.progressBarStyle = progressBarStyle
    }

    /// Sets ``progressBarStyle`` to `.percentage(value)` (clamped to 0…1 when used).
    public mutating func setProgress(_ value: Float) {
        progressBarStyle = .percentage(value)
    }
}
