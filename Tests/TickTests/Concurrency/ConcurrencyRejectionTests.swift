import Foundation
import Testing

/// What the compiler rejects, and what it accepts, as Docs/Concurrency.md
/// says ("What the compiler rejects"): each snippet is compiled against the
/// Tick module this test run was built with, in the Swift 6 language mode, by
/// the `swiftc` on the `PATH`. A page cannot hold code that fails to compile,
/// so this is where the rejections are proven. The accepted snippets prove
/// the harness itself (a broken compiler call would "reject" everything).
///
/// Skipped when no `swiftc` or no built `Tick` module is found next to the
/// test executable.
@Suite(.enabled(if: SnippetCompiler.shared != nil, "needs swiftc and the built Tick module"))
struct ConcurrencyRejectionTests {
    static let rejected: [(name: String, code: String, diagnostic: String)] = [
        (
            "a subject of non-Sendable elements cannot cross threads",
            """
            func f(_ subject: PublishSubject<Box>) {
                DispatchQueue.global().async { subject.onNext(Box()) }
            }
            """,
            "non-Sendable type 'PublishSubject<Box>'"
        ),
        (
            "a relay of non-Sendable elements cannot cross threads",
            """
            func f(_ relay: BehaviorRelay<Box>) {
                DispatchQueue.global().async { relay.accept(Box()) }
            }
            """,
            "non-Sendable type 'BehaviorRelay<Box>'"
        ),
        (
            "an observer of non-Sendable elements cannot cross threads",
            """
            func f(_ observer: AnyObserver<Box>) {
                DispatchQueue.global().async { observer.onNext(Box()) }
            }
            """,
            "non-Sendable type 'AnyObserver<Box>'"
        ),
        (
            "a custom disposable must be Sendable",
            """
            final class CountingDisposable: Disposable {
                var count = 0
                func dispose() { count += 1 }
            }
            """,
            "of 'Sendable'-conforming class 'CountingDisposable' is mutable"
        ),
        (
            "a main-actor function cannot be passed to subscribe from outside the main actor",
            """
            func f(_ source: Observable<Int>, _ update: @escaping @MainActor (Int) -> Void) {
                _ = source.subscribe(onNext: update)
            }
            """,
            "loses global actor 'MainActor'"
        ),
        (
            "a closure marked @MainActor cannot be passed to subscribe from outside the main actor",
            """
            final class Label { var text = "" }
            func f(_ source: Observable<Int>, _ label: Label) {
                _ = source.subscribe(onNext: { @MainActor value in label.text = "\\(value)" })
            }
            """,
            "loses global actor 'MainActor'"
        ),
    ]

    static let accepted: [(name: String, code: String)] = [
        (
            "an observable returned from an actor to the main actor",
            """
            actor Repository {
                let relay = BehaviorRelay(value: 0)
                func values() -> Observable<Int> { relay.asObservable() }
            }
            @MainActor func use(_ repository: Repository) async {
                let values = await repository.values()
                _ = values
            }
            """
        ),
        (
            "a disposable captured by an AsyncStream's onTermination",
            """
            func stream(_ source: Observable<Int>) -> AsyncStream<Int> {
                AsyncStream { continuation in
                    let subscription = source.subscribe(onNext: { continuation.yield($0) })
                    continuation.onTermination = { _ in subscription.dispose() }
                }
            }
            """
        ),
        (
            "a main-actor view model subscribing with closures that touch its state",
            """
            @MainActor final class Model {
                var count = 0
                let bag = DisposeBag()
                func start(_ source: Observable<Int>) {
                    source.subscribe(onNext: { _ in self.count += 1 }).disposed(by: bag)
                }
            }
            """
        ),
        (
            "operator closures that capture a non-Sendable self, in a main-actor type and outside, with the opt-out",
            """
            final class Presenter {
                var rate = 2
                func labels(_ source: Observable<Int>) -> Observable<String> {
                    source.map { "\\($0 * self.rate)" }.filter { !$0.isEmpty }
                }
            }
            @MainActor final class Model {
                let presenter = Presenter()
                var rate = 3
                func labels(_ source: Observable<Int>) -> Observable<Int> {
                    source
                        .map { $0 * self.rate }
                        .scan(0) { $0 + $1 * self.presenter.rate }
                        .flatMap { Observable.just($0) }
                        .filter({ $0 > 0 }, isolation: nil)
                }
            }
            """
        ),
    ]

    static let prelude = """
        import Dispatch
        import Tick
        final class Box { var count = 0 }

        """

    @Test(arguments: rejected.indices)
    func isRejected(_ index: Int) throws {
        let snippet = Self.rejected[index]
        let result = try #require(SnippetCompiler.shared).compile(Self.prelude + snippet.code)
        #expect(result.status != 0, "\(snippet.name): compiled, but should be rejected")
        #expect(
            result.output.contains(snippet.diagnostic),
            "\(snippet.name): expected a diagnostic containing \"\(snippet.diagnostic)\"; got:\n\(result.output)")
    }

    @Test(arguments: accepted.indices)
    func isAccepted(_ index: Int) throws {
        let snippet = Self.accepted[index]
        let result = try #require(SnippetCompiler.shared).compile(Self.prelude + snippet.code)
        #expect(result.status == 0, "\(snippet.name): should compile; got:\n\(result.output)")
    }
}

/// Compiles a snippet with `swiftc -emit-sil` (type checking and the
/// region-based isolation checks) against the modules of this build.
struct SnippetCompiler: Sendable {
    let swiftc: String
    let modules: String

    static let shared: SnippetCompiler? = {
        guard let swiftc = findOnPath("swiftc"), let modules = findModules() else { return nil }
        return SnippetCompiler(swiftc: swiftc, modules: modules)
    }()

    func compile(_ source: String) throws -> (status: Int32, output: String) {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("tick-snippet-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("snippet.swift")
        try source.write(to: file, atomically: true, encoding: .utf8)
        var arguments = [
            "-emit-sil", "-o", directory.appendingPathComponent("out.sil").path,
            "-swift-version", "6", "-I", modules, "-module-name", "Snippet", file.path,
        ]
        #if os(macOS)
        #if arch(arm64)
        arguments += ["-target", "arm64-apple-macosx15.0"]
        #else
        arguments += ["-target", "x86_64-apple-macosx15.0"]
        #endif
        #endif
        let process = Process()
        process.executableURL = URL(fileURLWithPath: swiftc)
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let output = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: output, as: UTF8.self))
    }

    private static func findOnPath(_ name: String) -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? ""
        for directory in path.split(separator: ":") {
            let candidate = "\(directory)/\(name)"
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        return nil
    }

    /// The `Modules` directory of the build that holds this test executable
    /// (`.build/<triple>/<configuration>/Modules`).
    private static func findModules() -> String? {
        var directory = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
            .deletingLastPathComponent()
        for _ in 0..<5 {
            let modules = directory.appendingPathComponent("Modules")
            if FileManager.default.fileExists(atPath: modules.appendingPathComponent("Tick.swiftmodule").path) {
                return modules.path
            }
            directory.deleteLastPathComponent()
        }
        return nil
    }
}
