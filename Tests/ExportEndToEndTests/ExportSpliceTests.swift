import EndToEndSupport
import Foundation
import HFRTestSupport
import Testing

/// Ramps that mix speeds a copy reaches with speeds that need new frames, on a real 6 s 120 fps
/// layered recording with tone bursts: the real-time segments are the input's packets byte for
/// byte, the slow ones re-encoded (interpolated) in the same output, spliced at keyframes.
@Suite(.serialized) struct ExportSpliceTests {
    /// A ramp: (source start, speed) per segment; the last runs to the end of the input (6 s).
    struct Ramp {
        let text: String
        let segments: [(start: Double, speed: Double)]
        /// Source stretches re-encoded: the slow segments, each to the keyframe after it (1 s apart).
        let reencoded: [ClosedRange<Double>]

        /// Output seconds of source time `t`, computed here independently of hfr.
        func mapped(_ t: Double) -> Double {
            var out = 0.0
            for (i, s) in segments.enumerated() {
                let end = i + 1 < segments.count ? segments[i + 1].start : .infinity
                if t <= end { return out + (t - s.start) / s.speed }
                out += (end - s.start) / s.speed
            }
            return out
        }

        /// Source time shown at output time `o`.
        func source(_ o: Double) -> Double {
            var out = 0.0
            for (i, s) in segments.enumerated() {
                let end = i + 1 < segments.count ? segments[i + 1].start : 6
                let length = (end - s.start) / s.speed
                if o < out + length || i == segments.count - 1 { return s.start + (o - out) * s.speed }
                out += length
            }
            return 6
        }

        func isReencoded(_ t: Double) -> Bool {
            reencoded.contains { t >= $0.lowerBound - 1e-6 && t < $0.upperBound - 1e-6 }
        }
    }

    /// The issue's ramp: real time, a tenth, real time.
    static let tenth = Ramp(
        text: "0-1@1,1-2@0.1,2-@1", segments: [(0, 1), (1, 0.1), (2, 1)], reencoded: [1...2])
    /// Two slow stretches; the keyframe ending the first (2 s) is where the second starts decoding.
    static let twoSlow = Ramp(
        text: "0-1@1,1-1.5@0.1,1.5-2.5@1,2.5-2.8@0.2,2.8-@1",
        segments: [(0, 1), (1, 0.1), (1.5, 1), (2.5, 0.2), (2.8, 1)], reencoded: [1...2, 2.5...3])

    static let burstTimes = [0.9, 1.1, 1.9, 2.1, 4.0]

    /// The recording with 440 Hz bursts (σ ≈ 21 ms) at `burstTimes` instead of its tone.
    static func input(_ dir: TemporaryDirectory) throws -> String {
        let bursts =
            "0.8*sin(2*PI*440*t)*(" + burstTimes.map { "exp(-pow((t-\($0))/0.03\\,2))" }.joined(separator: "+") + ")"
        return try ExportInputs.sixSeconds(withAudio: bursts, in: dir, name: "bursts.mp4")
    }

    @Test func realTimeIsCopiedAndTheTenthInterpolatedInOneOutput() throws {
        let dir = try TemporaryDirectory()
        let input = try Self.input(dir)
        let out = dir.path("ramp.mp4")
        let r = try export(input, out, Self.tenth)
        let frames = 30 + 300 + 120
        try checkSplice(input: input, output: out, ramp: Self.tenth, frames: frames)
        // The 0.1x segment's slots fall on a captured frame every 5th (every 2.5 of its 0.4-frame
        // steps); the other 240 are made by flow.
        let json = try Tool.json(r.stdout)
        #expect((json["video"] as? [String: Any])?["interpolatedFrames"] as? Int == 240)
        let plan = try #require(json["plan"] as? [String: Any])
        let segments = try #require(plan["segments"] as? [[String: Any]])
        #expect(segments.map { $0["video"] as? String } == ["copy", "reencode", "copy"])
        #expect(segments.map { $0["interpolation"] as? String } == [nil, "flow", nil])
        #expect(segments.map { $0["framesOut"] as? Int } == [30, 300, 120])
        #expect(r.stderr.contains("only 1-2 s of the source is re-encoded"), "stderr: \(r.stderr)")
        // The dry run counts the same.
        let dry = try Tool.hfr(
            ["export", input, dir.path("dry.mp4"), "--ramp", Self.tenth.text, "--fps", "30"] + [
                "--dry-run", "--json",
            ])
        #expect(dry.status == 0, "stderr: \(dry.stderr)")
        let preview = try Tool.json(dry.stdout)
        #expect(preview["framesOut"] as? Int == frames && preview["interpolatedFrames"] as? Int == 240)
        let drySegments = try #require(preview["segments"] as? [[String: Any]])
        #expect(drySegments.map { $0["framesOut"] as? Int } == [30, 300, 120])
        try checkAudio(out, ramp: Self.tenth, seconds: 15)
    }

    @Test func twoSlowStretchesSpliceAtSharedKeyframes() throws {
        let dir = try TemporaryDirectory()
        let input = try Self.input(dir)
        let out = dir.path("ramp.mkv")
        let r = try export(input, out, Self.twoSlow)
        // 1 s + 0.5 s at 0.1 + 1 s + 0.3 s at 0.2 + 3.2 s, at 30 fps.
        try checkSplice(input: input, output: out, ramp: Self.twoSlow, frames: 30 + 150 + 30 + 45 + 96)
        let plan = try #require(try Tool.json(r.stdout)["plan"] as? [String: Any])
        let segments = try #require(plan["segments"] as? [[String: Any]])
        #expect(segments.map { $0["video"] as? String } == ["copy", "reencode", "copy", "reencode", "copy"])
    }

    /// The recording as other tools pass it on: ffmpeg stream copies into Matroska (with its audio)
    /// and into fragmented MP4 (video only); both keep the recording's avcC, so both splice.
    @Test(arguments: [
        ("remux.mkv", ["-c", "copy"]), ("frag.mp4", ["-an", "-c", "copy", "-movflags", "frag_keyframe+empty_moov"]),
    ])
    func streamCopiesOfARecordingSpliceToo(name: String, options: [String]) throws {
        let dir = try TemporaryDirectory()
        let input = dir.path(name)
        try ExportInputs.ffmpeg(["-i", try Self.input(dir)] + options + [input])
        let out = dir.path("ramp.mp4")
        let r = try export(input, out, Self.tenth)
        #expect((try Tool.json(r.stdout)["video"] as? [String: Any])?["spliced"] as? Bool == true)
        try checkSplice(input: input, output: out, ramp: Self.tenth, frames: 30 + 300 + 120)
    }

    /// `hfr export INPUT OUTPUT --ramp … --fps 30 --json`, which must succeed.
    func export(_ input: String, _ output: String, _ ramp: Ramp) throws -> ToolResult {
        let r = try Tool.hfr(["export", input, output, "--ramp", ramp.text, "--fps", "30", "--json"])
        #expect(r.status == 0, "stderr: \(r.stderr)")
        return r
    }

    /// Inputs no OpenH264 encoder can continue (x264's parameter sets, B-frames): re-encoded whole,
    /// saying why, and still exact.
    @Test(arguments: [("-bf", "0", "not an hfr recording"), ("-bf", "3", "B-frames")])
    func otherEncodersAreReencodedWholeSayingWhy(option: String, value: String, why: String) throws {
        let dir = try TemporaryDirectory()
        let input = dir.path("x264.mp4")
        try ExportInputs.ffmpeg([
            "-f", "lavfi", "-i", "testsrc2=size=320x240:rate=120:duration=2", "-c:v", "libx264", "-preset",
            "ultrafast", option, value, "-pix_fmt", "yuv420p", input,
        ])
        let out = dir.path("ramp.mp4")
        let r = try Tool.hfr(["export", input, out, "--ramp", "0-1@1,1-1.5@0.1,1.5-@1", "--fps", "120", "--json"])
        #expect(r.status == 0, "stderr: \(r.stderr)")
        #expect(r.stderr.contains("the copyable segments are re-encoded too") && r.stderr.contains(why), "\(r.stderr)")
        let json = try Tool.json(r.stdout)
        #expect((json["video"] as? [String: Any])?["reencoded"] as? Bool == true)
        #expect(try FFprobe.count(out, decoding: true) == 120 + 600 + 60)
        #expect(try MediaChecks.decodeErrors(out).isEmpty)
    }

    /// Frame count, times on the 1/30 s grid across every boundary, copied packets identical to the
    /// input's layer-0 packets at the mapped times, re-encoded ones new, a keyframe where each
    /// stretch starts and where copying resumes, and a clean decode.
    func checkSplice(input: String, output: String, ramp: Ramp, frames: Int) throws {
        // Times from the first frame: Matroska starts the video where the audio's priming ends.
        let stored = try MediaChecks.codedPictures(output).sorted { $0.time < $1.time }
        let first = stored.first?.time ?? 0
        let exported = stored.map { (time: $0.time - first, hash: $0.hash) }
        #expect(exported.count == frames)
        for (i, p) in exported.enumerated() where abs(p.time - Double(i) / 30) > 1.5e-3 {
            Issue.record("frame \(i) at \(p.time) s, expected \(Double(i) / 30) s")
            break
        }
        // Source times from the input's first frame too (hfr's source time 0).
        let stamped = try MediaChecks.codedPictures(input)
        let origin = stamped.map(\.time).min() ?? 0
        let source = stamped.map { (time: $0.time - origin, hash: $0.hash) }
        let tids = try PrefixNALReader.temporalIDs(of: input)
        #expect(tids.count == source.count)
        let baseLayer = Dictionary(
            zip(source, tids).filter { $0.1 == 0 }.map { (Int(($0.0.time * 120).rounded()), $0.0.hash) },
            uniquingKeysWith: { a, _ in a })
        let sourceHashes = Set(source.map(\.hash))
        var copied = 0
        for p in exported {
            let t = ramp.source(p.time)
            if ramp.isReencoded(t) {
                #expect(!sourceHashes.contains(p.hash), "output frame at \(p.time) s is a copy")
            } else {
                #expect(
                    baseLayer[Int((t * 120).rounded())] == p.hash, "output frame at \(p.time) s is not source \(t) s")
                copied += 1
            }
        }
        #expect(copied > 0 && copied < frames)
        let keyTimes = try keyframeTimes(output).map { $0 - first }
        for stretch in ramp.reencoded {
            for t in [stretch.lowerBound, stretch.upperBound] where t < 6 {
                let o = ramp.mapped(t)
                #expect(keyTimes.contains { abs($0 - o) < 1.5e-3 }, "no keyframe at \(o) s (source \(t) s)")
            }
        }
        #expect(try FFprobe.count(output, decoding: true) == frames)
        #expect(try MediaChecks.decodeErrors(output).isEmpty)
    }

    func keyframeTimes(_ path: String) throws -> [Double] {
        let r = try Tool.run(
            "ffprobe",
            ["-v", "error", "-select_streams", "v:0", "-show_entries", "packet=pts_time,flags", "-of", "csv=p=0", path])
        return r.stdout.split(separator: "\n").compactMap { line in
            let f = line.split(separator: ",")
            return f.count >= 2 && f[1].hasPrefix("K") ? Double(f[0]) : nil
        }
    }

    /// Bursts just before and after each boundary land where the video frames of those instants do
    /// (within 5 ms, spectral), and the audio lasts as long as the video.
    func checkAudio(_ path: String, ramp: Ramp, seconds: Double) throws {
        let bursts = try MediaChecks.audioAnalysis(path).bursts
        #expect(bursts.count == Self.burstTimes.count, "\(bursts)")
        for (o, s) in zip(bursts, Self.burstTimes) {
            #expect(abs(o - ramp.mapped(s)) < 0.005, "burst at \(s) s came out at \(o) s, expected \(ramp.mapped(s))")
        }
        #expect(abs(try MediaChecks.duration(path, stream: "a:0") - seconds) <= 1024.0 / 48000)
        #expect(abs(try MediaChecks.duration(path, stream: "v:0") - seconds) < 0.001)
    }
}
