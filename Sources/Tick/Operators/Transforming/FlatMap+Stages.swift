// MARK: Nested flatMap under element-wise stages
//
// `func nest(n) = just(n).flatMap { _ in nest(n - 1) }.map { $0 + 1 }`: each
// inner sequence is a `map` over another `flatMap`, which the splice of
// FlatMap.swift ("Nested concat, flatMap and merge") does not see through.
// Nested 10,000 deep, every element would then pass through a map sink and a
// merge sink per level, recursing twice per level (issue 25: a debug build
// overflowed its 8 MiB stack at about 4,000 levels). Instead the merging sink
// takes the nested `flatMap`'s source over as before, and keeps the stages
// that stood between (`StageList`) to apply to each of that `flatMap`'s inner
// sequences: an inner sequence becomes a *staged* observable (its own
// elements, then the stages, in a loop in one sink), and a staged observable
// over yet another nested `flatMap` is taken over the same way. So the whole
// nest runs as one merging sink, and an element of the innermost sequence
// goes through the 10,000 `map`s in a loop. The events, their order, the
// moments of subscription (through the same trampoline steps) and the first
// error are the same as with a sink per level; an error thrown by a stage
// ends the whole nest, as it would have through the `flatMap`s above it.

/// Element-wise stages to apply, in order: `chain` (a chain of `map`s and
/// `compactMap`s, first to last), then `then`'s. Shared tails: adding the
/// stages of one more level is one node, whatever the depth.
final class StageList {
    let chain: ElementStages
    private(set) var then: StageList?

    init(_ chain: ElementStages, then: StageList?) {
        self.chain = chain
        self.then = then
    }

    /// Every stage, in the order applied.
    func flattened() -> [ElementStages] {
        var stages: [ElementStages] = []
        var node: StageList? = self
        while let current = node {
            stages.append(contentsOf: current.chain.inOrder())
            node = current.then
        }
        return stages
    }

    /// Released iteratively: a list 10,000 levels long must not recurse in
    /// deinitializers.
    deinit {
        var next = then.take()
        while var node = next {
            next = nil
            guard isKnownUniquelyReferenced(&node) else { break }
            next = node.then.take()
        }
    }
}

/// The splice that takes over `base`, a `flatMap` with no concurrency limit,
/// with `list` applied to each of its inner sequences (`Mid` to `Output`);
/// nil when `base` is not one.
func mergeSplice<Mid, Output>(
    of base: Observable<Mid>, then list: StageList
) -> ((any MergeHost<Output>) -> Void)? {
    guard let nested = base.nesting as? MergeSources<Mid>, case .outer(let splice) = nested.parts else { return nil }
    return { host in splice(StagedHost<Mid, Output>(host: host, list: list)) }
}

/// The splice for an inner sequence that is a nested `flatMap` under
/// element-wise stages (a `map` of one, or a staged observable over one);
/// nil for anything else.
func stagedSplice<Output>(of inner: Observable<Output>) -> ((any MergeHost<Output>) -> Void)? {
    if let staged = inner.nesting as? StagedSources<Output> { return staged.splice() }
    guard let stages = inner.stages else { return nil }
    return stages.firstStage.spliceOfSource(then: StageList(stages, then: nil))
}

/// Stands in for a merging sink of `Output`s as the host of a nested
/// `flatMap` of `Element`s: each inner sequence it would subscribe becomes a
/// staged observable (`list` applied), subscribed by the real host.
final class StagedHost<Element, Final>: MergeHost {
    typealias Output = Element
    private let host: any MergeHost<Final>
    private let list: StageList

    init(host: any MergeHost<Final>, list: StageList) {
        self.host = host
        self.list = list
    }

    func spliceOuter<Source>(_ source: Observable<Source>, _ selector: @escaping (Source) throws -> Observable<Element>) {
        let list = self.list
        host.spliceOuter(source) { element in Observable<Final>.staged(try selector(element), then: list) }
    }
}

/// A staged observable's recipe: its base and the stages after it.
/// (Abstract: ``StagedOver`` knows the base's element type.)
class StagedSources<Output>: NestedSources {
    /// The splice that takes the base over, if it is a nested `flatMap`
    /// (directly or under stages of its own).
    func splice() -> ((any MergeHost<Output>) -> Void)? { nil }
}

final class StagedOver<Mid, Output>: StagedSources<Output> {
    let base: Observable<Mid>
    let list: StageList

    init(_ base: Observable<Mid>, _ list: StageList) {
        self.base = base
        self.list = list
    }

    override func splice() -> ((any MergeHost<Output>) -> Void)? {
        if let splice: (any MergeHost<Output>) -> Void = mergeSplice(of: base, then: list) { return splice }
        guard let stages = base.stages else { return nil }
        return stages.firstStage.spliceOfSource(then: StageList(stages, then: list))
    }
}

extension Observable {
    /// `base`'s events with `list` applied to its elements, in one sink
    /// (as a fused chain of stages, Lift.swift).
    static func staged<Mid>(_ base: Observable<Mid>, then list: StageList) -> Observable<Element> {
        Observable(
            { observer in
                let sink = FusedStagesSink(downstream: observer, stages: list.flattened())
                sink.setUpstream(
                    base.subscribe(
                        AnyObserver<Mid>(eventHandler: { event in
                            switch event {
                            case .next(let element): sink.on(.next(element as Any))
                            case .error(let error): sink.on(.error(error))
                            case .completed: sink.on(.completed)
                            }
                        })))
                return sink
            }, nesting: StagedOver<Mid, Element>(base, list))
    }
}
