import HFRMedia

/// An opened capture source: the demuxer and decoders that turn its packets into frames.
///
/// A final class owning the FFmpeg contexts, so it can be handed to the capture thread whole.
/// Unchecked Sendable: opened by the command, then used by the capture thread alone.
public final class CaptureInput: FrameSource, @unchecked Sendable {
    let demuxer: Demuxer
    let videoDecoder: Decoder
    /// Boxed: an optional noncopyable field cannot be borrowed through a class reference.
    let audioDecoder: DecoderBox?
    public let video: StreamInfo
    public let audio: StreamInfo?
    public let request: CaptureRequest
    private let packet: Packet
    /// Why the source's own audio stopped being decoded, if it failed: the video goes on without it.
    public private(set) var audioFailure: AVFailure?

    public var videoTimeBase: Rational { video.timeBase }
    public var videoWidth: Int { video.width }
    public var videoHeight: Int { video.height }
    public var sourcePixelFormat: String? { video.pixelFormat }
    /// libavdevice does not say; the capture stage counts timestamp gaps.
    public var losses: SourceLosses? { nil }

    /// Opens the source and checks that it delivers what was asked.
    public init(_ request: CaptureRequest) throws(AVFailure) {
        let demuxer = try Self.open(request)
        let streams = demuxer.streams
        guard let video = streams.first(where: { $0.kind == .video }) else {
            throw AVFailure.invalidData("no video stream in \(request.input.url)")
        }
        let audio = streams.first { $0.kind == .audio }
        videoDecoder = try Decoder(
            parameters: demuxer.codecParameters(ofStream: video.index), timeBase: video.timeBase, threads: 1)
        if let audio {
            audioDecoder = DecoderBox(
                try Decoder(
                    parameters: demuxer.codecParameters(ofStream: audio.index), timeBase: audio.timeBase, threads: 1))
        } else {
            audioDecoder = nil
        }
        self.demuxer = demuxer
        self.video = video
        self.audio = audio
        self.request = request
        packet = try Packet()
    }

    /// Opens the source's demuxer. A filter graph already at the rate asked is read as it is: `fps`
    /// would repeat frames over a gap in its timestamps (a `select` leaving frames out), uncounted,
    /// where without it the capture counts the gap as frames missing from the source. A graph at
    /// another rate is converted.
    private static func open(_ request: CaptureRequest) throws(AVFailure) -> Demuxer {
        if case .filterGraph = request.source {
            let plain = request.input(convertingRate: false)
            let demuxer = try Demuxer(url: plain.url, format: plain.format, options: plain.options)
            let rate = demuxer.streams.first { $0.kind == .video }?.realFrameRate
            if rate == request.frameRate { return demuxer }
        }
        let input = request.input
        return try Demuxer(url: input.url, format: input.format, options: input.options)
    }

    /// Reads until the next decoded frame; nil at the end of the source.
    public func next() throws -> CaptureItem? {
        while try demuxer.read(into: packet) {
            let isVideo = packet.streamIndex == video.index
            guard isVideo || (packet.streamIndex == audio?.index && audioFailure == nil) else { continue }
            let frame = try Frame()
            if isVideo {
                if try decode(packet, with: videoDecoder, into: frame) { return .video(frame, wallClock: nil) }
            } else if let box = audioDecoder {
                // Audio that cannot be decoded ends the audio, not the recording.
                do {
                    if try decode(packet, with: box.decoder, into: frame) { return .audio(frame) }
                } catch {
                    audioFailure = error
                }
            }
        }
        return nil
    }

    /// Raw and PCM decoders give one frame per packet, so one send/receive pair suffices.
    private func decode(_ packet: Packet, with decoder: borrowing Decoder, into frame: Frame) throws(AVFailure)
        -> Bool
    {
        _ = try decoder.send(packet)
        if case .value = try decoder.receive(into: frame) { return true }
        return false
    }
}

/// Holds a decoder by reference.
final class DecoderBox {
    let decoder: Decoder
    init(_ decoder: consuming Decoder) { self.decoder = decoder }
}
