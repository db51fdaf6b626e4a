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
            ("container", .string(p.container)),
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
            ("framesIn", .int(Int64(p.framesIn))),
            ("framesOut", .int(Int64(p.framesOut))),
            ("hiddenFrames", .int(Int64(p.hiddenFrames))),
            ("interpolatedFrames", .int(Int64(p.interpolatedFrames))),
            ("interpolation", .optional(p.interpolation.map { .string($0) })),
            ("outputDuration", ExportJSON.seconds(p.outputDuration)),
            ("audio", .object([("algorithm", .string(p.audioAlgorithm))])),
            ("notes", .array(p.notes.map { .string($0) })),
        ])
    }

    static func segment(_ s: ExportPreview.Segment) -> JSONValue {
        .object([
            ("source", span(s.sourceStart, s.sourceEnd)),
            ("speed", .string(s.speed.description)),
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
