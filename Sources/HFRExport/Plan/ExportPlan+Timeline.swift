import HFRMedia

extension ExportPlan {
    /// The first step of a plan: the output rate, the time map and the range asked for, in stream
    /// time (see `ExportPlan`), checked against the input.
    struct Timeline {
        let outputRate: Rational
        /// Stream time → output time, before any snapping to base-layer frames.
        let map: TimeMap
        let start: Rational
        let end: Rational

        static func make(_ settings: ExportSettings, _ analysis: InputAnalysis) throws(ExportFailure) -> Timeline {
            let k = analysis.streamScale
            let (realMap, o) = ExportPlan.timeMap(settings.mode, captureRate: analysis.captureRate)
            guard o <= Rational(1000) else {
                throw .usage("output rate \(o.compactDescription) fps is above 1000; give --fps")
            }
            try PlanBounds.check(outputRate: o)
            // From here on, stream time (see the type's comment); messages convert back with `k`.
            let start = (settings.range?.start ?? Rational(0)) / k
            let end = min(settings.range?.end.map { $0 / k } ?? analysis.end, analysis.end)
            // No frame after the start (an edit list past the frames, times that overflowed): the
            // input's fault, whatever --range asks.
            guard analysis.end > Rational(0) else {
                throw .badInput("corrupt timestamps: the video's frames end before its start time")
            }
            guard start < analysis.end else {
                throw .usage(
                    "--range starts at \(TimeMap.seconds(start * k)) s, after the end of the video (\(TimeMap.seconds(analysis.end * k)) s)"
                )
            }
            return Timeline(outputRate: o, map: realMap.timeScaled(by: k.reciprocal), start: start, end: end)
        }
    }
}
