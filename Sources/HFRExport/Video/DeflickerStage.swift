import HFRFlicker
import HFRMedia

/// `--deflicker` in a re-encode: takes the plan's flicker model out of each decoded picture, in
/// place (a copy where the decoder still predicts from it), before anything else sees it, and
/// measures the corrected pictures so the report can say how deep the flicker is after.
final class DeflickerStage {
    let corrector: FlickerCorrector
    private var pictures: PictureLevels
    /// The corrected pictures' brightness.
    private var after: FlickerSeries

    init(model: FlickerModel, width: Int, height: Int) throws(ExportFailure) {
        corrector = FlickerCorrector(model: model)
        pictures = try ExportFailure.during("video conversion") { try PictureLevels(width: width, height: height) }
        after = FlickerSeries(height: height)
    }

    /// `frame` without its flicker at real `time` (seconds): the frame itself, or an I420 copy
    /// for formats whose brightness is not in planes of its own.
    func correct(_ frame: Frame, time: Double) throws(ExportFailure) -> Frame {
        let readable = try ExportFailure.during("video conversion", as: .inputData) { try pictures.readable(frame) }
        guard let (picture, levels) = readable else { return frame }
        if picture === frame { try ExportFailure.during("--deflicker") { try frame.makeWritable() } }
        return corrected(picture, levels, time)
    }

    /// `picture` corrected in place and measured.
    private func corrected(_ picture: Frame, _ levels: SampleLevels, _ time: Double) -> Frame {
        corrector.correct(picture, levels: levels, time: time)
        after.add(picture, levels: levels, time: time)
        return picture
    }

    /// The flicker's depth in the corrected pictures, at the frequency taken out; nil when too few.
    var depthAfter: Double? {
        FlickerAnalysis.fit(after, frequency: corrector.model.frequency).map(\.depth)
    }
}
