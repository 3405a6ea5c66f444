/// A platform-neutral colour: red, green, blue and alpha components, each in 0…1.
///
/// `ActivityIndicatorButton` is headless, so it cannot use `UIColor`; this small
/// value type carries colours through the model into an ``ActivityIndicatorButtonAppearance``
/// and on to a renderer. Components are stored as given, clamped to 0…1 (a NaN
/// component becomes 0), so two colours built from the same numbers are equal.
public struct ButtonColor: Hashable, Sendable, CustomStringConvertible {
    /// The red component, 0…1.
    public let red: Double
    /// The green component, 0…1.
    public let green: Double
    /// The blue component, 0…1.
    public let blue: Double
    /// The alpha (opacity) component, 0…1.
    public let alpha: Double

    /// A colour from red, green, blue and alpha components; each is clamped to 0…1.
    public init(red: Double, green: Double, blue: Double, alpha: Double = 1) {
        self.red = ButtonColor.unit(red)
        self.green = ButtonColor.unit(green)
        self.blue = ButtonColor.unit(blue)
        self.alpha = ButtonColor.unit(alpha)
    }

    /// A grey of the given white level (0 black … 1 white).
    public init(white: Double, alpha: Double = 1) {
        self.init(red: white, green: white, blue: white, alpha: alpha)
    }

    /// A colour from hue, saturation and brightness (the HSB/HSV model), each 0…1.
    ///
    /// A hue of 1 is the same as 0 (red); hues outside 0…1 wrap around.
    public init(hue: Double, saturation: Double, brightness: Double, alpha: Double = 1) {
        let s = ButtonColor.unit(saturation)
        let v = ButtonColor.unit(brightness)
        var h = hue.isFinite ? hue.truncatingRemainder(dividingBy: 1) : 0
        if h < 0 { h += 1 }
        let scaled = h * 6
        let sector = Int(scaled.rounded(.down)) % 6
        let f = scaled - scaled.rounded(.down)
        let p = v * (1 - s)
        let q = v * (1 - s * f)
        let t = v * (1 - s * (1 - f))
        switch sector {
        case 0: self.init(red: v, green: t, blue: p, alpha: alpha)
        case 1: self.init(red: q, green: v, blue: p, alpha: alpha)
        case 2: self.init(red: p, green: v, blue: t, alpha: alpha)
        case 3: self.init(red: p, green: q, blue: v, alpha: alpha)
        case 4: self.init(red: t, green: p, blue: v, alpha: alpha)
        default: self.init(red: v, green: p, blue: q, alpha: alpha)
        }
    }

    /// The colour in the HSB model: hue (0..<1), saturation and brightness (0…1), alpha.
    ///
    /// Greys (equal components) have hue 0 and saturation 0, as `UIColor` reports them.
    public var hsb: (hue: Double, saturation: Double, brightness: Double, alpha: Double) {
        let maxC = max(red, green, blue)
        let minC = min(red, green, blue)
        let delta = maxC - minC
        let brightness = maxC
        let saturation = maxC == 0 ? 0 : delta / maxC
        var hue = 0.0
        if delta > 0 {
            if maxC == red {
                hue = ((green - blue) / delta).truncatingRemainder(dividingBy: 6)
            } else if maxC == green {
                hue = (blue - red) / delta + 2
            } else {
                hue = (red - green) / delta + 4
            }
            hue /= 6
            if hue < 0 { hue += 1 }
        }
        return (hue, saturation, brightness, alpha)
    }

    /// This colour with its HSB saturation replaced by `saturation` (hue, brightness and alpha kept).
    public func withSaturation(_ saturation: Double) -> ButtonColor {
        let c = hsb
        return ButtonColor(hue: c.hue, saturation: saturation, brightness: c.brightness, alpha: c.alpha)
    }

    /// The colour a disabled button shows instead of this one: saturation lowered to
    /// ``ButtonColor/disabledSaturation`` (0.2).
    ///
    /// Deliberate difference from the original, which set the saturation to 0.2
    /// outright: a colour that is already less saturated than 0.2 (white, greys)
    /// is returned unchanged, so a disabled button's white image does not turn pink
    /// (a grey has hue 0, red).
    public var disabled: ButtonColor {
        hsb.saturation <= ButtonColor.disabledSaturation ? self : withSaturation(ButtonColor.disabledSaturation)
    }

    /// The HSB saturation a disabled button's tint and foreground colours are lowered to.
    public static let disabledSaturation = 0.2

    /// This colour with a different alpha.
    public func withAlpha(_ alpha: Double) -> ButtonColor {
        ButtonColor(red: red, green: green, blue: blue, alpha: alpha)
    }

    /// `#rrggbb` (alpha is not included), each component rounded to the nearest of 0…255.
    public var hexRGB: String {
        func byte(_ v: Double) -> String {
            let n = Int((v * 255).rounded())
            let digits = Array("0123456789abcdef")
            return String([digits[n / 16], digits[n % 16]])
        }
        return "#" + byte(red) + byte(green) + byte(blue)
    }

    public var description: String {
        "ButtonColor(\(hexRGB), alpha \(SVGNumber.format(alpha)))"
    }

    /// Fully transparent.
    public static let clear = ButtonColor(white: 0, alpha: 0)
    /// White.
    public static let white = ButtonColor(white: 1)
    /// Black.
    public static let black = ButtonColor(white: 0)
    /// 50 % grey (`UIColor.grayColor()`).
    public static let gray = ButtonColor(white: 0.5)
    /// Light grey, 2/3 white (`UIColor.lightGrayColor()`): the default track colour.
    public static let lightGray = ButtonColor(white: 2.0 / 3.0)
    /// The iOS default tint (system blue, 0 / 0.478 / 1): the default button tint.
    public static let systemBlue = ButtonColor(red: 0, green: 122.0 / 255.0, blue: 1)

    private static func unit(_ value: Double) -> Double {
        value.isNaN ? 0 : min(1, max(0, value))
    }
}
