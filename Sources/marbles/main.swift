// The `marbles` command-line tool: explain, render and diff marble diagrams.
// All the logic lives in `MarblesCLI` (TickTesting) so tests can run it in-process.
import Foundation
import TickTesting

let result = MarblesCLI.run(Array(CommandLine.arguments.dropFirst()))
if !result.standardOutput.isEmpty {
    FileHandle.standardOutput.write(Data(result.standardOutput.utf8))
}
if !result.standardError.isEmpty {
    FileHandle.standardError.write(Data(result.standardError.utf8))
}
exit(result.exitCode)
