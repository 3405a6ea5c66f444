/// Leak-sanitizer suppressions for `swift test --sanitize=address`, built into
/// the test binary (the sanitizer runtime asks for them through this C symbol;
/// in builds without the sanitizer nothing calls it).
///
/// The XCTest process (`MarbleXCTestReportingTests`) ends with swift-corelibs-
/// xctest's own bookkeeping still allocated: the suite tree and runs built by
/// `XCTMain`, the test-case objects (`init(name:testClosure:)`), the failure
/// messages passed to `XCTFail`, and a weak-reference side table formed by its
/// async test runner (`formWeakReference`; suppressing a side table hides only
/// those 32 bytes: objects reachable from it are still reported). None of it
/// is Tick's, and it cannot be freed from a test. Each pattern names an XCTest
/// function that appears in those allocation stacks and never in an
/// allocation made by Tick code: Tick's objects in XCTest tests are still
/// reported (and are also counted by `Resources.Scope` in that test case),
/// and the Swift Testing process, where every other test runs, is not
/// affected.
@_cdecl("__lsan_default_suppressions")
public func tickLeakSanitizerSuppressions() -> UnsafePointer<CChar> {
    let patterns: StaticString = """
        leak:XCTMainMisc
        leak:XCTFail
        leak:SuiteRunC
        leak:CaseRunC
        leak:4name11testClosure
        leak:formWeakReference

        """
    return UnsafeRawPointer(patterns.utf8Start).assumingMemoryBound(to: CChar.self)
}
