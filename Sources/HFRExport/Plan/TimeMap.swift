import HFRMedia

/// Source time → output time, as a playback speed that is constant over source-time segments.
///
/// Output time is the integral of 1/speed over source time from 0, so a frame at source time t
/// lands at `outputTime(at: t)`. Everything is exact rational arithmetic: no drift over hours.
/// Before 0 the first segment's speed continues (frames an edit list places before the start).
public struct TimeMap: Sendable, Equatable, CustomStringConvertible {
    /// Source seconds [start, end) played at `speed` (1 = real time, 1/4 = four times slower).
    public struct Segment: Sendable, Equatable {
        public var start: Rational
        /// nil: to the end of the input.
        public var end: Rational?
        public var speed: Rational
        /// Source seconds at the segment's start over which the speed eases from the previous
        /// segment's to `speed` (`SpeedEase`); nil: it changes at once. Only in `given`.
        public var ease: Rational?

        public init(start: Rational, end: Rational?, speed: Rational, ease: Rational? = nil) {
            self.start = start
            self.end = end
            self.speed = speed
            self.ease = ease
        }

        /// The segment over a time axis `factor` times as long (see `TimeMap.timeScaled`).
        public func timeScaled(by factor: Rational) -> Segment {
            Segment(
                start: start * factor, end: end.map { $0 * factor }, speed: speed * factor,
                ease: ease.map { $0 * factor })
        }
    }

    /// The steps of `segments` that play one eased change of speed.
    public struct Ease: Sendable, Equatable {
        /// Indices in `segments`.
        public let steps: Range<Int>
        /// The speeds it eases from and to.
        public let from: Rational
        public let to: Rational
    }

    /// Why a map cannot be built; the message names the offending part.
    public struct Invalid: Error, Sendable, Equatable, CustomStringConvertible {
        public let description: String
    }

    /// Contiguous, starting at 0, the last one open-ended; each ease expanded into its steps.
    public let segments: [Segment]
    /// The segments as given, with their eases: what `description` writes.
    public let given: [Segment]
    /// Where `segments` holds the steps of an ease.
    public let eases: [Ease]

    /// One speed for the whole input.
    public init(speed: Rational) {
        precondition(speed > Rational(0), "speed must be positive")
        segments = [Segment(start: Rational(0), end: nil, speed: speed)]
        given = segments
        eases = []
    }

    private init(segments: [Segment], given: [Segment], eases: [Ease]) {
        self.segments = segments
        self.given = given
        self.eases = eases
    }

    /// Checks and normalises `segments`: sorted as given, contiguous from 0, positive speeds.
    /// A closed last segment is followed by real time (speed 1) to the end of the input.
    public init(segments: [Segment]) throws(Invalid) {
        guard let first = segments.first else { throw Invalid(description: "empty ramp") }
        for s in segments {
            if let end = s.end, end <= s.start {
                throw Invalid(
                    description:
                        "segment \(TimeMap.seconds(s.start))-\(TimeMap.seconds(end)) runs backwards or is empty")
            }
        }
        guard first.start == Rational(0) else {
            throw Invalid(description: "the ramp must start at 0, not \(TimeMap.seconds(first.start))")
        }
        var result: [Segment] = []
        for (i, s) in segments.enumerated() {
            guard s.speed > Rational(0) else {
                throw Invalid(description: "speed \(TimeMap.seconds(s.speed)) is not positive")
            }
            if let end = s.end, end <= s.start {
                throw Invalid(
                    description:
                        "segment \(TimeMap.seconds(s.start))-\(TimeMap.seconds(end)) runs backwards or is empty")
            }
            if let previous = result.last {
                guard let previousEnd = previous.end else {
                    throw Invalid(description: "segment \(i + 1) follows an open-ended segment")
                }
                if s.start < previousEnd {
                    throw Invalid(
                        description:
                            "segment starting at \(TimeMap.seconds(s.start)) overlaps the one ending at \(TimeMap.seconds(previousEnd))"
                    )
                }
                if s.start > previousEnd {
                    throw Invalid(
                        description: "gap between \(TimeMap.seconds(previousEnd)) and \(TimeMap.seconds(s.start))")
                }
            }
            result.append(s)
        }
        if let end = result.last?.end { result.append(Segment(start: end, end: nil, speed: Rational(1))) }
        given = result
        (self.segments, eases) = try TimeMap.expandingEases(result)
    }

    /// `given` with each ease replaced by its `SpeedEase` steps, and where the steps are; checks
    /// that an ease follows a segment and fits in its own.
    private static func expandingEases(_ given: [Segment]) throws(Invalid) -> ([Segment], [Ease]) {
        var segments: [Segment] = []
        var eases: [Ease] = []
        for (i, s) in given.enumerated() {
            guard let ease = s.ease else {
                segments.append(s)
                continue
            }
            let span = "\(TimeMap.seconds(s.start))-\(s.end.map(TimeMap.seconds) ?? "")"
            guard ease > Rational(0) else {
                throw Invalid(description: "segment \(span): the ease must be longer than 0")
            }
            guard i > 0 else {
                throw Invalid(description: "segment \(span) eases, but no segment before it gives a speed to ease from")
            }
            if let end = s.end, s.start + ease > end {
                throw Invalid(
                    description:
                        "segment \(span): ease \(TimeMap.seconds(ease)) s is longer than the segment (\(TimeMap.seconds(end - s.start)) s)"
                )
            }
            let from = given[i - 1].speed
            guard from != s.speed else {
                segments.append(Segment(start: s.start, end: s.end, speed: s.speed))
                continue
            }
            let first = segments.count
            for step in SpeedEase(start: s.start, duration: ease, from: from, to: s.speed).steps {
                segments.append(Segment(start: step.start, end: step.end, speed: step.speed))
            }
            eases.append(Ease(steps: first..<segments.count, from: from, to: s.speed))
            if s.end.map({ s.start + ease < $0 }) ?? true {
                segments.append(Segment(start: s.start + ease, end: s.end, speed: s.speed))
            }
        }
        return (segments, eases)
    }

    /// The ease whose steps include segment `i`, if any.
    public func ease(containing i: Int) -> Ease? { eases.first { $0.steps.contains(i) } }

    /// Parses a ramp such as `0-2@1,2-4@0.25,4-@1` or `0-0:02@1,0:02-0:04@1/4 ease 0.5s` (source
    /// times `start-end@speed`, end optional on the last segment, then optionally `ease D`: the speed
    /// eases from the previous segment's over the segment's first D seconds; times as
    /// `Rational(parsingTime:)`, speeds as decimals or fractions).
    public init(parsing spec: String) throws(Invalid) {
        var parsed: [Segment] = []
        for part in spec.split(separator: ",", omittingEmptySubsequences: false) {
            let invalid = Invalid(
                description:
                    "'\(part)' is not START-END@SPEED or START-END@SPEED ease DURATION (times as \(Rational.timeForms); speeds as 0.25 or 1/4)"
            )
            let words = part.split(separator: " ")
            guard words.count == 1 || (words.count == 3 && words[1] == "ease") else { throw invalid }
            var ease: Rational? = nil
            if words.count == 3 {
                guard let d = Rational(parsingTime: String(words[2])) else { throw invalid }
                ease = d
            }
            let pieces = words[0].split(separator: "@", omittingEmptySubsequences: false)
            guard pieces.count == 2, let speed = Rational(parsing: String(pieces[1])) else { throw invalid }
            let bounds = pieces[0].split(separator: "-", maxSplits: 1, omittingEmptySubsequences: false)
            guard bounds.count == 2, let start = Rational(parsingTime: String(bounds[0])) else { throw invalid }
            var end: Rational? = nil
            if !bounds[1].isEmpty {
                guard let e = Rational(parsingTime: String(bounds[1])) else { throw invalid }
                end = e
            }
            parsed.append(Segment(start: start, end: end, speed: speed, ease: ease))
        }
        try self.init(segments: parsed)
    }

    /// Whether one speed covers everything.
    public var isConstant: Bool { Set(segments.map(\.speed)).count == 1 }

    /// The slowest speed in the map.
    public var slowestSpeed: Rational { segments.map(\.speed).min()! }

    /// Index of the segment holding source time `t` (the first one for t < 0).
    public func segmentIndex(at t: Rational) -> Int {
        segments.lastIndex { $0.start <= t } ?? 0
    }

    /// Playback speed at source time `t`.
    public func speed(at t: Rational) -> Rational { segments[segmentIndex(at: t)].speed }

    /// Output time of source time `t`: ∫₀ᵗ 1/speed.
    public func outputTime(at t: Rational) -> Rational {
        if t < Rational(0) { return t / segments[0].speed }
        var total = Rational(0)
        for s in segments {
            if t <= s.start { break }
            let end = s.end.map { $0 < t ? $0 : t } ?? t
            total = total + (end - s.start) / s.speed
        }
        return total
    }

    /// Source time that plays at output time `τ` (the inverse of `outputTime`).
    public func sourceTime(at τ: Rational) -> Rational {
        if τ < Rational(0) { return τ * segments[0].speed }
        var elapsed = Rational(0)
        for s in segments {
            guard let end = s.end else { break }
            let span = (end - s.start) / s.speed
            if τ < elapsed + span { return s.start + (τ - elapsed) * s.speed }
            elapsed = elapsed + span
        }
        let last = segments[segments.count - 1]
        return last.start + (τ - elapsed) * last.speed
    }

    /// The same map with each inner boundary of `given` moved by `snap` (e.g. onto a base-layer
    /// frame), its eases expanded again (shortened to fit a segment snapping shortened); a segment
    /// that snapping leaves empty disappears.
    public func movingBoundaries(_ snap: (Rational) -> Rational) -> TimeMap {
        var kept: [Segment] = []
        for s in given {
            let start = kept.isEmpty ? Rational(0) : kept[kept.count - 1].end!
            let end = s.end.map(snap)
            if let end, end <= start { continue }
            let ease = kept.isEmpty ? nil : s.ease.map { e in end.map { min(e, $0 - start) } ?? e }
            kept.append(Segment(start: start, end: end, speed: s.speed, ease: ease))
        }
        return (try? TimeMap(segments: kept)) ?? self
    }

    /// The same map over a time axis `factor` times as long per second of source: boundaries and
    /// speeds both scale, so output times stay the same. Real time → stream time of a slowed file is
    /// `factor` = C/P (a 4× slow-motion stream: boundaries 4× later, speeds 4× faster per stream second).
    public func timeScaled(by factor: Rational) -> TimeMap {
        guard factor != Rational(1) else { return self }
        // The steps scale as they are (not expanded again): output times stay exactly the same.
        return TimeMap(
            segments: segments.map { $0.timeScaled(by: factor) }, given: given.map { $0.timeScaled(by: factor) },
            eases: eases.map { Ease(steps: $0.steps, from: $0.from * factor, to: $0.to * factor) })
    }

    /// `0-2@1,2-4@1/4 ease 0.5,4-@1`: `given`, which `init(parsing:)` reads back.
    public var description: String {
        given.map { s in
            "\(TimeMap.seconds(s.start))-\(s.end.map(TimeMap.seconds) ?? "")@\(s.speed.compactDescription)"
                + (s.ease.map { " ease \(TimeMap.seconds($0))" } ?? "")
        }.joined(separator: ",")
    }

    /// Seconds as an integer, a short decimal when exact, else a fraction.
    static func seconds(_ r: Rational) -> String {
        if r.isInteger { return String(r.numerator) }
        for digits in 1...6 {
            var scale: Int64 = 1
            for _ in 0..<digits { scale *= 10 }
            let scaled = r * Rational(scale)
            if scaled.isInteger {
                let n = scaled.numerator
                let sign = n < 0 ? "-" : ""
                let fraction = String(abs(n) % scale)
                return sign + "\(abs(n) / scale)." + String(repeating: "0", count: digits - fraction.count) + fraction
            }
        }
        return r.description
    }
}
