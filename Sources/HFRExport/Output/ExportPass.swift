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
        // The tracks the plan writes, each as it says (every audio track retimed as the first is).
        let audio = plan.tracks.filter { $0.writer == .audio }
        let format = Container(output: settings.output)
        let presentation = settings.rotation.map { video.presentation.rotated(clockwise: $0) } ?? video.presentation
        let extras = ExtraTrackOutput(
            plan: plan, timecode: plan.timecode, video: video, format: format, origin: analysis.origin,
            presentation: presentation)
        demuxer.discardStreams(except: Set([video.index] + audio.map(\.input) + extras.inputIndices))
        // A split job's rest unit plans and counts the video as the dry run does and writes the rest.
        let writesVideo = settings.splitPart != .rest
        let mapped =
            extras.isEmpty && audio.count <= 1 && writesVideo
            ? MappedCopy.prepare(demuxer, settings: settings, plan: plan, video: video, format: format) : nil
        let sink = StoppingSink(try makeSink(mapped), shouldStop: shouldStop)
        let videoSink = writesVideo ? sink : StoppingSink(CountingSink(container: format), shouldStop: shouldStop)
        let videoOut = try VideoOutput(
            demuxer: demuxer, sink: videoSink, info: video, plan: plan, origin: analysis.origin,
            presentation: presentation, timecode: extras.timecode)
        var audioOut: [AudioOutput] = []
        for a in audio {
            audioOut.append(
                try AudioOutput(
                    demuxer: demuxer, sink: sink, planned: a, plan: plan, origin: analysis.origin,
                    algorithm: settings.audio))
        }
        try extras.addStreams(demuxer, to: sink)
        try extras.addChapters(demuxer, to: sink)
        try sink.begin()
        progress?(videoOut.tick(inputFraction: 0))
        for a in audioOut { try a.prepare(input: settings.input) }
        let spacing = try copyPackets(
            demuxer, mapped: mapped, to: sink, video: (videoOut, videoSink), audio: audioOut, extras: extras,
            fileSize: fileSize, progress: progress)
        try videoOut.finish(to: videoSink)
        for a in audioOut { try a.finish(to: sink) }
        try sink.finish()
        let notes =
            plan.notes + plan.tracks.compactMap(\.dropNote) + extras.notes
            + AudioOutput.conversionNotes(audio, container: format)
            + ExportPipeline.readNotes(analysis, spacing: spacing, demuxer: demuxer)
        let preview = ExportPreview(
            settings: settings, analysis: analysis, plan: plan, video: videoOut, audio: audioOut,
            tracks: ExportPipeline.tracks(sink, plan: plan, video: videoOut, audio: audioOut), notes: notes)
        return ExportPass(
            video: videoOut, audio: audioOut, presentation: presentation, isMapped: mapped != nil, spacing: spacing,
            preview: preview)
    }

    /// The plan's tracks, one per input stream in input order: each written one with what its sink
    /// counted (a retimed audio track its samples), a timecode with the track MP4/MOV make of it,
    /// the others as the plan left them.
    static func tracks(
        _ sink: any PacketSink, plan: ExportPlan, video: VideoOutput, audio: [AudioOutput]
    ) -> [ExportTrack] {
        let videoDuration = video.tally.duration(isISO: sink.container.hasEditLists)
        let written = Dictionary(
            sink.tallies.enumerated().map { ($0.element.track.source.index, $0.offset) },
            uniquingKeysWith: { a, _ in a })
        // MP4/MOV add the timecode track after every stream the export adds.
        let timecodeTrack = sink.container.holdsTimecodeTrack ? sink.tallies.count : nil
        return plan.tracks.map { t in
            if t.writer == .timecode { return ExportTrack(t, output: timecodeTrack, method: .timecode) }
            guard let output = written[t.input] else { return ExportTrack(t, method: .drop) }
            return ExportTrack(
                t, output: output, tally: sink.tallies[output],
                retimed: audio.first { $0.index == output }?.retimedSamples, videoDuration: videoDuration)
        }
    }
}
