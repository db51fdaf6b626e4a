import HFRMedia

extension ExportPlan {
    /// The second step of a plan: whether the video is copied (per segment, the highest level
    /// kept), spliced (the segments a copy cannot reach re-encoded in between) or re-encoded, and why.
    struct VideoChoice {
        /// The map, its ramp boundaries snapped to base-layer frames when copying.
        let map: TimeMap
        let levels: [Int]
        let failures: [(segment: Int, reason: String)]
        /// A codec other than the source's (`--codec`).
        let codecChange: OutputCodec?
        /// Re-encoded whatever the layers allow: `--reencode always`, `--fill-drops`, `--codec`, `--shutter`,
        /// flicker to take out.
        let reencodesAll: Bool
        /// `--deflicker` found flicker to take out.
        let deflickers: Bool
        let splice: MixedReencode.Splice?

        /// Every segment copied.
        var isLossless: Bool { !reencodesAll && failures.isEmpty }

        static func make(
            _ settings: ExportSettings, _ analysis: InputAnalysis, _ timeline: Timeline, notes: inout [String]
        ) throws(ExportFailure) -> VideoChoice {
            // A codec other than the source's is a re-encode, whatever the lossless rules allow.
            let codecChange = settings.delivery.codec.flatMap { $0.isCodec(analysis.video.codecName) ? nil : $0 }
            if let codecChange, settings.reencode == .never {
                throw .refused(
                    "--codec \(codecChange.rawValue) re-encodes the \(analysis.video.codecName) video (or allow --reencode auto)"
                )
            }
            // Copying cannot insert frames: filling drops re-encodes as `--reencode always` does.
            let reencodesAll =
                settings.reencode == .always || settings.fillDrops != nil || codecChange != nil
                || settings.shutter != nil || analysis.flicker?.model != nil
            var map = timeline.map
            var (levels, failures): ([Int], [(segment: Int, reason: String)]) = ([], [])
            if !reencodesAll {
                map = snappedToBaseLayer(map, analysis, notes: &notes)
                (levels, failures) = keptLevels(
                    map, analysis, mode: settings.mode, output: timeline.outputRate,
                    range: (timeline.start, timeline.end))
            }
            if !reencodesAll && !failures.isEmpty, settings.reencode == .never {
                throw .refused(reasons(failures) + " (or allow --reencode auto)")
            }
            let splice =
                failures.isEmpty || settings.reencode != .auto || codecChange != nil
                ? nil : spliced(map, analysis, failures: failures, settings: settings, end: timeline.end, notes: &notes)
            return VideoChoice(
                map: map, levels: levels, failures: failures, codecChange: codecChange, reencodesAll: reencodesAll,
                deflickers: analysis.flicker?.model != nil, splice: splice)
        }

        /// The splice that re-encodes only the failing segments; nil (with a note when some could
        /// have been copied) when it cannot be made.
        static func spliced(
            _ map: TimeMap, _ analysis: InputAnalysis, failures: [(segment: Int, reason: String)],
            settings: ExportSettings, end: Rational, notes: inout [String]
        ) -> MixedReencode.Splice? {
            switch MixedReencode.splice(
                map, analysis, failing: failures.map(\.segment), end: end, hasRange: settings.range != nil)
            {
            case .success(let s): return s
            case .failure(let refusal) where map.segments.count > failures.count:
                notes.append("the copyable segments are re-encoded too: \(refusal.reason)")
                return nil
            case .failure: return nil
            }
        }

        /// Why the video (or a splice's stretches) is re-encoded; nil when copied losslessly.
        func reason(_ settings: ExportSettings) -> String? {
            guard !isLossless else { return nil }
            if settings.reencode == .always { return "--reencode always" }
            if let shutter = settings.shutter { return "--shutter \(TimeMap.seconds(shutter)): frames are averaged" }
            if let codecChange { return "--codec \(codecChange.rawValue)" }
            if deflickers, settings.fillDrops == nil { return "--deflicker: the pictures' flicker is taken out" }
            return settings.fillDrops != nil ? fillDropsReason : reasons(failures)
        }
    }
}
