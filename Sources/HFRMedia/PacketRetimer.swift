import CFFmpeg

/// Gives the video packets of a raw stream the times of an `InputTiming`, in read order, and
/// checks that there is one time per frame. Raw H.264/HEVC streams hold no times; FFmpeg's raw
/// demuxers make some up at 25 fps. The times are given in presentation order: with B-frames, read
/// order is not that, and `PresentationOrder` says where each frame read is shown (decode times
/// then run `delay` frames behind).
final class PacketRetimer {
    let streamIndex: Int
    let timeBase: Rational
    /// Each frame's time in `timeBase`; nil for a constant rate (frame `i` at tick `i`).
    private let ticks: [Int64]?
    private let source: String
    /// Ticks the last frame lasts (the average step for a list of times).
    private let lastDuration: Int64
    /// Where each frame read is shown; nil when read order is presentation order.
    private let order: PresentationOrder?
    private(set) var framesRead = 0

    init(timing: InputTiming, stream: StreamInfo, order: PresentationOrder?) throws(AVFailure) {
        streamIndex = stream.index
        self.order = order
        switch timing {
        case .constantRate(let rate):
            timeBase = rate.reciprocal
            ticks = nil
            source = "--input-fps"
            lastDuration = 1
        case .timestamps(let times):
            timeBase = times.timeBase
            ticks = times.ticks
            source = times.source
            let span = (times.ticks.last ?? 0) - (times.ticks.first ?? 0)
            lastDuration = times.ticks.count > 1 ? max(1, Rational(span, Int64(times.ticks.count - 1)).rounded()) : 1
        }
        if let ticks, let order, order.ranks.count != ticks.count { throw countFailure(frames: order.ranks.count) }
    }

    /// `stream` as the given timing describes it: time base, start, duration, frame count, rates.
    func describe(_ stream: StreamInfo) -> StreamInfo {
        var info = stream
        info.timeBase = timeBase
        info.startTime = ticks?.first ?? 0
        if let ticks, let first = ticks.first, let last = ticks.last {
            info.duration = last - first + lastDuration
            info.declaredFrameCount = Int64(ticks.count)
            info.averageFrameRate =
                ticks.count > 1 ? Rational(Int64(ticks.count - 1)) / Rational.seconds(last - first, in: timeBase) : nil
            info.realFrameRate = nil
        } else {
            info.duration = nil
            info.declaredFrameCount = 0
            info.averageFrameRate = timeBase.reciprocal
            info.realFrameRate = timeBase.reciprocal
        }
        return info
    }

    /// Whether the next frame has a time (false: the list is exhausted).
    var hasNext: Bool { ticks.map { framesRead < $0.count } ?? true }

    /// Gives `packet`, the next frame in read order, its time.
    func retime(_ packet: Packet) throws(AVFailure) {
        let i = framesRead
        let delay = order?.delay ?? 0
        guard order.map({ i < $0.ranks.count }) ?? true else { throw Self.changedFailure }
        let shown = order.map { Int($0.ranks[i]) } ?? i
        if let ticks {
            packet.pts = ticks[shown]
            packet.duration = shown + 1 < ticks.count ? ticks[shown + 1] - ticks[shown] : lastDuration
            packet.dts = i >= delay ? ticks[i - delay] : ticks[0] - Int64(delay - i) * lastDuration
        } else {
            packet.pts = Int64(shown)
            packet.duration = 1
            packet.dts = Int64(i - delay)
        }
        framesRead += 1
    }

    /// The failure for a list that does not have one time per frame (`frames` read in all).
    func countFailure(frames: Int) -> AVFailure {
        .timing(
            "\(source) has \(ticks?.count ?? 0) timestamps but the stream has \(frames) frames (one per frame needed)")
    }

    /// At the end of the stream: the list must not have times left over.
    func finish() throws(AVFailure) {
        if let ticks, framesRead != ticks.count { throw countFailure(frames: framesRead) }
    }

    /// The stream has more frames than when its order was found: it changed while being read.
    static let changedFailure = AVFailure.timing("the stream has more frames than when it was first read")

    /// Whether the first slice of an Annex B H.264 access unit is a B slice (slice_type 1 or 6).
    static func hasBSlice(_ data: UnsafeRawBufferPointer) -> Bool {
        var i = 0
        while i + 3 < data.count {
            guard data[i] == 0, data[i + 1] == 0, data[i + 2] == 1 else {
                i += 1
                continue
            }
            let type = data[i + 3] & 0x1F
            if type == 1 || type == 5 {
                var reader = ExpGolombReader(data, from: i + 4)
                _ = reader.unsigned()  // first_mb_in_slice
                return reader.unsigned().map { $0 % 5 == 1 } ?? false
            }
            i += 3
        }
        return false
    }
}

/// Reads Exp-Golomb codes from a few bytes of a slice header (no emulation prevention needed so
/// close to the start: the first two fields cannot contain 0x000003).
private struct ExpGolombReader {
    let data: UnsafeRawBufferPointer
    var bit: Int

    init(_ data: UnsafeRawBufferPointer, from byte: Int) {
        self.data = data
        bit = byte * 8
    }

    private mutating func next() -> Int? {
        guard bit / 8 < data.count else { return nil }
        defer { bit += 1 }
        return Int(data[bit / 8] >> (7 - UInt8(bit % 8))) & 1
    }

    mutating func unsigned() -> Int? {
        var zeros = 0
        while true {
            guard let b = next() else { return nil }
            if b == 1 { break }
            zeros += 1
            if zeros > 31 { return nil }
        }
        var value = 0
        for _ in 0..<zeros {
            guard let b = next() else { return nil }
            value = value << 1 | b
        }
        return (1 << zeros) - 1 + value
    }
}
