import HFRMedia
import HFRProbe

extension ExportPipeline {
    /// `export --dry-run`: the analysis and plan the export makes (the same refusals), then one read
    /// of the video packets deciding each frame as the export does, counting instead of writing.
    /// Nothing is written, not even a temporary file.
    public func preview(fileSize: Int64) throws(ExportFailure) -> ExportPreview {
        let demuxer = try ExportPipeline.openInput(MediaInput(path: settings.input, timing: settings.timing))
        let (analysis, plan) = try plan(demuxer, fileSize: fileSize)
        let video = analysis.video
        let format = AtomicOutput.containerFormat(for: settings.output)
        if let refusal = VideoOutput.containerRefusal(
            format: format, accepts: Muxer.format(format, accepts: video.codecID), info: video, plan: plan)
        {
            throw .refused(refusal)
        }
        let extras = ExtraTrackOutput(
            streams: demuxer.streams, metadata: demuxer.metadata, video: video,
            audio: settings.audio == .mute ? nil : analysis.audio, format: format, plan: plan, origin: analysis.origin,
            presentation: settings.rotation.map { video.presentation.rotated(clockwise: $0) })
        let (tally, spacing) = try count(demuxer, analysis: analysis, plan: plan, fileSize: fileSize)
        let audio = settings.audio == .mute ? [] : demuxer.streams.filter { $0.kind == .audio }
        let notes =
            plan.notes + extras.notes + AudioOutput.conversionNotes(audio, container: format, plan: plan)
            + ExportPipeline.readNotes(analysis, spacing: spacing, demuxer: demuxer)
        return ExportPreview(
            settings: settings, analysis: analysis, plan: plan, tally: tally,
            outputDuration: tally.duration(isISO: format == "mp4" || format == "mov"), notes: notes)
    }

    /// The video frames the export would write, per segment: copies through `CopySelection` (after
    /// the same `FrameParser` reading of each packet), re-encodes one frame per slot of the plan, decided
    /// from the frames' times as the re-encoder decides them (`SlotSchedule`: new pictures counted).
    /// Also the spacing of the frames' times, as the export's pass measures it.
    private func count(
        _ demuxer: borrowing Demuxer, analysis: InputAnalysis, plan: ExportPlan, fileSize: Int64
    ) throws(ExportFailure) -> (FrameTally, GapRange) {
        let video = analysis.video
        var tally = FrameTally(
            segmentCount: plan.map.segments.count, reorderDelay: demuxer.reorderDelay(ofStream: video.index))
        let packet: Packet
        do {
            packet = try Packet()
        } catch {
            throw .processing("\(error)")
        }
        var parser = FrameParser(codecName: video.codecName, extradata: video.extradata)
        let selection = plan.layers.map {
            CopySelection(plan: plan, layers: $0, sourceTimeBase: video.timeBase, origin: analysis.origin)
        }
        var decodeTimes = CopySelection.evenDecodeTimes(plan)
        var spacing = GapRange()
        /// A re-encode's source frame times: the slots between them are decided as the re-encoder does;
        /// for a splice, those each re-encoded stretch decodes (`VideoOutput.feedSpan`).
        var times: [Rational] = []
        var spanTimes = [[Rational]](repeating: [], count: plan.reencodedSpans.count)
        demuxer.discardStreams(except: [video.index])
        while try ExportPipeline.read(demuxer, into: packet) {
            guard packet.streamIndex == video.index else { continue }
            if shouldStop() { throw .interrupted }
            try ExportPipeline.checkIntact(packet, fileSize: fileSize)
            tally.framesIn += 1
            spacing.keep(packet.pts)
            guard let pts = packet.pts else { continue }
            guard let selection else {
                let time = Rational.seconds(pts, in: video.timeBase) - analysis.origin
                tally.countSource(at: time, plan: plan)
                times.append(time)
                continue
            }
            // Parsed and checked as the copy does (`VideoOutput`): a malformed packet fails the same way.
            let (structure, isWellFormed) = packet.withData { data in
                (
                    parser?.parse(data),
                    parser.map { PacketIntegrity.isWellFormed(data, codec: $0.codec, packaging: $0.packaging) } ?? true
                )
            }
            if let parser, !isWellFormed {
                throw VideoOutput.malformed(packet, frame: tally.framesIn - 1, parser: parser)
            }
            decodeTimes?.observeSource(packet)
            let t = Rational.seconds(pts, in: video.timeBase) - analysis.origin
            for (i, span) in plan.reencodedSpans.enumerated() where span.decodes(t) { spanTimes[i].append(t) }
            let choice = selection.choose(pts: pts, dts: packet.dts, duration: packet.duration, structure: structure)
            tally.count(choice, timeBase: selection.timeBase)
            guard case .kept(let kept) = choice else { continue }
            CopySelection.retime(packet, as: kept, &decodeTimes)
            tally.noteWritten(packet, timeBase: selection.timeBase)
        }
        if tally.framesIn == 0 { throw .badInput("the video stream has no frames") }
        if plan.layers == nil {
            ExportPipeline.countSlots(plan: plan, sourceTimeBase: video.timeBase, times: times, span: nil, &tally)
        }
        for (span, times) in zip(plan.reencodedSpans, spanTimes) {
            ExportPipeline.countSlots(plan: plan, sourceTimeBase: video.timeBase, times: times, span: span, &tally)
        }
        return (tally, spacing)
    }

    /// Counts the slots a re-encoder decides from frames at `times` (of the whole plan, or `span`).
    private static func countSlots(
        plan: ExportPlan, sourceTimeBase: Rational, times: [Rational], span: ReencodedSpan?, _ tally: inout FrameTally
    ) {
        let (timeBase, frameTicks) = VideoReencoder.timing(rate: plan.outputRate)
        let makesPictures = plan.synthesis != nil
        SlotSchedule.forEachDecision(plan: plan, sourceTimeBase: sourceTimeBase, times: times, span: span) { d in
            let shown = (Rational(d.slot * frameTicks) * timeBase, Rational((d.slot + 1) * frameTicks) * timeBase)
            var isNew = false
            if case .between = d.pick { isNew = makesPictures }
            tally.countSlot(at: d.time, span: shown, plan: plan, isNew: isNew)
        }
    }
}
