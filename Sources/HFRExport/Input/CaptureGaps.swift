import HFRMedia
import HFRProbe

/// The gaps in a capture where frames were dropped: reads the times of the input's video packets
/// (no decoding), in presentation order (put back in it through a window of the latest
/// `GapRange.depth`: B-frames reorder by at most 16), and keeps the two times around each gap.
/// Memory grows with the gaps only.
struct CaptureGaps {
    /// Source seconds (from `origin`) of the frames around every gap `plan` calls a drop (`isDrop`),
    /// and of the last frame presented.
    static func scan(
        _ input: MediaInput, plan: ExportPlan, origin: Rational, shouldStop: () -> Bool
    ) throws(ExportFailure) -> (gaps: [(earlier: Rational, later: Rational)], last: Rational?) {
        var gaps: [(earlier: Rational, later: Rational)] = []
        var last: Rational?
        do {
            let demuxer = try Demuxer(input: input)
            guard let video = demuxer.streams.first(where: { $0.kind == .video && !$0.isAttachedPicture }) else {
                return ([], nil)
            }
            demuxer.discardStreams(except: [video.index])
            let packet = try Packet()
            var window: [Int64] = []
            func place(_ pts: Int64) {
                let t = plan.time(pts, in: video.timeBase, origin: origin)
                if let last, plan.isDrop(from: last, to: t) { gaps.append((last, t)) }
                last = t
            }
            while try demuxer.read(into: packet) {
                if shouldStop() { throw ExportFailure.interrupted }
                guard packet.streamIndex == video.index, let pts = packet.pts else { continue }
                window.insert(pts, at: window.firstIndex { $0 > pts } ?? window.endIndex)
                if window.count > GapRange.depth { place(window.removeFirst()) }
            }
            for pts in window { place(pts) }
        } catch let failure as AVFailure {
            throw .reading(failure)
        } catch {
            throw .of("reading the capture gaps", error)
        }
        return (gaps, last)
    }
}
