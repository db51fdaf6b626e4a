import CFFmpeg

/// Gives the video packets of a raw stream the times of an `InputTiming`, in read order, and
/// checks that there is one time per frame. Raw H.264/HEVC streams hold no times; FFmpeg's raw
/// demuxers make some up at 25 fps. Read order is presentation order only without B-frames, so a
/// stream that reorders frames is refused rather than timed wrongly.
final class PacketRetimer {
    let streamIndex: Int
    let timeBase: Rational
    /// Each frame's time in `timeBase`; nil for a constant rate (frame `i` at tick `i`).
    private let ticks: [Int64]?
    private let source: String
    /// Ticks the last frame lasts (the average step for a list of times).
    private let lastDuration: Int64
    /// H.264 with a reorder delay in its SPS: each frame's slice type is checked for B.
    private let checksSliceTypes: Bool
    private(set) var framesRead = 0

    init(timing: InputTiming, stream: StreamInfo, reorderDelay: Int) throws(AVFailure) {
        streamIndex = stream.index
        if stream.codecName != "h264", reorderDelay > 0 { throw PacketRetimer.reorderingFailure }
        checksSliceTypes = stream.codecName == "h264" && reorderDelay > 0
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
        if checksSliceTypes, packet.withData(PacketRetimer.hasBSlice) { throw PacketRetimer.reorderingFailure }
        let i = Int64(framesRead)
        if let ticks {
            packet.pts = ticks[framesRead]
            packet.duration = framesRead + 1 < ticks.count ? ticks[framesRead + 1] - ticks[framesRead] : lastDuration
        } else {
            packet.pts = i
            packet.duration = 1
        }
        packet.dts = packet.pts
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

    static let reorderingFailure = AVFailure.timing(
        "the stream has B-frames (stored out of presentation order): times cannot be given to its frames in order; "
            + "only streams without B-frames (as rpicam-vid writes) can be timed from a list or a rate")

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
