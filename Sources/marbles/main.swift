// The `marbles` command-line tool: explain, render and diff marble diagrams.
// All the logic lives in `MarblesCLI` (MarblesCommand) so tests can run it in-process.
import Foundation
import MarblesCommand

// Swift decodes arguments with repair (invalid UTF-8 becomes U+FFFD); check
// the bytes the OS passed first.
let rawArguments = (1..<Int(CommandLine.argc)).map { index -> [UInt8] in
    guard let pointer = CommandLine.unsafeArgv[index] else { return [] }
    return Array(UnsafeBufferPointer(start: pointer, count: strlen(pointer))).map { UInt8(bitPattern: $0) }
}
let result = MarblesCLI.checkEncoding(ofRawArguments: rawArguments) ?? MarblesCLI.run(Array(CommandLine.arguments.dropFirst()))
if !result.standardOutput.isEmpty {
    FileHandle.standardOutput.write(Data(result.standardOutput.utf8))
}
if !result.standardError.isEmpty {
    FileHandle.standardError.write(Data(result.standardError.utf8))
}
exit(result.exitCode)
