import HFRExport
import HFRMedia

/// The `hfr export` summary: one line for people, and the `--json` document (schema `hfr.export/1`).
enum ExportJSON {
    static let schema = "hfr.export/1"

    static func document(_ r: ExportReport) -> JSONValue {
        .object([
            ("schema", .string(schema)),
            ("input", .string(r.input)),
            ("output", .string(r.output)),
            ("captureFrameRate", .string(r.captureRate.description)),
            ("captureFrameRateSource", .string(r.captureRateSource)),
            ("outputFrameRate", .string(r.outputRate.description)),
            ("timeMap", .string(r.map.description)),
            ("range", .object([("start", seconds(r.start)), ("end", seconds(r.end))])),
            (
                "video",
                .object([
                    ("framesIn", .int(Int64(r.framesIn))),
                    ("framesOut", .int(Int64(r.framesOut))),
                    ("layerSignalling", .string(r.levelSignalling)),
                    (
                        "droppedByLayer",
                        .object(
                            r.droppedByLevel.sorted { $0.key < $1.key }.map { (String($0.key), .int(Int64($0.value))) })
                    ),
                    ("reencoded", .bool(r.isReencoded)),
                    ("spliced", .bool(r.isSpliced)),
                    ("kernelCopy", .bool(r.isKernelCopy)),
                    ("reencodeReason", .optional(r.reencodeReason.map { .string($0) })),
                    ("encoder", .optional(r.encoder.map { .string($0) })),
                    ("quality", .optional(r.quality.map { .string($0) })),
                    ("interpolatedFrames", .int(Int64(r.interpolatedFrames))),
                    ("interpolation", .optional(r.interpolation.map { .string($0) })),
                    ("filledDrops", .optional(r.filledDrops.map(filledDrops))),
                    ("cuts", .optional(r.cutFill.map { _ in .array(r.cuts.map(cut)) })),
                    ("cutFill", .optional(r.cutFill.map { .string($0) })),
                    ("deflicker", .optional(r.deflicker.map(deflicker))),
                ])
            ),
            (
                "audio",
                audio(
                    algorithm: r.audioAlgorithm, tracks: r.audioTracks,
                    sampleRate: r.audioSampleRate > 0 ? r.audioSampleRate : nil,
                    samples: r.audioSampleRate > 0 ? r.audioSamples : nil,
                    duration: r.audioDuration ?? (r.audioAlgorithm == "copy" ? r.outputDuration : nil))
            ),
            ("inputDuration", seconds(r.inputDuration)),
            ("outputDuration", seconds(r.outputDuration)),
            ("notes", .array(r.notes.map { .string($0) })),
            ("elapsedSeconds", .double(r.elapsedSeconds)),
            ("plan", .optional(r.plan.map(ExportPlanJSON.document))),
        ])
    }

    static func seconds(_ r: Rational) -> JSONValue { .double(r.doubleValue) }

    /// `video.filledDrops`: what `--fill-drops` made.
    static func filledDrops(_ f: ExportReport.FilledDrops) -> JSONValue {
        .object([
            ("method", .string(f.method)),
            ("count", .int(Int64(f.frames.count))),
            ("frames", .string(f.frames.description)),
            ("droppedFrames", .int(Int64(f.droppedFrames))),
        ])
    }

    /// `video.deflicker` and `plan.deflicker`: the flicker found and what was done about it.
    static func deflicker(_ d: DeflickerFinding.Summary) -> JSONValue {
        .object([
            ("request", .string(d.request)),
            ("frequency", .optional(d.frequency.map { .double($0) })),
            ("depthBefore", .optional(d.depthBefore.map { .double($0) })),
            ("depthAfter", .optional(d.depthAfter.map { .double($0) })),
            ("corrected", .bool(d.isCorrected)),
            ("bands", .bool(d.inBands)),
            ("chroma", .bool(d.inChroma)),
        ])
    }

    /// One of `video.cuts`: where it is in the source and in the output.
    static func cut(_ c: SceneCut) -> JSONValue {
        .object([("source", seconds(c.source)), ("output", seconds(c.output))])
    }

    /// The `audio` object: the same members in the report (`hfr.export/1`) and the plan
    /// (`hfr.export-plan/1`).
    static func audio(algorithm: String, tracks: Int, sampleRate: Int?, samples: Int64?, duration: Rational?)
        -> JSONValue
    {
        .object([
            ("algorithm", .string(algorithm)),
            ("tracks", .int(Int64(tracks))),
            ("sampleRate", .optional(sampleRate.map { .int(Int64($0)) })),
            ("samples", .optional(samples.map { .int($0) })),
            ("duration", .optional(duration.map(seconds))),
        ])
    }

    static func summaryLine(_ r: ExportReport) -> String {
        let with = r.encoder.map { " with \($0)" + (r.quality.map { " \($0)" } ?? "") } ?? ""
        let how =
            r.isReencoded
            ? "re-encoded\(with) (\(r.reencodeReason ?? ""))"
            : r.isSpliced
                ? "copied losslessly but for the segments re-encoded (\(r.reencodeReason ?? ""))" : "copied losslessly"
        var line = "Exported \(r.output): \(r.framesOut) of \(r.framesIn) frames \(how), "
        if let method = r.interpolation { line += "\(r.interpolatedFrames) made between them (\(method)), " }
        if let f = r.filledDrops {
            line += "\(f.frames.count) filling \(f.droppedFrames) dropped (\(f.method)), "
        }
        line +=
            "\(DecimalText.fixed(r.outputDuration.doubleValue, digits: 3)) s at \(r.outputRate.compactDescription) fps"
        if let d = r.deflicker, d.isCorrected, let f = d.frequency, let before = d.depthBefore {
            line += ", \(DeflickerFinding.hertz(f)) flicker \(DeflickerFinding.percent(before))"
            line += d.depthAfter.map { " → \(DeflickerFinding.percent($0))" } ?? ""
        }
        line += ", audio \(r.audioAlgorithm)"
        if let d = r.audioDuration { line += " \(DecimalText.fixed(d.doubleValue, digits: 3)) s" }
        if r.audioTracks > 1 { line += " (\(r.audioTracks) tracks)" }
        return line
    }
}
