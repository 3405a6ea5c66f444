import Tick

/// How to generate one value in a property check (`forAllTimelines(runs:seed:exploringOrder:shrinkBudget:replay:_:)`).
///
/// Every generator shrinks toward its simplest value: ``int(in:)`` toward
/// the range's lower bound, ``oneOf(_:_:)`` toward the first value,
/// ``bool`` toward `false`.
///
/// ```swift
/// let digit = Gen.int(in: 0...9)
/// let word = Gen.oneOf("a", "bb", "ccc")
/// let label = digit.map { "#\($0)" }
/// ```
public struct Gen<Value> {
    let generate: (Choices) -> Value

    init(_ generate: @escaping (Choices) -> Value) {
        self.generate = generate
    }

    /// Always `value`.
    public static func constant(_ value: Value) -> Gen<Value> {
        Gen { _ in value }
    }

    /// One of the values given, uniformly; shrinks toward the first.
    public static func oneOf(_ first: Value, _ others: Value...) -> Gen<Value> {
        let elements = [first] + others
        return Gen { choices in elements[Int(choices.draw(upTo: UInt64(elements.count - 1)))] }
    }

    /// This generator's values transformed by `transform`.
    public func map<T>(_ transform: @escaping (Value) -> T) -> Gen<T> {
        Gen<T> { transform(self.generate($0)) }
    }

    /// Generates with this generator, then with the generator `next` makes of its value.
    public func flatMap<T>(_ next: @escaping (Value) -> Gen<T>) -> Gen<T> {
        Gen<T> { choices in next(self.generate(choices)).generate(choices) }
    }
}

extension Gen where Value == Int {
    /// An integer in `range`, uniformly; shrinks toward `range.lowerBound`.
    public static func int(in range: ClosedRange<Int>) -> Gen<Int> {
        Gen { choices in
            let width = UInt64(bitPattern: Int64(range.upperBound &- range.lowerBound))
            return range.lowerBound &+ Int(truncatingIfNeeded: choices.draw(upTo: width))
        }
    }
}

extension Gen where Value == Bool {
    /// `true` or `false`, evenly; shrinks toward `false`.
    public static var bool: Gen<Bool> {
        Gen { $0.draw(upTo: 1) == 1 }
    }
}

/// How a generated timeline ends.
public enum TimelineEnd: Sendable {
    /// It never ends (no terminal event).
    case never
    /// It always completes, after its last element.
    case completes
    /// It completes in some runs; shrinks toward not completing.
    case mayComplete
    /// It fails with `error` in some runs; shrinks toward not failing.
    case mayFail(any Error)
}

/// How to generate a timeline: elements at random virtual times within a
/// span, and maybe a terminal event after them.
///
/// ```swift
/// // About one keystroke every 50 ms over the first second, digits as values.
/// let keys = TimelineGen(of: .int(in: 0...9), within: 0...1000, density: 1.0 / 50)
/// ```
///
/// Shrinks toward fewer elements, earlier times and simpler values, and
/// toward no terminal event (``TimelineEnd/mayComplete``, ``TimelineEnd/mayFail(_:)``)
/// or an earlier one.
public struct TimelineGen<Element> {
    /// The elements' generator.
    public let values: Gen<Element>
    /// The frames (virtual times) the events fall in.
    public let span: ClosedRange<Int>
    /// The average number of elements per frame (within ``maximumCount``).
    public let density: Double
    /// The fewest elements one timeline has.
    public let minimumCount: Int
    /// The most elements one timeline has.
    public let maximumCount: Int
    /// How it ends.
    public let end: TimelineEnd

    /// A timeline of `values` at times in `span` (in frames of the run's
    /// scheduler; a cold timeline counts from its subscription): at least
    /// `minimumCount` elements, then more at `density` further elements per
    /// frame on average, at most `maximumCount` in all; ending as `end` says.
    public init(
        of values: Gen<Element>, within span: ClosedRange<Int>, density: Double = 0.01, minimumCount: Int = 0,
        maximumCount: Int = 20, end: TimelineEnd = .never
    ) {
        self.values = values
        self.span = span
        self.density = density.isFinite ? max(0, density) : 0
        self.maximumCount = max(0, maximumCount)
        self.minimumCount = min(max(0, minimumCount), self.maximumCount)
        self.end = end
    }

    /// The events of one timeline, in time order (elements at the same frame
    /// in the order generated). Runs once per timeline of a property run, a
    /// few dozen events: compiled without optimization (Docs/Performance.md,
    /// "Build time").
    @_optimize(none)
    func generate(_ choices: Choices) -> [Recorded<Event<Element>>] {
        // Each further element is decided by a flag (so deleting an element's
        // choices, or lowering its flag, removes just that element): the
        // count is geometric with the mean the density asks for.
        let mean = density * (Double(span.upperBound) - Double(span.lowerBound) + 1)
        let more = mean / (1 + mean)
        // Times and values in arrays of their own, ordered through an array
        // of indices: this code is not specialized for `Element` (it is
        // not inlinable), and arrays of tuples holding it would make the
        // runtime look up their metadata at every step.
        var times: [Int] = []
        var elements: [Element] = []
        let width = UInt64(bitPattern: Int64(span.upperBound &- span.lowerBound))
        while times.count < maximumCount, times.count < minimumCount || choices.flag(probability: more) {
            times.append(span.lowerBound &+ Int(truncatingIfNeeded: choices.draw(upTo: width)))
            elements.append(values.generate(choices))
        }
        // Stable: same-frame elements keep their generated order.
        let order = stableOrder(times.map { Int128($0) })
        var events: [Recorded<Event<Element>>] = []
        events.reserveCapacity(order.count + 1)
        for index in order { events.append(Recorded(time: TestTime(times[index]), value: .next(elements[index]))) }
        let last = order.last.map { times[$0] } ?? span.lowerBound
        let endTime = {
            TestTime(last &+ Int(truncatingIfNeeded: choices.draw(upTo: UInt64(bitPattern: Int64(span.upperBound &- last)))))
        }
        switch end {
        case .never:
            break
        case .completes:
            events.append(.completed(endTime()))
        case .mayComplete:
            if choices.draw(upTo: 1) == 1 { events.append(.completed(endTime())) }
        case .mayFail(let error):
            if choices.draw(upTo: 1) == 1 { events.append(.error(endTime(), error)) }
        }
        return events
    }
}
