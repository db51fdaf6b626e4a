import HFRMedia

extension SplitTags {
    /// What a unit of `part` writes: its start on the output timeline, and, for the rest unit, the
    /// video's delay behind the audio.
    static func tags(_ part: ExportSettings.SplitPart, plan: ExportPlan) -> [String: String] {
        var tags = [start: plan.map.outputTime(at: plan.start).description]
        if part == .rest { tags[videoDelay] = plan.videoDelay.description }
        return tags
    }
}
