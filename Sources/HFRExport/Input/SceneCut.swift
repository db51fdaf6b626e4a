import HFRMedia

/// A scene cut found between two captured frames that pictures would have been made between
/// (`CutDetector`): none is made across it, the slots between show what `ExportSettings.cutFill` says.
public struct SceneCut: Sendable, Equatable {
    /// Real (source) seconds of the first frame after the cut, from the input's first frame (as
    /// `--range` counts them).
    public let source: Rational
    /// Output seconds of the first output frame that shows it.
    public let output: Rational

    /// The note an export with cuts prints: how many, where, and what was shown across them.
    static func note(_ cuts: [SceneCut], fill: ExportSettings.CutFill) -> String? {
        guard !cuts.isEmpty else { return nil }
        let shown = 8
        var times = cuts.prefix(shown).map { TimeMap.seconds($0.source) }.joined(separator: ", ")
        if cuts.count > shown { times += ", …" }
        let how =
            switch fill {
            case .repeat: "repeat: the frame before each is held until the one after it"
            case .crossfade: "crossfade: the frames on either side are cross-faded"
            }
        let count = cuts.count == 1 ? "1 scene cut" : "\(cuts.count) scene cuts"
        return "\(count) (source \(times) s): not interpolated across (\(how))"
    }
}
