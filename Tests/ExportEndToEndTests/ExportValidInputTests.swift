import EndToEndSupport
import Foundation
import HFRTestSupport
import Testing

/// Valid files as other tools write them (issue 25), each of which hfr refused or got wrong: every
/// one probes and conforms, and the output holds every frame and every audio track, each as long
/// as the video (checked with ffprobe, not with hfr).
@Suite(.serialized) struct ExportValidInputTests {
    /// 3 s of 320x240 at 120 fps with `audio` (ffmpeg arguments after the inputs), made by ffmpeg.
    static func make(_ name: String, in dir: TemporaryDirectory, video: [String], audio: [String]) throws -> String {
        let path = dir.path(name)
        try ExportInputs.ffmpeg(
            [
                "-f", "lavfi", "-i", "testsrc2=size=320x240:rate=120:duration=3", "-f", "lavfi", "-i",
                "sine=frequency=440:sample_rate=48000:duration=3",
            ] + video + audio + [path])
        return path
    }

    /// Where the last packet of `stream` ends, in seconds (the stream's length as players see it).
    static func end(_ path: String, stream: String) throws -> Double {
        let r = try Tool.run(
            "ffprobe",
            [
                "-v", "error", "-select_streams", stream, "-show_entries", "packet=pts_time,duration_time", "-of",
                "csv=p=0", path,
            ])
        // FFmpeg's MP4 reader gives no packet durations for a track with B-frame delay but one
        // composition offset (x264 that chose no B-frame): the last frame then lasts as the one before.
        let packets = r.stdout.split(separator: "\n").map { line in
            line.split(separator: ",").map { Double($0) }
        }.filter { $0.first.map { $0 != nil } ?? false }
        let starts = packets.compactMap { $0[0] }.sorted()
        let period = starts.count > 1 ? starts[starts.count - 1] - starts[starts.count - 2] : 0
        return packets.compactMap { f -> Double? in
            guard let start = f[0] else { return nil }
            return start + ((f.count > 1 ? f[1] : nil) ?? period)
        }.max() ?? -1
    }

    /// A track's default flag and language, as "1,eng".
    static func identity(_ path: String, stream: String) throws -> String {
        let r = try Tool.run(
            "ffprobe",
            [
                "-v", "error", "-select_streams", stream, "-show_entries",
                "stream_disposition=default:stream_tags=language", "-of", "csv=p=0", path,
            ])
        return r.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Conforms `input` to 30 fps into `output` and checks it: `frames` frames decode, every audio
    /// track is there and ends with the video (within one video frame and one AAC frame).
    static func conformKeepsEverything(_ input: String, _ output: String, frames: Int, audioTracks: Int) throws {
        let probe = try Tool.hfr(["probe", input])
        #expect(probe.status == 0, "probe: \(probe.stderr)")
        let r = try Tool.hfr(["export", input, output, "--conform", "30"])
        #expect(r.status == 0, "export: \(r.stderr)")
        guard r.status == 0 else { return }
        #expect(try FFprobe.count(output, stream: "v:0", decoding: true) == frames)
        let video = try end(output, stream: "v:0")
        for track in 0..<audioTracks {
            let audio = try end(output, stream: "a:\(track)")
            #expect(
                abs(audio - video) < 1.0 / 30 + 1024.0 / 48000, "audio #\(track) ends at \(audio), video at \(video)")
        }
        #expect(try FFprobe.count(output, stream: "a:\(audioTracks)", decoding: false) == -1, "an extra audio track")
        #expect(try MediaChecks.decodeErrors(output).isEmpty)
    }

    /// "truncated: stream #1 has 141 of the 144000 frames its index lists": one PCM packet holds
    /// many samples; MOV and AVI count samples, so counting packets against them refused them all.
    @Test(arguments: [
        ("pcm16.mov", ["-c:v", "mpeg4", "-q:v", "4"], ["-c:a", "pcm_s16le"]),
        ("pcm24.mov", ["-c:v", "prores_ks", "-profile:v", "0"], ["-c:a", "pcm_s24le"]),
        ("pcm16.avi", ["-c:v", "mjpeg", "-q:v", "5"], ["-c:a", "pcm_s16le"]),
        // AVI stores decode times only: H.264 without B-frames was refused as "no timestamps".
        ("h264-pcm24.avi", ["-c:v", "libx264", "-preset", "ultrafast", "-bf", "0"], ["-c:a", "pcm_s24le"]),
        ("pcmf32.mkv", ["-c:v", "libx264", "-preset", "ultrafast"], ["-c:a", "pcm_f32le"]),
    ])
    func pcmAudioIsNotTakenForTruncation(name: String, video: [String], audio: [String]) throws {
        let dir = try TemporaryDirectory()
        let input = try Self.make(name, in: dir, video: video, audio: audio)
        try Self.conformKeepsEverything(input, dir.path("out.mkv"), frames: 360, audioTracks: 1)
    }

    /// The regression: a raw OpenH264 stream (no VUI timing) muxed by ffmpeg (`-r 120 -i raw.h264`)
    /// with AAC: its last sample lasts 40 ms (the raw demuxer's 25 fps). The read-back check took
    /// the longer last frame for corrupt timestamps; the output keeps it, 4× longer, as the file says.
    @Test func longLastSampleIsKept() throws {
        let dir = try TemporaryDirectory()
        let raw = dir.path("raw.h264")
        try ExportInputs.ffmpeg([
            "-i", Fixtures.path("layered-120fps.mp4"), "-map", "0:v", "-c:v", "copy", "-f", "h264", raw,
        ])
        let input = dir.path("muxed.mp4")
        try ExportInputs.ffmpeg([
            "-r", "120", "-i", raw, "-f", "lavfi", "-i", "sine=sample_rate=48000:duration=2", "-map", "0:v", "-map",
            "1:a", "-c:v", "copy", "-c:a", "aac", "-shortest", input,
        ])
        #expect(abs(try Self.end(input, stream: "v:0") - (239.0 / 120 + 0.04)) < 0.001)
        let out = dir.path("slow.mp4")
        try Self.conformKeepsEverything(input, out, frames: 240, audioTracks: 1)
        // 239 frames 1/30 s apart, the last one 4 × 40 ms.
        #expect(abs(try Self.end(out, stream: "v:0") - (239.0 / 30 + 0.16)) < 0.001)
    }

    /// What live encoders and CMAF packagers write: fragments, B-frames, no edit list; ffmpeg gives
    /// the first frame a longer duration to line up with the audio. Refused as corrupt timestamps.
    @Test func fragmentedMP4WithBFramesConforms() throws {
        let dir = try TemporaryDirectory()
        let input = try Self.make(
            "frag.mp4", in: dir, video: ["-c:v", "libx264", "-preset", "ultrafast", "-bf", "2"],
            audio: ["-c:a", "aac", "-movflags", "frag_keyframe+empty_moov+default_base_moof"])
        try Self.conformKeepsEverything(input, dir.path("slow.mp4"), frames: 360, audioTracks: 1)
    }

    /// ffmpeg's `-movflags frag_every_frame` with AAC writes a fragment whose sample lasts 0 and
    /// shares its decode time with the next fragment's (FFmpeg's reader marks the second one
    /// discardable): refused as "timestamps repeat". The colliding frame takes the gap before it.
    @Test func fragmentTimesThatRepeatAreRepaired() throws {
        let dir = try TemporaryDirectory()
        let input = try Self.make(
            "every-frame.mp4", in: dir, video: ["-c:v", "libx264", "-preset", "ultrafast", "-bf", "0"],
            audio: ["-c:a", "aac", "-movflags", "frag_every_frame+empty_moov"])
        let dts = try Tool.run(
            "ffprobe",
            ["-v", "error", "-select_streams", "v:0", "-show_entries", "packet=dts_time", "-of", "csv=p=0", input]
        ).stdout.split(separator: "\n").compactMap { Double($0) }
        #expect(dts.count == 360)
        #expect(zip(dts, dts.dropFirst()).contains { $0 == $1 }, "the input has no repeated decode time")
        guard dts.count == 360 else { return }
        let out = dir.path("slow.mp4")
        try Self.conformKeepsEverything(input, out, frames: 360, audioTracks: 1)
        // Each frame 1/30 s after the one before, as the 120 fps source was encoded; the first one
        // 4 × as long as the file has it (ffmpeg lengthens it by the AAC priming).
        let times = try MediaChecks.packets(out).map(\.time)
        let steps = zip(times, times.dropFirst()).map { $1 - $0 }
        #expect(steps.count == 359)
        guard let first = steps.first else { return }
        #expect(abs(first - 4 * (dts[1] - dts[0])) < 0.001, "first step \(first)")
        #expect(
            steps.dropFirst().allSatisfy { abs($0 - 1.0 / 30) < 0.001 },
            "steps \(steps.dropFirst().min() ?? 0)...\(steps.dropFirst().max() ?? 0)")
    }

    /// A second audio track was dropped silently (exit 0, one track). Every one comes out, with its
    /// language, title, disposition and channel layout (5.1).
    @Test(arguments: ["out.mkv", "out.mp4"])
    func everyAudioTrackComesOut(output: String) throws {
        let dir = try TemporaryDirectory()
        let input = dir.path("two.mkv")
        try ExportInputs.ffmpeg([
            "-f", "lavfi", "-i", "testsrc2=size=320x240:rate=120:duration=3", "-f", "lavfi", "-i",
            "sine=frequency=440:sample_rate=48000:duration=3", "-f", "lavfi", "-i",
            "sine=frequency=880:sample_rate=48000:duration=3,pan=5.1|c0=c0|c1=c0|c2=c0|c3=c0|c4=c0|c5=c0",
            "-map", "0", "-map", "1", "-map", "2", "-c:v", "libx264", "-preset", "ultrafast", "-c:a:0", "aac",
            "-ac:a:0", "2", "-c:a:1", "libopus", "-metadata:s:a:0", "language=eng", "-metadata:s:a:1", "language=fra",
            "-disposition:a:0", "default", "-disposition:a:1", "0", input,
        ])
        let out = dir.path(output)
        try Self.conformKeepsEverything(input, out, frames: 360, audioTracks: 2)
        #expect(try MediaChecks.entry(out, stream: "a:0", "channels") == "2")
        #expect(try MediaChecks.entry(out, stream: "a:1", "channels") == "6")
        #expect(try Self.identity(out, stream: "a:0") == "1,eng")
        #expect(try Self.identity(out, stream: "a:1") == "0,fra")
        let json = try Tool.json(
            try Tool.hfr(["export", input, dir.path("j.mkv"), "--conform", "30", "--json"]).stdout)
        #expect((json["audio"] as? [String: Any])?["tracks"] as? Int == 2)
    }

    /// MPEG-4 Part 2 in AVI with B-frames (what DivX/Xvid wrote): AVI stores decode times only and
    /// FFmpeg leaves each I/P frame before B-frames without a presentation time. The copy used to
    /// drop them (319 of 480 frames, exit 0, an output ffprobe could not read), then refused. Now
    /// each takes the next anchor's decode time (the codec reorders by one anchor): the copy
    /// decodes to the AVI's pictures in the AVI's order, 1/30 s apart.
    @Test func mpeg4BFramesInAVIAreCopiedInOrder() throws {
        let dir = try TemporaryDirectory()
        let input = dir.path("xvid.avi")
        try ExportInputs.ffmpeg([
            "-f", "lavfi", "-i", "testsrc2=size=320x240:rate=120:duration=2", "-c:v", "mpeg4", "-vtag", "xvid",
            "-bf", "2", input,
        ])
        let out = dir.path("out.mkv")
        let r = try Tool.hfr(["export", input, out, "--conform", "30"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stderr.contains("240 of 240 frames copied losslessly"), "\(r.stderr)")
        func pictures(_ path: String) throws -> [Substring] {
            let run = try Tool.run("ffmpeg", ["-v", "error", "-nostdin", "-i", path, "-an", "-f", "framemd5", "-"])
            return run.stdout.split(separator: "\n").filter { !$0.hasPrefix("#") }.compactMap {
                $0.split(separator: ",").last
            }
        }
        let source = try pictures(input)
        #expect(source.count == 240)
        #expect(try pictures(out) == source)
        let times = try MediaChecks.packets(out).map(\.time).sorted()
        let steps = zip(times, times.dropFirst()).map { $1 - $0 }
        #expect(steps.allSatisfy { abs($0 - 1.0 / 30) < 0.0011 }, "steps \(steps.min() ?? 0)...\(steps.max() ?? 0)")
    }

    /// A VP9/Opus WebM stays WebM (".webm" was refused as an output): the video copied, the audio
    /// retimed into Vorbis, which WebM stores. An export that re-encodes (was refused: "re-encodes
    /// the video to H.264, which WEBM cannot store") writes VP9, keeping a 10-bit source's depth.
    @Test func webmStaysWebM() throws {
        let dir = try TemporaryDirectory()
        let input = try Self.make(
            "in.webm", in: dir,
            video: ["-c:v", "libvpx-vp9", "-deadline", "realtime", "-cpu-used", "8", "-pix_fmt", "yuv420p10le"],
            audio: ["-c:a", "libopus"])
        let out = dir.path("slow.webm")
        try Self.conformKeepsEverything(input, out, frames: 360, audioTracks: 1)
        #expect(try MediaChecks.entry(out, stream: "v:0", "codec_name") == "vp9")
        #expect(try MediaChecks.entry(out, stream: "a:0", "codec_name") == "vorbis")
        let half = dir.path("fps60.webm")
        let r = try Tool.hfr(["export", input, half, "--fps", "60"])
        #expect(r.status == 0 && r.stderr.contains("libvpx-vp9"), "\(r.stderr)")
        guard r.status == 0 else { return }
        #expect(try FFprobe.count(half, stream: "v:0", decoding: true) == 180)
        #expect(try MediaChecks.entry(half, stream: "v:0", "codec_name") == "vp9")
        #expect(try MediaChecks.entry(half, stream: "v:0", "pix_fmt") == "yuv420p10le")
        #expect(abs(try Self.end(half, stream: "v:0") - 3) < 1.0 / 60 + 1e-6)
        #expect(try MediaChecks.decodeErrors(half).isEmpty)
    }

    /// Retimed PCM stays PCM at its depth and rate where the container stores it (MOV, Matroska);
    /// into MP4 it becomes AAC, and the export says so.
    @Test func pcmStaysPCMWhereTheContainerHoldsIt() throws {
        let dir = try TemporaryDirectory()
        let input = try Self.make(
            "in.mov", in: dir, video: ["-c:v", "mpeg4", "-q:v", "4"], audio: ["-c:a", "pcm_s24le", "-ar", "96000"])
        for name in ["out.mov", "out.mkv"] {
            try Self.conformKeepsEverything(input, dir.path(name), frames: 360, audioTracks: 1)
            #expect(try MediaChecks.entry(dir.path(name), stream: "a:0", "codec_name,sample_rate") == "pcm_s24le,96000")
        }
        let r = try Tool.hfr(["export", input, dir.path("out.mp4"), "--conform", "30"])
        #expect(r.status == 0)
        #expect(
            r.stderr.contains("audio track #1 (pcm_s24le) is retimed into AAC: MP4 cannot store PCM"), "\(r.stderr)")
    }

    /// A broadcast camera's DNxHR MXF conformed into Matroska: refused ("dnxhd video cannot be
    /// copied into MKV") because FFmpeg's query names no Matroska ID for DNxHD, though its muxer
    /// writes it (as `V_QUICKTIME`, like `ffmpeg -c copy`). The frames are copied, not re-encoded.
    @Test func dnxhrFromMXFIsCopiedIntoMatroska() throws {
        let dir = try TemporaryDirectory()
        let input = dir.path("cam.mxf")
        try ExportInputs.ffmpeg(
            [
                "-f", "lavfi", "-i", "testsrc2=size=640x360:rate=50:duration=2", "-f", "lavfi", "-i",
                "sine=sample_rate=48000:duration=2", "-c:v", "dnxhd", "-profile:v", "dnxhr_lb", "-pix_fmt", "yuv422p",
                "-c:a", "pcm_s16le", input,
            ])
        let out = dir.path("slow.mkv")
        try Self.conformKeepsEverything(input, out, frames: 100, audioTracks: 1)
        #expect(try MediaChecks.entry(out, stream: "v:0", "codec_name,pix_fmt") == "dnxhd,yuv422p")
        #expect(try MediaChecks.packets(out).count == 100)
    }

    /// Audio a container cannot store is converted, not copied into a header the muxer refuses
    /// (Sony XAVC S-like MP4 with big-endian PCM: `--fps` failed in avformat_write_header), and a
    /// rate AAC does not have (192 kHz) is resampled to its nearest (96 kHz), not refused.
    @Test(arguments: [
        ("xavc.mp4", ["-f", "mov", "-brand", "XAVC"], "pcm_s16be", 48000, ["--fps", "60"], 48000),
        ("hi.mov", [], "pcm_s32le", 192000, ["--conform", "30"], 96000),
    ])
    func audioTheContainerCannotStoreIsConverted(
        name: String, muxer: [String], codec: String, rate: Int, options: [String], aacRate: Int
    ) throws {
        let dir = try TemporaryDirectory()
        let input = dir.path(name)
        try ExportInputs.ffmpeg(
            [
                "-f", "lavfi", "-i", "testsrc2=size=320x240:rate=120:duration=2", "-f", "lavfi", "-i",
                "sine=sample_rate=\(rate):duration=2", "-c:v", "libx264", "-preset", "ultrafast", "-c:a", codec,
            ] + muxer + [input])
        let out = dir.path("out.mp4")
        let r = try Tool.hfr(["export", input, out] + options)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stderr.contains("(\(codec)) is retimed into AAC: MP4 cannot store PCM"), "\(r.stderr)")
        #expect(try MediaChecks.entry(out, stream: "a:0", "codec_name,sample_rate") == "aac,\(aacRate)")
        let video = try Self.end(out, stream: "v:0")
        #expect(abs(try Self.end(out, stream: "a:0") - video) < 1.0 / 30 + 1024.0 / Double(aacRate))
        #expect(try MediaChecks.decodeErrors(out).isEmpty)
    }

    /// Frames left out of a constant rate keep their place: every third frame of 120 fps removed
    /// (MKV, millisecond times) and a phone's switch from 60 to 30 fps (HEVC with B-frames). The
    /// capture rate is the frames' period (120), not their average (80, 90): a conform wrote
    /// frames closer than its own 1/30 s, which ffmpeg's decode reported as colliding timestamps,
    /// or was refused as corrupt.
    @Test(arguments: [
        ("vfr.mkv", ["-vf", "select='mod(n,3)'", "-c:v", "libx264", "-preset", "ultrafast", "-fps_mode", "vfr"], 160),
        (
            "phone.mp4",
            [
                "-vf", "setpts='if(lt(N,120),N/120,1+(N-120)/60)/TB'", "-c:v", "libx265", "-preset", "ultrafast",
                "-x265-params", "log-level=error:bframes=2", "-fps_mode", "passthrough", "-video_track_timescale",
                "90000",
            ], 180
        ),
    ])
    func framesLeftOutKeepTheirPlace(name: String, video: [String], frames: Int) throws {
        let dir = try TemporaryDirectory()
        let input = dir.path(name)
        try ExportInputs.ffmpeg(
            ["-f", "lavfi", "-i", "testsrc2=size=320x240:rate=120:duration=3", "-t", "2"] + video + [input])
        let out = dir.path("slow.mkv")
        let r = try Tool.hfr(["export", input, out, "--conform", "30", "--json"])
        #expect(r.status == 0, "\(r.stderr)")
        let json = try Tool.json(r.stdout)
        #expect(json["captureFrameRate"] as? String == "120/1", "\(r.stdout.prefix(400))")
        #expect(try FFprobe.count(out, stream: "v:0", decoding: true) == frames)
        // ffmpeg's own pipeline (frames timed at the stream's 30 fps) finds no two at one time.
        #expect(try MediaChecks.decodeErrors(out).isEmpty)
        let times = try MediaChecks.packets(out).map(\.time).sorted()
        let steps = zip(times, times.dropFirst()).map { $1 - $0 }
        #expect(steps.allSatisfy { $0 > 1.0 / 30 - 0.002 }, "\(steps.min() ?? 0)")
    }

    /// A re-encode keeps what the source had: a 10-bit HLG HEVC phone clip stayed HLG but became
    /// 8-bit 4:2:0 (hfr's layered OpenH264); 4:2:2 ProRes and MJPEG lost their chroma. They now go
    /// through a delivery encoder of their family (libx265, prores_ks; libx264 High 4:2:2 for
    /// MJPEG) in their own pixel format, and the plan says so.
    @Test(arguments: [
        (
            "hlg.mov",
            [
                "-c:v", "libx265", "-preset", "ultrafast", "-x265-params", "log-level=error", "-pix_fmt", "yuv420p10le",
                "-color_primaries", "bt2020", "-color_trc", "arib-std-b67", "-colorspace", "bt2020nc", "-tag:v", "hvc1",
            ], ["--fps", "60"], "out.mov"
        ),
        ("prores.mov", ["-c:v", "prores_ks", "-profile:v", "2"], ["--ramp", "0-1@1,1-@0.5"], "out.mov"),
        ("mjpeg.avi", ["-c:v", "mjpeg", "-pix_fmt", "yuvj422p"], ["--fps", "60"], "out.mkv"),
    ])
    func reencodeKeepsBitDepthChromaAndColour(name: String, video: [String], options: [String], output: String) throws {
        let dir = try TemporaryDirectory()
        let input = try Self.make(name, in: dir, video: video, audio: ["-c:a", "pcm_s16le"])
        let out = dir.path(output)
        let r = try Tool.hfr(["export", input, out] + options)
        #expect(r.status == 0, "\(r.stderr)")
        let source = try MediaChecks.entry(input, stream: "v:0", "pix_fmt,color_transfer")
        #expect(try MediaChecks.entry(out, stream: "v:0", "pix_fmt,color_transfer") == source)
        #expect(r.stderr.contains("re-encoded with "), "\(r.stderr)")
        #expect(r.stderr.contains("to keep its \(source.split(separator: ",")[0]) pictures"), "\(r.stderr)")
        #expect(try MediaChecks.decodeErrors(out).isEmpty)
        let frames = try FFprobe.count(out, stream: "v:0", decoding: true)
        // --fps 60 of 3 s; the ramp at 60 fps: 1 s, then 2 s at half speed (4 s).
        #expect(frames == (options[0] == "--fps" ? 180 : 60 + 240), "\(frames) frames")
    }
}
