import Foundation
import HFRMedia
import HFRTestSupport
import Testing

/// The owners of FFmpeg contexts, exercised on a real file: demux, decode, scale, resample, filter.
@Suite struct CodecOwnerTests {
    let input = Fixtures.path("x264-bframes.mp4")

    @Test func demuxerReportsStreamsAndReadsEveryPacket() throws {
        let demuxer = try Demuxer(url: input)
        let streams = demuxer.streams
        #expect(streams.map(\.kind) == [.video, .audio])
        #expect(streams[0].codecName == "h264")
        #expect(streams[0].averageFrameRate == Rational(30))
        #expect(streams[1].sampleRate == 48000)
        let packet = try Packet()
        var count = [0, 0]
        while try demuxer.read(into: packet) { count[packet.streamIndex] += 1 }
        let ffprobe = try Tool.run(
            "ffprobe",
            [
                "-v", "error", "-select_streams", "v:0", "-count_packets", "-show_entries",
                "stream=nb_read_packets", "-of", "csv=p=0", input,
            ])
        #expect(count[0] == Int(ffprobe.stdout.trimmingCharacters(in: .whitespacesAndNewlines)))
    }

    /// An SVT-AV1 encoder dropped before its first frame (an export that fails at the muxer's
    /// header or at the input's first packet) is closed: SVT-AV1 waited forever in its deinit for
    /// an end of stream nobody sent.
    @Test func anSVTAV1EncoderClosedBeforeItsFirstFrameReturns() throws {
        let encoder = try Encoder.delivery(
            codec: "libsvtav1", width: 160, height: 120, format: .yuv420p, rate: Rational(30),
            timeBase: Rational(1, 30), keyframeInterval: 30, signal: StreamPresentation(), quality: .crf(35))
        #expect(encoder.pixelFormat == .yuv420p)
        _ = consume encoder
    }

    @Test func missingFileFailsWithItsErrno() {
        #expect {
            _ = try Demuxer(url: "/nonexistent/file.mp4")
        } throws: { error in
            (error as? AVFailure)?.errno == ENOENT && (error as? AVFailure)?.operation == "avformat_open_input"
        }
    }

    @Test func decoderScalerDecodeEveryFrame() throws {
        let demuxer = try Demuxer(url: input)
        let video = demuxer.streams[0]
        let decoder = try Decoder(parameters: demuxer.codecParameters(ofStream: 0), timeBase: video.timeBase)
        var converter = try PictureConverter(width: 160, height: 120)
        let packet = try Packet()
        let frame = try Frame()
        var decoded = 0
        func drain() throws {
            while case .value = try decoder.receive(into: frame) {
                decoded += 1
                #expect(!frame.isCorrupt)
                let scaled = try converter.i420(frame)
                #expect(scaled.width == 160 && scaled.height == 120 && scaled.pixelFormat == .yuv420p)
            }
        }
        while try demuxer.read(into: packet) {
            guard packet.streamIndex == 0 else { continue }
            _ = try decoder.send(packet)
            try drain()
        }
        _ = try decoder.send(nil)
        try drain()
        let ffprobe = try Tool.run(
            "ffprobe",
            [
                "-v", "error", "-select_streams", "v:0", "-count_frames", "-show_entries",
                "stream=nb_read_frames", "-of", "csv=p=0", input,
            ])
        #expect(decoded == Int(ffprobe.stdout.trimmingCharacters(in: .whitespacesAndNewlines)))
    }

    @Test func resamplerAndFilterGraphProcessDecodedAudio() throws {
        let demuxer = try Demuxer(url: input)
        let audio = demuxer.streams[1]
        let decoder = try Decoder(parameters: demuxer.codecParameters(ofStream: 1), timeBase: audio.timeBase)
        var converter = AudioConverter(channels: 2, sampleRate: 48000)
        let graph = try FilterGraph(
            description: "atempo=2.0", isAudio: true,
            sourceArguments: "time_base=1/48000:sample_rate=48000:sample_fmt=fltp:channel_layout=mono")
        let packet = try Packet()
        let frame = try Frame()
        let filtered = try Frame()
        var samplesIn = 0
        var samplesOut = 0
        var resampled = 0
        while try demuxer.read(into: packet) {
            guard packet.streamIndex == 1 else { continue }
            _ = try decoder.send(packet)
            while case .value = try decoder.receive(into: frame) {
                samplesIn += frame.sampleCount
                let converted = try converter.convert(frame)
                #expect(converted.isPlanarFloat(channels: 2, sampleRate: 48000))
                resampled += converted.sampleCount
                try graph.push(frame)
                while case .value = try graph.pull(into: filtered) {
                    samplesOut += filtered.sampleCount
                    filtered.unref()
                }
            }
        }
        try graph.push(nil)
        while case .value = try graph.pull(into: filtered) { samplesOut += filtered.sampleCount }
        #expect(samplesIn > 90_000)
        // Same rate: the resampler passes every sample through (minus its small delay).
        #expect(abs(resampled - samplesIn) < 256)
        // atempo=2 halves the duration.
        #expect(abs(Double(samplesOut) - Double(samplesIn) / 2) < 2048)
    }
}
