/// Reading and writing the duration tokens of marble diagrams (`10ms`, `1.5s`,
/// `2m`): exact decimal arithmetic on attoseconds, never floating point.
/// `package`: the `marbles` tool (MarblesCommand) reads `--frame` with it.
package enum MarbleDuration {
    static let attosPerMillisecond: Int128 = 1_000_000_000_000_000
    static let attosPerSecond: Int128 = 1_000_000_000_000_000_000
    static let attosPerMinute: Int128 = 60_000_000_000_000_000_000

    /// The largest distance from zero a marble time may have: 10¹⁵ seconds.
    static let limit: Int128 = 1_000_000_000_000_000 * attosPerSecond

    /// Whether the whitespace-delimited `token` is meant as a duration: an
    /// optional `-`, then only digits and dots (at least one digit), then a
    /// unit `ms`, `s` or `m`. Anything else is ordinary markers.
    package static func isCandidate(_ token: ArraySlice<Character>) -> Bool {
        guard let unitLength = unitLength(of: token) else { return false }
        var body = token.dropLast(unitLength)
        if body.first == "-" { body = body.dropFirst() }
        var sawDigit = false
        for character in body {
            if character.isASCII, character.isNumber {
                sawDigit = true
            } else if character != "." {
                return false
            }
        }
        return sawDigit
    }

    private static func unitLength(of token: ArraySlice<Character>) -> Int? {
        if token.count >= 2, token.suffix(2).elementsEqual(["m", "s"]) { return 2 }
        if token.last == "s" || token.last == "m" { return 1 }
        return nil
    }

    /// The exact attoseconds of a candidate token that starts at character
    /// offset `start` of `diagram`.
    package static func parse(
        _ token: ArraySlice<Character>, start: Int, diagram: String
    ) throws(MarbleError) -> Int128 {
        guard let unitLength = unitLength(of: token) else {
            throw MarbleError(.malformedDuration, at: start, in: diagram)
        }
        if token.first == "-" { throw MarbleError(.negativeDuration, at: start, in: diagram) }
        let unit: Int128 =
            unitLength == 2 ? attosPerMillisecond : (token.last == "s" ? attosPerSecond : attosPerMinute)
        let body = Array(token.dropLast(unitLength))
        // digits [. digits]
        var index = 0
        var whole: Int128 = 0
        var wholeDigits = 0
        while index < body.count, let digit = body[index].wholeNumberValue, body[index].isASCII {
            // Leading zeros do not count towards the size limit.
            if whole != 0 || digit != 0 { wholeDigits += 1 }
            if wholeDigits > 20 { throw MarbleError(.timeOutOfRange, at: start, in: diagram) }
            whole = whole * 10 + Int128(digit)
            index += 1
        }
        if index == 0 { throw MarbleError(.malformedDuration, at: start + index, in: diagram) }
        var fractionDigits: [Int] = []
        if index < body.count {
            guard body[index] == "." else { throw MarbleError(.malformedDuration, at: start + index, in: diagram) }
            index += 1
            let fractionStart = index
            while index < body.count, let digit = body[index].wholeNumberValue, body[index].isASCII {
                fractionDigits.append(digit)
                index += 1
            }
            if index == fractionStart || index < body.count {
                throw MarbleError(.malformedDuration, at: start + index, in: diagram)
            }
        }
        // whole < 10²⁰ and unit ≤ 6·10¹⁹, so the product can exceed Int128
        // (1.7·10³⁸): check, and call it out of range (found by fuzzing).
        let (wholeTotal, wholeOverflow) = whole.multipliedReportingOverflow(by: unit)
        guard !wholeOverflow else { throw MarbleError(.timeOutOfRange, at: start, in: diagram) }
        var total = wholeTotal
        while fractionDigits.last == 0 { fractionDigits.removeLast() }
        if !fractionDigits.isEmpty {
            // At most 20 significant decimals can be exact in attoseconds.
            guard fractionDigits.count <= 20 else {
                throw MarbleError(.malformedDuration, at: start, in: diagram)
            }
            var numerator: Int128 = 0
            var denominator: Int128 = 1
            for digit in fractionDigits {
                numerator = numerator * 10 + Int128(digit)
                denominator *= 10
            }
            let (product, overflow) = numerator.multipliedReportingOverflow(by: unit)
            guard !overflow, product % denominator == 0 else {
                throw MarbleError(.malformedDuration, at: start, in: diagram)
            }
            let (sum, sumOverflow) = total.addingReportingOverflow(product / denominator)
            guard !sumOverflow else { throw MarbleError(.timeOutOfRange, at: start, in: diagram) }
            total = sum
        }
        guard total <= limit else { throw MarbleError(.timeOutOfRange, at: start, in: diagram) }
        return total
    }

    /// The shortest exact token for a positive number of attoseconds: whole
    /// minutes as `m`, whole seconds as `s`, everything else as (decimal) `ms`.
    static func token(attoseconds: Int128) -> String {
        if attoseconds % attosPerMinute == 0 { return "\(attoseconds / attosPerMinute)m" }
        if attoseconds % attosPerSecond == 0 { return "\(attoseconds / attosPerSecond)s" }
        return decimal(attoseconds, unit: attosPerMillisecond, digits: 15) + "ms"
    }

    /// `value / unit` as an exact decimal with trailing zeros removed.
    static func decimal(_ value: Int128, unit: Int128, digits: Int) -> String {
        let sign = value < 0 ? "-" : ""
        let magnitude = value < 0 ? -value : value
        let whole = magnitude / unit
        var rest = magnitude % unit
        guard rest != 0 else { return "\(sign)\(whole)" }
        var text = ""
        var scale = unit
        for _ in 0..<digits where rest != 0 {
            scale /= 10
            text.append(String(rest / scale))
            rest %= scale
        }
        return "\(sign)\(whole).\(text)"
    }

    /// A readable time for messages: `5ms`, `10.2ms`, `-2ms`, `1m 0.5s` is
    /// written `60500ms`.
    static func describe(attoseconds: Int128) -> String {
        decimal(attoseconds, unit: attosPerMillisecond, digits: 15) + "ms"
    }
}
