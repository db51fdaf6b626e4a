import Foundation
import HFRTestSupport

/// The checks of an export that exited 0: the output decodes with no more errors than the input,
/// and its video frames, rate and duration are what `--json` says (within one frame).
extension FuzzCaseRun {
    mutating func checkOutput(_ command: String, _ output: String, _ stdout: String) throws {
        guard let json = try? Tool.json(stdout), let video = json["video"] as? [String: Any],
            let framesOut = (video["framesOut"] as? NSNumber)?.intValue,
            let rateText = json["outputFrameRate"] as? String, let rate = Self.rational(rateText), rate > 0,
            let duration = (json["outputDuration"] as? NSNumber)?.doubleValue
        else { return fail("mistimed output", command, "no summary in --json: \(stdout.prefix(300))") }
        let claim = "\(framesOut) frames, \(rateText) fps, \(duration) s"
        let frame = 1 / rate
        if framesOut < 1 { return fail("broken output", command, "exit 0 with no video frames (\(claim))") }
        // A variable-rate input (the export notes its uneven timestamps) keeps its gaps: fewer
        // frames than the rate fills the duration with, never more.
        let notes = json["notes"] as? [String] ?? []
        let isUneven = notes.contains { $0.contains("timestamps are uneven") }
        let decoded = try Decoding(output)
        let pts = decoded.videoPackets
        if pts.isEmpty { return fail("broken output", command, "no video packets in the output (\(claim))") }
        // The last frame lasts what the file says (its source frame's length, scaled: an FFmpeg mux
        // of a raw stream gives 40 ms at 120 fps), up to a second of source time, which the
        // summary's duration includes; every other frame one period.
        let sorted = pts.map(\.pts).sorted()
        let lastFrame = pts.first { $0.pts == sorted.last! }?.duration ?? frame
        // Output seconds per source second (the whole export's; a range shortens it, never lengthens).
        let outputDuration = (json["outputDuration"] as? NSNumber)?.doubleValue ?? 0
        let inputDuration = (json["inputDuration"] as? NSNumber)?.doubleValue ?? 1
        let longest = max(frame, outputDuration / max(inputDuration, 1e-9))
        if lastFrame > longest * 1.001 + frame {
            fail("mistimed output", command, "its last frame lasts \(lastFrame) s (\(claim))")
        }
        let excess = Double(framesOut) - rate * (duration - max(lastFrame, frame) + frame)
        if isUneven ? excess > 1.001 : abs(excess) > 1.001 {
            fail("mistimed output", command, "summary inconsistent: \(claim)")
        }
        let span = (sorted.last! - sorted.first!) + max(lastFrame, frame)
        if abs(pts.count - framesOut) > 1 || abs(span - duration) > frame * 1.001 {
            fail("mistimed output", command, "claims \(claim); has \(pts.count) frames over \(span) s")
        }
        if Set(sorted).count != sorted.count
            || zip(pts, pts.dropFirst()).contains(where: { a, b in
                a.dts.map { d in b.dts.map { d >= $0 } ?? false } ?? false
            })
        {
            fail("mistimed output", command, "repeated timestamps (\(claim))")
        }
        if decoded.videoFrames == 0 {
            return fail("broken output", command, "no video frame decodes (\(claim))")
        }
        // The input is decoded only to excuse errors the output has (most have none).
        guard decoded.errors > 0 else { return }
        if inputDecoding == nil { inputDecoding = try Decoding(input) }
        if decoded.errors > inputDecoding!.errors {
            fail(
                "broken output", command,
                "decoding: \(decoded.errors) errors vs \(inputDecoding!.errors) in the input (\(claim))")
        }
    }

    static func rational(_ text: String) -> Double? {
        let parts = text.split(separator: "/").compactMap { Double($0) }
        return parts.count == 2 && parts[1] != 0 ? parts[0] / parts[1] : parts.count == 1 ? parts[0] : nil
    }
}
