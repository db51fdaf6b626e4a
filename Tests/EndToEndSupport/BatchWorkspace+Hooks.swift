import Foundation
import HFRTestSupport

/// The test hook of the batch tests: a program for `HFR_BATCH_EXECUTABLE` that runs hfr, except
/// that a job whose input's name has `flaky` in it fails its first attempt (`HFR_BATCH_ATTEMPT`
/// is 1: exit 1 with an error line) and one with `hold` in it waits until the file `gate` exists
/// in the workspace (or its batch is gone: it is no longer its parent). So a retry, a running job and a batch killed mid-job
/// come by design, never by timing.
extension BatchWorkspace {
    /// Writes the hook as `hfr-hooked` in the workspace; returns its path.
    package func hookedExecutable() throws -> String {
        let path = dir.path("hfr-hooked")
        let gate = dir.path("gate")
        let script = """
            #!/bin/sh
            case "$2" in
              *hold*) while [ ! -e '\(gate)' ]; do
                  read -r _ _ _ parent _ < /proc/$$/stat; [ "$parent" = "$HFR_BATCH_PARENT" ] || exit 1; sleep 0.1
                done ;;
              *flaky*) if [ "$HFR_BATCH_ATTEMPT" = 1 ]; then echo "Error: $2: test hook: the first attempt fails" >&2; exit 1; fi ;;
            esac
            exec '\(Tool.hfrPath)' "$@"

            """
        try script.write(toFile: path, atomically: true, encoding: .utf8)
        chmod(path, 0o755)
        return path
    }

    /// Opens the gate the `hold` jobs wait for.
    package func openGate() { _ = FileManager.default.createFile(atPath: dir.path("gate"), contents: nil) }

    /// `hfr batch ARGUMENTS` in the background with `HFR_BATCH_EXECUTABLE` set to the hook (the
    /// process is hfr itself: env execs it).
    package func hookedBatch(_ arguments: [String]) throws -> BackgroundProcess {
        try BackgroundProcess(
            "/usr/bin/env", ["HFR_BATCH_EXECUTABLE=\(try hookedExecutable())", Tool.hfrPath, "batch"] + arguments,
            directory: dir)
    }

    /// Polls `condition` every 50 ms for up to `seconds`; whether it came true.
    package func wait(seconds: Double = 60, until condition: () throws -> Bool) rethrows -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if try condition() { return true }
            usleep(50_000)
        }
        return try condition()
    }
}
