import Foundation

/// The tempo one SoundTouch stretcher plays an eased piece at, sequence by sequence, so a single
/// stretcher runs through the whole ease: its WSOLA windows go on across the steps, where one
/// stretcher per step joined their outputs with a jump at every step boundary.
///
/// Each WSOLA sequence adds `sequence` output samples and moves the input position by
/// tempo × `sequence`. Before each sequence the tempo is chosen so that the next one starts where
/// the map wants it: the output position then follows the map's steps from where the stretcher
/// actually is, and no step's rounding or the stretcher's own start adds up along the ease. At a
/// constant tempo T, sound at the input position lands `offset(T)` output samples after the output
/// position (`TimeDomainStretcher.Calibration`, measured per tempo); the course allows for it at the
/// local speed, so sound lands where the map puts it as the tempo changes.
struct TempoCourse {
    /// The piece's map, (input sample, output sample) from (0, 0) to its end, rising in both: its
    /// ends and the ease's step boundaries inside it.
    let points: [(input: Double, output: Double)]
    /// Input samples the stretcher is fed before the piece's first (its pre-roll), and output
    /// samples it drops at the start.
    let fed: Double
    let dropped: Double
    /// Output samples after the output position at which sound at the input position lands, at
    /// a tempo.
    let offset: (Double) -> Double

    init(
        points: [(input: Double, output: Double)], fed: Double, dropped: Double,
        offset: @escaping (Double) -> Double
    ) {
        precondition(points.count >= 2, "a course needs both ends of its piece")
        self.points = points
        self.fed = fed
        self.dropped = dropped
        self.offset = offset
    }

    /// The speed (input per output sample) of the map at piece input `x`: the step holding it, the
    /// first or last one beyond the piece.
    func speed(atInput x: Double) -> Double {
        let i = segment { $0.input <= x }
        return (points[i + 1].input - points[i].input) / (points[i + 1].output - points[i].output)
    }

    /// Piece input sample the map plays at piece output `y` (the end steps extended beyond).
    func input(atOutput y: Double) -> Double {
        let i = segment { $0.output <= y }
        let (a, b) = (points[i], points[i + 1])
        return a.input + (y - a.output) * (b.input - a.input) / (b.output - a.output)
    }

    /// The tempo for the stretcher's next sequence, from where it is: `consumed` input and
    /// `produced` output samples so far (pre-roll and dropped samples included), `sequence` output
    /// samples per sequence. Before its first sequence it starts at the map's own speed there
    /// (where its start was measured); after that each tempo is held within a factor of 2 of the
    /// map's, so a late correction cannot throw the windows far.
    func tempo(consumed: Int64, produced: Int64, sequence: Int) -> Double {
        let local = speed(atInput: Double(consumed) - fed)
        guard produced > 0, sequence > 0 else { return local }
        let next = Double(produced + Int64(sequence)) - dropped + offset(local)
        let target = fed + input(atOutput: next)
        let tempo = (target - Double(consumed)) / Double(sequence)
        return min(max(tempo, local / 2), local * 2)
    }

    /// The index of the step (point and the next) where the last point satisfying `isBefore` is,
    /// clamped to the first and last steps.
    private func segment(_ isBefore: ((input: Double, output: Double)) -> Bool) -> Int {
        var (low, high) = (0, points.count - 1)
        // Binary search for the last point before, over points[0..<count-1].
        while high - low > 1 {
            let mid = (low + high) / 2
            if isBefore(points[mid]) { low = mid } else { high = mid }
        }
        return min(low, points.count - 2)
    }
}
