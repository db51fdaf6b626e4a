import CFFmpeg
import COpenH264

/// Owns an OpenH264 encoder set up for temporal scalability: I420 frames in, Annex B access units out.
///
/// Debian's libavcodec is not built with OpenH264, so its own C API is used. With N temporal layers
/// the frames cycle through temporal ids (e.g. 0,2,1,2 for three); frames of the top layer are
/// P-frames with nal_ref_idc 0 that no other frame references, and every frame carries an SVC prefix
/// NAL unit (type 14) with its temporal id. Frame skipping is off: every input frame is encoded. Its
/// QP range follows `QPCapPolicy`, changed before an IDR frame.
public struct H264Encoder: ~Copyable {
    /// What to encode.
    public struct Settings: Sendable, Equatable {
        public var width: Int
        public var height: Int
        public var frameRate: Rational
        /// 1…4 temporal layers.
        public var temporalLayers: Int
        /// Target bits per second.
        public var bitrate: Int
        /// Frames between IDR frames.
        public var keyframeInterval: Int
        /// Encoder threads (slices per frame follow, so output differs by thread count).
        public var threads: Int
        /// Colour range and description for the SPS's VUI (a re-encode keeps the source's); nil = none.
        public var videoSignal: StreamPresentation?

        public init(
            width: Int, height: Int, frameRate: Rational, temporalLayers: Int, bitrate: Int,
            keyframeInterval: Int, threads: Int = 1
        ) {
            self.width = width
            self.height = height
            self.frameRate = frameRate
            self.temporalLayers = temporalLayers
            self.bitrate = bitrate
            self.keyframeInterval = keyframeInterval
            self.threads = threads
        }

        /// `hfr record`'s default bitrate: 0.06 bits per pixel, 0.5 to 100 Mb/s. Re-encodes use it
        /// too, and a splice must, to reproduce a recording's parameter sets.
        public static func defaultBitrate(width: Int, height: Int, rate: Rational) -> Int {
            Int(min(max(Double(width * height) * rate.doubleValue * 0.06, 500_000), 100_000_000))
        }

        /// An IDR about every second, on a multiple of the layer pattern so each GOP starts at layer 0.
        public static func keyframeInterval(rate: Rational, temporalLayers: Int) -> Int {
            let pattern = 1 << (max(1, temporalLayers) - 1)
            return max(pattern, Int(rate.rounded()) / pattern * pattern)
        }

        /// One thread (one slice per frame, the best compression) up to 1080p60's pixel rate; two
        /// slices on two threads above it, where one core cannot keep up live.
        public static func defaultThreads(width: Int, height: Int, frameRate: Rational) -> Int {
            Rational(Int64(width * height)) * frameRate > Rational(1920 * 1080 * 60) ? 2 : 1
        }
    }

    /// One encoded access unit.
    public struct Picture: Sendable {
        /// temporal_id of the frame (0 = base layer).
        public let temporalID: Int
        public let isIDR: Bool
        /// nal_ref_idc of its slices; 0 = droppable.
        public let nalRefIdc: UInt8
        public var isDroppable: Bool { nalRefIdc == 0 }
    }

    /// Why OpenH264 refused: its return code and the call.
    public struct Failure: ClassifiedFailure, CustomStringConvertible {
        public let code: Int32
        public let operation: String
        /// Settings OpenH264 refuses when it opens are `options`; a library that does not load is
        /// `unavailable`; a frame it fails on is `encoder`.
        public var kind: FailureKind = .encoder
        public var description: String { "\(operation): OpenH264 error \(code)" }

        init(code: Int32, operation: String, kind: FailureKind = .encoder) {
            self.code = code
            self.operation = operation
            self.kind = kind
        }
    }

    let encoder: UnsafeMutablePointer<ISVCEncoder?>
    public let settings: Settings
    /// What OpenH264 was set up with, given again with a new QP range.
    private var parameters: SEncParamExt
    private var qpPolicy: QPCapPolicy
    /// Frames since the last IDR frame, and whether the next one is asked to be one.
    private var framesSinceIDR = 0
    private var keyframeRequested = false
    /// After an IDR off the keyframe grid (the QP cap changed at the policy's early check): frames
    /// until the grid's next IDR, which is then asked for, so IDRs stay every keyframe interval.
    private var framesToGridKeyframe: Int?

    /// Whether the QP is capped now (`QPCapPolicy`).
    public var isQPCapped: Bool { qpPolicy.isCapped }

    public init(_ settings: Settings) throws(Failure) {
        // OpenH264 is loaded on first use (CFFmpeg's lazy_openh264.c).
        if let reason = hfr_openh264_load_error() {
            throw Failure(code: -1, operation: "loading OpenH264 (\(String(cString: reason)))", kind: .unavailable)
        }
        guard (1...4).contains(settings.temporalLayers) else {
            throw Failure(
                code: -1, operation: "temporal layers \(settings.temporalLayers) (1-4 supported)", kind: .options)
        }
        var created: UnsafeMutablePointer<ISVCEncoder?>? = nil
        guard WelsCreateSVCEncoder(&created) == 0, let encoder = created else {
            throw Failure(code: -1, operation: "WelsCreateSVCEncoder")
        }
        var p = SEncParamExt()
        hfr_encoder_get_default_params(encoder, &p)
        p.iUsageType = CAMERA_VIDEO_REAL_TIME
        p.iPicWidth = Int32(settings.width)
        p.iPicHeight = Int32(settings.height)
        p.fMaxFrameRate = Float(settings.frameRate.doubleValue)
        p.iTargetBitrate = Int32(clamping: H264Encoder.rateControlBitrate(settings))
        p.iRCMode = RC_BITRATE_MODE
        // Every captured frame must be in the file: the encoder may overshoot the bitrate instead.
        p.bEnableFrameSkip = false
        // Capped at first (QPCapPolicy); OpenH264 ignores a range unless both ends are above 0.
        let policy = QPCapPolicy(
            bitrate: settings.bitrate, frameRate: settings.frameRate, keyframeInterval: settings.keyframeInterval,
            temporalLayers: settings.temporalLayers)
        p.iMinQp = policy.qpRange.lowerBound
        p.iMaxQp = policy.qpRange.upperBound
        p.iTemporalLayerNum = Int32(settings.temporalLayers)
        p.uiIntraPeriod = UInt32(settings.keyframeInterval)
        p.bPrefixNalAddingCtrl = true

        p.iMultipleThreadIdc = UInt16(max(1, settings.threads))
        p.iSpatialLayerNum = 1
        H264Encoder.configure(&p.sSpatialLayers.0, settings, bitrate: p.iTargetBitrate)
        // OpenH264 warns on stderr when frame skipping is off (deliberate here) and dumps its
        // parameters when it refuses them: its failure code is reported instead; its log only with -v.
        var trace = Int32(LibavLog.verbosity > 0 ? WELS_LOG_ERROR : WELS_LOG_QUIET)
        hfr_encoder_set_option(encoder, ENCODER_OPTION_TRACE_LEVEL, &trace)
        let initialized = hfr_encoder_initialize_ext(encoder, &p)
        if initialized != 0 {
            WelsDestroySVCEncoder(encoder)
            throw Failure(
                code: initialized, operation: "InitializeExt(\(settings.width)x\(settings.height))", kind: .options)
        }
        var format = Int32(videoFormatI420.rawValue)
        hfr_encoder_set_option(encoder, ENCODER_OPTION_DATAFORMAT, &format)
        self.encoder = encoder
        self.settings = settings
        parameters = p
        qpPolicy = policy
    }

    /// The one spatial layer: the whole picture at the whole rate, its slices one per thread.
    private static func configure(_ layer: inout SSpatialLayerConfig, _ settings: Settings, bitrate: Int32) {
        layer.iVideoWidth = Int32(settings.width)
        layer.iVideoHeight = Int32(settings.height)
        layer.fFrameRate = Float(settings.frameRate.doubleValue)
        layer.iSpatialBitrate = bitrate
        layer.iMaxSpatialBitrate = UNSPECIFIED_BIT_RATE
        if settings.threads > 1 {
            layer.sSliceArgument.uiSliceMode = SM_FIXEDSLCNUM_SLICE
            layer.sSliceArgument.uiSliceNum = UInt32(settings.threads)
        } else {
            layer.sSliceArgument.uiSliceMode = SM_SINGLE_SLICE
        }
        if let signal = settings.videoSignal { describe(signal, in: &layer) }
    }

    /// The VUI's video signal type: the range always, the colour description when OpenH264 can
    /// write all three code points (its enums stop at BT.2020: no PQ or HLG transfer, left to the
    /// container's `colr`, which the decoder then keeps).
    private static func describe(_ signal: StreamPresentation, in layer: inout SSpatialLayerConfig) {
        let codes = [signal.colorPrimaries, signal.colorTransfer, signal.colorSpace]
        guard signal.colorRange != 0 || codes != [2, 2, 2] else { return }
        layer.bVideoSignalTypePresent = true
        layer.uiVideoFormat = 5  // unspecified
        layer.bFullRange = signal.colorRange == 2
        let limits = [Int32(CP_NUM_ENUM.rawValue), Int32(TRC_NUM_ENUM.rawValue), Int32(CM_NUM_ENUM.rawValue)]
        if codes != [2, 2, 2], zip(codes, limits).allSatisfy({ $0 >= 0 && $0 < $1 }) {
            layer.bColorDescriptionPresent = true
            layer.uiColorPrimaries = UInt8(codes[0])
            layer.uiTransferCharacteristics = UInt8(codes[1])
            layer.uiColorMatrix = UInt8(codes[2])
        }
    }

    /// OpenH264's rate control budgets each frame as if the rate were at most 60 fps (measured: a
    /// 4 Mb/s target gives 4.0 Mb/s at 60 fps but 8.0 Mb/s at 120), so above 60 the target is scaled
    /// down by 60/fps to land on the bitrate asked for.
    static func rateControlBitrate(_ settings: Settings) -> Int {
        let fps = settings.frameRate
        guard fps > Rational(60) else { return settings.bitrate }
        return Int((Rational(Int64(settings.bitrate)) * Rational(60) / fps).rounded())
    }

    deinit {
        hfr_encoder_uninitialize(encoder)
        WelsDestroySVCEncoder(encoder)
    }

    /// SPS and PPS in Annex B form, for the container's codec extradata.
    public func parameterSets() throws(Failure) -> [UInt8] {
        var info = SFrameBSInfo()
        let result = hfr_encoder_encode_parameter_sets(encoder, &info)
        guard result == 0 else { throw Failure(code: result, operation: "EncodeParameterSets") }
        var bytes: [UInt8] = []
        withUnsafeBytes(of: &info.sLayerInfo) { raw in
            let layers = raw.bindMemory(to: SLayerBSInfo.self)
            for l in 0..<Int(info.iLayerNum) { bytes += Self.bytes(of: layers[l]) }
        }
        return bytes
    }

    /// Makes the next frame an IDR frame (a clip that starts there decodes from it).
    public mutating func forceKeyframe() throws(Failure) {
        let result = hfr_encoder_force_intra_frame(encoder, true)
        guard result == 0 else { throw Failure(code: result, operation: "ForceIntraFrame") }
        keyframeRequested = true
    }

    /// Gives OpenH264 the policy's QP range. OpenH264 takes a changed range only when it
    /// re-initialises, which changing the range alone does not make it do (WelsEncoderParamAdjust
    /// re-initialises for a few fields, background detection among them): so the parameters go in
    /// twice, first with background detection flipped, then as they are. No frame is encoded in
    /// between; re-initialising keeps the parameter set ids counting and the IDR ids, and the
    /// next frame is an IDR beginning a layer pattern, as at every GOP boundary.
    private mutating func applyQPRange() throws(Failure) {
        let range = qpPolicy.qpRange
        parameters.iMinQp = range.lowerBound
        parameters.iMaxQp = range.upperBound
        var forcing = parameters
        forcing.bEnableBackgroundDetection.toggle()
        for var p in [forcing, parameters] {
            let result = hfr_encoder_set_option(encoder, ENCODER_OPTION_SVC_ENCODE_PARAM_EXT, &p)
            guard result == 0 else {
                throw Failure(code: result, operation: "SetOption(QP \(range.lowerBound)-\(range.upperBound))")
            }
        }
    }

    /// Encodes one I420 frame into `packet` (Annex B), stamped with `pts` in `timeBase`.
    public mutating func encode(
        _ frame: Frame, pts: Int64, timeBase: Rational, into packet: Packet
    ) throws(Failure) -> Picture {
        if framesToGridKeyframe == 0 { try forceKeyframe() }
        // OpenH264 makes an IDR every keyframe interval, counted from the last IDR (its own, a
        // scene change's or one asked for).
        let interval = settings.keyframeInterval
        let startsGOP = keyframeRequested || (interval > 0 && framesSinceIDR >= interval)
        let changed = qpPolicy.decide(startsGOP: startsGOP)
        if changed { try applyQPRange() }
        let picture = try encodeFrame(frame, pts: pts, timeBase: timeBase, into: packet)
        if picture.isIDR {
            // An IDR the cap's change made off the grid: OpenH264 counts from it, the grid does not.
            framesToGridKeyframe = changed && !startsGOP && interval > 0 ? interval - framesSinceIDR - 1 : nil
        } else {
            framesToGridKeyframe = framesToGridKeyframe.map { $0 - 1 }
        }
        framesSinceIDR = picture.isIDR ? 1 : framesSinceIDR + 1
        keyframeRequested = false
        return picture
    }

    private mutating func encodeFrame(
        _ frame: Frame, pts: Int64, timeBase: Rational, into packet: Packet
    ) throws(Failure) -> Picture {
        let f = frame.pointer.pointee
        var source = SSourcePicture()
        source.iColorFormat = Int32(videoFormatI420.rawValue)
        source.iPicWidth = f.width
        source.iPicHeight = f.height
        source.iStride.0 = f.linesize.0
        source.iStride.1 = f.linesize.1
        source.iStride.2 = f.linesize.2
        source.pData.0 = f.data.0
        source.pData.1 = f.data.1
        source.pData.2 = f.data.2
        // OpenH264's rate control reads time in milliseconds.
        source.uiTimeStamp = Rational.rescale(pts, from: timeBase, to: Rational(1, 1000))
        var info = SFrameBSInfo()
        let result = hfr_encoder_encode_frame(encoder, &source, &info)
        guard result == 0 else { throw Failure(code: result, operation: "EncodeFrame") }
        guard info.eFrameType != videoFrameTypeSkip else {
            throw Failure(code: -2, operation: "EncodeFrame skipped a frame")
        }
        var temporalID = 0
        var refIdc: UInt8 = 0
        var total = 0
        withUnsafeBytes(of: &info.sLayerInfo) { raw in
            let layers = raw.bindMemory(to: SLayerBSInfo.self)
            for l in 0..<Int(info.iLayerNum) {
                total += Self.length(of: layers[l])
                if layers[l].uiLayerType == UInt8(VIDEO_CODING_LAYER.rawValue) {
                    temporalID = Int(layers[l].uiTemporalId)
                    refIdc = max(refIdc, Self.sliceRefIdc(layers[l]))
                }
            }
        }
        packet.unref()
        do {
            try check(av_new_packet(packet.pointer, Int32(total)), "av_new_packet")
        } catch {
            throw Failure(code: error.code, operation: error.description)
        }
        var offset = 0
        withUnsafeBytes(of: &info.sLayerInfo) { raw in
            let layers = raw.bindMemory(to: SLayerBSInfo.self)
            for l in 0..<Int(info.iLayerNum) {
                let n = Self.length(of: layers[l])
                (packet.pointer.pointee.data + offset).update(from: layers[l].pBsBuf, count: n)
                offset += n
            }
        }
        let isIDR = info.eFrameType == videoFrameTypeIDR
        qpPolicy.encoded(bytes: total, isIDR: isIDR)
        packet.pts = pts
        packet.dts = pts
        if isIDR { packet.pointer.pointee.flags |= AV_PKT_FLAG_KEY }
        packet.isDisposable = refIdc == 0
        return Picture(temporalID: temporalID, isIDR: isIDR, nalRefIdc: refIdc)
    }

    static func length(of layer: SLayerBSInfo) -> Int {
        (0..<Int(layer.iNalCount)).reduce(0) { $0 + Int(layer.pNalLengthInByte[$1]) }
    }

    static func bytes(of layer: SLayerBSInfo) -> [UInt8] {
        Array(UnsafeBufferPointer(start: layer.pBsBuf, count: length(of: layer)))
    }

    /// nal_ref_idc of the layer's slice NAL units (each NAL starts with a 4-byte start code).
    static func sliceRefIdc(_ layer: SLayerBSInfo) -> UInt8 {
        var offset = 0
        var refIdc: UInt8 = 0
        for i in 0..<Int(layer.iNalCount) {
            let header = layer.pBsBuf[offset + 4]
            let type = header & 0x1F
            if type == 1 || type == 5 { refIdc = max(refIdc, (header >> 5) & 3) }
            offset += Int(layer.pNalLengthInByte[i])
        }
        return refIdc
    }
}
