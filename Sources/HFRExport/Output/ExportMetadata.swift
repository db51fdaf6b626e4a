import Foundation
import HFRMedia
import HFRProbe

/// The tags an export writes: the capture rate of the output's frames (Android's key and hfr's),
/// and what was done to get there.
enum ExportMetadata {
    /// Frames per second of source (real) time the output holds where the map is slowest:
    /// 120 after a conform of 120 fps footage, 30 after `--fps 30`.
    static func captureRate(plan: ExportPlan, sourceCaptureRate: Rational) -> Rational {
        min(plan.outputRate / plan.realMap.slowestSpeed, sourceCaptureRate)
    }

    /// The tags; into MP4/MOV (`isISO`) Android's key holds `MP4MetadataPatch.placeholder`, which
    /// `floatTags` then replaces with a float32 as Android writes it (Matroska keeps the decimal text).
    /// `com.hfr.interpolated` (the method) when the output holds pictures made between captured frames;
    /// `com.hfr.filled-drops` (the output frames, `FrameRanges`) and `com.hfr.filled-drops.method`
    /// when it holds frames `--fill-drops` made where the capture dropped some.
    static func tags(plan: ExportPlan, sourceCaptureRate: Rational, isISO: Bool) -> [String: String] {
        let capture = captureRate(plan: plan, sourceCaptureRate: sourceCaptureRate)
        var tags = [
            Prober.androidCaptureRateKey: isISO ? MP4MetadataPatch.placeholder : DecimalText.fixed(capture, digits: 6),
            Prober.captureRateKey: capture.description,
            "com.hfr.export.speed": plan.realMap.description,
            "com.hfr.export.slowmotion": plan.realMap.slowestSpeed.reciprocal.description,
            "com.hfr.export.source.fps": sourceCaptureRate.description,
        ]
        if let method = plan.synthesis { tags[Prober.interpolatedKey] = method.rawValue }
        if let method = plan.dropFill, !plan.filledDrops.isEmpty {
            tags[Prober.filledDropsKey] = plan.filledDrops.description
            tags[Prober.filledDropsMethodKey] = method.rawValue
        }
        return tags
    }

    /// The float32 values `MP4MetadataPatch.setFloat32` writes after the trailer of an MP4/MOV.
    static func floatTags(plan: ExportPlan, sourceCaptureRate: Rational) -> [String: Float] {
        [Prober.androidCaptureRateKey: Float(captureRate(plan: plan, sourceCaptureRate: sourceCaptureRate).doubleValue)]
    }

    /// `creation_time`, `encoder` (`hfr 0.1.0`) and `com.hfr.version`. The input's creation_time is
    /// kept, as an ffmpeg stream copy keeps it: a conform of a phone clip still says when it was shot.
    /// An input without one gets its file's modification time, not the time of the export: the same
    /// export of the same file then gives the same bytes whenever it runs (a batch job and a
    /// standalone export agree byte for byte).
    static func identity(inputTags: [String: String], input: String) -> [(key: String, value: String)] {
        let kept = inputTags.first { $0.key.lowercased() == "creation_time" && !$0.value.isEmpty }?.value
        var info = stat()
        let modified = input.withPathBytes({ stat($0, &info) }) == 0 ? Int64(info.st_mtim.tv_sec) : 0
        return HFRVersion.tags(creationTime: kept ?? HFRVersion.creationTimeText(secondsSince1970: modified))
    }
}
