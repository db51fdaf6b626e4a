import HFRMedia

/// Which code talks to a V4L2 camera (`record --capture-api`).
public enum CaptureAPI: String, Sendable, CaseIterable {
    /// hfr's own V4L2 capture (`V4L2Capture`): drops from `v4l2_buffer.sequence`, error flags, errno.
    case own
    /// libavdevice's `v4l2` input (`AVDeviceCapture`): drops from gaps in the frame timestamps.
    case avdevice
}

/// A V4L2 camera read through libavdevice's `v4l2` input (`record --capture-api avdevice`): the
/// same mode `ModeSelector` chose for hfr's own capture, set through the input's `video_size`,
/// `framerate` and `input_format` options with `ts=abs` (wall-clock timestamps), then read back
/// from the opened stream — another size, pixel format or rate is refused as the own capture
/// refuses it. libavdevice hides the sequence numbers and error flags: frames are placed on the
/// rate's grid by timestamp (`FrameTimeline`), so the capture stage counts drops from the gaps,
/// and a buffer libavdevice or the decoder rejects (a flagged or corrupt frame) is one such gap.
///
/// Unchecked Sendable: opened by the command, then read by the capture thread alone.
public final class AVDeviceCapture: FrameSource, @unchecked Sendable {
    public let path: String
    public let choice: ModeSelector.Choice
    private let input: CaptureInput
    private var timeline: FrameTimeline
    private var sentWallClock = false
    private let isJPEG: Bool

    /// The FourCCs libavdevice's v4l2 input can ask a driver for (FFmpeg 5.1's
    /// `ff_fmt_conversion_table`, limited to the layouts hfr records), by the name it takes.
    static let inputFormats: [String: String] = [
        "YU12": "yuv420p", "NV12": "nv12", "YUYV": "yuyv422", "UYVY": "uyvy422", "422P": "yuv422p",
        "411P": "yuv411p", "RGB3": "rgb24", "BGR3": "bgr24", "RGBP": "rgb565le", "XR24": "bgr0", "AR24": "bgra",
        "GREY": "gray", "Y16": "gray16le", "MJPG": "mjpeg", "JPEG": "mjpeg",
    ]

    /// Opens `path` through libavdevice in `choice`'s mode and checks what it opened. Throws
    /// `isModeNotGranted` failures worded as `V4L2Capture`'s, and other failures by errno.
    public init(path: String, choice: ModeSelector.Choice) throws(V4L2Failure) {
        let mode = choice.mode
        guard let inputFormat = AVDeviceCapture.inputFormats[mode.format.fourCC] else {
            let names = AVDeviceCapture.inputFormats.keys.sorted().joined(separator: ", ")
            throw V4L2Failure(
                "libavdevice's v4l2 input", path: path,
                detail: "cannot ask for \(mode.format.fourCC) (it takes \(names)): choose one with --pixel-format, "
                    + "or use --capture-api own")
        }
        let request = CaptureRequest(
            source: .device(path: path), width: mode.width, height: mode.height, frameRate: choice.rate,
            pixelFormat: inputFormat, includesSourceAudio: false)
        do {
            input = try CaptureInput(request)
        } catch {
            let operation = "libavdevice's v4l2 input"
            if let errno = error.errno { throw V4L2Failure(operation, path: path, errno: errno) }
            throw V4L2Failure(operation, path: path, detail: error.message)
        }
        let granted = AVDeviceCapture.granted(input.video)
        if let refusal = AVDeviceCapture.refusal(choice, granted: granted, path: path) { throw refusal }
        self.path = path
        self.choice = choice
        isJPEG = mode.format.conversion == .jpeg
        timeline = FrameTimeline(interval: choice.rate.reciprocal)
    }

    /// What the stream libavdevice opened holds: FourCC (MJPG for JPEG packets), size, rate.
    static func granted(_ video: StreamInfo) -> (format: String, width: Int, height: Int, rate: Rational?) {
        let format =
            video.codecName == "mjpeg"
            ? "MJPG" : video.pixelFormat.map { V4L2PixelFormat(name: $0)?.fourCC ?? $0 } ?? "?"
        // libavdevice sets the rate from the driver's frame interval: read it as a driver's fraction.
        let rate = video.averageFrameRate.map {
            V4L2FrameInterval.interval(
                numerator: UInt32(clamping: $0.denominator), denominator: UInt32(clamping: $0.numerator)
            )
            .reciprocal
        }
        return (format, video.width, video.height, rate)
    }

    /// The refusal when `granted` is not `choice`, in the words `V4L2Capture` uses; nil when it is.
    static func refusal(
        _ choice: ModeSelector.Choice, granted: (format: String, width: Int, height: Int, rate: Rational?),
        path: String
    ) -> V4L2Failure? {
        let mode = choice.mode
        let sameFormat =
            granted.format == mode.format.fourCC || (granted.format == "MJPG" && mode.format.conversion == .jpeg)
        if sameFormat, granted.width == mode.width, granted.height == mode.height, granted.rate == choice.rate {
            return nil
        }
        let asked = "\(mode.format.fourCC) \(mode.width)x\(mode.height) at \(ModeSelector.rateText(choice.rate)) fps"
        let rate = granted.rate.map { ModeSelector.rateText($0) } ?? "an unknown rate of"
        let got = "\(granted.format) \(granted.width)x\(granted.height) at \(rate) fps"
        return V4L2Failure.modeNotGranted(path: path, detail: "asked for \(asked), the driver granted \(got)")
    }

    public var videoTimeBase: Rational { choice.rate.reciprocal }
    public var videoWidth: Int { input.videoWidth }
    public var videoHeight: Int { input.videoHeight }
    public var sourcePixelFormat: String? { choice.mode.format.fourCC }
    public var audio: StreamInfo? { nil }
    /// libavdevice does not say what the driver lost: the capture stage counts timestamp gaps.
    public var losses: SourceLosses? { nil }

    /// The next frame, placed on the grid by its timestamp; frames libavdevice or the JPEG decoder
    /// reject are skipped (they show as gaps).
    public func next() throws -> CaptureItem? {
        while true {
            let item: CaptureItem?
            do {
                item = try input.next()
            } catch let failure as AVFailure where failure.isInvalidData {
                continue
            }
            guard case .video(let decoded, _) = item, let pts = decoded.pts else { return item }
            let micros = Rational.rescale(pts, from: input.videoTimeBase, to: Rational(1, 1_000_000))
            guard let index = timeline.place(sequence: 0, timestamp: micros) else { continue }
            // A raw picture is libavdevice's view of the driver's buffer, which goes back to the
            // driver only when the frame is freed: copied, the buffer returns now (as in the own
            // capture), not after the encoder — else a busy encoder starves the driver of buffers.
            let frame = isJPEG ? decoded : try decoded.copyPicture()
            frame.pts = index
            // With ts=abs the timestamps are wall-clock microseconds: the audio lines up with the first.
            let clock = sentWallClock ? nil : micros
            sentWallClock = true
            return .video(frame, wallClock: clock)
        }
    }
}
