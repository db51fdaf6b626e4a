import HFRMedia

/// The input's tracks besides the exported video and audio, as the plan's `TrackPlan`s say:
/// timecode, subtitles, data, other video tracks and attachments.
///
/// A timecode (a MOV `tmcd` track, or the `timecode` tag) is given to the output's video stream as
/// its `timecode` tag, moved to the export's start: MP4/MOV then write a `tmcd` track that spans the
/// output video (retimed with it by construction), Matroska a tag. Subtitle, data and other video
/// tracks have their packets retimed through the plan's time map as the video's are; attachments
/// (fonts, cover art) are attached as they are. Nothing here fails an export for want of a container.
final class ExtraTrackOutput {
    private(set) var notes: [String] = []
    /// The start timecode for the output's video stream.
    let timecode: String?
    /// Written tracks: input stream index → (its plan, output stream index once added).
    private var tracks: [Int: (plan: TrackPlan, output: Int?)] = [:]
    private let plan: ExportPlan
    /// The last time written per output stream, in its input's time base (a video's decode time).
    private var lastTime: [Int: Int64] = [:]
    private let origin: Rational

    /// Takes from `plan.tracks` those this writes; says what `format` leaves out of the video's
    /// presentation.
    init(
        plan: ExportPlan, timecode: StartTimecode, video: StreamInfo, format: Container, origin: Rational,
        presentation: StreamPresentation? = nil
    ) {
        self.plan = plan
        self.origin = origin
        self.timecode = timecode.value
        // A timecode from a tag (no track to name it by) is noted here; a track's is the plan's.
        if !plan.tracks.contains(where: { $0.stream.isTimecode }), let note = timecode.note { notes.append(note) }
        for t in plan.tracks where t.writer == .packets || t.writer == .attachment { tracks[t.input] = (t, nil) }
        let shown = presentation ?? video.presentation
        // Matroska takes a quarter turn (`MatroskaRotationPatch`), not a flip or another angle.
        let kept = format.rotation == .quarterTurns && shown.clockwiseRotation != nil
        if format.rotation != .displayMatrix, shown.displayMatrix != nil, shown.clockwiseRotation != 0, !kept {
            let turn = shown.clockwiseRotation.map { "rotation \($0)° clockwise" } ?? "not a quarter turn"
            notes.append("the display matrix (\(turn)) is left out: \(format) cannot store it")
        }
    }

    /// Input streams whose packets this writes (an attachment has none to read).
    var inputIndices: [Int] { tracks.keys.sorted().filter { tracks[$0]!.plan.writer == .packets } }

    /// Whether it writes nothing.
    var isEmpty: Bool { tracks.isEmpty }

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
        for index in tracks.keys.sorted() {
            let planned = tracks[index]!.plan
            let info = planned.stream
            let isFile = planned.writer == .attachment
            var track = OutputTrack(
                info.kind, codec: info.codecName, source: info,
                method: isFile ? .attach : planned.action == .copy ? .copy : .retime, timeBase: info.timeBase)
            do {
                track.parameters =
                    try info.isAttachedPicture && isFile
                    ? demuxer.attachmentParameters(ofPicture: index) : demuxer.codecParameters(ofStream: index)
            } catch {
                throw .settingUpOutput(error)
            }
            track.keepsIdentity = true
            // Another video track's stated rate, through a constant speed (a ramp states none).
            if info.kind == .video, !isFile, plan.map.isConstant, let rate = info.averageFrameRate {
                track.frameRate = rate * plan.map.segments[0].speed
            }
            if info.isAttachedPicture, isFile { track.tags = ExtraTrackOutput.pictureFile(info) }
            tracks[index]!.output = try sink.add(track)
        }
    }

    /// An attached picture's name and MIME type as an attachment, where the input gives none
    /// (an MP4 cover has neither).
    static func pictureFile(_ info: StreamInfo) -> [String: String] {
        let mime = info.metadata["mimetype"] ?? TrackCapability.pictureMIMEType(codecID: info.codecID) ?? "image/jpeg"
        let suffix = mime.split(separator: "/").last.map(String.init) ?? "jpeg"
        return ["mimetype": mime, "filename": info.metadata["filename"] ?? "cover.\(suffix)"]
    }

    /// Writes `packet` if it belongs to a kept track (false otherwise): timestamps through the time
    /// map, the part outside the exported range cut off, packets wholly outside it left out.
    func write(_ packet: Packet, to sink: any PacketSink) throws(ExportFailure) -> Bool {
        guard let track = tracks[packet.streamIndex], let output = track.output else { return false }
        guard track.plan.writer == .packets, let pts = packet.pts ?? packet.dts else { return true }
        let timeBase = track.plan.stream.timeBase
        let start = Rational.seconds(pts, in: timeBase) - origin
        let end = start + Rational.seconds(max(packet.duration, 0), in: timeBase)
        guard end > plan.start || (packet.duration <= 0 && start >= plan.start), start < plan.end else { return true }
        let mapStart = plan.map.outputTime(at: plan.start) - plan.videoDelay
        func ticks(_ t: Rational) -> Int64 { ((plan.map.outputTime(at: t) - mapStart) / timeBase).rounded() }
        if track.plan.stream.kind == .video {
            // Another video track keeps every frame: decode times in order, each frame shown no
            // earlier than it is decoded. One without a decode time (a Matroska input's first
            // B-frames) is left without: the muxer derives it, as for the exported video.
            packet.pts = ticks(start)
            if let dts = packet.dts {
                let outDts = max(
                    ticks(Rational.seconds(dts, in: timeBase) - origin), lastTime[output].map { $0 + 1 } ?? .min)
                lastTime[output] = outDts
                packet.dts = outDts
                packet.pts = max(ticks(start), outDts)
            }
            if packet.duration > 0 { packet.duration = max(1, ticks(end) - ticks(start)) }
            try sink.write(packet, from: timeBase, to: output)
            return true
        }
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
