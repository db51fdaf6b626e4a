import HFRMedia
import HFRProbe

/// `--ramp auto`: the ramp a phone recorded with the clip, played as the phone's own player does.
///
/// Samsung's slow-motion recordings list segments (stream milliseconds and a power-of-two speed
/// divisor) in the SEF trailer; the phone's player (Media3's `SefSlowMotionFlattener`) plays
/// everything else in real time and each segment `divisor` times slower.
public enum RecordedRamp {
    /// The time map of the segments recorded in `input`; a file with none is bad input.
    public static func timeMap(input: String) throws(ExportFailure) -> TimeMap {
        let recorded: SamsungSlowMotion?
        do {
            recorded = try SamsungSlowMotion.read(path: input)
        } catch {
            throw .badInput("--ramp auto: \(error.description)")
        }
        guard let segments = recorded?.segments, !segments.isEmpty else {
            throw .badInput(
                "--ramp auto: the file records no slow-motion segments (no Samsung SEF SlowMotion_Data); give --ramp SPEC"
            )
        }
        let factor = try streamToSource(input)
        do {
            return try TimeMap(slowMotion: segments, streamToSource: factor)
        } catch {
            throw .badInput("--ramp auto: the recorded segments are not a ramp: \(error.description)")
        }
    }

    /// Source (real) seconds per stream second (`PlaybackTiming`): 1 for a stream that plays at its
    /// capture rate, or whose capture rate is not declared.
    static func streamToSource(_ input: String) throws(ExportFailure) -> Rational {
        let demuxer = try ExportFailure.reading { () throws(AVFailure) in try Demuxer(url: input) }
        guard let video = demuxer.streams.first(where: { $0.kind == .video && !$0.isAttachedPicture }) else {
            return Rational(1)
        }
        return PlaybackTiming.streamScale(path: input, tags: demuxer.metadata, video: video)
    }
}

extension TimeMap {
    /// Speed 1 outside `segments`, 1/divisor inside; stream milliseconds become source seconds
    /// through `streamToSource`.
    public init(slowMotion segments: [SamsungSlowMotion.Segment], streamToSource: Rational) throws(Invalid) {
        var parts: [Segment] = []
        var time = Rational(0)
        for s in segments {
            let start = Rational(s.start, 1000) * streamToSource
            let end = Rational(s.end, 1000) * streamToSource
            if start > time { parts.append(Segment(start: time, end: start, speed: Rational(1))) }
            parts.append(Segment(start: start, end: end, speed: Rational(1, s.speedDivisor)))
            time = end
        }
        try self.init(segments: parts)
    }
}
