import Foundation
import HFRTestSupport
import Testing

@testable import HFRBatch

/// How a job's export ended decides its status: cancelled (stopped) or failed.
struct BatchRunnerTests {
    @Test(arguments: [
        // An export exits 130 when interrupted, whoever interrupted it.
        (ChildProcess.Termination.exited(130), false, true),
        (.exited(130), true, true),
        // Any other exit is the export's own failure, even while the batch stops.
        (.exited(1), true, false),
        (.exited(65), true, false),
        // SIGINT and SIGTERM interrupt an export as its own handler would (a group's Ctrl-C or
        // scancel may reach the export before the batch); SIGKILL stops it only from the batch.
        (.signalled(SIGTERM), true, true),
        (.signalled(SIGKILL), true, true),
        (.signalled(SIGINT), true, true),
        (.signalled(SIGTERM), false, true),
        (.signalled(SIGINT), false, true),
        (.signalled(SIGKILL), false, false),
        // A crash is a failure whenever it happens.
        (.signalled(SIGSEGV), true, false),
    ])
    func cancelledByExitStatus(termination: ChildProcess.Termination, batchIsStopping: Bool, isCancelled: Bool) {
        #expect(BatchRunner.isCancellation(termination, batchIsStopping: batchIsStopping) == isCancelled)
    }

    @Test func anEmptyFileHasTheEmptyDigest() throws {
        let dir = try TemporaryDirectory()
        #expect(FileManager.default.createFile(atPath: dir.path("empty"), contents: Data()))
        #expect(
            FileDigest.sha256(of: dir.path("empty"))
                == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
    }
}
