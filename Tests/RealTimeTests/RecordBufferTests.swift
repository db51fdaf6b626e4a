import EndToEndSupport
import Foundation
import HFRTestSupport
import Testing

/// `hfr record --buffer ram` (issue 29): frames wait in RAM between a capture at the camera's full
/// rate and an encoder slower than it, which saves them after the capture. Serialized: each
/// recording runs in real time and holds up to gigabytes.
@Suite(.serialized) struct RecordBufferTests {
    /// Memory hfr needs besides the frames it holds (measured: ~120 MB at 1080p and 4K).
    static let overhead = 256 << 20

    /// `overhead`, and 16 pictures of `size` more: the encoder's reference and work pictures, the
    /// source's and converter's pools grow with the picture (a debug hfr measured 314 MB at 4K).
    static func overhead(_ size: String) -> Int {
        let sides = size.split(separator: "x").compactMap { Int($0) }
        return overhead + 16 * (sides.count == 2 ? sides[0] * sides[1] * 3 / 2 : 0)
    }

    /// What a recording reported, and hfr's peak resident memory (VmHWM).
    struct Recorded {
        let report: [String: Any]
        let path: String
        let peakMemory: Int
        var buffer: [String: Any] { report["buffer"] as? [String: Any] ?? [:] }
        func count(_ key: String) -> Int { report[key] as? Int ?? -1 }
    }

    func record(_ arguments: [String], in dir: TemporaryDirectory) throws -> Recorded {
        let path = dir.path("out.mp4")
        let child = try ChildProcess.run(
            Tool.hfrPath, ["record", "--source", "test", "--json"] + arguments + [path], stdout: dir.path("out.json"),
            stderr: dir.path("err.txt"), timeout: 120)
        let stderr = (try? String(contentsOfFile: dir.path("err.txt"), encoding: .utf8)) ?? ""
        #expect(child.exitCode == 0, "stderr: \(stderr)")
        let json = try Tool.json(String(contentsOfFile: dir.path("out.json"), encoding: .utf8))
        return Recorded(report: json, path: path, peakMemory: child.peakMemory)
    }

    /// 1080p240 and 4K60 outrun the encoder on two cores (live: ~100 late drops in 6 s at 1080p240);
    /// with a buffer that holds the burst every frame is in the file, evenly timed, and hfr's memory
    /// is what it held plus an overhead that grows with the picture (`overhead(_:)`).
    @Test(arguments: [("1920x1080", 240), ("3840x2160", 60)])
    func everyFrameOfABurstIsKept(size: String, fps: Int) throws {
        let dir = try TemporaryDirectory()
        let seconds = 6
        let budget = 5 << 30
        let frames = seconds * fps
        // `--frames`: the test source may be slower than real time here, and `--duration` then
        // ends by the clock.
        let rec = try record(
            ["--size", size, "--fps", "\(fps)", "--frames", "\(frames)", "--buffer", "ram:5G", "--audio", "none"],
            in: dir)
        #expect(rec.count("framesCaptured") == frames)
        #expect(rec.count("framesEncoded") == frames)
        #expect(rec.count("framesDroppedLate") == 0)
        #expect(rec.count("framesMissingFromSource") == 0)
        #expect(rec.buffer["budgetBytes"] as? Int == budget)
        let held = rec.buffer["peakBytes"] as? Int ?? -1
        #expect(held > 0 && held <= budget)
        // The file as ffprobe reads it: every frame, one frame duration apart.
        let (times, timeBase) = try Self.packetTimes(rec.path)
        #expect(times.count == frames)
        let steps = Set(zip(times.dropFirst(), times).map { $0 - $1 })
        #expect(steps == [timeBase / fps], "frame steps: \(steps) in 1/\(timeBase) s")
        // Bounded by the budget, and the frames held are where the memory went.
        #expect(rec.peakMemory > 0 && rec.peakMemory <= budget + Self.overhead(size))
        #expect(rec.peakMemory <= held + Self.overhead(size), "peak RSS \(rec.peakMemory), frames held \(held)")
    }

    /// A budget smaller than the burst fills: the frames that find no room are dropped and counted
    /// as late, and memory stays within the budget.
    @Test func aFullBudgetDropsFramesAndCountsThem() throws {
        let dir = try TemporaryDirectory()
        let rec = try record(
            ["--size", "1920x1080", "--fps", "240", "--duration", "2", "--buffer", "ram:32M", "--audio", "none"],
            in: dir)
        let dropped = rec.count("framesDroppedLate")
        #expect(dropped > 0)
        #expect(rec.count("framesEncoded") + dropped == rec.count("framesCaptured"))
        #expect(rec.count("framesEncoded") == (try FFprobe.count(rec.path, decoding: false)))
        #expect((rec.buffer["peakBytes"] as? Int ?? Int.max) <= 32 << 20)
        #expect(rec.peakMemory > 0 && rec.peakMemory <= 32 << 20 + Self.overhead, "peak RSS \(rec.peakMemory)")
    }

    /// The first SIGINT or SIGTERM ends the capture (or comes while saving) and every frame captured
    /// is saved and finalized; exit 0.
    @Test(arguments: [(SIGINT, true), (SIGTERM, false)])
    func aStopSignalSavesEveryFrameCaptured(signal: Int32, whileSaving: Bool) throws {
        let dir = try TemporaryDirectory()
        // 4K at 120 fps: the encoder takes about twice as long as the capture.
        let process = try BackgroundProcess(
            Tool.hfrPath,
            ["record", "--source", "test", "--size", "3840x2160", "--fps", "120", "--buffer", "ram:4G", "--json"]
                // `--frames`: 4K at 120 fps is slower than real time from the test source, and
                // `--duration` is kept by the clock (fewer frames).
                + (whileSaving ? ["--frames", "120"] : []) + [dir.path("out.mp4")],
            directory: dir)
        // While saving: once the progress says so; while capturing: a second after the first frame
        // is written (the mode line).
        let deadline = Date().addingTimeInterval(30)
        let awaited = whileSaving ? "record: saving: " : "record: test source"
        while !process.stderrSoFar.contains(awaited), Date() < deadline, process.process.isRunning {
            usleep(20_000)
        }
        if !whileSaving { sleep(1) }
        process.send(signal)
        let r = process.wait()
        #expect(r.status == 0, "stderr: \(r.stderr)")
        #expect(r.stderr.contains("hfr: stopping: saving the frames held in RAM"), "stderr: \(r.stderr)")
        let json = try Tool.json(r.stdout)
        let captured = json["framesCaptured"] as? Int ?? -1
        #expect(json["stopReason"] as? String == (whileSaving ? "frames" : "signal"))
        #expect(captured == (whileSaving ? 120 : captured) && captured > 0)
        #expect(json["framesEncoded"] as? Int == captured)
        #expect(json["framesDroppedLate"] as? Int == 0)
        #expect(try FFprobe.count(dir.path("out.mp4"), decoding: false) == captured)
        #expect(try dir.contents().filter { !$0.hasPrefix("bg-") } == ["out.mp4"])
    }

    /// The video packets' presentation times, in order, and the time base's denominator (ffprobe,
    /// no decoding).
    static func packetTimes(_ path: String) throws -> (ticks: [Int], timeBase: Int) {
        let packets = try Tool.run(
            "ffprobe", ["-v", "error", "-select_streams", "v:0", "-show_entries", "packet=pts", "-of", "csv=p=0", path])
        let stream = try Tool.run(
            "ffprobe",
            ["-v", "error", "-select_streams", "v:0", "-show_entries", "stream=time_base", "-of", "csv=p=0", path])
        let timeBase = stream.stdout.trimmingCharacters(in: .whitespacesAndNewlines).split(separator: "/")
        #expect(timeBase.first == "1", "time base \(stream.stdout)")
        return (packets.stdout.split(separator: "\n").compactMap { Int($0) }.sorted(), Int(timeBase.last ?? "") ?? 0)
    }
}
