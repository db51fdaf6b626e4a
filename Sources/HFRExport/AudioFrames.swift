import CFFmpeg
import HFRMedia

/// Moves planar float audio between `AVFrame`s and `AudioChunk`s, converting other sample formats.
final class AudioFrames {
    let sampleRate: Int
    let channels: Int
    private var converter: Resampler?

    init(sampleRate: Int, channels: Int) {
        self.sampleRate = sampleRate
        self.channels = channels
    }

    /// libavfilter's name for the default layout of `channels` channels.
    var layoutName: String {
        var layout = AVChannelLayout()
        av_channel_layout_default(&layout, Int32(channels))
        var buffer = [CChar](repeating: 0, count: 64)
        av_channel_layout_describe(&layout, &buffer, buffer.count)
        return String(nulTerminated: buffer)
    }

    /// A float-planar frame holding `chunk`, stamped `pts` (in samples).
    func frame(from chunk: AudioChunk, pts: Int64) throws(AVFailure) -> Frame {
        let frame = try Frame()
        let f = frame.pointer
        f.pointee.nb_samples = Int32(chunk.count)
        f.pointee.format = AV_SAMPLE_FMT_FLTP.rawValue
        f.pointee.sample_rate = Int32(sampleRate)
        av_channel_layout_default(&f.pointee.ch_layout, Int32(channels))
        try check(av_frame_get_buffer(f, 0), "av_frame_get_buffer")
        for c in 0..<channels {
            let plane = UnsafeMutableRawPointer(f.pointee.extended_data[c]!).assumingMemoryBound(to: Float.self)
            chunk.planes[c].withUnsafeBufferPointer { plane.update(from: $0.baseAddress!, count: chunk.count) }
        }
        frame.pts = pts
        return frame
    }

    /// The samples of `frame`; other formats and channel counts are converted to float planar.
    func chunk(from frame: Frame) -> AudioChunk {
        let f = frame.pointer.pointee
        let n = Int(f.nb_samples)
        if f.format == AV_SAMPLE_FMT_FLTP.rawValue, Int(f.ch_layout.nb_channels) == channels {
            return AudioChunk(
                planes: (0..<channels).map { c in
                    let plane = UnsafeMutableRawPointer(f.extended_data[c]!).assumingMemoryBound(to: Float.self)
                    return Array(UnsafeBufferPointer(start: plane, count: n))
                })
        }
        if converter == nil {
            var layout = AVChannelLayout()
            av_channel_layout_default(&layout, Int32(channels))
            converter = try? Resampler(
                from: (f.ch_layout, AVSampleFormat(f.format), Int(f.sample_rate)),
                to: (layout, AV_SAMPLE_FMT_FLTP, sampleRate))
        }
        guard converter != nil else { return AudioChunk(silence: n, channels: channels) }
        let out = PlanarBuffer(channels: channels, capacity: converter!.outputCapacity(forInput: n))
        let inputs = (0..<Int(f.ch_layout.nb_channels)).map { c in f.extended_data[c].map { UnsafeRawPointer($0) } }
        let planar = av_sample_fmt_is_planar(AVSampleFormat(f.format)) != 0
        let produced =
            (try? converter!.convert(
                planar ? inputs : [inputs[0]], count: n,
                into: out.mutablePointers.map { UnsafeMutableRawPointer($0) }, capacity: out.capacity)) ?? 0
        return out.chunk(produced)
    }
}
