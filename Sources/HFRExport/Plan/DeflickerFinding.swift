import HFRFlicker
import HFRMedia

/// What `--deflicker` found in the pictures (`FlickerScan`) and so what the export does: the
/// flicker's model when there is one to take out (the video is then re-encoded), its frequency
/// and depth, and the sentence the plan says.
public struct DeflickerFinding: Sendable {
    public let request: ExportSettings.Deflicker
    /// Nil: nothing is taken out (`note` says why).
    public let model: FlickerModel?
    /// The flicker's measured frequency in Hz; nil when none was found.
    public let frequency: Double?
    /// The flicker's depth before correction ((max − min)/(max + min) of the light); nil when none.
    public let depth: Double?
    public let note: String

    init(series: FlickerSeries, request: ExportSettings.Deflicker) {
        self.request = request
        let asked = "--deflicker \(request.argument)"
        let rate = series.frameRate ?? 0
        let found: FlickerModel?
        if case .mains = request, let f = request.frequencies.first {
            found = FlickerAnalysis.fit(series, frequency: f)
        } else {
            found = FlickerAnalysis.detect(series, frequencies: request.frequencies)
        }
        model = found
        frequency = found?.measuredFrequency
        depth = found?.depth
        guard let found else {
            let invisible = request.frequencies.filter { FlickerAnalysis.isInvisible($0, frameRate: rate) }
            if series.count < 16 {
                note =
                    "\(asked): \(series.count) frames are too few to measure flicker; the pictures are left as they are"
            } else if case .mains = request, let f = invisible.first {
                note =
                    "\(asked): \(Int(f)) Hz flicker cannot be seen at \(Int(rate.rounded())) fps "
                    + "(every frame at the same phase of it): nothing to take out"
            } else {
                note = "\(asked): no mains flicker found (depth under 1 %): the pictures are left as they are"
            }
            return
        }
        let mains = Int((found.frequency / 2).rounded())
        note =
            "\(asked): \(DeflickerFinding.hertz(found.measuredFrequency)) flicker (\(mains) Hz mains), depth "
            + "\(DeflickerFinding.percent(found.depth))"
            + (found.isBanded ? ", in bands (rolling shutter): corrected row by row" : "")
            + (found.correctsChroma ? ", chroma too" : "") + ": taken out (re-encodes)"
    }

    /// What the plan and the report say of it: found where, how deep before (and, once written,
    /// after), and whether it is taken out.
    public struct Summary: Sendable {
        /// As asked: auto, 50, 60.
        public let request: String
        public let frequency: Double?
        public let depthBefore: Double?
        /// Measured on the written pictures at the same frequency; nil in a plan.
        public var depthAfter: Double?
        public let isCorrected: Bool
        public let inBands: Bool
        public let inChroma: Bool
    }

    /// The plan's summary (no depth after yet).
    public var summary: Summary {
        Summary(
            request: request.argument, frequency: frequency, depthBefore: depth, depthAfter: nil,
            isCorrected: model != nil, inBands: model?.isBanded ?? false, inChroma: model?.correctsChroma ?? false)
    }

    /// "100.0 Hz".
    public static func hertz(_ f: Double) -> String { DecimalText.fixed(f, digits: 1) + " Hz" }
    /// "12.3 %".
    public static func percent(_ d: Double) -> String { DecimalText.fixed(d * 100, digits: 1) + " %" }
}

extension ExportSettings.Deflicker {
    /// As the option is written: auto, 50, 60.
    public var argument: String {
        switch self {
        case .auto: "auto"
        case .mains(let hz): String(hz)
        }
    }
}
