import HFRInterpolation
import HFRMedia
import HFRProbe

/// What lossless copying cannot reach: decodes the source, decides for each output frame slot the
/// picture it shows (`SlotSchedule`: the captured frame nearest to the slot's source time, or one
/// made between two captured frames where the map needs more frames than were captured), and
/// encodes with the same layered OpenH264 encoder `hfr record` uses, or, for pictures beyond 8-bit
/// 4:2:0 that it would reduce, with a delivery encoder that keeps them (`PictureEncoder`). Holds
/// two decoded frames and at most `picturesPerRun` new pictures at a time.
final class VideoReencoder: Reencoder {
    let encoder: any PictureEncoder
    let outputTimeBase: Rational
    private let decoder: Decoder
    private let sourceTimeBase: Rational
    private let origin: Rational
    let plan: ExportPlan
    private let frameTicks: Int64
    var converter: PictureConverter
    private let packet: Packet
    /// The last decoded frame: the earlier neighbour of the slots still to decide.
    private var held: Neighbour?
    var schedule: SlotSchedule
    /// `--shutter`: output frames whose shutter is still open, in slot order.
    var shutterFrames: [ShutterFrame] = []
    /// Makes the pictures between captured frames; nil when the export makes none.
    private let interpolator: (any FrameInterpolator)?
    /// Makes the pictures that fill the capture's drops (`--fill-drops flow`); nil when none are made.
    private let fillInterpolator: (any FrameInterpolator)?
    /// Finds scene cuts where pictures would be made (nil when none are): none is made across one.
    private let cutDetector: CutDetector?
    /// Cross-fades across cuts (`--cut-fill crossfade`): made at the first.
    private var crossfader: BlendInterpolator?
    /// The cuts found, in source order.
    private(set) var cuts: [SceneCut] = []
    /// New pictures encoded (not captured frames).
    private(set) var interpolated = 0
    private(set) var framesIn = 0
    private(set) var framesOut = 0
    /// Output frames per segment of the time map (by the source time of their slot).
    private(set) var slots: FrameTally
    private(set) var layerCounts: [Int: Int] = [:]
    /// A splice's packets: NAL units behind length fields of this size, as the copied ones.
    private let lengthSize: Int?
    /// `--deflicker`: takes the flicker out of every decoded picture; nil when there is none to.
    let deflicker: DeflickerStage?
    var flickerDepthAfter: Double? { deflicker?.depthAfter }

    /// Re-encodes the whole plan, or with `span` one stretch of a spliced export (its slots only,
    /// with the encoder the input was made with, packets packaged as the copied ones).
    init(
        parameters: CodecParameters, info: StreamInfo, plan: ExportPlan, origin: Rational, span: ReencodedSpan? = nil
    ) throws(ExportFailure) {
        let rate = plan.outputRate
        (outputTimeBase, frameTicks) = VideoReencoder.timing(rate: rate)
        // A decoder that does not open on the input's configuration is the input's fault.
        decoder = try ExportFailure.during("video decoder configuration is corrupt", as: .inputData) {
            try Decoder(parameters: parameters, timeBase: info.timeBase, threads: 2)
        }
        let (stage, timeBase) = ("opening the " + VideoReencoder.encoderStage(plan), outputTimeBase)
        (encoder, lengthSize) = try ExportFailure.during(stage) { () throws -> (any PictureEncoder, Int?) in
            if span != nil, let spliced = plan.spliceEncoder {
                return (
                    try LayeredPictureEncoder(spliced, timeBase: timeBase),
                    AVCConfiguration(avcC: info.extradata)?.lengthSize ?? 4
                )
            } else if let delivery = plan.delivery {
                return (try DeliveryPictureEncoder(delivery, info: info, rate: rate, timeBase: timeBase), nil)
            }
            let settings = VideoReencoder.settings(info: info, rate: rate, bitrate: plan.layeredBitrate)
            return (try LayeredPictureEncoder(settings, timeBase: timeBase), nil)
        }
        converter = try ExportFailure.during("video conversion", as: .inputData) {
            try PictureConverter(width: info.width, height: info.height)
        }
        packet = try ExportFailure.during("allocating a packet") { try Packet() }
        sourceTimeBase = info.timeBase
        self.origin = origin
        self.plan = plan
        slots = FrameTally(segmentCount: plan.map.segments.count)
        schedule = SlotSchedule(plan: plan, sourceTimeBase: info.timeBase, span: span)
        interpolator = try VideoReencoder.interpolator(plan: plan, width: info.width, height: info.height)
        if let fill = plan.dropFill, fill != .repeat, fill != plan.synthesis {
            fillInterpolator = try ExportFailure.during("--fill-drops \(fill)", as: .inputData) {
                try Interpolators.make(fill, width: info.width, height: info.height)
            }
        } else {
            fillInterpolator = plan.dropFill == .repeat ? nil : interpolator
        }
        cutDetector = interpolator == nil ? nil : CutDetector()
        deflicker = try plan.deflicker?.model.map { model throws(ExportFailure) in
            try DeflickerStage(model: model, width: info.width, height: info.height)
        }
    }

    /// The encoder of a whole re-encode at output `rate`: layered like a recording at that rate.
    static func settings(info: StreamInfo, rate: Rational, bitrate: Int64? = nil) -> H264Encoder.Settings {
        let layers = rate >= Rational(120) ? 3 : rate >= Rational(60) ? 2 : 1
        var settings = H264Encoder.Settings(
            width: info.width, height: info.height, frameRate: rate, temporalLayers: layers,
            bitrate: bitrate.map { Int(clamping: $0) }
                ?? H264Encoder.Settings.defaultBitrate(width: info.width, height: info.height, rate: rate),
            keyframeInterval: H264Encoder.Settings.keyframeInterval(rate: rate, temporalLayers: layers),
            threads: H264Encoder.Settings.defaultThreads(width: info.width, height: info.height, frameRate: rate))
        settings.videoSignal = info.presentation
        return settings
    }

    /// The interpolator the plan's method needs (`ExportPlan.synthesis`); nil when none is made.
    static func interpolator(
        plan: ExportPlan, width: Int, height: Int
    ) throws(ExportFailure) -> (any FrameInterpolator)? {
        guard let method = plan.synthesis else { return nil }
        return try ExportFailure.during("--interpolate \(method)", as: .inputData) {
            try Interpolators.make(method, width: width, height: height)
        }
    }

    /// The output time base (a multiple of the rate, at least 90 kHz) and the ticks of one frame.
    static func timing(rate: Rational) -> (timeBase: Rational, frameTicks: Int64) {
        let multiple = max(1, (90000 + rate.numerator - 1) / rate.numerator)
        let timeBase = Rational(rate.denominator, rate.numerator * multiple)
        return (timeBase, (rate.reciprocal / timeBase).rounded())
    }

    /// The output stream's codec parameters (H.264 with the encoder's SPS/PPS, or the delivery
    /// encoder's own).
    func outputParameters(width: Int, height: Int) throws(ExportFailure) -> CodecParameters? {
        try ExportFailure.during(VideoReencoder.encoderStage(plan)) {
            try encoder.streamParameters(width: width, height: height)
        }
    }

    /// The video encoder's stage as messages name it: "video encoder libx265 (crf:63)".
    static func encoderStage(_ plan: ExportPlan) -> String {
        let (encoder, quality) = plan.encoderAndQuality
        return "video encoder \(encoder ?? "openh264")" + (quality.map { " (\($0))" } ?? "")
    }

    /// Decodes `packet` (nil at the end) and encodes every output slot that is now decided.
    func push(_ input: Packet?, write: (Packet) throws(ExportFailure) -> Void) throws(ExportFailure) {
        _ = try ExportFailure.during("corrupt video packet", as: .inputData) { try decoder.send(input) }
        while true {
            let frame = try ExportFailure.during("allocating a frame") { try Frame() }
            let state = try ExportFailure.during("corrupt video", as: .inputData) { try decoder.receive(into: frame) }
            guard case .value = state else { break }
            if frame.isCorrupt { throw .badInput("corrupt video: frame \(framesIn) decodes with errors") }
            framesIn += 1
            let pts = frame.bestEffortTimestamp ?? 0
            let time = plan.time(pts, in: sourceTimeBase, origin: origin)
            let picture = try deflicker?.correct(frame, time: (time * plan.streamScale).doubleValue) ?? frame
            let next = Neighbour(picture, time: time)
            // The slots before this frame are decided now: the two frames around them are known.
            if let held { try encodeSlots(between: held, and: next, write) }
            held = next
        }
        if input == nil {
            if let held { try encodeSlots(between: held, and: nil, write) }
            try ExportFailure.during(VideoReencoder.encoderStage(plan)) {
                try encoder.flush(into: packet) { _ in try self.emit(write) }
            }
        }
    }

    /// Encodes the slots before `later` (all that are left when nil): captured frames, or new
    /// pictures made between the two a few at a time (each run of them from one estimate of motion).
    private func encodeSlots(
        between earlier: Neighbour, and later: Neighbour?, _ write: (Packet) throws(ExportFailure) -> Void
    ) throws(ExportFailure) {
        if plan.shutter != nil { return try encodeShutterSlots(between: earlier, and: later, write) }
        while case let decisions = schedule.decide(earlier: earlier.time, later: later?.time), !decisions.isEmpty {
            try encode(decisions, between: earlier, and: later, write)
        }
    }

    /// Encodes one batch of decided slots.
    func encode(
        _ decisions: [SlotSchedule.Decision], between earlier: Neighbour, and later: Neighbour?,
        _ write: (Packet) throws(ExportFailure) -> Void
    ) throws(ExportFailure) {
        var i = 0
        while i < decisions.count {
            switch decisions[i].pick {
            case .earlier:
                try encode(earlier.frame, decisions[i], write)
                i += 1
            case .later:
                try encode(later!.frame, decisions[i], write)
                i += 1
            case .between:
                // A run of pictures made alike: all between captured frames, or all filling a drop.
                let fills = decisions[i].isFilledDrop
                var run: [SlotSchedule.Decision] = []
                while i < decisions.count, case .between = decisions[i].pick, decisions[i].isFilledDrop == fills,
                    run.count < Self.picturesPerRun
                {
                    run.append(decisions[i])
                    i += 1
                }
                for (picture, decision) in try fill(run, earlier, later!, with: fills ? fillInterpolator : interpolator)
                {
                    try encode(picture, decision, write)
                }
            }
        }
    }

    /// New pictures held at once: bounds memory however slow the segment (1080p: ~3 MB each).
    static let picturesPerRun = 8

    /// The pictures for `run` (all `.between`) and the decisions they are counted as: made by the
    /// interpolator, except across a scene cut, where `--cut-fill` says: `repeat` shows the earlier
    /// frame (counted as shown again, not made), `crossfade` blends the two.
    private func fill(
        _ run: [SlotSchedule.Decision], _ earlier: Neighbour, _ later: Neighbour,
        with maker: (any FrameInterpolator)?
    ) throws(ExportFailure) -> [(Frame, SlotSchedule.Decision)] {
        guard try isCut(earlier, later) else {
            return Array(zip(try synthesize(run, earlier, later, with: maker), run))
        }
        switch plan.cutFill {
        case .repeat:
            return run.map { d in
                (
                    earlier.frame,
                    SlotSchedule.Decision(slot: d.slot, time: d.time, pick: .earlier, isFilledDrop: d.isFilledDrop)
                )
            }
        case .crossfade:
            return Array(zip(try crossfade(run, earlier, later), run))
        }
    }

    /// Whether a scene cut lies between the two neighbours: judged once per pair, when a slot
    /// between them would get a new picture, and listed in `cuts` when it does.
    private func isCut(_ earlier: Neighbour, _ later: Neighbour) throws(ExportFailure) -> Bool {
        guard let cutDetector else { return false }
        if let known = later.followsCut { return known }
        let cut = try ExportFailure.during("scene cut detection", as: .inputData) {
            cutDetector.isCut(try thumbnail(of: earlier), try thumbnail(of: later))
        }
        later.followsCut = cut
        if cut {
            let shown = Rational(plan.firstSlot(atOrAfter: later.time)) / plan.outputRate
            cuts.append(SceneCut(source: later.time * plan.streamScale, output: min(shown, plan.outputDuration)))
        }
        return cut
    }

    /// A neighbour's luma thumbnail for the cut test, made once.
    private func thumbnail(of neighbour: Neighbour) throws -> CutDetector.Thumbnail {
        if let made = neighbour.thumbnail { return made }
        let made = try CutDetector.thumbnail(of: picture(of: neighbour))
        neighbour.thumbnail = made
        return made
    }

    /// `run`'s pictures as cross-fades of the two neighbours (`--cut-fill crossfade`).
    private func crossfade(
        _ run: [SlotSchedule.Decision], _ earlier: Neighbour, _ later: Neighbour
    ) throws(ExportFailure) -> [Frame] {
        try ExportFailure.during("--cut-fill crossfade", as: .inputData) {
            let blend = try crossfader ?? BlendInterpolator(width: earlier.frame.width, height: earlier.frame.height)
            crossfader = blend
            return try blend.frames(between: picture(of: earlier), and: picture(of: later), at: run.map(\.fraction))
        }
    }

    /// The pictures for `run` (all `.between`) from the interpolator; without one, `earlier` again.
    private func synthesize(
        _ run: [SlotSchedule.Decision], _ earlier: Neighbour, _ later: Neighbour,
        with interpolator: (any FrameInterpolator)?
    ) throws(ExportFailure) -> [Frame] {
        let fractions = run.map(\.fraction)
        guard let interpolator else { return run.map { _ in earlier.frame } }
        return try ExportFailure.during("interpolation", as: .inputData) {
            try interpolator.frames(between: picture(of: earlier), and: picture(of: later), at: fractions)
        }
    }

    /// The I420 picture of a neighbour, converted once (the interpolator reads 4:2:0 only).
    private func picture(of neighbour: Neighbour) throws -> Frame {
        if let converted = neighbour.picture { return converted }
        let converted = try converter.ownedI420(neighbour.frame)
        neighbour.picture = converted
        return converted
    }

    func encode(
        _ frame: Frame, _ decision: SlotSchedule.Decision, _ write: (Packet) throws(ExportFailure) -> Void
    ) throws(ExportFailure) {
        let picture = try ExportFailure.during("video conversion", as: .inputData) {
            encoder.takesSourcePictures ? frame : try converter.i420(frame)
        }
        let pts = decision.slot * frameTicks
        slots.countSlot(decision, frameTicks: frameTicks, timeBase: outputTimeBase, plan: plan)
        if decision.showsNewPicture(plan) { interpolated += 1 }
        framesOut += 1
        try ExportFailure.during(VideoReencoder.encoderStage(plan)) {
            try encoder.encode(picture, pts: pts, into: packet) { temporalID in
                self.layerCounts[temporalID, default: 0] += 1
                try self.emit(write)
            }
        }
    }

    /// Writes the packet the encoder just made: a splice's NAL units behind length fields as the
    /// copied ones have them, one frame long.
    private func emit(_ write: (Packet) throws(ExportFailure) -> Void) throws(ExportFailure) {
        if let lengthSize {
            guard
                let bytes = packet.withData({ AVCConfiguration.lengthPrefixed(annexB: $0, lengthSize: lengthSize) })
            else {
                throw .processing("a re-encoded NAL unit is too long for \(lengthSize)-byte lengths")
            }
            try ExportFailure.during(VideoReencoder.encoderStage(plan)) { try packet.replacePayload(with: bytes) }
        }
        packet.duration = frameTicks
        try write(packet)
    }

    /// A decoded frame, its source seconds from the origin, and its I420 picture once one is needed;
    /// its thumbnail and whether a cut lies before it once the cut test needs them.
    final class Neighbour {
        let frame: Frame
        let time: Rational
        var picture: Frame?
        var thumbnail: CutDetector.Thumbnail?
        /// Whether a scene cut lies between the frame before and this one (nil: not judged).
        var followsCut: Bool?

        init(_ frame: Frame, time: Rational) {
            self.frame = frame
            self.time = time
        }
    }
}
