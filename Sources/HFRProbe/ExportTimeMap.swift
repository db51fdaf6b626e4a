import HFRMedia

/// The time map an hfr export was made with, read back from its `com.hfr.export.speed` tag
/// (`0-2@1,2-4@1/4,4-@1`: source seconds `start-end@speed`), with where each segment plays in the
/// export. A ramp has no single slow-motion factor: probe shows these segments instead.
public struct ExportTimeMap: Sendable, Equatable {
    public struct Segment: Sendable, Equatable {
        /// Source (real) seconds; `sourceEnd` nil: to the end.
        public let sourceStart: Rational
        public let sourceEnd: Rational?
        /// Playback speed: 1 real time, 1/4 four times slower.
        public let speed: Rational
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
            let pieces = part.split(separator: "@", omittingEmptySubsequences: false)
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
            let outputEnd = end.map { output + ($0 - start) / speed }
            segments.append(
                Segment(sourceStart: start, sourceEnd: end, speed: speed, outputStart: output, outputEnd: outputEnd))
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
