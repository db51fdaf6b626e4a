import HFRMedia

/// A stretch of source samples that becomes `outputCount` output samples with one stretcher: the
/// time map's segments, cut again at every sharp onset inside a stretched one.
///
/// Each piece's output is cut or padded to exactly round(map(b)·R) − round(map(a)·R) samples for
/// source span [a, b), so A/V sync cannot drift across pieces; a stretch that starts at an onset
/// puts it in place, where one running through it would have smeared it early (see
/// `OnsetDetector`).
struct AudioPiece: Equatable {
    /// Timeline samples [sourceStart, sourceEnd) (sample 0 is the plan's start).
    var sourceStart: Int64
    var sourceEnd: Int64
    /// Output samples from the output's start.
    var outputStart: Int64
    var outputCount: Int64
    var speed: Rational
    /// A step of an eased change of speed, or (`joiningEases`) all of them joined: then its speed
    /// changes inside, as the map says, and `speed` is its mean.
    var isEased = false

    /// One piece per time-map segment inside the plan's range; with `joiningEases`, one for the
    /// steps of each ease (a stretcher that follows the map inside a piece plays it without joins).
    static func segments(of plan: ExportPlan, sampleRate: Int, joiningEases: Bool = false) -> [AudioPiece] {
        let r = Rational(Int64(sampleRate))
        func sourceSample(_ t: Rational) -> Int64 { ((t - plan.audioStart) * r).rounded() }
        var pieces: [AudioPiece] = []
        var lastEase: Int? = nil
        for (i, s) in plan.map.segments.enumerated() {
            // The first segment's speed plays the audio's lead too (`AudioLead`).
            let start = i == 0 ? plan.audioStart : max(s.start, plan.audioStart)
            let end = min(s.end ?? plan.end, plan.end)
            guard end > start else { continue }
            let out = outputSample(at: start, plan: plan, sampleRate: sampleRate)
            var piece = AudioPiece(
                sourceStart: sourceSample(start), sourceEnd: sourceSample(end), outputStart: out,
                outputCount: outputSample(at: end, plan: plan, sampleRate: sampleRate) - out, speed: s.speed)
            let ease = plan.map.eases.firstIndex { $0.steps.contains(i) }
            if joiningEases, let ease, ease == lastEase, var joined = pieces.popLast() {
                joined.sourceEnd = piece.sourceEnd
                joined.outputCount = piece.outputStart + piece.outputCount - joined.outputStart
                piece = joined
            }
            if ease != nil {
                piece.isEased = true
            }
            if joiningEases, ease != nil {
                let length = piece.sourceEnd - piece.sourceStart
                if length > 0, piece.outputCount > 0 { piece.speed = Rational(length, piece.outputCount) }
            }
            lastEase = ease
            pieces.append(piece)
        }
        return pieces
    }

    /// Output sample (from the output's start: the audio's, its lead included) of source time `t`.
    static func outputSample(at t: Rational, plan: ExportPlan, sampleRate: Int) -> Int64 {
        let r = Rational(Int64(sampleRate))
        return ((plan.map.outputTime(at: t) - plan.map.outputTime(at: plan.audioStart)) * r).rounded()
    }

    /// `pieces` cut at each of `onsets` (timeline samples, in order) inside a stretched one, unless
    /// it is less than `margin` samples after the piece's start (a stretch puts that little before
    /// an onset at most (factor − 1) × `margin` early). `outputSample` maps a timeline sample.
    static func split(
        _ pieces: [AudioPiece], at onsets: [Int64], margin: Int64, outputSample: (Int64) -> Int64
    ) -> [AudioPiece] {
        var result: [AudioPiece] = []
        var next = onsets.startIndex
        for piece in pieces {
            var rest = piece
            while next < onsets.endIndex, onsets[next] < piece.sourceEnd {
                let onset = onsets[next]
                next += 1
                guard piece.speed != Rational(1) || piece.isEased, onset >= rest.sourceStart + margin else { continue }
                let out = outputSample(onset)
                let end = rest.outputStart + rest.outputCount
                result.append(
                    AudioPiece(
                        sourceStart: rest.sourceStart, sourceEnd: onset, outputStart: rest.outputStart,
                        outputCount: out - rest.outputStart, speed: piece.speed, isEased: piece.isEased))
                rest = AudioPiece(
                    sourceStart: onset, sourceEnd: rest.sourceEnd, outputStart: out, outputCount: end - out,
                    speed: piece.speed, isEased: piece.isEased)
            }
            result.append(rest)
        }
        return result
    }
}
