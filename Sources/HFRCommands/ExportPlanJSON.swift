import HFRExport
import HFRMedia

/// An export's plan as JSON (schema `hfr.export-plan/1`): what `export --dry-run --json` prints,
/// and the `plan` member of the `hfr.export/1` report (the same object, with the counts written).
enum ExportPlanJSON {
    static let schema = "hfr.export-plan/1"

    static func document(_ p: ExportPreview) -> JSONValue {
        .object([
            ("schema", .string(schema)),
            ("input", .string(p.input)),
            ("output", .string(p.output)),
            ("container", .string(p.container.name)),
            ("captureFrameRate", .string(p.captureRate.description)),
            ("captureFrameRateSource", .string(p.captureRateSource)),
            ("outputFrameRate", .string(p.outputRate.description)),
            ("timeMap", .string(p.map.description)),
            ("range", span(p.start, p.end)),
            ("layers", .optional(p.levelCount.map { .int(Int64($0)) })),
            ("layerSignalling", .string(p.layerSignalling ?? "not-analysed")),
            ("reencoded", .bool(p.isReencoded)),
            ("spliced", .bool(p.isSpliced)),
            ("reencodeReason", .optional(p.reencodeReason.map { .string($0) })),
            ("segments", .array(p.segments.map(segment))),
            ("reencodedSpans", .array(p.reencodedSpans.map(span))),
            ("framesIn", .int(Int64(p.framesIn))),
            ("framesOut", .int(Int64(p.framesOut))),
            ("hiddenFrames", .int(Int64(p.hiddenFrames))),
            ("interpolatedFrames", .int(Int64(p.interpolatedFrames))),
            ("interpolation", .optional(p.interpolation.map { .string($0) })),
            ("filledDrops", .optional(p.dropFill.map { _ in .int(Int64(p.filledDrops)) })),
            ("cutFill", .optional(p.cutFill.map { .string($0) })),
            ("encoder", .optional(p.encoder.map { .string($0) })),
            ("quality", .optional(p.quality.map { .string($0) })),
            ("shutter", .optional(p.shutter.map { .string($0.compactDescription) })),
            ("deflicker", .optional(p.deflicker.map(ExportJSON.deflicker))),
            ("outputDuration", ExportJSON.seconds(p.outputDuration)),
            (
                "audio",
                ExportJSON.audio(
                    algorithm: p.audioAlgorithm, tracks: p.audioTracks, sampleRate: p.audioSampleRate,
                    samples: p.audioSamples, duration: p.audioDuration)
            ),
            ("tracks", .array(p.tracks.map(track))),
            ("notes", .array(p.notes.map { .string($0) })),
        ])
    }

    /// A splice's re-encoded stretch: what it covers and the frames it writes.
    static func span(_ s: ExportPreview.Span) -> JSONValue {
        .object([
            (
                "source",
                .object([
                    ("start", ExportJSON.seconds(s.sourceStart)),
                    ("end", .optional(s.sourceEnd.map(ExportJSON.seconds))),
                ])
            ),
            ("decodeFrom", ExportJSON.seconds(s.decodeFrom)),
            ("framesOut", .int(Int64(s.framesOut))),
            ("interpolatedFrames", .int(Int64(s.frames.interpolated))),
            (
                "output",
                .object([
                    ("start", .optional(s.frames.firstStart.map(ExportJSON.seconds))),
                    ("end", .optional(s.framesOut > 0 ? ExportJSON.seconds(s.frames.end) : nil)),
                ])
            ),
        ])
    }

    /// One stream of the input and what the export does with it.
    static func track(_ t: ExportTrack) -> JSONValue {
        .object([
            ("input", .int(Int64(t.input))),
            ("kind", .string(t.kind)),
            ("codec", .string(t.codec)),
            ("action", .string(t.action.rawValue)),
            ("output", .optional(t.output.map { .int(Int64($0)) })),
            ("reason", .optional(t.reason.map { .string($0) })),
            ("algorithm", .optional(t.algorithm.map { .string($0) })),
            ("language", .optional(t.language.map { .string($0) })),
            ("packets", .optional(t.packets.map { .int(Int64($0)) })),
            ("bytes", .optional(t.bytes.map { .int($0) })),
            ("duration", .optional(t.duration.map(ExportJSON.seconds))),
            ("sampleRate", .optional(t.sampleRate.map { .int(Int64($0)) })),
            ("samples", .optional(t.samples.map { .int($0) })),
        ])
    }

    static func segment(_ s: ExportPreview.Segment) -> JSONValue {
        .object([
            ("source", span(s.sourceStart, s.sourceEnd)),
            ("speed", .string(s.speed.description)),
            ("easeFrom", .optional(s.easeFrom.map { .string($0.description) })),
            ("framesPerOutputFrame", .string(s.stride.description)),
            ("video", .string(s.maxLevel == nil ? "reencode" : "copy")),
            ("maxKeptLayer", .optional(s.maxLevel.map { .int(Int64($0)) })),
            ("everyFrame", .bool(s.keepsEveryFrame)),
            ("framesIn", .int(Int64(s.frames.framesIn))),
            ("framesOut", .int(Int64(s.frames.framesOut))),
            ("hiddenFrames", .int(Int64(s.frames.hidden))),
            ("interpolation", .optional(s.interpolation.map { .string($0) })),
            ("interpolatedFrames", .int(Int64(s.frames.interpolated))),
            ("keptByLayer", levels(s.frames.kept)),
            ("droppedByLayer", levels(s.frames.dropped)),
            ("output", span(s.outputStart, s.outputEnd)),
        ])
    }

    static func span(_ start: Rational, _ end: Rational) -> JSONValue {
        .object([("start", ExportJSON.seconds(start)), ("end", ExportJSON.seconds(end))])
    }

    static func levels(_ counts: [Int: Int]) -> JSONValue {
        .object(counts.sorted { $0.key < $1.key }.map { (String($0.key), .int(Int64($0.value))) })
    }
}
