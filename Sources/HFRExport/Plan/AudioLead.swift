import HFRMedia

/// Audio that starts before the first video frame (a camera that starts its microphone first):
/// the output keeps it, as an editor keeps a clip's offset. The audio starts at the output's 0 and
/// the video (with every other track) the lead later, the lead played at the first segment's speed
/// (`ExportPlan.videoDelay`). Only an output that starts at the first frame has one: a range that
/// starts later starts there.
enum AudioLead {
    /// Leads shorter than this are an encoder's priming (AAC's 1024 samples: 21–23 ms; Opus's
    /// 6.5 ms) or a muxer's rounding, not sound recorded before the picture: left as they were.
    static let shortest = Rational(1, 20)

    /// Stream seconds of the first audio track before the video's first frame, when kept: the
    /// output starts at the first frame (`start`, the range asked for, is 0) and the lead is at
    /// least `shortest` and shorter than the track, and than the video or a minute.
    static func kept(_ analysis: InputAnalysis, start: Rational) -> Rational? {
        guard start == Rational(0), let audio = analysis.audio, let audioStart = audio.startSeconds else {
            return nil
        }
        let lead = analysis.origin - audioStart
        // No longer than the track (Matroska states no length), nor than the video or a minute:
        // damaged times do not make hours of audio to stretch.
        let longest = min(audio.durationSeconds ?? analysis.end + Rational(60), max(analysis.end, Rational(60)))
        guard lead >= shortest, lead < longest else { return nil }
        return lead
    }

    /// What the plan says of a kept lead, in real seconds and output seconds.
    static func note(_ plan: ExportPlan) -> String {
        let real = TimeMap.seconds(plan.audioLead * plan.streamScale)
        let delay = DecimalText.fixed(plan.videoDelay.doubleValue, digits: 3)
        return "the audio starts \(real) s before the first video frame: kept (as an editor keeps a clip's "
            + "offset), so the video starts at \(delay) s of the output"
    }
}
