import HFRMedia

/// Everything `hfr probe` found in a file, as plain values.
public struct ProbeReport: Sendable {
    public let path: String
    public let fileSize: Int64
    public let container: Container
    public let streams: [Stream]
    /// The temporal structure of the main video stream; nil when the file has no video.
    public let video: VideoStructure?
    /// First audio timestamp minus first video timestamp, in seconds; nil without both.
    public let avStartOffset: Rational?
    /// Samsung's slow-motion data (`smta` box, SEF trailer); nil for other files.
    public var samsungSlowMotion: SamsungSlowMotion? = nil
    /// `hfr probe`: mains flicker in the first pictures (`FlickerProbe`); nil when not measured.
    public var flicker: FlickerProbe.Reading? = nil

    /// The container as a whole.
    public struct Container: Sendable {
        public let formatName: String
        public let formatLongName: String
        public let duration: Rational?
        public let bitRate: Int64
        public let tags: [String: String]
    }

    /// One stream: what the container declares and what reading every packet measured.
    public struct Stream: Sendable {
        public let info: StreamInfo
        public let packetCount: Int
        /// Frames: one per packet for video access units and audio codec frames.
        public let frameCount: Int
        public let byteCount: Int64
        /// Earliest presented time, in the stream's time base (after decoder-skipped priming).
        public let firstPts: Int64?
        /// Measured from timestamps (video: `FrameRateMeasurement`, the rate export plans with).
        public let measuredFrameRate: Rational?
        /// From the earliest presentation time to the end of the latest packet, in seconds.
        public let measuredDuration: Rational?
        /// A first video frame shown early (`GapRange.leadingOffsetTicks`): its presentation time
        /// and where the video starts (one period before the second frame), in ticks. Nil when
        /// there is none.
        public var leadingFrame: (pts: Int64, start: Int64)? = nil
    }

    /// The temporal layers of a video stream and the rates it can be thinned to without re-encoding.
    public struct VideoStructure: Sendable {
        public let streamIndex: Int
        /// Frames per second of capture: from file metadata when present, else measured.
        public let captureFrameRate: Rational?
        public let captureFrameRateSource: CaptureRateSource
        /// Frames per second the file plays at.
        public let playbackFrameRate: Rational?
        /// Real seconds per stream second (`PlaybackTiming`): 1/4 for 120 fps footage played at 30.
        public let streamScale: Rational
        /// How many times slower than real time the stream plays: 4 for 120 fps footage played at 30;
        /// nil when it plays in real time.
        /// nil too for an hfr export made with a ramp (`exportTimeMap` has its speeds).
        public var slowMotionFactor: Rational? {
            streamScale == Rational(1) || exportTimeMap?.isRamp == true ? nil : streamScale.reciprocal
        }
        /// The time map of an hfr export (`com.hfr.export.speed`); nil for other files.
        public var exportTimeMap: ExportTimeMap? = nil
        /// How an hfr export made pictures between captured frames (`com.hfr.interpolated`: `flow`,
        /// `blend`); nil when it made none, and for other files.
        public var interpolation: String? = nil
        /// The output frames an hfr export synthesized where the capture had dropped frames
        /// (`com.hfr.filled-drops`, `export --fill-drops`); nil when it made none, and for other files.
        public var filledDrops: FrameRanges? = nil
        /// How they were made (`com.hfr.filled-drops.method`: `flow`, `blend`, `repeat`).
        public var filledDropsMethod: String? = nil
        /// Whether the bitstream was read (H.264, HEVC) or not (other codecs: counts only).
        public let isBitstreamAnalyzed: Bool
        /// How layers were found: SVC temporal ids, or only nal_ref_idc.
        public let layerSignalling: LayerSignalling
        public let layers: [Layer]
        public let frameCount: Int
        public let droppableFrameCount: Int
        /// Frames the container marks as disposable (MP4 `sdtp` / fragment sample flags).
        public let containerMarkedCount: Int
        /// Frames marked disposable by the container that the bitstream says are referenced.
        public let markedButReferencedCount: Int
        /// Frames droppable in the bitstream that the container does not mark.
        public let droppableButUnmarkedCount: Int
        /// Real-time rates reachable by dropping whole upper layers.
        public let reachableRates: [ReachableRate]
        /// Capture-rate tags present but ignored (`Prober.ignoredCaptureRateTags`), one note each.
        public var captureRateNotes: [String] = []

        public var droppableShare: Double {
            frameCount == 0 ? 0 : Double(droppableFrameCount) / Double(frameCount)
        }
    }

    /// Where the capture frame rate came from.
    public enum CaptureRateSource: String, Sendable {
        case hfrTag = "hfr", androidTag = "com.android.capture.fps", measured, unknown
        /// Samsung's `smta` box (slow-motion recordings).
        case samsungTag = "smta"
    }

    /// How temporal layers are known.
    public enum LayerSignalling: String, Sendable {
        /// temporal_id from SVC prefix NAL units (type 14).
        case svcTemporalID = "svc-temporal-id"
        /// nuh_temporal_id_plus1 of HEVC NAL unit headers.
        case hevcTemporalID = "hevc-temporal-id"
        /// No temporal ids; layer 0 = reference frames, droppable frames noted per frame.
        case nalRefIdc = "nal-ref-idc"
        case none

        /// Levels are temporal ids (else reference flags, or nothing).
        public var hasTemporalIDs: Bool { self == .svcTemporalID || self == .hevcTemporalID }
    }

    /// One temporal layer.
    public struct Layer: Sendable {
        public let id: Int
        public let frameCount: Int
        public let droppableCount: Int
        public let share: Double
    }

    /// A rate reachable by keeping only some frames, bit-exact.
    public struct ReachableRate: Sendable {
        /// What is kept: layers 0…`maxLayer`, or for `nal-ref-idc` streams 0 = reference frames only.
        public let description: String
        public let keptFrames: Int
        /// Capture rate × kept ÷ total.
        public let rate: Rational?
        /// Whether the kept frames are evenly spaced in time (a true constant rate).
        public let isUniform: Bool
    }
}

/// One frame as `hfr probe --frames` lists it.
public struct ProbedFrame: Sendable {
    public let index: Int
    public let pts: Int64?
    public let dts: Int64?
    /// The stream's time base.
    public let timeBase: Rational
    public let size: Int
    public let isKeyframe: Bool
    /// nil for codecs other than H.264 and HEVC.
    public let structure: FrameStructure?
    /// Whether the container marks the sample disposable.
    public let isContainerDisposable: Bool

    /// Presentation time in seconds (computed when asked: most readers count frames, not times).
    public var time: Rational? { pts.map { Rational.seconds($0, in: timeBase) } }
}
