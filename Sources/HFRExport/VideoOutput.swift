import HFRMedia
import HFRProbe

/// The output's video stream: packets copied losslessly (kept layers, timestamps through the time
/// map) or handed to the re-encoder. This is where frames are dropped and timestamps rescaled.
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
    private let reencoder: VideoReencoder?
    private let mapStart: Rational
    /// With one speed and the scaled source time base, output ticks are source ticks minus this
    /// (exact integers: the same result as the rational map, without its arithmetic per packet).
    private var tickOffset: Int64?
    private(set) var framesIn = 0
    /// Decode times rewritten evenly (`EvenDecodeTimes`) when layers are dropped at one speed.
    private var decodeTimes: EvenDecodeTimes?
    private var copiedOut = 0
    /// Copied frames before the range start: decoded as references, hidden by an edit list.
    private(set) var hiddenOut = 0
    private(set) var droppedByLevel: [Int: Int] = [:]

    var framesOut: Int { reencoder?.framesOut ?? copiedOut }
    /// End of the latest frame written, in `timeBase` ticks (for progress).
    private var writtenEnd: Int64 = 0

    /// How far the video has come, for a progress line.
    func tick(inputFraction: Double) -> ExportTick {
        ExportTick(
            inputFraction: inputFraction, framesWritten: framesOut,
            outputSeconds: Double(writtenEnd) * timeBase.doubleValue, plannedSeconds: plan.outputDuration.doubleValue,
            isReencoding: reencoder != nil)
    }

    init(
        demuxer: borrowing Demuxer, muxer: borrowing Muxer, info: StreamInfo, plan: ExportPlan, origin: Rational
    ) throws(ExportFailure) {
        self.plan = plan
        self.info = info
        self.origin = origin
        parser = FrameParser(codecName: info.codecName, extradata: info.extradata)
        let dropsLayers = plan.layers.map { l in l.maxLevels.contains { $0 < l.levelCount - 1 } } == true
        movesPrefixes = parser?.codec == .h264 && dropsLayers
        decodeTimes = dropsLayers && plan.map.isConstant ? EvenDecodeTimes() : nil
        if plan.layers != nil, let refusal = VideoOutput.containerRefusal(muxer, info: info) {
            throw .refused(refusal)
        }
        mapStart = plan.map.outputTime(at: plan.start)
        do {
            if plan.layers != nil {
                timeBase = VideoOutput.copyTimeBase(source: info.timeBase, plan: plan)
                reencoder = nil
                let parameters = try demuxer.codecParameters(ofStream: info.index)
                index = try muxer.addStream(
                    copying: parameters, timeBase: VideoOutput.copyTimeBase(source: info.timeBase, plan: plan))
                muxer.keepCodecTag(of: parameters, ofStream: index)
            } else {
                let made = try VideoReencoder(
                    parameters: demuxer.codecParameters(ofStream: info.index), info: info, plan: plan, origin: origin)
                let sets = try made.parameterSets()
                reencoder = made
                timeBase = made.outputTimeBase
                index = try muxer.addStream(
                    copying: CodecParameters.h264(width: info.width, height: info.height, extradata: sets),
                    timeBase: made.outputTimeBase)
            }
        } catch {
            throw .settingUpOutput(error)
        }
        muxer.setFrameRate(plan.outputRate, ofStream: index)
        if plan.layers != nil, plan.map.isConstant, timeBase == info.timeBase / plan.map.segments[0].speed {
            let offset = origin / info.timeBase + mapStart / timeBase
            if offset.isInteger { tickOffset = offset.numerator }
        }
    }

    /// With one speed, source ticks scaled by 1/speed: every timestamp maps to a whole tick, exactly.
    static func copyTimeBase(source: Rational, plan: ExportPlan) -> Rational {
        if plan.map.isConstant {
            let scaled = source / plan.map.segments[0].speed
            if scaled.numerator == 1, scaled.denominator < Int64(Int32.max) { return scaled }
        }
        let rate = plan.outputRate
        let multiple = max(1, (90000 + rate.numerator - 1) / rate.numerator)
        return Rational(rate.denominator, rate.numerator * multiple)
    }

    /// Copies or re-encodes one source packet.
    func write(_ packet: Packet, to muxer: borrowing Muxer) throws(ExportFailure) {
        if let reencoder {
            try reencoder.push(packet) { (p) throws(ExportFailure) in try self.mux(p, from: self.timeBase, muxer) }
            return
        }
        framesIn += 1
        guard let pts = packet.pts, let layers = plan.layers else { return }
        decodeTimes?.observeSource(packet)
        let structure = try parse(packet)
        let t = Rational.seconds(pts, in: info.timeBase) - origin
        let level = structure.map { LayerPlan.level(of: $0, usesTemporalID: layers.usesTemporalID) } ?? 0
        let segment = plan.map.segmentIndex(at: t)
        let inRange = plan.decodeStart.map { t >= $0 } ?? true && t < plan.end
        guard inRange, layers.keeps(level: level, segment: segment) else {
            droppedByLevel[level, default: 0] += 1
            return
        }
        let speed = plan.map.segments[segment].speed
        let stride = LayerPlan.stride(capture: plan.streamRate, speed: speed, output: plan.outputRate)
        if let offset = tickOffset, stride.isInteger {
            packet.pts = pts - offset
            packet.dts = packet.dts.map { $0 - offset }
            packet.duration *= stride.numerator
        } else {
            let sourceDuration = Rational.seconds(packet.duration, in: info.timeBase) * stride
            packet.pts = ticks(t)
            packet.dts = packet.dts.map { ticks(Rational.seconds($0, in: info.timeBase) - origin) }
            packet.duration = ticks(t + sourceDuration) - ticks(t)
        }
        // Within the output nothing references the top kept layer any more: mark it droppable too.
        let topKept = layers.maxLevels[segment]
        packet.isDisposable =
            structure?.isDroppable == true || (layers.usesTemporalID && topKept > 0 && level == topKept)
        decodeTimes?.retime(packet)
        copiedOut += 1
        if t < plan.start { hiddenOut += 1 }
        try mux(packet, from: timeBase, muxer)
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
        guard isWellFormed else {
            throw .badInput(
                "corrupt video packet: frame \(framesIn - 1) at byte \(packet.position ?? -1) is not valid \(parser.codec.displayName)"
            )
        }
        guard movesPrefixes, carriedPrefix != nil || trailing != nil else { return structure }
        let leading = carriedPrefix ?? []
        carriedPrefix = trailing
        let end = structure.trailingPrefix?.lowerBound ?? packet.size
        do {
            try packet.replacePayload(with: leading + packet.withData { Array($0[..<end]) })
        } catch {
            throw .processing("\(error)")
        }
        return structure
    }

    /// Why the output container cannot hold the copied video, naming one that can; nil when it can.
    static func containerRefusal(_ muxer: borrowing Muxer, info: StreamInfo) -> String? {
        guard !muxer.accepts(codecID: info.codecID) else { return nil }
        let names = [("mov", "mov"), ("matroska", "mkv"), ("mp4", "mp4")]
        let output = names.first { $0.0 == muxer.formatName }?.1.uppercased() ?? muxer.formatName
        let instead = names.first { Muxer.format($0.0, accepts: info.codecID) }.map { "write .\($0.1) instead, or " }
        return
            "\(info.codecName) video cannot be copied into \(output); \(instead ?? "")re-encode to H.264 with --reencode always"
    }

    /// Output ticks of source time `t`.
    private func ticks(_ t: Rational) -> Int64 {
        ((plan.map.outputTime(at: t) - mapStart) / timeBase).rounded()
    }

    func finish(to muxer: borrowing Muxer) throws(ExportFailure) {
        try reencoder?.push(nil) { (p) throws(ExportFailure) in try self.mux(p, from: self.timeBase, muxer) }
        if let reencoder { framesIn = reencoder.framesIn }
    }

    private func mux(_ packet: Packet, from timeBase: Rational, _ muxer: borrowing Muxer) throws(ExportFailure) {
        if let pts = packet.pts { writtenEnd = max(writtenEnd, pts + packet.duration) }
        do {
            try muxer.write(packet, from: timeBase, to: index)
        } catch {
            throw .writing(error)
        }
    }
}
