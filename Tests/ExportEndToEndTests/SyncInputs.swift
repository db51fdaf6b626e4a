import EndToEndSupport
import Foundation
import HFRTestSupport
import Testing

/// Where a sync input's audio track starts against its video.
enum AudioStart: String, CaseIterable, Sendable, CustomTestStringConvertible {
    /// 0.2 s before the video (the video's first sample at 0.2 s, an empty edit before it).
    case leading
    case aligned
    /// 0.2 s after the video (an empty edit before the audio).
    case lagging

    var testDescription: String { "audio \(rawValue)" }

    /// Seconds from the video's start to the audio's.
    var audioOffset: Double {
        switch self {
        case .leading: -0.2
        case .aligned: 0
        case .lagging: 0.2
        }
    }
}

/// A/V sync inputs made with ffmpeg alone (no hfr in their making), one per `AudioStart`, made once
/// per test process: 120 fps 160x90 H.264, black with a white frame at each of `eventTimes` of the
/// picture; 48 kHz AAC with a 20 ms 1 kHz beep (amplitude 0.8) at the same moments. The streams
/// are encoded apart and muxed with a start offset, the movie time scale at the audio rate so the
/// edit lists hold the offset to the sample.
enum SyncInputs {
    /// Seconds from the video's start of each flash and beep.
    static let eventTimes = [0.5, 1.5, 2.5, 3.5]
    /// Seconds of video.
    static let duration = 4.0
    /// Peak of each beep.
    static let amplitude = 0.8

    static let leading = make(.leading)
    static let aligned = make(.aligned)
    static let lagging = make(.lagging)

    static func input(_ start: AudioStart) throws -> String {
        switch start {
        case .leading: try leading.get()
        case .aligned: try aligned.get()
        case .lagging: try lagging.get()
        }
    }

    private static func make(_ start: AudioStart) -> Result<String, any Error> {
        Result {
            guard let directory = ExportInputs.directory else { throw CocoaError(.fileWriteUnknown) }
            let video = directory.path("sync-\(start.rawValue).h264.mp4")
            let audio = directory.path("sync-\(start.rawValue).m4a")
            let path = directory.path("sync-\(start.rawValue).mp4")
            let frames = eventTimes.map { "eq(n\\,\(Int(($0 * 120).rounded())))" }.joined(separator: "+")
            try ExportInputs.ffmpeg([
                "-f", "lavfi", "-i",
                "color=black:s=160x90:r=120:d=\(duration),format=gray,drawbox=t=fill:c=white:enable='\(frames)',format=yuv420p",
                "-c:v", "libx264", "-preset", "ultrafast", "-g", "120", video,
            ])
            // Beeps at the event times of the audio's own clock.
            let beeps = eventTimes.map { t in
                let s = t - start.audioOffset
                return "between(t\\,\(s)\\,\(s)+0.02-1/96000)"
            }.joined(separator: "+")
            try ExportInputs.ffmpeg([
                "-f", "lavfi", "-i",
                "aevalsrc=\(amplitude)*sin(2*PI*1000*t)*(\(beeps)):s=48000:d=\(duration - start.audioOffset)",
                "-c:a", "aac", "-b:a", "128k", audio,
            ])
            try ExportInputs.ffmpeg([
                "-itsoffset", String(max(0, -start.audioOffset)), "-i", video, "-itsoffset",
                String(max(0, start.audioOffset)), "-i", audio, "-map", "0:v", "-map", "1:a", "-c", "copy",
                "-movie_timescale", "48000", path,
            ])
            return path
        }
    }
}

/// Flashes and beep onsets of a file, on its presentation timeline (seconds), measured with
/// ffprobe (mean luma per frame, `signalstats`) and ffmpeg (the audio decoded to PCM, placed at the
/// stream's start time) and numpy.
struct SyncEvents {
    /// Presentation times of the frames where the mean luma first exceeds 128.
    let flashes: [Double]
    /// First sample above 0.1 (an eighth of a beep) after at least 100 ms below it.
    let onsets: [Double]
    /// Per onset: seconds to the end of the first 1 ms block whose peak reaches 90 % of the beeps'
    /// amplitude (within 100 ms).
    let rises: [Double]

    static func measure(_ path: String) throws -> SyncEvents {
        let script = """
            import sys, json, subprocess, numpy as np
            path, level = sys.argv[1], 0.9 * float(sys.argv[2])
            def entry(sel, key):
                return subprocess.run(["ffprobe", "-v", "error", "-select_streams", sel, "-show_entries",
                    "stream=" + key, "-of", "csv=p=0", path], capture_output=True, text=True).stdout.strip()
            frames = subprocess.run(["ffprobe", "-v", "error", "-f", "lavfi", "-i",
                "movie=" + path.replace("\\\\", "\\\\\\\\").replace(":", "\\\\:") + ",signalstats",
                "-show_entries", "frame=pts_time:frame_tags=lavfi.signalstats.YAVG", "-of", "csv=p=0"],
                capture_output=True, text=True).stdout.split()
            flashes, previous = [], 0.0
            for line in frames:
                t, y = (float(v) for v in line.split(",")[:2])
                if y > 128 >= previous: flashes.append(t)
                previous = y
            rate = int(entry("a:0", "sample_rate")); start = float(entry("a:0", "start_time"))
            raw = subprocess.run(["ffmpeg", "-v", "error", "-nostdin", "-i", path, "-map", "0:a:0", "-ac", "1",
                "-f", "f32le", "-"], capture_output=True).stdout
            x = np.abs(np.frombuffer(raw, dtype=np.float32))
            onsets, rises, last = [], [], -rate
            block = rate // 1000
            for i in np.flatnonzero(x > 0.1):
                if i - last > rate // 10:
                    onsets.append(start + i / rate)
                    span = x[i:i + rate // 10]
                    peaks = span[:len(span) // block * block].reshape(-1, block).max(axis=1)
                    reached = np.flatnonzero(peaks >= level)
                    rises.append(float(reached[0] + 1) * block / rate if len(reached) else 0.1)
                last = i
            print(json.dumps({"flashes": flashes, "onsets": onsets, "rises": rises}))
            """
        let r = try Tool.run("python3", ["-c", script, path, String(SyncInputs.amplitude)])
        let json = try Tool.json(r.stdout)
        guard let flashes = json["flashes"] as? [Double], let onsets = json["onsets"] as? [Double],
            let rises = json["rises"] as? [Double]
        else { throw CocoaError(.fileReadCorruptFile, userInfo: ["stderr": r.stderr]) }
        return SyncEvents(flashes: flashes, onsets: onsets, rises: rises)
    }
}
