import HFRMedia
import HFRProbe

/// The output's video stream: packets copied losslessly (kept layers, timestamps through the time
/// map) or handed to the re-encoder. This is where frames are dropped and timestamps rescaled.
/// The export and its dry run both go through it; only their sink (and with it the re-encoder,
/// `makeReencoder`) differs.
final class VideoOutput {
    let plan: ExportPlan
    let info: StreamInfo
    let origin: Rational
    let index: Int
    /// The time base output timestamps are computed in (the muxer may use a finer one).
    let timeBase: Rational
    /// Reads H.264/HEVC frames; nil for other codecs (copied without bitstream facts: level 0).
    private var parser: FrameParser?
    /// Whether trailing H.264 prefix NAL units move to the front of the packet they belong to
    /// (when frames are dropped: a dropped frame's prefix must not stay in the kept one before it).
    private let movesPrefixes: Bool
    /// The prefix NAL units the last packet carried for this one (with their length fields).
    private var carriedPrefix: [UInt8]?
    /// A retimed copy: the frame rate its parameter sets state, set to the output's.
    private var statedRate: StatedRateRewrite?
    private let reencoder: (any Reencoder)?
    /// A spliced export (`ExportPlan.isSpliced`): the re-encoder of the stretch being decoded, the
    /// next stretch's index, and the input's codec parameters the re-encoders open with.
    private var spanEncoder: (any Reencoder)?
    private var nextSpan = 0
    private var sourceParameters: CodecParameters?
    /// Whether re-encoders really encode (else the dry run's `SlotCounter`s count).
    private let encodes: Bool
    /// Which frames a copy keeps and their output times; nil when re-encoding.
    private let selection: CopySelection?
    /// Decode times rewritten evenly (`EvenDecodeTimes`) when layers are dropped at one speed.
    private var decodeTimes: EvenDecodeTimes?
    /// What was written, per segment of the time map (the report's plan).
    private(set) var tally: FrameTally
    /// A splice: the output frames of each re-encoded stretch finished so far.
    private(set) var spanSlots: [FrameTally] = []
    /// A splice: the scene cuts of the re-encoded stretches finished so far.
    private var spanCuts: [SceneCut] = []
    var framesIn: Int { reencoder?.framesIn ?? tally.framesIn }
    /// Copied frames before the range start: decoded as references, hidden by an edit list.
    var hiddenOut: Int { tally.hidden }
    var droppedByLevel: [Int: Int] { reencoder == nil ? tally.droppedByLevel : [:] }

    var framesOut: Int { reencoder?.framesOut ?? tally.framesOut + (spanEncoder?.framesOut ?? 0) }
    /// Written pictures made between captured frames.
    var interpolatedOut: Int { reencoder?.interpolated ?? tally.interpolated + (spanEncoder?.interpolated ?? 0) }
    /// Scene cuts the re-encoder found (no morph across them), in source order.
    var cuts: [SceneCut] { reencoder?.cuts ?? spanCuts + (spanEncoder?.cuts ?? []) }
    /// `--deflicker`: the flicker's depth in the written pictures.
    var flickerDepthAfter: Double? { reencoder?.flickerDepthAfter }
    /// End of the latest frame written, in `timeBase` ticks (for progress).
    private var writtenEnd: Int64 = 0

    /// How far the video has come, for a progress line.
    func tick(inputFraction: Double) -> ExportTick {
        ExportTick(
            inputFraction: inputFraction, framesWritten: framesOut,
            outputSeconds: Double(writtenEnd) * timeBase.doubleValue, plannedSeconds: plan.outputDuration.doubleValue,
            isReencoding: reencoder != nil)
    }

    /// Adds the video stream to `sink`, shown as `presentation`, with the start `timecode` tag.
    init(
        demuxer: borrowing Demuxer, sink: any PacketSink, info: StreamInfo, plan: ExportPlan, origin: Rational,
        presentation: StreamPresentation, timecode: String?
    ) throws(ExportFailure) {
        self.plan = plan
        self.info = info
        self.origin = origin
        encodes = sink.encodes
        parser = FrameParser(codecName: info.codecName, extradata: info.extradata)
        let dropsLayers = plan.layers.map { l in l.maxLevels.contains { $0 < l.levelCount - 1 } } == true
        movesPrefixes = parser?.codec == .h264 && dropsLayers
        decodeTimes = CopySelection.evenDecodeTimes(plan)
        if let refusal = VideoOutput.containerRefusal(container: sink.container, info: info, plan: plan) {
            throw .refused(refusal)
        }
        tally = FrameTally(
            segmentCount: plan.map.segments.count, reorderDelay: demuxer.reorderDelay(ofStream: info.index))
        selection = plan.layers.map {
            CopySelection(plan: plan, layers: $0, sourceTimeBase: info.timeBase, origin: origin)
        }
        var track: OutputTrack
        do {
            let parameters = try demuxer.codecParameters(ofStream: info.index)
            if let selection {
                reencoder = nil
                track = OutputTrack(
                    .video, codec: info.codecName, source: info, method: VideoOutput.method(plan),
                    timeBase: selection.timeBase)
                track.parameters = parameters
                if VideoOutput.isRetimed(plan) {
                    // Without the rewrite (an SPS FFmpeg cannot parse) the copy is still right.
                    statedRate = try? StatedRateRewrite(
                        parameters: parameters, parser: parser, timeBase: info.timeBase, rate: plan.outputRate)
                    if let statedRate { track.parameters = statedRate.parameters }
                }
                track.keepsCodecTag = true
                if plan.isSpliced { sourceParameters = parameters }
            } else {
                let made = try VideoOutput.makeReencoder(
                    encodes: sink.encodes, parameters: parameters, info: info, plan: plan, origin: origin)
                reencoder = made
                let codec = plan.delivery.map { Encoder.codecName(ofEncoder: $0.codec) } ?? "h264"
                track = OutputTrack(
                    .video, codec: codec, source: info, method: .reencode, timeBase: made.outputTimeBase)
                track.parameters = try made.outputParameters(width: info.width, height: info.height)
            }
        } catch {
            throw .settingUpOutput(error)
        }
        timeBase = track.timeBase
        track.reason = plan.layers == nil || plan.isSpliced ? plan.reencodeReason ?? "re-encoded" : nil
        track.frameRate = plan.outputRate
        track.presentation = presentation
        if let timecode { track.tags["timecode"] = timecode }
        index = try sink.add(track)
    }

    /// The re-encoder of a whole plan, or with `span` of one stretch of a splice: `VideoReencoder`
    /// when the sink encodes, else the dry run's `SlotCounter`.
    private static func makeReencoder(
        encodes: Bool, parameters: CodecParameters, info: StreamInfo, plan: ExportPlan, origin: Rational,
        span: ReencodedSpan? = nil
    ) throws(ExportFailure) -> any Reencoder {
        guard encodes else { return try SlotCounter(info: info, plan: plan, origin: origin, span: span) }
        return try VideoReencoder(parameters: parameters, info: info, plan: plan, origin: origin, span: span)
    }

    /// Whether frames come out at another rate than the stream's (a speed or an output rate).
    static func isRetimed(_ plan: ExportPlan) -> Bool {
        !plan.copiesAudio || plan.outputRate != plan.streamRate
    }

    /// What happens to the copied video: `copy` at speed 1 throughout, else `retime`; `splice` when
    /// segments are re-encoded in between.
    static func method(_ plan: ExportPlan) -> ExportTrack.Method {
        plan.isSpliced ? .splice : plan.copiesAudio ? .copy : .retime
    }

    /// Copies or re-encodes one source packet.
    func write(_ packet: Packet, to sink: any PacketSink) throws(ExportFailure) {
        tally.framesIn += 1
        if let reencoder {
            if let pts = packet.pts {
                tally.countSource(at: Rational.seconds(pts, in: info.timeBase) - origin, plan: plan)
            }
            try reencoder.push(packet) { (p) throws(ExportFailure) in try self.mux(p, from: self.timeBase, sink) }
            return
        }
        guard let selection else { return }
        guard let pts = packet.pts else {
            // A copy cannot place a frame with no presentation time (packed MPEG-4 B-frames in AVI
            // leave it out): dropping it would lose a frame, so the frames are decoded instead.
            throw .badInput(
                "video frame \(tally.framesIn) has no presentation time, so it cannot be copied: "
                    + "export it with --reencode always")
        }
        decodeTimes?.observeSource(packet)
        let structure = try parse(packet)
        if plan.isSpliced { try feedSpan(packet, at: Rational.seconds(pts, in: info.timeBase) - origin, sink) }
        let choice = selection.choose(pts: pts, dts: packet.dts, duration: packet.duration, structure: structure)
        tally.count(choice, timeBase: timeBase)
        guard case .kept(let kept) = choice else { return }
        CopySelection.retime(packet, as: kept, &decodeTimes)
        if structure?.carriesSequenceParameters == true { statedRate?.rewrite(packet) }
        tally.noteWritten(packet, timeBase: timeBase)
        // Within the output nothing references the top kept layer any more: mark it droppable too.
        let topKept = selection.layers.maxLevels[kept.segment]
        packet.isDisposable =
            structure?.isDroppable == true
            || (selection.layers.usesTemporalID && topKept > 0 && kept.level == topKept)
        try mux(packet, from: timeBase, sink)
    }

    /// The packet's frame structure (nil for codecs not parsed), after checking its NAL units; with
    /// `movesPrefixes`, a trailing prefix moves to `carriedPrefix` and the last one to the front.
    private func parse(_ packet: Packet) throws(ExportFailure) -> FrameStructure? {
        guard var parser else { return nil }
        let (isWellFormed, structure, trailing) = packet.withData { data in
            let s = parser.parse(data)
            let trailing = movesPrefixes ? s.trailingPrefix.map { Array(data[$0]) } : nil
            return (PacketIntegrity.isWellFormed(data, codec: parser.codec, packaging: parser.packaging), s, trailing)
        }
        self.parser = parser
        guard isWellFormed else { throw VideoOutput.malformed(packet, frame: framesIn - 1, parser: parser) }
        guard movesPrefixes, carriedPrefix != nil || trailing != nil else { return structure }
        let leading = carriedPrefix ?? []
        carriedPrefix = trailing
        let end = structure.trailingPrefix?.lowerBound ?? packet.size
        try ExportFailure.during("moving prefix NAL units") {
            try packet.replacePayload(with: leading + packet.withData { Array($0[..<end]) })
        }
        return structure
    }

    /// The failure for a packet whose NAL units `PacketIntegrity` refuses (`frame`: its index).
    static func malformed(_ packet: Packet, frame: Int, parser: FrameParser) -> ExportFailure {
        .badInput(
            "corrupt video packet: frame \(frame) at byte \(packet.position ?? -1) is not valid \(parser.codec.displayName)"
        )
    }

    /// Why `container` cannot hold the video `plan` writes, copied or re-encoded to H.264, naming
    /// the containers that can; nil when it can.
    static func containerRefusal(container: Container, info: StreamInfo, plan: ExportPlan) -> String? {
        let takesH264 = container.holdsH264
        if plan.layers == nil ? plan.delivery == nil && !takesH264 : plan.isSpliced && !takesH264 {
            let why = plan.reencodeReason.map { " (\($0))" } ?? ""
            let name = container.displayName
            return "this export re-encodes the video to H.264\(why), which \(name) cannot store: write .mkv instead"
        }
        guard plan.layers != nil, !container.holds(codecID: info.codecID) else { return nil }
        let holders = Container.exportContainers(holding: info.codecID).compactMap(\.fileExtension)
        let instead = holders.isEmpty ? nil : "write \(Container.listed(holders)) instead"
        let reencode = takesH264 ? "re-encode to H.264 with --reencode always" : nil
        let remedies = [instead, reencode].compactMap { $0 }.joined(separator: ", or ")
        let tail = remedies.isEmpty ? "" : "; " + remedies
        return "\(info.codecName) video cannot be copied into \(container.displayName)\(tail)"
    }

    /// Hands a spliced export's packet at source time `t` to the stretch that decodes it: from the
    /// keyframe before the stretch through the keyframe where copying resumes, whose arrival ends
    /// the stretch (its last slots are decided, encoded and written before that keyframe's copy).
    private func feedSpan(_ packet: Packet, at t: Rational, _ sink: any PacketSink) throws(ExportFailure) {
        // The keyframe ending one stretch may also be where the next one starts decoding.
        while nextSpan < plan.reencodedSpans.count, let parameters = sourceParameters {
            let span = plan.reencodedSpans[nextSpan]
            guard t >= span.decodeFrom else { return }
            let encoder: any Reencoder
            if let current = spanEncoder {
                encoder = current
            } else {
                encoder = try VideoOutput.makeReencoder(
                    encodes: encodes, parameters: parameters, info: info, plan: plan, origin: origin, span: span)
                spanEncoder = encoder
            }
            try encoder.push(packet) { (p) throws(ExportFailure) in
                try self.mux(p, from: encoder.outputTimeBase, sink)
            }
            guard let to = span.to, t >= to else { return }
            try finishSpan(sink)
        }
    }

    /// Ends the stretch being re-encoded: its last slots written, its counts added.
    private func finishSpan(_ sink: any PacketSink) throws(ExportFailure) {
        guard let encoder = spanEncoder else { return }
        try encoder.push(nil) { (p) throws(ExportFailure) in try self.mux(p, from: encoder.outputTimeBase, sink) }
        tally.takeSlots(of: encoder.slots)
        spanSlots.append(encoder.slots)
        spanCuts += encoder.cuts
        spanEncoder = nil
        nextSpan += 1
    }

    func finish(to sink: any PacketSink) throws(ExportFailure) {
        try finishSpan(sink)
        guard let reencoder else { return }
        try reencoder.push(nil) { (p) throws(ExportFailure) in try self.mux(p, from: self.timeBase, sink) }
        tally.takeSlots(of: reencoder.slots)
    }

    private func mux(_ packet: Packet, from timeBase: Rational, _ sink: any PacketSink) throws(ExportFailure) {
        if let pts = packet.pts { writtenEnd = max(writtenEnd, pts + packet.duration) }
        // Everything above is timed from the first frame; the audio's lead comes before it.
        if plan.videoDelay > Rational(0) {
            let delay = (plan.videoDelay / timeBase).rounded()
            packet.pts = packet.pts.map { $0 + delay }
            packet.dts = packet.dts.map { $0 + delay }
        }
        try sink.write(packet, from: timeBase, to: index)
    }
}
