import CFFmpeg

/// FFmpeg 5.1's Matroska muxer counts every timestamp in milliseconds (`TimestampScale`
/// 1,000,000): a 120 fps output gets frames at 0, 8, 17, 25 ms. Its stream time base stays 1/1000,
/// but the counts `write` hands it are `matroskaTick`s; what FFmpeg derives from those counts as
/// if they were milliseconds is set right here (cluster length, interleaving window, missing
/// packet durations) or after the trailer (`MatroskaTimestampScalePatch`).
extension Muxer {
    /// How long a cluster runs, in ticks (the muxer's `cluster_time_limit`, which it reads as
    /// milliseconds): a block stores its time as a signed 16-bit offset from its cluster's, and a
    /// block past 32,767 ticks would make FFmpeg start a cluster with a warning. FFmpeg's own 5 s
    /// where that is fewer ticks.
    static func clusterTicks(_ tick: MatroskaTick) -> Int64 {
        min(30_000, 5_000_000_000 / tick.nanoseconds)
    }

    /// The tick of a Matroska or WebM output, from the frame rate its video declares
    /// (`setFrameRate`): nil for other containers, without such a video (audio only: FFmpeg's
    /// millisecond) and where the millisecond already times every frame exactly.
    func chooseMatroskaTick() -> MatroskaTick? {
        guard container.isMatroska else { return nil }
        for index in 0..<Int(context.pointee.nb_streams) {
            let stream = context.pointee.streams[index]!.pointee
            guard stream.codecpar.pointee.codec_type == AVMEDIA_TYPE_VIDEO,
                stream.disposition & AV_DISPOSITION_ATTACHED_PIC == 0,
                let rate = Rational(stream.avg_frame_rate), rate > Rational(0)
            else { continue }
            let tick = MatroskaTick(frameDuration: rate.reciprocal)
            return tick == .millisecond ? nil : tick
        }
        return nil
    }

    /// The muxer options a tick needs (a caller's own take precedence).
    static func options(for tick: MatroskaTick?) -> [String: String] {
        guard let tick else { return [:] }
        return ["cluster_time_limit": String(clusterTicks(tick))]
    }

    /// libavformat holds back packets to interleave them until the streams are `max_interleave_delta`
    /// (10 s) apart, measured through the stream time base it believes: widened by the ticks in a
    /// millisecond, it is 10 s of real time again.
    func keepInterleavingWindow(for tick: MatroskaTick) {
        let delta = context.pointee.max_interleave_delta
        guard delta > 0 else { return }
        let (wider, overflow) = delta.multipliedReportingOverflow(
            by: MatroskaTick.millisecond.nanoseconds / tick.nanoseconds)
        context.pointee.max_interleave_delta = overflow ? .max : wider
    }

    /// The duration libavformat gives a packet that has none, in ticks rather than in the
    /// milliseconds it would take them for: a video frame at the stream's frame rate, the samples
    /// an audio packet holds (as its codec tells from its size); 0 when unknown. A recording's
    /// video packets come from its fragmented MP4 without durations; the last one's end is the
    /// track's `DURATION` tag and the segment's `Duration`.
    func frameDuration(of packet: Packet, onStream index: Int, in tick: MatroskaTick) -> Int64 {
        let stream = context.pointee.streams[index]!.pointee
        let parameters = stream.codecpar!
        let length: Rational
        switch parameters.pointee.codec_type {
        case AVMEDIA_TYPE_VIDEO:
            guard let rate = Rational(stream.r_frame_rate), rate > Rational(0) else { return 0 }
            length = rate.reciprocal
        case AVMEDIA_TYPE_AUDIO:
            let samples = av_get_audio_frame_duration2(parameters, Int32(packet.size))
            let rate = parameters.pointee.sample_rate
            guard samples > 0, rate > 0 else { return 0 }
            length = Rational(Int64(samples), Int64(rate))
        default:
            return 0
        }
        return (length / tick.timeBase).rounded()
    }
}
