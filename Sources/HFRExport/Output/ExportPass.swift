import HFRMedia
import HFRProbe

/// What the one pass over the input leaves: the outputs that took the packets, and the plan as
/// carried out (`preview`). The export reports it and checks its file against it; the dry run
/// prints it.
struct ExportPass {
    let video: VideoOutput
    let audio: [AudioOutput]
    /// The video's display matrix as written (the input's, or `--rotate`'s).
    let presentation: StreamPresentation
    /// Video packets came from the MP4/MOV index and viewed the mapped input (`MappedCopy`).
    let isMapped: Bool
    let spacing: GapRange
    let preview: ExportPreview
}

extension ExportPipeline {
    /// The one pass the export and its dry run share: the output's tracks chosen and added to the
    /// sink `makeSink` gives (told whether the video is copied from a mapped input), its header, every
    /// packet read, checked and handed to its track's output (which decides, copies, retimes or
    /// re-encodes it into the sink), the outputs finished, the trailer. The sink is all that differs.
    func pass(
        _ demuxer: borrowing Demuxer, analysis: InputAnalysis, plan: ExportPlan, fileSize: Int64,
        progress: ((ExportTick) -> Void)?, sink makeSink: (MappedCopy?) throws(ExportFailure) -> any PacketSink
    ) throws(ExportFailure) -> ExportPass {
        let video = analysis.video
        // Every audio track comes out, each retimed as the first (the one the plan checks) is.
        let audio = settings.audio == .mute ? [] : TrackChoice.audio(demuxer.streams, video: video)
        let format = Container(output: settings.output)
        let presentation = settings.rotation.map { video.presentation.rotated(clockwise: $0) } ?? video.presentation
        let extras = ExtraTrackOutput(
            streams: demuxer.streams, metadata: demuxer.metadata, video: video, audio: audio.first, format: format,
            plan: plan, origin: analysis.origin, presentation: presentation)
        demuxer.discardStreams(except: Set([video.index] + audio.map(\.index) + extras.inputIndices))
        let mapped =
            extras.inputIndices.isEmpty && audio.count <= 1
            ? MappedCopy.prepare(demuxer, settings: settings, plan: plan, video: video, format: format) : nil
        let sink = StoppingSink(try makeSink(mapped), shouldStop: shouldStop)
        let videoOut = try VideoOutput(
            demuxer: demuxer, sink: sink, info: video, plan: plan, origin: analysis.origin, presentation: presentation,
            timecode: extras.timecode)
        var audioOut: [AudioOutput] = []
        for a in audio {
            audioOut.append(
                try AudioOutput(
                    demuxer: demuxer, sink: sink, info: a, plan: plan, origin: analysis.origin,
                    algorithm: settings.audio))
        }
        try extras.addStreams(demuxer, to: sink)
        try extras.addChapters(demuxer, to: sink)
        try sink.begin()
        progress?(videoOut.tick(inputFraction: 0))
        for a in audioOut { try a.prepare(input: settings.input) }
        let spacing = try copyPackets(
            demuxer, mapped: mapped, to: sink, video: videoOut, audio: audioOut, extras: extras, fileSize: fileSize,
            progress: progress)
        try videoOut.finish(to: sink)
        for a in audioOut { try a.finish(to: sink) }
        try sink.finish()
        let notes =
            plan.notes + TrackChoice.notes(demuxer.streams, video: video) + extras.notes
            + AudioOutput.conversionNotes(audio, container: format, plan: plan)
            + ExportPipeline.readNotes(analysis, spacing: spacing, demuxer: demuxer)
        let preview = ExportPreview(
            settings: settings, analysis: analysis, plan: plan, video: videoOut, audio: audioOut,
            tracks: ExportPipeline.tracks(
                sink, video: videoOut, audio: audioOut, extras: extras, streams: demuxer.streams),
            notes: notes)
        return ExportPass(
            video: videoOut, audio: audioOut, presentation: presentation, isMapped: mapped != nil, spacing: spacing,
            preview: preview)
    }

    /// The plan's tracks: each output stream with what its sink counted (a retimed audio track its
    /// samples), the timecode track MP4/MOV make, then the input's tracks left out and why.
    static func tracks(
        _ sink: any PacketSink, video: VideoOutput, audio: [AudioOutput], extras: ExtraTrackOutput,
        streams: [StreamInfo]
    ) -> [ExportTrack] {
        let videoDuration = video.tally.duration(isISO: sink.container.hasEditLists)
        var tracks = sink.tallies.enumerated().map { i, tally in
            ExportTrack(
                index: i, tally: tally, retimed: audio.first { $0.index == i }?.retimedSamples,
                videoDuration: videoDuration)
        }
        var timecodeSource: Int?
        if extras.timecode != nil, sink.container.holdsTimecodeTrack {
            timecodeSource = extras.timecodeTrack?.index
            tracks.append(
                ExportTrack(
                    left: extras.timecodeTrack, index: tracks.count, codec: "tmcd", action: .timecode, reason: nil))
        }
        let written = Set(sink.tallies.map(\.track.source.index) + [timecodeSource].compactMap { $0 })
        for s in streams where !written.contains(s.index) {
            let reason = leftOutReason(s, extras, video: video.info)
            tracks.append(ExportTrack(left: s, codec: s.codecName, action: .drop, reason: reason))
        }
        return tracks
    }

    /// Why input track `s` is not in the output.
    private static func leftOutReason(_ s: StreamInfo, _ extras: ExtraTrackOutput, video: StreamInfo) -> String {
        if let reason = extras.leftOut[s.index] { return reason }
        if let reason = TrackChoice.leftOutReason(s, video: video) { return reason }
        switch s.kind {
        case .audio: return "muted (--audio mute)"
        case .video: return s.isAttachedPicture ? "a still picture (cover art)" : "only one video track is exported"
        default: return "not exported"
        }
    }
}
