import HFRMedia

/// An audio capture device through libavdevice: ALSA (`alsa:hw:1,0`) or PulseAudio (`pulse:NAME`).
///
/// Its timestamps are wall-clock microseconds (libavdevice stamps each read with the time of
/// capture), which is how it is lined up with the video.
/// Unchecked Sendable: opened by the command, then used by the audio thread alone.
public final class AudioCaptureInput: @unchecked Sendable {
    /// Which capture API and which device.
    public struct Device: Sendable, Equatable {
        public var api: String
        public var name: String

        /// Parses `alsa:hw:1,0`, `pulse:default`, or a bare ALSA name (`hw:1`).
        public init(_ text: String) {
            if text.hasPrefix("pulse:") {
                (api, name) = ("pulse", String(text.dropFirst(6)))
            } else if text.hasPrefix("alsa:") {
                (api, name) = ("alsa", String(text.dropFirst(5)))
            } else {
                (api, name) = ("alsa", text)
            }
        }

        public var description: String { "\(api):\(name)" }
    }

    let demuxer: Demuxer
    let decoder: Decoder
    public let stream: StreamInfo
    public let device: Device

    public init(_ device: Device, sampleRate: Int = 48000, channels: Int = 2) throws(AVFailure) {
        var options = CaptureRequest.liveProbing
        options["sample_rate"] = String(sampleRate)
        options["channels"] = String(channels)
        if device.api == "pulse" {
            // PulseAudio's default fragment can hold seconds of audio, delivered late; 20 ms keeps
            // the capture close to the video.
            options["fragment_size"] = String(sampleRate / 50 * channels * 2)
        }
        let demuxer = try Demuxer(url: device.name, format: device.api, options: options)
        guard let audio = demuxer.streams.first(where: { $0.kind == .audio }) else {
            throw AVFailure.invalidData("no audio stream from \(device.description)")
        }
        decoder = try Decoder(
            parameters: demuxer.codecParameters(ofStream: audio.index), timeBase: audio.timeBase, threads: 1)
        self.demuxer = demuxer
        stream = audio
        self.device = device
    }

    /// The next captured block of samples; nil at the end.
    public func next(packet: Packet) throws(AVFailure) -> Frame? {
        while try demuxer.read(into: packet) {
            guard packet.streamIndex == stream.index else { continue }
            let frame = try Frame()
            _ = try decoder.send(packet)
            if case .value = try decoder.receive(into: frame) { return frame }
        }
        return nil
    }
}
