import HFRMedia

/// The time map an hfr export was made with, read back from its `com.hfr.export.speed` tag
/// (`0-2@1,2-4@1/4 ease 0.5,4-@1`: source seconds `start-end@speed`, optionally eased), with where each segment plays in the
/// export. A ramp has no single slow-motion factor: probe shows these segments instead.
public struct ExportTimeMap: Sendable, Equatable {
    public struct Segment: Sendable, Equatable {
        /// Source (real) seconds; `sourceEnd` nil: to the end.
        public let sourceStart: Rational
        public let sourceEnd: Rational?
        /// Playback speed: 1 real time, 1/4 four times slower.
        public let speed: Rational
        /// Source seconds at the start over which the speed eases from the previous segment's
        /// (`SpeedEase`); nil: it changes at once.
        public var ease: Rational? = nil
        /// Where the segment plays in the export, in seconds of the export's timeline.
        public let outputStart: Rational
        public let outputEnd: Rational?
    }

    public let segments: [Segment]

    /// Whether more than one speed is used (a ramp).
    public var isRamp: Bool { Set(segments.map(\.speed)).count > 1 }

    /// Parses the tag; nil for text hfr does not write (then nothing is claimed about the file).
    public init?(tag: String) {
        var segments: [Segment] = []
        var output = Rational(0)
        for part in tag.split(separator: ",", omittingEmptySubsequences: false) {
            // `START-END@SPEED` or `START-END@SPEED ease D`.
            let words = part.split(separator: " ")
            guard words.count == 1 || (words.count == 3 && words[1] == "ease") else { return nil }
            var ease: Rational? = nil
            if words.count == 3 {
                guard let d = Rational(parsing: String(words[2])), d > Rational(0), !segments.isEmpty else {
                    return nil
                }
                ease = d
            }
            let pieces = words[0].split(separator: "@", omittingEmptySubsequences: false)
            guard pieces.count == 2, let speed = Rational(parsing: String(pieces[1])), speed > Rational(0) else {
                return nil
            }
            let bounds = pieces[0].split(separator: "-", maxSplits: 1, omittingEmptySubsequences: false)
            guard bounds.count == 2, let start = Rational(parsing: String(bounds[0])),
                start == (segments.last?.sourceEnd ?? Rational(0))
            else { return nil }
            var end: Rational? = nil
            if !bounds[1].isEmpty {
                guard let e = Rational(parsing: String(bounds[1])), e > start else { return nil }
                end = e
            }
            var eased = Rational(0)
            if let ease, let from = segments.last?.speed {
                if let end, start + ease > end { return nil }
                if from != speed {
                    let steps = SpeedEase(start: start, duration: ease, from: from, to: speed).steps
                    eased = steps.reduce(Rational(0)) { $0 + ($1.end - $1.start) / $1.speed } - ease / speed
                }
            }
            let outputEnd = end.map { output + ($0 - start) / speed + eased }
            segments.append(
                Segment(
                    sourceStart: start, sourceEnd: end, speed: speed, ease: ease, outputStart: output,
                    outputEnd: outputEnd))
            guard let outputEnd else { break }
            output = outputEnd
        }
        guard !segments.isEmpty, segments.count == tag.split(separator: ",").count else { return nil }
        self.segments = segments
    }

    /// The map of the file whose tags are `tags` (container) and `streamTags`, if hfr exported it.
    public static func read(tags: [String: String], streamTags: [String: String]) -> ExportTimeMap? {
        PlaybackTiming.lookUp(PlaybackTiming.exportSpeedKey, tags, streamTags).flatMap { ExportTimeMap(tag: $0) }
    }
}
