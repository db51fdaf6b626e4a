import Foundation
import HFRTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Issue 41, item 5: Ctrl-C ends every recording with exit 0 and every clip playable. A triggered
/// recording of the test source (its tone included: the audio encoder's last frame was the fault)
/// is interrupted at 50 moments spread over the 0.85 s after its first frame was encoded — before
/// the trigger, inside the ring, inside a clip's window, after it closed — five recordings at a
/// time, 160x120 at 30 fps. Each clip is checked with one decoding ffprobe run.
@Suite struct RecordInterruptTests {
    /// One interrupted recording: its moment (ms after the first frame was encoded), and whether a
    /// trigger came 50 ms after that first frame.
    struct Run {
        let index: Int
        var delay: Int { (index * 29) % 850 }
        var triggers: Bool { index % 6 != 5 }
    }

    @Test func ctrlCAtAnyMomentEndsWithExitZeroAndPlayableClips() throws {
        let dir = try TemporaryDirectory()
        var clipsChecked = 0
        var failures: [String] = []
        for round in 0..<10 {
            let runs = (0..<5).map { Run(index: round * 5 + $0) }
            let processes = try runs.map { run in
                try BackgroundProcess(
                    Tool.hfrPath,
                    [
                        "record", dir.path("r\(run.index)-%03d.mp4"), "--source", "test", "--size", "160x120", "--fps",
                        "30", "--trigger", "signal", "--pre-trigger", "0.3s", "--post-trigger", "0.3s", "--json",
                    ], directory: dir)
            }
            signal(runs, processes)
            for (run, process) in zip(runs, processes) {
                let r = process.wait()
                guard r.status == 0 else {
                    failures.append("run \(run.index) (\(run.delay) ms): exit \(r.status): \(r.stderr)")
                    continue
                }
                let clips = (try Tool.json(r.stdout)["clips"] as? [[String: Any]] ?? []).compactMap {
                    $0["path"] as? String
                }
                if run.triggers && clips.isEmpty && run.delay > 400 {
                    failures.append("run \(run.index) (\(run.delay) ms): no clip: \(r.stderr)")
                }
                for clip in clips {
                    clipsChecked += 1
                    if let problem = try Self.unplayable(clip) { failures.append("run \(run.index): \(problem)") }
                }
            }
        }
        #expect(failures.isEmpty, "\(failures.count) of 50: \(failures.joined(separator: "\n"))")
        #expect(clipsChecked >= 25, "\(clipsChecked) clips")
        // Nothing partial or temporary is left behind.
        let left = try dir.contents().filter {
            !$0.hasPrefix("bg-") && !$0.hasSuffix(".mp4") || $0.contains(".partial")
        }
        #expect(left.isEmpty, "\(left)")
    }

    /// Sends each recording its signals at their moments after its first frame ("record: …" is
    /// printed as the first frame is written; the signal handlers are installed before): all five
    /// watched at once, every 10 ms.
    func signal(_ runs: [Run], _ processes: [BackgroundProcess]) {
        var seen: [Date?] = Array(repeating: nil, count: runs.count)
        var triggered = runs.map { !$0.triggers }
        var interrupted = Array(repeating: false, count: runs.count)
        let deadline = Date().addingTimeInterval(60)
        while interrupted.contains(false), Date() < deadline {
            for (i, run) in runs.enumerated() where !interrupted[i] {
                guard let first = seen[i] else {
                    if !processes[i].stderrSoFar.isEmpty { seen[i] = Date() }
                    continue
                }
                let elapsed = Date().timeIntervalSince(first)
                if !triggered[i], elapsed >= 0.05 {
                    processes[i].send(SIGUSR1)
                    triggered[i] = true
                }
                if elapsed >= Double(run.delay) / 1000, triggered[i] || !run.triggers {
                    processes[i].send(SIGINT)
                    interrupted[i] = true
                }
            }
            usleep(10_000)
        }
        #expect(!interrupted.contains(false), "recordings that never started")
        for (i, done) in interrupted.enumerated() where !done { processes[i].send(SIGKILL) }
    }

    /// Why the clip at `path` does not play (one ffprobe run decoding every frame), nil when it does:
    /// no decoder error, video frames, and audio as long as the video.
    static func unplayable(_ path: String) throws -> String? {
        let r = try Tool.run("ffprobe", FFprobeReading.arguments(path, decoding: true))
        let reading = FFprobeReading(json: r.stdout)
        let video = Double(reading.entry("video", "duration")) ?? -1
        let audio = Double(reading.entry("audio", "duration")) ?? -1
        guard r.status == 0, r.stderr.isEmpty, reading.decodedFrames > 0, abs(audio - video) <= 1.0 / 30 else {
            return "\(path): exit \(r.status), \(reading.decodedFrames) frames, video \(video) s, audio \(audio) s, "
                + r.stderr
        }
        return nil
    }
}
