import Foundation
import HFRTestSupport
import Testing

/// The dry run's tracks, re-encoded stretches and audio against the file the export wrote (ffprobe)
/// and the export's own report: every figure the plan gives.
extension ExportDryRunTests {
    /// One stream of a written file as ffprobe reads it (its packets read, not decoded).
    struct ProbedStream {
        let kind: String
        /// FFmpeg's codec name; the container's tag where FFmpeg names none (a `tmcd` track).
        let codec: String
        let packets: Int
        let bytes: Int
        /// Seconds from the earliest packet's start to the latest one's end; nil without packets.
        let span: Double?
        /// The stream's duration as the container states it; nil when it states none (Matroska).
        let duration: Double?
    }

    /// Every stream of `path`, by index.
    static func probe(_ path: String) throws -> [ProbedStream] {
        let r = try Tool.run(
            "ffprobe",
            [
                "-v", "error", "-show_entries", "stream=index,codec_type,codec_name,codec_tag_string,duration",
                "-show_entries", "packet=stream_index,pts_time,duration_time,size", "-of", "json", path,
            ])
        let json = try Tool.json(r.stdout)
        let packets = json["packets"] as? [[String: Any]] ?? []
        let streams = json["streams"] as? [[String: Any]] ?? []
        func number(_ value: Any?) -> Double? { (value as? String).flatMap(Double.init) }
        return streams.map { s in
            let own = packets.filter { $0["stream_index"] as? Int == s["index"] as? Int }
            let starts = own.compactMap { number($0["pts_time"]) }
            let ends = own.compactMap { p in number(p["pts_time"]).map { $0 + (number(p["duration_time"]) ?? 0) } }
            let name = s["codec_name"] as? String
            return ProbedStream(
                kind: s["codec_type"] as? String ?? "", codec: name ?? s["codec_tag_string"] as? String ?? "",
                packets: own.count, bytes: own.compactMap { number($0["size"]) }.reduce(0) { $0 + Int($1) },
                span: ends.max().flatMap { end in starts.min().map { end - $0 } }, duration: number(s["duration"]))
        }
    }

    /// Checks the plan's tracks against `out` as written: one per stream, in order, each with the
    /// codec, packets, bytes and length the file has; every input track either written or left out
    /// with a reason; the audio figures the report gives; each re-encoded stretch's frames in the
    /// output span the plan gives it (`times`: the video packets' times in the file).
    static func checkTracks(
        _ plan: [String: Any], report: [String: Any], input: String, out: String, times: [Double]
    ) throws {
        let tracks = plan["tracks"] as? [[String: Any]] ?? []
        let written = tracks.filter { $0["output"] is Int }.sorted { ($0["output"] as! Int) < ($1["output"] as! Int) }
        let probed = try probe(out)
        #expect(written.map { $0["output"] as? Int } == Array(probed.indices), "\(tracks)")
        let isMatroska = out.hasSuffix(".mkv") || out.hasSuffix(".webm")
        for (t, s) in zip(written, probed) {
            let what = "\(out) track \(t["output"] ?? "?") \(t["codec"] ?? "?")"
            #expect(t["kind"] as? String == s.kind, "\(what)")
            #expect(t["codec"] as? String == s.codec, "\(what)")
            if let packets = t["packets"] as? Int { #expect(packets == s.packets, "\(what)") }
            if let bytes = t["bytes"] as? Int { #expect(bytes == s.bytes, "\(what)") }
            guard let duration = t["duration"] as? Double else { continue }
            // Matroska stores milliseconds, and an MP4/MOV edit list counts in the movie's time
            // scale (FFmpeg's: milliseconds), which may cut a track's last packet: to within one.
            let oneTick = 0.001 + 1e-9
            if t["kind"] as? String == "video" {
                #expect(duration == plan["outputDuration"] as? Double, "\(what)")
            } else if t["samples"] is Int {
                // Retimed audio lasts its samples; only an edit list (MP4/MOV) states that length:
                // Matroska keeps the encoder's priming samples in the packets.
                if !isMatroska { #expect(abs((s.duration ?? -1) - duration) <= oneTick, "\(what)") }
            } else {
                #expect(abs((s.span ?? -1) - duration) <= oneTick, "\(what)")
            }
        }
        // One entry per input stream, in input order; whatever is not copied as it is says why.
        let inputs = try probe(input).count
        #expect(tracks.compactMap { $0["input"] as? Int } == Array(0..<inputs), "\(tracks)")
        for t in tracks where ["convert", "drop"].contains(t["action"] as? String) {
            #expect(!(t["reason"] as? String ?? "").isEmpty, "\(t)")
        }
        // The report's audio is the plan's: the same members, the same figures.
        #expect((report["audio"] as? NSDictionary) == (plan["audio"] as? NSDictionary))
        let audio = written.filter { $0["kind"] as? String == "audio" }
        #expect((plan["audio"] as? [String: Any])?["tracks"] as? Int == audio.count)
        let video = report["video"] as? [String: Any] ?? [:]
        #expect(video["framesIn"] as? Int == plan["framesIn"] as? Int)
        #expect(written.first?["packets"] as? Int == video["framesOut"] as? Int)
        for span in plan["reencodedSpans"] as? [[String: Any]] ?? [] {
            let output = span["output"] as? [String: Double] ?? [:]
            let (a, b) = (output["start"] ?? 0, output["end"] ?? 0)
            let inside = times.filter { $0 >= a - 1e-4 && $0 < b - 1e-4 }.count
            #expect(inside == span["framesOut"] as? Int, "re-encoded \(a)-\(b)")
        }
    }
}
