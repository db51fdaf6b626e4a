import Foundation
import HFRMedia
import HFRProbe

#if canImport(Glibc)
    import Glibc
#endif

/// `hfr export`: analyse the input, plan, then one pass over its packets writing the output under
/// a temporary name that is renamed into place only when complete. Nothing is left on failure.
public final class ExportPipeline {
    let settings: ExportSettings
    /// Asked between packets; true stops the export (Ctrl-C).
    let shouldStop: () -> Bool
    /// Told how far `--deflicker`'s measuring pass has read the input (0…1), before the plan.
    public var measuring: ((Double) -> Void)?

    public init(settings: ExportSettings, shouldStop: @escaping () -> Bool = { false }) {
        self.settings = settings
        self.shouldStop = shouldStop
    }

    /// Runs the export; `progress` gets how far it has come when writing starts, then now and then.
    public func run(fileSize: Int64, progress: ((ExportTick) -> Void)? = nil) throws(ExportFailure) -> ExportReport {
        let started = Date()
        let demuxer = try ExportPipeline.openInput(MediaInput(path: settings.input, timing: settings.timing))
        let (analysis, plan) = try plan(demuxer, fileSize: fileSize)
        // Dropped without commit (a failure, Ctrl-C), the temporary output is removed.
        let output = AtomicOutput(path: settings.output)
        var report = try write(
            demuxer, to: output.temporaryPath, analysis: analysis, plan: plan, fileSize: fileSize, progress: progress)
        do {
            try output.commit()
        } catch {
            throw .writing(AVFailure(errno: error, operation: "rename to \(settings.output)"))
        }
        report.elapsedSeconds = Date().timeIntervalSince(started)
        return report
    }

    /// What the export and its dry run share: the input analysed and the plan made, with the same
    /// refusals (video and audio lengths no file has, options the input cannot take, a first frame
    /// that does not decode). `demuxer` is left at the start of the input.
    func plan(_ demuxer: borrowing Demuxer, fileSize: Int64) throws(ExportFailure) -> (InputAnalysis, ExportPlan) {
        var analysis = try analyze(demuxer, fileSize: fileSize)
        if let request = settings.deflicker {
            analysis.flicker = try FlickerScan.scan(
                MediaInput(path: settings.input, timing: settings.timing), analysis: analysis, fileSize: fileSize,
                range: settings.range, request: request, shouldStop: shouldStop, progress: measuring)
        }
        if settings.audio != .mute {
            try TimestampCheck.lengthsAgree(video: analysis.end, audio: analysis.audio?.durationSeconds)
        }
        var plan = try ExportPlan.make(settings, analysis)
        if plan.dropFill != nil {
            let (gaps, last) = try CaptureGaps.scan(
                MediaInput(path: settings.input, timing: settings.timing), plan: plan, origin: analysis.origin,
                shouldStop: shouldStop)
            // At a constant rate the last frame lasts a frame period: one of unknown duration (a raw
            // stream's) is given the mean over the gaps, which would add a slot. Its time is put
            // back on the capture's grid first: a tick that rounds it up (4016.667 ms stored as
            // 4017) would end the output a fraction of a slot late, one slot past the last frame.
            if let last, case let onGrid = plan.onCaptureGrid(last), onGrid + plan.capturePeriod < plan.end {
                plan.end = onGrid + plan.capturePeriod
            }
            var filled = FrameRanges()
            plan.droppedFrames = gaps.reduce(0) { $0 + plan.filledSlots(from: $1.earlier, to: $1.later, into: &filled) }
            plan.filledDrops = filled
        }
        try FirstFrameCheck.run(MediaInput(path: settings.input, timing: settings.timing), video: analysis.video)
        let streams = demuxer.streams
        plan.timecode = StartTimecode.choose(
            streams: streams, metadata: demuxer.metadata, video: analysis.video, plan: plan)
        plan.tracks = TrackPlan.plans(
            TrackPlan.Inputs(
                streams: streams, video: analysis.video, settings: settings,
                container: Container(output: settings.output)),
            plan: plan)
        return (analysis, plan)
    }

    /// A conform keeps every frame: the header (a tagged capture rate) or the container's index (an
    /// MP4/MOV sample table) says all the plan needs; everything else reads the packets first.
    private func analyze(_ demuxer: borrowing Demuxer, fileSize: Int64) throws(ExportFailure) -> InputAnalysis {
        if case .conform = settings.mode, settings.reencode != .always, settings.fillDrops == nil,
            let quick = try InputAnalysis.quick(demuxer, path: settings.input, range: settings.range)
        {
            return quick
        }
        return try InputAnalysis.analyze(
            path: settings.input, fileSize: fileSize, range: settings.range, timing: settings.timing)
    }

    /// Writes the whole output to `path` (the pass into a `MuxerSink`), completes its metadata and
    /// checks the file against what was written.
    private func write(
        _ demuxer: borrowing Demuxer, to path: String, analysis: InputAnalysis, plan: ExportPlan, fileSize: Int64,
        progress: ((ExportTick) -> Void)?
    ) throws(ExportFailure) -> ExportReport {
        let format = Container(output: settings.output)
        let tags = header(
            plan: plan, analysis: analysis, inputTags: demuxer.metadata, isISO: format.holdsCaptureRateTag)
        let pass = try pass(demuxer, analysis: analysis, plan: plan, fileSize: fileSize, progress: progress) {
            (mapped) throws(ExportFailure) in
            // Matroska otherwise writes a random segment UID and its version: the same export would
            // give other bytes each run (MP4 needs nothing: it writes neither).
            try MuxerSink(
                path: path, format: format, copyingFrom: mapped?.file, tags: tags,
                options: format.isISO ? ["movflags": "+use_metadata_tags"] : ["fflags": "+bitexact"])
        }
        do {
            if format.holdsCaptureRateTag {
                try MP4MetadataPatch.setFloat32(
                    ExportMetadata.floatTags(plan: plan, sourceCaptureRate: analysis.captureRate), inFileAt: path)
            }
            // FFmpeg 5.1 writes no rotation into Matroska: a quarter turn goes in as a `Projection` roll.
            if format.rotation == .quarterTurns, settings.splitPart != .rest,
                let turn = pass.presentation.clockwiseRotation, turn != 0
            {
                try MatroskaRotationPatch.setRotation(clockwise: turn, inFileAt: path)
            }
        } catch {
            throw .writing(error)
        }
        let videoOut = pass.video
        if plan.dropFill != nil, videoOut.tally.filledDrops != plan.filledDrops.count {
            throw .processing(
                "--fill-drops made \(videoOut.tally.filledDrops) frames where \(plan.filledDrops.count) were planned")
        }
        var report = report(analysis: analysis, plan: plan, pass: pass)
        report.isKernelCopy = pass.isMapped
        // A split job's rest unit holds no video to check: its joined output is checked (`SplitJoin`).
        guard settings.splitPart != .rest else {
            report.outputDuration = pass.preview.outputDuration
            return report
        }
        let facts = try OutputFacts.read(path, videoStream: videoOut.index)
        try facts.check(
            framesOut: videoOut.framesOut, shown: videoOut.framesOut - videoOut.hiddenOut,
            rate: plan.map.isConstant
                && (plan.dropFill != nil || analysis.isEvenlySpaced && !pass.spacing.isVariable)
                ? plan.outputRate : nil,
            written: videoOut.tally,
            longestLastFrame: longestLastFrame(demuxer, analysis: analysis, plan: plan), isCopy: plan.layers != nil)
        report.outputDuration = facts.duration ?? pass.preview.outputDuration
        return report
    }

    /// How long the last video frame may last in the output: what a second of source lasts. Not
    /// for a stream whose decoder reorders frames while the container presents them in decode order
    /// (FFmpeg drops a damaged `ctts` so): its timing is unknown, and it is held to one period.
    private func longestLastFrame(
        _ demuxer: borrowing Demuxer, analysis: InputAnalysis, plan: ExportPlan
    ) -> Rational {
        if demuxer.reorderDelay(ofStream: analysis.video.index) > 0, !analysis.hasReordering { return Rational(0) }
        return plan.map.outputTime(at: plan.start + Rational(1)) - plan.map.outputTime(at: plan.start)
    }

    /// What the pass over the packets found to say: uneven frame times the header did not tell
    /// (analysed from it, the frames were taken as evenly spaced), capture-rate tags ignored.
    static func readNotes(_ analysis: InputAnalysis, spacing: GapRange, demuxer: borrowing Demuxer) -> [String] {
        var notes: [String] = []
        if analysis.isEvenlySpaced, spacing.isVariable {
            notes.append("frame timestamps are uneven (variable frame rate): their gaps are kept as they are")
        }
        return notes + Prober.ignoredCaptureRateTags(tags: demuxer.metadata, streamTags: analysis.video.metadata)
    }

    /// The container's tags, in the order they are set: the export's in key order (a dictionary's
    /// order changes from run to run, and so would the file's bytes), then the file's identity.
    private func header(
        plan: ExportPlan, analysis: InputAnalysis, inputTags: [String: String], isISO: Bool
    ) -> [(key: String, value: String)] {
        var tags = ExportMetadata.tags(plan: plan, sourceCaptureRate: analysis.captureRate, isISO: isISO)
        if let part = settings.splitPart { tags.merge(SplitTags.tags(part, plan: plan)) { $1 } }
        return tags.sorted(by: { $0.key < $1.key }).map { ($0.key, $0.value) }
            + ExportMetadata.identity(inputTags: inputTags, input: settings.input).map { ($0.key, $0.value) }
    }

    /// The packets of the pass: every one checked, then handed to its stream's output. With
    /// `mapped`, video packets come from the index and view the mapped input; else all are read.
    func copyPackets(
        _ demuxer: borrowing Demuxer, mapped: MappedCopy?, to sink: any PacketSink,
        video videoOutput: (output: VideoOutput, sink: any PacketSink), audio: [AudioOutput], extras: ExtraTrackOutput,
        fileSize: Int64, progress: ((ExportTick) -> Void)?
    ) throws(ExportFailure) -> GapRange {
        let video = videoOutput.output
        let packet = try ExportFailure.during("allocating a packet") { try Packet() }
        var lastProgress = Date()
        var inputFraction = 0.0
        var videoPackets = 0
        var decodeTimes = TimestampCheck.Order(allowsBackwards: demuxer.isRawStream)
        var presentationTimes = TimestampCheck.Presentation()
        var spacing = GapRange()
        // A first frame the analysis starts one period before the second is no gap either.
        spacing.takesWholeFirstGapAsOffset = video.plan.leadingFrame != nil
        // Every stream's times, audio and data too: a quick analysis read none of them.
        let streams = demuxer.streams
        var jumps = [TimestampJump.Watch](repeating: TimestampJump.Watch(), count: streams.count)
        let promise = IndexPromise(demuxer)
        do {
            try promise.checkWithin(fileSize: fileSize)
        } catch {
            throw .badInput(error.cause ?? "truncated")
        }
        func handle(_ packet: Packet, isVideo: Bool) throws(ExportFailure) {
            if shouldStop() { throw .interrupted }
            try ExportPipeline.checkIntact(packet, fileSize: fileSize)
            if streams.indices.contains(packet.streamIndex) {
                jumps[packet.streamIndex].add(packet.pts)
                if let jump = TimestampJump(jumps[packet.streamIndex], in: streams[packet.streamIndex]) {
                    throw .badInput(jump.cause)
                }
            }
            if !isVideo, try extras.write(packet, to: sink) { return }
            if isVideo {
                videoPackets += 1
                try decodeTimes.check(packet.dts)
                try presentationTimes.check(packet.pts)
                spacing.keep(packet.pts)
                try video.write(packet, to: videoOutput.sink)
            } else if let track = audio.first(where: { $0.info.index == packet.streamIndex }) {
                try track.write(packet, to: sink)
            }
            if let progress, Date().timeIntervalSince(lastProgress) >= 0.5 {
                lastProgress = Date()
                if let position = packet.position { inputFraction = Double(position) / Double(max(1, fileSize)) }
                progress(video.tick(inputFraction: inputFraction))
            }
        }
        try feed(demuxer, mapped: mapped, into: packet, video: video, audio: audio, handle)
        if videoPackets == 0 { throw .badInput("the video stream has no frames") }
        // What a header-only analysis (a tagged capture rate; Matroska lists no frame count) did not see.
        try presentationTimes.checkRate(timeBase: video.info.timeBase)
        try Self.checkAllRead(promise, videoPackets: videoPackets, video: video, audio: audio)
        return spacing
    }

    /// Hands each packet of the pass to `handle`, read into `packet`: with `mapped`, the video's from
    /// the index (viewing the mapped input) and the audio's from the demuxer; else all read.
    private func feed(
        _ demuxer: borrowing Demuxer, mapped: MappedCopy?, into packet: Packet, video: VideoOutput,
        audio: [AudioOutput], _ handle: (Packet, Bool) throws(ExportFailure) -> Void
    ) throws(ExportFailure) {
        if let mapped {
            // The demuxer reads only the audio (the video's samples are not read at all; the MOV
            // demuxer still hands out empty packets for them, skipped here).
            demuxer.discardStreams(except: Set(audio.map(\.info.index)))
            try mapped.forEachPacket(
                video: video.info,
                nextAudio: { () throws(ExportFailure) in
                    guard let audio = audio.first else { return nil }
                    while try ExportPipeline.read(demuxer, into: packet) {
                        if packet.streamIndex == audio.info.index { return packet }
                    }
                    return nil
                }, handle)
        } else {
            while try ExportPipeline.read(demuxer, into: packet) {
                try handle(packet, packet.streamIndex == video.info.index)
            }
        }
    }

    /// Whether the streams held as many packets as the input's index promised (else it is cut short).
    private static func checkAllRead(
        _ promise: IndexPromise, videoPackets: Int, video: VideoOutput, audio: [AudioOutput]
    ) throws(ExportFailure) {
        do {
            try promise.checkRead(stream: video.info.index, packets: videoPackets)
            for a in audio { try promise.checkRead(stream: a.info.index, packets: a.packetsIn) }
        } catch {
            throw .badInput(error.cause ?? "truncated")
        }
    }

    private func report(analysis: InputAnalysis, plan: ExportPlan, pass: ExportPass) -> ExportReport {
        let video = pass.video
        let preview = pass.preview
        var report = ExportReport(
            input: settings.input, output: settings.output, captureRate: analysis.captureRate,
            captureRateSource: analysis.captureRateSource.rawValue, outputRate: plan.outputRate,
            map: plan.realMap, start: plan.realStart, end: plan.realEnd,
            levelSignalling: analysis.layerSignalling?.rawValue ?? "not-analysed",
            isReencoded: plan.layers == nil,
            reencodeReason: plan.reencodeReason,
            audioAlgorithm: preview.audioAlgorithm,
            inputDuration: analysis.end * analysis.streamScale, outputDuration: plan.outputDuration,
            notes: preview.notes)
        report.framesIn = video.framesIn
        report.framesOut = video.framesOut
        report.droppedByLevel = video.droppedByLevel
        report.interpolatedFrames = video.interpolatedOut
        report.isSpliced = plan.isSpliced
        report.interpolation = plan.synthesis?.rawValue
        (report.encoder, report.quality) = plan.encoderAndQuality
        if let method = plan.dropFill {
            report.filledDrops = ExportReport.FilledDrops(
                method: method.rawValue, frames: plan.filledDrops, droppedFrames: plan.droppedFrames)
        }
        if plan.synthesis != nil {
            report.cuts = video.cuts
            report.cutFill = plan.cutFill.rawValue
            if let note = SceneCut.note(video.cuts, fill: plan.cutFill) { report.notes.append(note) }
        }
        if var flicker = plan.deflicker?.summary {
            flicker.depthAfter = video.flickerDepthAfter
            report.deflicker = flicker
        }
        report.audioTracks = preview.audioTracks
        report.audioSampleRate = preview.audioSampleRate ?? 0
        report.audioSamples = preview.audioSamples ?? 0
        report.plan = preview
        return report
    }

    /// Refuses a packet the demuxer flags corrupt or that runs past the end of the file.
    static func checkIntact(_ packet: Packet, fileSize: Int64) throws(ExportFailure) {
        if packet.isCorrupt || (packet.position.map { $0 + Int64(packet.size) > fileSize } ?? false) {
            throw .badInput("truncated or corrupt: packet at byte \(packet.position ?? -1) is incomplete")
        }
    }

    /// The next packet of the streams not discarded; false at the end.
    static func read(_ demuxer: borrowing Demuxer, into packet: Packet) throws(ExportFailure) -> Bool {
        try ExportFailure.reading { () throws(AVFailure) in try demuxer.read(into: packet) }
    }

    /// Opens the input; a raw stream needs times (`InputTiming`), a container must not be given any.
    static func openInput(_ input: MediaInput) throws(ExportFailure) -> Demuxer {
        let demuxer = try ExportFailure.reading { () throws(AVFailure) in try Demuxer(input: input) }
        if let cause = RawStreamTiming.misuse(input, isRawStream: demuxer.isRawStream, format: demuxer.formatLongName) {
            throw .usage(cause)
        }
        return demuxer
    }
}
