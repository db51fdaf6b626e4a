import Foundation
import HFRMedia

/// A job that says `"split"` cut into its units (`SplitUnit`): the video parts at the input's
/// keyframes nearest even shares of the job's range, then the rest unit. A job the input's
/// keyframes cannot cut stays whole, with a note.
enum SplitUnits {
    static func units(
        of job: BatchJob, _ request: BatchManifest.SplitRequest, segmentSeconds: Rational, notes: inout [String],
        at place: (position: TextPosition, field: String)
    ) throws(ManifestError) -> [BatchJob] {
        // Matroska has no edit lists: its muxer moves the whole timeline by the audio's priming,
        // which a file without the audio (a video part) cannot know, so the join could not place
        // the video where one export puts it.
        let container = Container(output: job.output)
        guard container.hasEditLists else {
            throw ManifestError(
                "a split job writes MP4 or MOV: \(container.displayName) (\(job.manifestOutput)) has no edit lists, "
                    + "so its parts cannot be joined exactly", at: place.position, field: place.field)
        }
        let points: SplitPoints
        switch SplitPoints.read(job.input) {
        case .success(let read): points = read
        case .failure(let failure):
            throw ManifestError(
                "\(job.manifestInput) cannot be split: \(failure.cause)", at: place.position, field: place.field)
        }
        let range = SplitUnit.range(in: job.options)
        let start = range?.start ?? Rational(0)
        let asked: Int
        switch request {
        case .parts(let n): asked = n
        case .auto: asked = points.count(every: segmentSeconds, start: start, end: range?.end)
        }
        let ranges = points.ranges(count: asked, start: start, end: range?.end)
        if ranges.count < asked {
            notes.append(
                "\(place.field): \(job.manifestInput) has keyframes for \(ranges.count) part"
                    + (ranges.count == 1 ? "" : "s") + " of its range, not \(asked)"
                    + (ranges.count == 1 ? ": exported whole" : ""))
        }
        guard ranges.count > 1 else { return [job] }
        let options = SplitUnit.withoutRange(job.options)
        // Absolute: `hfr batch merge` joins it wherever it is started (on the shards' shared file system).
        let absolute =
            job.output.hasPrefix("/") ? job.output : FileManager.default.currentDirectoryPath + "/" + job.output
        func unit(_ part: SplitUnit.Part, _ unitOptions: [String]) -> BatchJob {
            var unit = BatchJob(
                input: job.input, output: SplitUnit.file(part, of: job.output), options: unitOptions,
                manifestInput: job.manifestInput, manifestOutput: SplitUnit.file(part, of: job.manifestOutput),
                entry: job.entry, line: job.line)
            unit.split = SplitUnit(
                part: part, parts: ranges.count, output: absolute, manifestOutput: job.manifestOutput)
            return unit
        }
        var units = ranges.enumerated().map { n, r in
            unit(.video(n + 1), options + ["--range", SplitUnit.rangeText(r.start, r.end), "--split-part", "video"])
        }
        units.append(unit(.rest, job.options + ["--split-part", "rest"]))
        return units
    }
}
