import CFFmpeg

/// Where each frame of a raw H.264/HEVC stream with B-frames is shown: read (decode) order is not
/// presentation order there, and the stream holds no times to say it. Found by decoding the stream
/// once, each packet tagged with its read index, and reading the tags in the order the decoder
/// gives the pictures back: the codec's own reordering rules, not a guess. Computed once per file
/// in a process (every demuxer opened on the stream shares it).
public struct PresentationOrder: Sendable, Equatable {
    /// `ranks[i]`: the presentation index of the frame read `i`-th.
    public let ranks: [Int32]
    /// How many frames decoding runs ahead of showing at most (`i - ranks[i]`): decode times are
    /// presentation times this many frames earlier.
    public let delay: Int

    init(shown: [Int]) {
        var ranks = [Int32](repeating: 0, count: shown.count)
        for (rank, read) in shown.enumerated() { ranks[read] = Int32(rank) }
        self.ranks = ranks
        delay = ranks.enumerated().map { $0.offset - Int($0.element) }.max() ?? 0
    }

    private static let cache = Locked<[FileVersion: PresentationOrder?]>([:])

    /// The order of stream `stream`'s frames in the raw stream at `path` (H.264: nil when no slice
    /// is a B slice, read order is presentation order then), found the first time it is asked for.
    static func of(path: String, stream: Int, codec: String) throws(AVFailure) -> PresentationOrder? {
        let key = FileVersion(path: path)
        if let key, let known = cache.withLock({ $0[key] }) { return known }
        var order: PresentationOrder? = nil
        if try codec != "h264" ? true : hasBSlices(path: path, stream: stream) {
            order = try decode(path: path, stream: stream)
        }
        if let key { cache.withLock { $0[key] = order } }
        return order
    }

    /// Whether any access unit of an H.264 stream starts with a B slice (a read of the packets,
    /// no decoding): an SPS may allow reordering that the stream never uses (rpicam-vid's).
    private static func hasBSlices(path: String, stream index: Int) throws(AVFailure) -> Bool {
        let demuxer = try Demuxer(url: path)
        demuxer.discardStreams(except: [index])
        let packet = try Packet()
        while try demuxer.read(into: packet) {
            if packet.streamIndex == index, packet.withData(PacketRetimer.hasBSlice) { return true }
        }
        return false
    }

    private static func decode(path: String, stream index: Int) throws(AVFailure) -> PresentationOrder {
        let demuxer = try Demuxer(url: path)
        demuxer.discardStreams(except: [index])
        let info = demuxer.streams[index]
        let decoder = try Decoder(
            parameters: demuxer.codecParameters(ofStream: index), timeBase: info.timeBase, threads: 2)
        let packet = try Packet()
        let frame = try Frame()
        var read = 0
        var shown: [Int] = []
        func drain() throws(AVFailure) {
            while case .value = try decoder.receive(into: frame) {
                if let tag = frame.pts { shown.append(Int(tag)) }
                frame.unref()
            }
        }
        func feed(_ packet: Packet?) throws(AVFailure) {
            while true {
                let state: Drain<Void>
                do {
                    state = try decoder.send(packet)
                } catch {
                    throw unordered("frame \(read) does not decode (\(error))")
                }
                try drain()
                guard case .needsInput = state else { return }
            }
        }
        while try demuxer.read(into: packet) {
            guard packet.streamIndex == index else { continue }
            packet.pts = Int64(read)
            packet.dts = Int64(read)
            read += 1
            try feed(packet)
        }
        try feed(nil)
        guard shown.count == read, Set(shown) == Set(0..<read) else {
            throw unordered("\(shown.count) of its \(read) frames decode")
        }
        return PresentationOrder(shown: shown)
    }

    private static func unordered(_ why: String) -> AVFailure {
        .timing(
            "the stream has B-frames (stored out of presentation order) and their order cannot be found by decoding: "
                + why)
    }
}
