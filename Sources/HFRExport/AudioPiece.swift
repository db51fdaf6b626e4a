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

    /// One piece per time-map segment inside the plan's range.
    static func segments(of plan: ExportPlan, sampleRate: Int) -> [AudioPiece] {
        let r = Rational(Int64(sampleRate))
        func sourceSample(_ t: Rational) -> Int64 { ((t - plan.start) * r).rounded() }
        return plan.map.segments.compactMap { s in
            let start = max(s.start, plan.start)
            let end = min(s.end ?? plan.end, plan.end)
            guard end > start else { return nil }
            let out = outputSample(at: start, plan: plan, sampleRate: sampleRate)
            return AudioPiece(
                sourceStart: sourceSample(start), sourceEnd: sourceSample(end), outputStart: out,
                outputCount: outputSample(at: end, plan: plan, sampleRate: sampleRate) - out, speed: s.speed)
        }
    }

    /// Output sample (from the output's start) of source time `t`.
    static func outputSample(at t: Rational, plan: ExportPlan, sampleRate: Int) -> Int64 {
        let r = Rational(Int64(sampleRate))
        return ((plan.map.outputTime(at: t) - plan.map.outputTime(at: plan.start)) * r).rounded()
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
                guard piece.speed != Rational(1), onset >= rest.sourceStart + margin else { continue }
                let out = outputSample(onset)
                let end = rest.outputStart + rest.outputCount
                result.append(
                    AudioPiece(
                        sourceStart: rest.sourceStart, sourceEnd: onset, outputStart: rest.outputStart,
                        outputCount: out - rest.outputStart, speed: piece.speed))
                rest = AudioPiece(
                    sourceStart: onset, sourceEnd: rest.sourceEnd, outputStart: out, outputCount: end - out,
                    speed: piece.speed)
            }
            result.append(rest)
        }
        return result
    }
}
