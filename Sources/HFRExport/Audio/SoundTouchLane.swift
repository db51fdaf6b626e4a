internal import CSoundTouch

/// One SoundTouch WSOLA stretcher (through `CSoundTouch`) for all channels of a track: SoundTouch
/// picks each window's place from all channels together, so they stay sample-aligned.
final class SoundTouchLane {
    /// The WSOLA windows (ms). Short ones, because at large factors a window's content plays at
    /// speed 1 and lands up to its length early or late: with 10 ms sequences sound is centred
    /// within about 6 ms of its place at 8× (40 ms ones: 20 ms at 2×, 64 ms at 4×), and speech
    /// stretched 8× changes less from one 10 ms spectrum to the next than with SoundTouch's own
    /// longer windows (which repeat audibly at large factors).
    static let settings = hfr_time_stretch_settings(sequence_ms: 10, seek_window_ms: 5, overlap_ms: 4)

    let channels: Int
    private let stretch: OpaquePointer
    private var interleaved: [Float] = []

    /// `tempo`: input seconds per output second (0.25 = four times longer).
    init(tempo: Double, sampleRate: Int, channels: Int) throws(ExportFailure) {
        if let reason = hfr_time_stretch_load_error() {
            throw .unavailable(
                "the time-domain audio stretch needs libhfr-soundtouch.so, beside hfr or in ../lib/hfr "
                    + "(reinstall hfr): \(String(cString: reason))")
        }
        var settings = SoundTouchLane.settings
        guard let made = hfr_time_stretch_create(Int32(sampleRate), Int32(channels), tempo, &settings) else {
            throw .processing("SoundTouch: no stretcher for \(channels) channels at \(sampleRate) Hz, tempo \(tempo)")
        }
        stretch = made
        self.channels = channels
    }

    deinit { hfr_time_stretch_destroy(stretch) }

    /// Adds `chunk` (planar) to the input; `range`: only those of its frames.
    func put(_ chunk: AudioChunk, range: Range<Int>? = nil) throws(ExportFailure) {
        let range = range ?? 0..<chunk.count
        guard !range.isEmpty else { return }
        interleaved.removeAll(keepingCapacity: true)
        interleaved.reserveCapacity(range.count * channels)
        for i in range {
            for c in 0..<channels { interleaved.append(chunk.planes[c][i]) }
        }
        let status = interleaved.withUnsafeBufferPointer {
            hfr_time_stretch_put(stretch, $0.baseAddress, Int32(range.count))
        }
        try check(status)
    }

    /// Plays the input from the next WSOLA sequence on at `tempo` (the windows go on across).
    func setTempo(_ tempo: Double) throws(ExportFailure) {
        try check(hfr_time_stretch_set_tempo(stretch, tempo))
    }

    /// Input frames the sequences made so far have moved past, output frames they made, and the
    /// output frames one sequence adds.
    var position: (consumed: Int64, produced: Int64, sequence: Int) {
        let p = hfr_time_stretch_get_position(stretch)
        return (Int64(p.consumed), Int64(p.produced), Int(p.sequence))
    }

    /// Ends the input: the rest comes out of `receive`.
    func flush() throws(ExportFailure) {
        try check(hfr_time_stretch_flush(stretch))
    }

    /// Everything ready, planar.
    func receive() -> AudioChunk {
        var output = AudioChunk(planes: Array(repeating: [], count: channels))
        let block = 4096
        var buffer = [Float](repeating: 0, count: block * channels)
        while true {
            let got = Int(
                buffer.withUnsafeMutableBufferPointer {
                    hfr_time_stretch_receive(stretch, $0.baseAddress, Int32(block))
                })
            guard got > 0 else { break }
            for c in 0..<channels {
                output.planes[c] += stride(from: c, to: got * channels, by: channels).map { buffer[$0] }
            }
        }
        return output
    }

    private func check(_ status: Int32) throws(ExportFailure) {
        guard status != 0 else { return }
        throw .processing("SoundTouch: \(String(cString: hfr_time_stretch_error(stretch)))")
    }
}
