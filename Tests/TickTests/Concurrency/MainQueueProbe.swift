import Dispatch

/// Whether the caller runs on the main dispatch queue, where the main actor
/// runs. (Not `Thread.isMainThread`: on Linux, once the test runner called
/// `dispatchMain()`, the main queue is drained by another thread.)
enum MainQueueProbe {
    private static let key: DispatchSpecificKey<UInt8> = {
        let key = DispatchSpecificKey<UInt8>()
        DispatchQueue.main.setSpecific(key: key, value: 7)
        return key
    }()

    static var isCurrent: Bool { DispatchQueue.getSpecific(key: key) == 7 }
}
