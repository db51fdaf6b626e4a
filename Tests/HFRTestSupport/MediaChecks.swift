import Foundation

/// Independent checks of produced media: ffprobe packet hashes, ffmpeg decoding, numpy FFTs.
public enum MediaChecks {
    /// One packet as ffprobe reports it.
    public struct PacketInfo: Sendable, Equatable {
        public let time: Double
        public let hash: String
    }

    /// Every packet of `stream` in file (decode) order, with the MD5 of its payload.
    public static func packets(_ path: String, stream: String = "v:0") throws -> [PacketInfo] {
        let r = try Tool.run(
            "ffprobe",
            [
                "-v", "error", "-select_streams", stream, "-show_data_hash", "MD5", "-show_entries",
                "packet=pts_time,data_hash", "-of", "csv=p=0", path,
            ])
        return r.stdout.split(separator: "\n").compactMap { line in
            let fields = line.split(separator: ",")
            guard let hash = fields.first(where: { $0.hasPrefix("MD5:") }),
                let time = fields.compactMap({ Double($0) }).first
            else { return nil }
            return PacketInfo(time: time, hash: String(hash))
        }
    }

    /// Every video packet as `packets` gives them, hashed without its SPS (HEVC: VPS and SPS) NAL
    /// units: what a retimed copy rewrites to state the output's frame rate (`StatedRateRewrite`),
    /// while the coded pictures, PPS and SEI stay bit for bit. FFmpeg's filter_units removes them
    /// (and writes Annex B, from input and output alike).
    public static func codedPictures(_ path: String) throws -> [PacketInfo] {
        // (A stream with side data gets an empty field after its name: "h264,".)
        let codec = try entry(path, stream: "v:0", "codec_name").split(whereSeparator: { ",\n".contains($0) }).first
        let types: String
        switch codec {
        case "h264": types = "7"
        case "hevc": types = "32|33"
        default: return try packets(path)
        }
        let filter = ["-bsf:v", "filter_units=remove_types=\(types)"]
        let r = try Tool.run(
            "ffmpeg",
            ["-v", "error", "-nostdin", "-copyts", "-i", path, "-map", "0:v:0", "-c", "copy"] + filter + [
                "-f", "framemd5", "-",
            ])
        var timeBase = 0.0
        var packets: [PacketInfo] = []
        for line in r.stdout.split(separator: "\n") {
            if line.hasPrefix("#tb 0: "), let slash = line.firstIndex(of: "/") {
                timeBase = 1 / (Double(line[line.index(after: slash)...].trimmingCharacters(in: .whitespaces)) ?? 1)
            }
            let fields = line.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
            guard !line.hasPrefix("#"), fields.count == 6, let pts = Double(fields[2]) else { continue }
            packets.append(PacketInfo(time: pts * timeBase, hash: "MD5:" + fields[5]))
        }
        return packets
    }

    /// The tone of `path`'s first audio track as sox measures it, independently of hfr and FFmpeg's
    /// analysis: decoded to mono WAV at its own rate, `sox stat` over `trim` (start, length; the
    /// whole track when nil). Sox's rough frequency is its RMS slope over its RMS, (rate/π)·sin(πf/rate)
    /// for a sine, turned back into f here (near Nyquist it reads low: 40 kHz at 192 kHz as 37,208 Hz).
    /// `rate`: the track's sample rate when the caller has read it (else ffprobe reads it).
    public static func soxTone(
        _ path: String, trim: (Double, Double)? = nil, rate: Double? = nil
    ) throws -> (frequency: Double, rms: Double, stat: String) {
        let rate = try rate ?? Double(entry(path, stream: "a:0", "sample_rate").prefix { $0.isNumber }) ?? 48000
        let wav = path + ".tone.wav"
        try Tool.run("ffmpeg", ["-v", "error", "-nostdin", "-y", "-i", path, "-map", "0:a:0", "-ac", "1", wav])
        let stat = try Tool.run("sox", [wav, "-n"] + (trim.map { ["trim", "\($0.0)", "\($0.1)"] } ?? []) + ["stat"])
            .stderr
        func value(_ label: String) -> Double {
            let line = stat.split(separator: "\n").first { $0.hasPrefix(label) }
            return line.flatMap { Double($0.split(separator: " ").last ?? "") } ?? 0
        }
        let rough = value("Rough   frequency:")
        return (asin(min(1, rough * .pi / rate)) * rate / .pi, value("RMS     amplitude:"), stat)
    }

    /// What ffmpeg prints at `-v error` while decoding every stream (empty = decodes cleanly).
    public static func decodeErrors(_ path: String) throws -> String {
        let r = try Tool.run("ffmpeg", ["-v", "error", "-nostdin", "-i", path, "-f", "null", "-"])
        return r.status == 0 ? r.stderr : "exit \(r.status): \(r.stderr)"
    }

    /// A stream's duration (`stream=duration`) in seconds; -1 when absent.
    public static func duration(_ path: String, stream: String) throws -> Double {
        let r = try Tool.run(
            "ffprobe",
            ["-v", "error", "-select_streams", stream, "-show_entries", "stream=duration", "-of", "csv=p=0", path])
        return Double(r.stdout.trimmingCharacters(in: .whitespacesAndNewlines)) ?? -1
    }

    /// One `stream=` entry (e.g. `r_frame_rate`) as text.
    public static func entry(_ path: String, stream: String, _ name: String) throws -> String {
        let r = try Tool.run(
            "ffprobe",
            ["-v", "error", "-select_streams", stream, "-show_entries", "stream=\(name)", "-of", "csv=p=0", path])
        return r.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// The first audio stream decoded (mono mix, 48 kHz) and measured by numpy: the dominant
    /// frequency of [from, from + length) seconds (Hann window, parabolic peak interpolation), the
    /// sample count, when the level first and last exceeds 10 % of its peak, and for each burst of
    /// sound (10 ms energy envelope above 25 % of its peak, gaps over 20 ms between bursts) its
    /// energy centroid in seconds: where the burst sits, independent of how a stretch smears it.
    /// `channel` picks one channel instead of the mix.
    public static func audioAnalysis(
        _ path: String, from: Double = 0, length: Double = 1, channel: Int? = nil
    ) throws -> AudioAnalysis {
        let script = """
            import sys, subprocess, numpy as np
            mix = ["-af", "pan=mono|c0=c" + sys.argv[4]] if sys.argv[4] != "-" else ["-ac", "1"]
            raw = subprocess.run(["ffmpeg", "-v", "error", "-nostdin", "-i", sys.argv[1], "-map", "0:a:0"] + mix +
                                 ["-f", "f32le", "-ar", "48000", "-"], capture_output=True).stdout
            x = np.frombuffer(raw, dtype=np.float32).astype(np.float64)
            rate = 48000
            a = int(float(sys.argv[2]) * rate); n = int(float(sys.argv[3]) * rate)
            seg = x[a:a + n]
            spec = np.abs(np.fft.rfft(seg * np.hanning(len(seg)))) + 1e-12
            k = int(np.argmax(spec[1:-1])) + 1
            l, m, r = np.log(spec[k - 1]), np.log(spec[k]), np.log(spec[k + 1])
            freq = (k + 0.5 * (l - r) / (l - 2 * m + r)) * rate / len(seg)
            loud = np.flatnonzero(np.abs(x) > 0.1 * np.max(np.abs(x)))
            env = np.convolve(x * x, np.ones(480) / 480, mode="same")
            idx = np.flatnonzero(env > 0.25 * env.max())
            groups = np.split(idx, np.flatnonzero(np.diff(idx) > 0.02 * rate) + 1) if len(idx) else []
            bursts = [(g * env[g]).sum() / env[g].sum() / rate for g in groups if len(g)]
            print(freq); print(len(x)); print(loud[0] / rate, loud[-1] / rate)
            print(" ".join(f"{t:.6f}" for t in bursts))
            """
        let r = try Tool.run(
            "python3", ["-c", script, path, String(from), String(length), channel.map(String.init) ?? "-"])
        let lines = r.stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let loud = lines.count > 2 ? lines[2].split(separator: " ").compactMap { Double($0) } : []
        guard lines.count >= 4, let f = Double(lines[0]), let n = Int(lines[1]), loud.count == 2 else {
            throw CocoaError(.fileReadCorruptFile, userInfo: ["stderr": r.stderr])
        }
        return AudioAnalysis(
            frequency: f, sampleCount: n, firstLoud: loud[0], lastLoud: loud[1],
            bursts: lines[3].split(separator: " ").compactMap { Double($0) })
    }

    public struct AudioAnalysis: Sendable {
        public let frequency: Double
        public let sampleCount: Int
        /// Seconds where the level first and last exceeds 10 % of the peak.
        public let firstLoud: Double
        public let lastLoud: Double
        /// Energy centroids of the bursts of sound, in seconds.
        public let bursts: [Double]
    }
}
