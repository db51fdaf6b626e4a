import Foundation
import HFRTestSupport

/// Inputs the export tests share, made once per test process: real `hfr record` recordings (the
/// test source records in real time, so making them per test would dominate the suite's time) and
/// files made with ffmpeg.
package enum ExportInputs {
    /// Kept alive for the whole process; removed when it exits.
    package static let directory: TemporaryDirectory? = try? TemporaryDirectory()

    /// 10 s at 120 fps, 640x360, 3 temporal layers, AAC 440 Hz tone.
    package static let tenSeconds: Result<String, any Error> = record("rec-10s.mp4", duration: "10")
    /// 6 s at 120 fps, 640x360, 3 temporal layers, AAC 440 Hz tone.
    package static let sixSeconds: Result<String, any Error> = record("rec-6s.mp4", duration: "6")

    package static func record(_ name: String, duration: String) -> Result<String, any Error> {
        Result {
            guard let directory else { throw CocoaError(.fileWriteUnknown) }
            let path = directory.path(name)
            // Every frame, however loaded the machine: `--duration` is kept by the clock (a source
            // slower than real time gives fewer frames), `--frames` counts them.
            let frames = String(Int(duration)! * 120)
            let r = try Tool.hfr([
                "record", "--source", "test", "--fps", "120", "--size", "640x360", "--frames", frames,
                "--late-frames", "queue", path,
            ])
            guard r.status == 0 else { throw CocoaError(.fileWriteUnknown, userInfo: ["stderr": r.stderr]) }
            return path
        }
    }

    /// The 6 s recording's video with other audio (an ffmpeg `aevalsrc` expression of t), same tags.
    package static func sixSeconds(withAudio expression: String, in dir: TemporaryDirectory, name: String) throws
        -> String
    {
        let source = try sixSeconds.get()
        let path = dir.path(name)
        let r = try Tool.run(
            "ffmpeg",
            [
                "-v", "error", "-nostdin", "-i", source, "-f", "lavfi", "-i",
                "aevalsrc=\(expression):s=48000:d=6", "-map", "0:v", "-map", "1:a", "-c:v", "copy", "-c:a", "aac",
                "-map_metadata", "0", "-movflags", "+use_metadata_tags", path,
            ])
        guard r.status == 0 else { throw CocoaError(.fileWriteUnknown, userInfo: ["stderr": r.stderr]) }
        return path
    }

    /// Runs ffmpeg with `arguments`; throws with its stderr when it fails.
    package static func ffmpeg(_ arguments: [String]) throws {
        let r = try Tool.run("ffmpeg", ["-v", "error", "-nostdin", "-y"] + arguments)
        guard r.status == 0 else { throw CocoaError(.fileWriteUnknown, userInfo: ["stderr": r.stderr]) }
    }
}
