import Foundation
import HFRTestSupport
import Testing

/// Issue 30: an eased ramp. The output lasts the integral of 1/speed over the smooth curve to one
/// frame, every beep lands within 10 ms of where the curve puts it in every audio mode and the
/// beeps inside the eases play without a break, the dry run shows each ease as one row, and probe
/// shows the curve as given.
@Suite struct ExportEaseTests {
    /// Beeps at 0.5 s (real time), 1.5 s (easing to 4× slower), 2.5 s (4× slower) and 3.5 s
    /// (easing back to real time).
    static let ramp = "0-1.2@1,1.2-3@0.25 ease 0.6s,3-@1 ease 0.8s"

    /// Output seconds of source time `t` (0…4) on the ideal curve of `ramp` (smoothstep eases), by
    /// numerical integration of its own (the midpoint rule, 10 µs steps, interpolated between).
    static func idealOutput(_ t: Double) -> Double {
        let position = t / step
        let i = min(Int(position), table.count - 2)
        return table[i] + (table[i + 1] - table[i]) * (position - Double(i))
    }

    static let step = 1e-5
    static let table: [Double] = {
        func speed(_ s: Double) -> Double {
            func eased(_ start: Double, _ d: Double, _ a: Double, _ b: Double) -> Double {
                let u = (s - start) / d
                return a + (b - a) * u * u * (3 - 2 * u)
            }
            if s < 1.2 { return 1 }
            if s < 1.8 { return eased(1.2, 0.6, 1, 0.25) }
            if s < 3 { return 0.25 }
            if s < 3.8 { return eased(3, 0.8, 0.25, 1) }
            return 1
        }
        var table = [0.0]
        for i in 0..<Int(SyncInputs.duration / step) { table.append(table[i] + step / speed((Double(i) + 0.5) * step)) }
        return table
    }()

    @Test(arguments: ["spectral", "time-domain", "varispeed"])
    func anEasedRampLastsItsIntegralAndKeepsTheBeepsOnTheCurve(mode: String) throws {
        let dir = try TemporaryDirectory()
        let out = dir.path("eased.mp4")
        let r = try Tool.hfr([
            "export", try SyncInputs.input(.aligned), out, "-q", "--ramp", Self.ramp, "--fps", "30",
            "--interpolate", "repeat", "--audio", mode,
        ])
        try #require(r.status == 0, "stderr: \(r.stderr)")

        // The video: whole frames at 30 fps, within one of the integral.
        let frames = try Tool.run(
            "ffprobe",
            [
                "-v", "error", "-select_streams", "v:0", "-count_packets", "-show_entries", "stream=nb_read_packets",
                "-of", "csv=p=0", out,
            ])
        let length = Double(Int(frames.stdout.trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0) / 30
        let integral = Self.idealOutput(SyncInputs.duration)
        #expect(abs(length - integral) <= 1.0 / 30, "\(length) s of video, integral \(integral) s")

        let events = try SyncEvents.measure(out)
        try #require(events.onsets.count == SyncInputs.eventTimes.count, "beeps at \(events.onsets)")
        for (onset, t) in zip(events.onsets, SyncInputs.eventTimes) {
            let expected = Self.idealOutput(t)
            #expect(
                abs(onset - expected) <= ExportAudioSyncTests.tolerance,
                "beep of \(t) s at \(onset) s, the curve puts it at \(expected) s")
        }

        // The beeps inside the eases run on without a break: no step from one sample to the next
        // is more than twice the largest of the clean beep (time-domain made one SoundTouch per
        // step of the ease and jumped by 0.59 where two met).
        let clean = 2 * SyncInputs.amplitude * sin(Double.pi * 1000 / 48000)
        let eased = [1.5, 3.5]
        let jumps = try Self.largestJumps(
            out, in: eased.map { (Self.idealOutput($0) + 0.001, Self.idealOutput($0 + 0.02) - 0.001) })
        for (t, jump) in zip(eased, jumps) {
            #expect(jump <= 2 * clean, "the beep of \(t) s jumps by \(jump) between samples (a clean one by \(clean))")
        }
        guard mode == "spectral" else { return }

        let probe = try Tool.hfr(["probe", out])
        #expect(
            probe.stdout.contains(
                "source 1.200-3 s at speed 1/4 (slow motion 4×), eased in over 0.600 s, plays at 1.200-7.192 s"),
            "\(probe.stdout)")
        let json = try Tool.json(try Tool.hfr(["probe", "--json", out]).stdout)
        let map = try #require((json["video"] as? [String: Any])?["exportTimeMap"] as? [[String: Any]])
        #expect(map.map { $0["speed"] as? String } == ["1/1", "1/4", "1/1"])
        #expect(map.map { $0["ease"] as? Double } == [nil, 0.6, 0.8])
        let end = try #require(map[1]["outputEnd"] as? Double)
        #expect(abs(end - Self.idealOutput(3)) < 1e-5, "the slow segment ends at \(end) s")

        let plan = try Tool.hfr([
            "export", try SyncInputs.input(.aligned), dir.path("plan.mp4"), "--dry-run", "--json", "--ramp", Self.ramp,
            "--fps", "30",
        ])
        let segments = try #require(Tool.json(plan.stdout)["segments"] as? [[String: Any]], "\(plan.stdout)")
        #expect(segments.map { $0["easeFrom"] as? String } == [nil, "1/1", nil, "1/4", nil])
    }

    /// Per span (start and end seconds of its timeline), the largest difference between
    /// neighbouring samples of `path`'s audio (mixed to mono), decoded by ffmpeg.
    static func largestJumps(_ path: String, in spans: [(Double, Double)]) throws -> [Double] {
        let script = """
            import sys, json, subprocess, numpy as np
            path, spans = sys.argv[1], json.loads(sys.argv[2])
            rate, start = subprocess.run(["ffprobe", "-v", "error", "-select_streams", "a:0", "-show_entries",
                "stream=sample_rate,start_time", "-of", "csv=p=0", path], capture_output=True, text=True).stdout.split(",")
            raw = subprocess.run(["ffmpeg", "-v", "error", "-nostdin", "-i", path, "-map", "0:a:0", "-ac", "1",
                "-f", "f32le", "-"], capture_output=True).stdout
            rate, start = int(rate), float(start)
            x, jumps = np.frombuffer(raw, dtype=np.float32), []
            for a, b in spans:
                span = x[int((a - start) * rate):int((b - start) * rate)]
                if len(span) < 2: sys.exit("no audio from %g to %g s" % (a, b))
                jumps.append(float(np.abs(np.diff(span)).max()))
            print(json.dumps(jumps))
            """
        let list = "[" + spans.map { "[\($0.0), \($0.1)]" }.joined(separator: ",") + "]"
        let r = try Tool.run("python3", ["-c", script, path, list])
        let jumps = (try? JSONSerialization.jsonObject(with: Data(r.stdout.utf8))) as? [Double]
        return try #require(jumps, "stderr: \(r.stderr)")
    }
}
