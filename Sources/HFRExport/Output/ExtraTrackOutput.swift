import HFRMedia

/// The input's tracks besides the exported video and audio: timecode, subtitles, data.
///
/// A timecode (a MOV `tmcd` track, or the `timecode` tag) is given to the output's video stream as
/// its `timecode` tag, moved to the export's start: MP4/MOV then write a `tmcd` track that spans the
/// output video (retimed with it by construction), Matroska a tag. Subtitle and data tracks the
/// container can store are copied, their packets retimed through the plan's time map as the video's
/// are; the others are left out with a note. Nothing here fails an export for want of a container.
final class ExtraTrackOutput {
    private(set) var notes: [String] = []
    /// The start timecode for the output's video stream.
    let timecode: String?
    /// The input's timecode track (MOV `tmcd`) the timecode is read from, if any.
    let timecodeTrack: StreamInfo?
    /// Input tracks of these kinds left out, and why.
    private(set) var leftOut: [Int: String] = [:]
    /// Copied tracks: input stream index → (its info, output stream index once added).
    private var tracks: [Int: (info: StreamInfo, output: Int?)] = [:]
    private let plan: ExportPlan
    /// The last time written per output stream, in its input's time base.
    private var lastTime: [Int: Int64] = [:]
    private let origin: Rational

    /// Chooses what to keep of `streams` (all the input's) in container `format`.
    init(
        streams: [StreamInfo], metadata: [String: String], video: StreamInfo, audio: StreamInfo?, format: Container,
        plan: ExportPlan, origin: Rational, presentation: StreamPresentation? = nil
    ) {
        self.plan = plan
        self.origin = origin
        let (timecode, note) = ExtraTrackOutput.startTimecode(streams: streams, metadata: metadata, video: video, plan)
        self.timecode = timecode
        timecodeTrack = streams.first { $0.isTimecode && $0.metadata.timecode != nil }
        notes += note.map { [$0] } ?? []
        for s in streams where s.isTimecode {
            leftOut[s.index] = note ?? "its start timecode is written as the video's timecode tag"
        }
        let shown = presentation ?? video.presentation
        // Matroska takes a quarter turn (`MatroskaRotationPatch`), not a flip or another angle.
        let kept = format.rotation == .quarterTurns && shown.clockwiseRotation != nil
        if format.rotation != .displayMatrix, shown.displayMatrix != nil, shown.clockwiseRotation != 0, !kept {
            let turn = shown.clockwiseRotation.map { "rotation \($0)° clockwise" } ?? "not a quarter turn"
            notes.append("the display matrix (\(turn)) is left out: \(format) cannot store it")
        }
        for s in streams where s.index != video.index && s.index != audio?.index {
            guard s.kind == .subtitle || s.kind == .data || s.kind == .other, !s.isTimecode else { continue }
            // Another program's track (`TrackChoice`) is named with the audio and video it goes with.
            if let reason = TrackChoice.leftOutReason(s, video: video) {
                leftOut[s.index] = reason
                continue
            }
            if format.holds(codecID: s.codecID) {
                tracks[s.index] = (s, nil)
            } else {
                let name = s.codecName == "none" ? s.codecTag ?? "unknown" : s.codecName
                leftOut[s.index] = "\(format) cannot store it"
                notes.append("\(s.kind.rawValue) track #\(s.index) (\(name)) is left out: \(format) cannot store it")
            }
        }
    }

    /// The input's timecode (its `tmcd` track's, else the video's or the file's tag) moved to the
    /// export's start and written at the output rate; or a note saying why it is left out.
    private static func startTimecode(
        streams: [StreamInfo], metadata: [String: String], video: StreamInfo, _ plan: ExportPlan
    ) -> (String?, String?) {
        let track = streams.first { $0.isTimecode && $0.metadata.timecode != nil }
        guard let value = track?.metadata.timecode ?? video.metadata.timecode ?? metadata.timecode else {
            return (nil, nil)
        }
        let rate = track?.averageFrameRate ?? video.averageFrameRate ?? plan.captureRate
        if let moved = Timecode.convert(value, rate: rate, advancedBy: plan.start, to: plan.outputRate) {
            return (moved, nil)
        }
        return (nil, "the timecode \(value) is left out: it cannot be counted at \(plan.outputRate) fps")
    }

    /// Input streams whose packets this writes.
    var inputIndices: [Int] { tracks.keys.sorted() }

    /// The input's chapters on the output's timeline: each span mapped through the plan's time map
    /// and clipped to the exported range; a chapter outside the range is left out.
    static func retimed(_ chapters: [Chapter], plan: ExportPlan, origin: Rational) -> [Chapter] {
        let base = plan.map.outputTime(at: plan.start) - plan.videoDelay
        return chapters.compactMap { c in
            let start = max(c.start - origin, plan.start)
            let end = min(c.end - origin, plan.end)
            guard end > start else { return nil }
            var moved = c
            moved.start = plan.map.outputTime(at: start) - base
            moved.end = plan.map.outputTime(at: end) - base
            return moved
        }
    }

    /// Adds the input's chapters, retimed, to `sink` (and says what became of them).
    func addChapters(_ demuxer: borrowing Demuxer, to sink: any PacketSink) throws(ExportFailure) {
        let chapters = demuxer.chapters
        guard !chapters.isEmpty else { return }
        let kept = ExtraTrackOutput.retimed(chapters, plan: plan, origin: origin)
        try sink.add(chapters: kept)
        let outside = chapters.count - kept.count
        notes.append(
            "\(kept.count) of \(chapters.count) chapters kept, retimed with the video"
                + (outside > 0 ? " (\(outside) outside the range left out)" : ""))
    }

    /// Adds the output streams (after the video's and the audio's).
    func addStreams(_ demuxer: borrowing Demuxer, to sink: any PacketSink) throws(ExportFailure) {
        for index in inputIndices {
            let info = tracks[index]!.info
            var track = OutputTrack(
                info.kind, codec: info.codecName, source: info, action: plan.copiesAudio ? .copy : .retime,
                timeBase: info.timeBase)
            do {
                track.parameters = try demuxer.codecParameters(ofStream: index)
            } catch {
                throw .settingUpOutput(error)
            }
            track.keepsIdentity = true
            tracks[index]!.output = try sink.add(track)
        }
    }

    /// Writes `packet` if it belongs to a kept track (false otherwise): timestamps through the time
    /// map, the part outside the exported range cut off, packets wholly outside it left out.
    func write(_ packet: Packet, to sink: any PacketSink) throws(ExportFailure) -> Bool {
        guard let track = tracks[packet.streamIndex], let output = track.output else { return false }
        guard let pts = packet.pts ?? packet.dts else { return true }
        let timeBase = track.info.timeBase
        let start = Rational.seconds(pts, in: timeBase) - origin
        let end = start + Rational.seconds(max(packet.duration, 0), in: timeBase)
        guard end > plan.start || (packet.duration <= 0 && start >= plan.start), start < plan.end else { return true }
        let mapStart = plan.map.outputTime(at: plan.start) - plan.videoDelay
        func ticks(_ t: Rational) -> Int64 { ((plan.map.outputTime(at: t) - mapStart) / timeBase).rounded() }
        // Overlapping cues cut at the range start would share a time; MP4 wants each later than the last.
        let outStart = max(ticks(max(start, plan.start)), lastTime[output].map { $0 + 1 } ?? Int64.min)
        lastTime[output] = outStart
        packet.pts = outStart
        packet.dts = outStart
        if packet.duration > 0 { packet.duration = max(1, ticks(min(end, plan.end)) - outStart) }
        try sink.write(packet, from: timeBase, to: output)
        return true
    }
}

extension StreamInfo {
    /// A MOV timecode track.
    var isTimecode: Bool { codecTag == "tmcd" }
}

extension [String: String] {
    /// The `timecode` tag, however the container spells it (Matroska: `TIMECODE`).
    fileprivate var timecode: String? { first { $0.key.lowercased() == "timecode" }?.value }
}
