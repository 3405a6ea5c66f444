/// How an ``ActivityIndicatorButton`` paints its round background.
public enum ActivityIndicatorButtonStyle: Hashable, Sendable, CaseIterable {
    /// The App Store download button look: a clear background, the image tinted
    /// with the tint colour, no shadow.
    case outline
    /// The Material Design look (the default): the background filled with the
    /// tint colour, the image tinted with the foreground colour, a drop shadow.
    case solid
}

/// What the circular progress bar around an ``ActivityIndicatorButton`` shows.
///
/// ## Clamping
/// A `percentage` is a fraction of the ring, 0…1. Values outside that range are
/// accepted but **clamped** wherever they are used (a NaN counts as 0):
/// `.percentage(1.5)` draws a full ring, `.percentage(-1)` an empty one. Equality
/// compares the clamped values, so `.percentage(2) == .percentage(1)`.
public enum ProgressBarStyle: Sendable, CustomStringConvertible {
    /// No progress bar is shown.
    case inactive
    /// The indeterminate spinner: a 1.7 s stroke cycle on a 3 s rotation.
    case spinning
    /// A determinate ring filled clockwise from the top to the given fraction (clamped to 0…1).
    case percentage(Float)

    /// The percentage clamped to 0…1 (NaN becomes 0), or `nil` when this is not a percentage.
    public var clampedFraction: Float? {
        guard case .percentage(let value) = self else { return nil }
        return ProgressBarStyle.clamp(value)
    }

    /// Whether this is `.spinning`.
    public var isSpinning: Bool {
        if case .spinning = self { return true }
        return false
    }

    /// Whether this is `.inactive`.
    public var isInactive: Bool {
        if case .inactive = self { return true }
        return false
    }

    /// Clamps `value` to 0…1; NaN becomes 0.
    static func clamp(_ value: Float) -> Float {
        value.isNaN ? 0 : min(1, max(0, value))
    }

    public var description: String {
        switch self {
        case .inactive: return "inactive"
        case .spinning: return "spinning"
        case .percentage(let value): return "percentage(\(ProgressBarStyle.clamp(value)))"
        }
    }
}

extension ProgressBarStyle: Hashable {
    public static func == (lhs: ProgressBarStyle, rhs: ProgressBarStyle) -> Bool {
        switch (lhs, rhs) {
        case (.inactive, .inactive), (.spinning, .spinning): return true
        case (.percentage, .percentage): return lhs.clampedFraction == rhs.clampedFraction
        default: return false
        }
    }

    public func hash(into hasher: inout Hasher) {
        switch self {
        case .inactive: hasher.combine(0)
        case .spinning: hasher.combine(1)
        case .percentage: hasher.combine(2); hasher.combine(clampedFraction)
        }
    }
}
