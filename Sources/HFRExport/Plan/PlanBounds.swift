import HFRMedia

/// What an export may produce, checked from the plan before any work starts, so that no option
/// value makes hfr run for days, exhaust memory, or call a library outside what it handles:
/// refused with exit 64 and the bound it exceeds.
enum PlanBounds {
    /// Output length: 100 hours (a 1,000 fps hour conformed to 24 fps is 42 hours).
    static let maxOutputSeconds = Rational(100 * 3600)
    /// Output frames: 10 million (92 hours at 30 fps).
    static let maxOutputFrames = Rational(10_000_000)
    /// How many times longer pitch-preserving audio may become. Beyond about 2,000× Rubber Band
    /// fails inside the library (std::bad_alloc, a crash in its ring buffer: measured with a 1 s
    /// clip at 5,000× and 10,000×), and 1,000× of one second already takes 0.4 GB.
    static let maxPitchPreservingStretch = Rational(1000)
    /// FFmpeg keeps time bases and rates as a pair of 32-bit integers (`AVRational`).
    static let maxRationalTerm = Int64(Int32.max)

    /// The output rate, before anything is computed from it.
    static func check(outputRate o: Rational) throws(ExportFailure) {
        guard abs(o.numerator) <= maxRationalTerm, o.denominator <= maxRationalTerm else {
            throw .usage(
                "the output rate \(o) fps is finer than a media time base holds (terms up to \(maxRationalTerm)); "
                    + "give it with fewer digits, e.g. \(DecimalText.fixed(o.doubleValue, digits: 3)) or 30000/1001")
        }
    }

    /// What the plan produces: length, frames, and how far audio is stretched keeping its pitch.
    static func check(
        _ plan: ExportPlan, audio: ExportSettings.AudioAlgorithm, hasAudio: Bool, hasRange: Bool
    ) throws(ExportFailure) {
        let o = plan.outputRate
        let seconds = plan.outputDuration
        guard seconds + plan.videoDelay <= maxOutputSeconds else {
            throw .usage(
                "the output would last \(hours(seconds)) hours, more than the \(hours(maxOutputSeconds)) hours hfr "
                    + "writes; slow down less or export a --range")
        }
        let frames = seconds * o
        guard frames >= Rational(1) else {
            let length = DecimalText.fixed(seconds.doubleValue, digits: 6)
            // A range asked for too little; without one, the input's own video is that short.
            guard hasRange else {
                throw .badInput(
                    "its video lasts too little for one output frame (\(length) s of output at "
                        + "\(o.compactDescription) fps)")
            }
            throw .usage(
                "the output would last \(length) s, less than one frame at \(o.compactDescription) fps "
                    + "(\(TimeMap.seconds(plan.realStart))–\(TimeMap.seconds(plan.realEnd)) s of the input); "
                    + "give a longer --range")
        }
        guard frames <= maxOutputFrames else {
            throw .usage(
                "the output would hold \(DecimalText.fixed(frames.doubleValue, digits: 0)) frames, more than the "
                    + "\(maxOutputFrames.compactDescription) hfr writes; lower the output rate or export a --range")
        }
        guard hasAudio, audio == .spectral || audio == .timeDomain else { return }
        let slowest = plan.map.segments.filter { s in
            s.start < plan.end && (s.end ?? plan.end) > plan.start
        }.map(\.speed).min()
        if let slowest, slowest.reciprocal > maxPitchPreservingStretch {
            throw .usage(
                "the audio would be stretched \(DecimalText.fixed(slowest.reciprocal.doubleValue, digits: 0))× "
                    + "keeping its pitch (--audio \(audio.rawValue)), beyond the "
                    + "\(maxPitchPreservingStretch.compactDescription)× it is made for; "
                    + "use --audio varispeed or --audio mute")
        }
    }

    /// Hours, to a tenth below 1,000 and whole above.
    private static func hours(_ seconds: Rational) -> String {
        let h = (seconds / Rational(3600)).doubleValue
        return DecimalText.fixed(h, digits: h < 1000 ? 1 : 0)
    }
}
