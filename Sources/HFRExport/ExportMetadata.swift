import HFRMedia
import HFRProbe

/// The tags an export writes: the capture rate of the output's frames (Android's key and hfr's),
/// and what was done to get there.
enum ExportMetadata {
    /// Frames per second of source (real) time the output holds where the map is slowest:
    /// 120 after a conform of 120 fps footage, 30 after `--fps 30`.
    static func tags(plan: ExportPlan, sourceCaptureRate: Rational) -> [String: String] {
        let slowest = plan.realMap.slowestSpeed
        let capture = min(plan.outputRate / slowest, sourceCaptureRate)
        return [
            Prober.androidCaptureRateKey: decimal(capture),
            Prober.captureRateKey: capture.description,
            "com.hfr.export.speed": plan.realMap.description,
            "com.hfr.export.slowmotion": slowest.reciprocal.description,
            "com.hfr.export.source.fps": sourceCaptureRate.description,
        ]
    }

    static func decimal(_ rate: Rational) -> String {
        let micro = (rate * Rational(1_000_000)).rounded()
        let fraction = String(micro % 1_000_000)
        return "\(micro / 1_000_000)." + String(repeating: "0", count: 6 - fraction.count) + fraction
    }
}
