/// The new tint growing from the centre of a solid button (see ``ActivityIndicatorButtonAppearance/tintGrowth``).
public struct TintGrowthAppearance: Hashable, Sendable {
    /// The colour that is growing.
    public var color: ButtonColor
    /// Its radius as a fraction (0…1) of the background circle's radius.
    public var fraction: Double

    /// A growing tint of `color` at `fraction` of the background radius.
    public init(color: ButtonColor, fraction: Double) {
        self.color = color
        self.fraction = fraction
    }
}

/// One touch ripple: a filled circle centred on the button, drawn beneath it.
public struct RippleAppearance: Hashable, Sendable {
    /// The circle's radius in points.
    public var radius: Double
    /// The circle's opacity, 0…1 (multiplies the colour's own alpha).
    public var opacity: Double
    /// The ripple colour.
    public var color: ButtonColor

    /// A ripple of `radius` points at `opacity` in `color`.
    public init(radius: Double, opacity: Double, color: ButtonColor) {
        self.radius = radius
        self.opacity = opacity
        self.color = color
    }
}

/// Everything needed to draw an ``ActivityIndicatorButton`` at one instant.
///
/// A plain value: compare two appearances with `==`, print one, or hand it to
/// ``ActivityIndicatorButtonSVG``. Geometry follows the original's layout: the
/// progress ring sits 1 pt inside the bounds, the background circle (whose
/// stroke is the track) inside the progress ring.
public struct ActivityIndicatorButtonAppearance: Hashable, Sendable {
    /// The button's size (its frame size, or its intrinsic size when none is set).
    public var size: ButtonSize
    /// The style the button was drawn in.
    public var style: ActivityIndicatorButtonStyle
    /// The background circle's fill: the tint for solid buttons (the old tint while
    /// a new one grows), clear for outline buttons.
    public var fillColor: ButtonColor
    /// A new tint growing from the centre over `fillColor`, while that animation runs.
    public var tintGrowth: TintGrowthAppearance?
    /// The drop shadow colour (clear for outline buttons).
    public var shadowColor: ButtonColor
    /// The track (the background circle's stroke) colour.
    public var trackColor: ButtonColor
    /// The track's line width (1.5 pt).
    public var trackWidth: Double
    /// The opacity of the background circle — its track stroke, fill and shadow —
    /// 0…1. It drops below 1 only on outline buttons (whose fill is clear), where
    /// the track fades out while spinning.
    public var trackOpacity: Double
    /// The progress ring's colour (the tint).
    public var progressColor: ButtonColor
    /// The progress ring's line width (3 pt).
    public var progressWidth: Double
    /// The progress ring's opacity: 1 while a spinner or a percentage shows, else 0.
    public var progressOpacity: Double
    /// Where the drawn part of the ring starts, as a fraction of the circumference
    /// clockwise from the top (before ``rotation``).
    public var strokeStart: Double
    /// Where the drawn part of the ring ends (same measure); nothing is drawn when
    /// `strokeEnd <= strokeStart`.
    public var strokeEnd: Double
    /// The progress ring's clockwise rotation in radians (spinning only; else 0).
    public var rotation: Double
    /// The image shown in the centre, if any.
    public var image: ButtonImage?
    /// The colour the image is tinted with (foreground for solid, tint for outline).
    public var imageTint: ButtonColor
    /// How much of the image is revealed: the radius of its circular mask as a
    /// fraction (0…1) of the background circle's radius.
    public var imageReveal: Double
    /// The touch ripples still running, oldest first.
    public var ripples: [RippleAppearance]
    /// The press scale of the background and shadow (1, or 0.98 while pressed).
    public var scale: Double

    /// The radius of the circle the progress ring is stroked on.
    public var progressRadius: Double {
        min(size.width, size.height) / 2 - ButtonMetrics.outerPadding - progressWidth / 2
    }

    /// The radius of the background circle (the track is stroked on it).
    public var backgroundRadius: Double {
        min(size.width, size.height) / 2
            - (ButtonMetrics.outerPadding + ButtonMetrics.progressBarWidth + ButtonMetrics.trackWidth / 2)
    }

    /// The ripple drawn on top (the most recent), if any.
    public var ripple: RippleAppearance? { ripples.last }
}

/// The fixed measures and durations of ``ActivityIndicatorButton`` (the original's defaults).
public enum ButtonMetrics {
    /// Duration of every state transition animation: 0.2 s (ease-out).
    public static let animationDuration: Duration = .milliseconds(200)
    /// How far past the button's edge a ripple travels: 5 pt.
    public static let hitAnimationDistance = 5.0
    /// Duration of a touch ripple and of the press scale: 0.5 s (ease-out).
    public static let hitAnimationDuration: Duration = .milliseconds(500)
    /// The scale of a pressed button: 0.98.
    public static let pressedScale = 0.98
    /// The progress ring's line width: 3 pt.
    public static let progressBarWidth = 3.0
    /// The track's line width: 1.5 pt.
    public static let trackWidth = 1.5
    /// Space between the bounds and the progress ring: 1 pt.
    public static let outerPadding = 1.0
    /// Minimum space between the image and the track: 5 pt.
    public static let minimumImagePadding = 5.0
    /// The intrinsic width and height without an image, and the minimum image extent: 35 pt.
    public static let defaultContentExtent = 35.0
    /// The spinner's stroke cycle: 1.7 s.
    public static let spinnerCycle: Duration = SpinnerCycle.period
    /// The spinner's full rotation: 3.0 s.
    public static let spinnerRotationPeriod: Duration = SpinnerCycle.rotationPeriod
}
