import HFRMedia

extension ExportPlan {
    /// Why the steps of an eased change of speed are re-encoded (the same words for every step,
    /// so the reasons name it once).
    static func easeReason(_ ease: TimeMap.Ease, map: TimeMap, k: Rational, output o: Rational) -> String {
        let from = map.segments[ease.steps.lowerBound].start * k
        let to = (map.segments[ease.steps.upperBound - 1].end ?? from) * k
        return
            "ramp ease \(TimeMap.seconds(from))-\(TimeMap.seconds(to)) s (speed \(TimeMap.seconds(ease.from * k)) to "
            + "\(TimeMap.seconds(ease.to * k))) at \(o.compactDescription) fps: a speed that changes every frame "
            + "needs re-encoding"
    }

    /// The reasons segments cannot be copied, each said once, in order.
    static func reasons(_ failures: [(segment: Int, reason: String)]) -> String {
        var said: Set<String> = []
        return failures.map(\.reason).filter { said.insert($0).inserted }.joined(separator: "; ")
    }
}
