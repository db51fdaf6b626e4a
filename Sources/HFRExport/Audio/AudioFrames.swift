import HFRMedia

/// Moves planar float audio between frames and `AudioChunk`s, converting other sample formats.
final class AudioFrames {
    let sampleRate: Int
    let channels: Int
    private var converter: AudioConverter

    /// `layout`: FFmpeg's name of the channel layout; nil: the default of `channels`.
    init(sampleRate: Int, channels: Int, layout: String? = nil) {
        self.sampleRate = sampleRate
        self.channels = channels
        converter = AudioConverter(channels: channels, sampleRate: sampleRate, layout: layout)
    }

    /// A float-planar frame holding `chunk`, stamped `pts` (in samples).
    func frame(from chunk: AudioChunk, pts: Int64) throws(AVFailure) -> Frame {
        let frame = try converter.planarFloatFrame(samples: chunk.count)
        for c in 0..<channels {
            let plane = frame.floatPlane(c)
            chunk.planes[c].withUnsafeBufferPointer {
                plane.baseAddress!.update(from: $0.baseAddress!, count: chunk.count)
            }
        }
        frame.pts = pts
        return frame
    }

    /// The samples of `frame`; other formats and channel counts are converted to float planar
    /// (silence of the same length when they cannot be).
    func chunk(from frame: Frame) -> AudioChunk {
        guard let converted = try? converter.convert(frame) else {
            return AudioChunk(silence: frame.sampleCount, channels: channels)
        }
        return AudioChunk(planes: (0..<channels).map { Array(converted.floatPlane($0)) })
    }
}
