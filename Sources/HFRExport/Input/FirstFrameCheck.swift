import HFRMedia

/// Before anything is written: the decoder opens from the stream's configuration (its extradata:
/// `avcC`, `hvcC`, …) and decodes the first key frame and the few packets after it. A copy of a
/// stream that fails this would be a file nothing can play, so the input is refused (exit 65). A
/// damaged parameter set can leave the key frame decodable (FFmpeg ignores what is left of its
/// slice) while every frame predicted from it fails, so one key frame alone is not enough; a
/// re-encode, which decodes every frame, refused what a copy wrote. The packets are read through
/// a demuxer of its own: no second pass over the file.
enum FirstFrameCheck {
    /// Packets read looking for the first key frame before giving up (a stream that flags none).
    static let searchLimit = 300
    /// Packets decoded after the first key frame: the frames predicted from it come first.
    static let followingPackets = 3

    static func run(_ input: MediaInput, video: StreamInfo) throws(ExportFailure) {
        // Neither a version-1 record nor Annex B parameter sets: the muxer would rewrite it as
        // garbage even where the decoder copes.
        if let record = ParameterSetRecord.name(codec: video.codecName),
            !ParameterSetRecord.isRecordOrAnnexB(video.extradata)
        {
            throw .badInput("video decoder configuration (\(record)) is corrupt")
        }
        let demuxer = try open(input)
        let packet = try ExportFailure.during("allocating a packet") { try Packet() }
        demuxer.discardStreams(except: [video.index])
        var read = 0
        var decoding: Decoding?
        while read < searchLimit, decoding.map({ $0.packets <= followingPackets }) ?? true {
            let more: Bool
            do {
                more = try demuxer.read(into: packet)
            } catch {
                break  // the copy pass meets the same fault and names it
            }
            guard more else { break }
            guard packet.streamIndex == video.index, packet.size > 0 else { continue }
            read += 1
            if decoding == nil, packet.isKeyframe {
                do {
                    decoding = try Decoding(parameters: demuxer.codecParameters(ofStream: video.index), video: video)
                } catch {
                    throw .badInput(cause(of: "the first video key frame does not decode (\(error))", video: video))
                }
            }
            if let failure = decoding?.decode(packet) { throw .badInput(cause(of: failure, video: video)) }
        }
        if let decoding {
            if let failure = decoding.finish() { throw .badInput(cause(of: failure, video: video)) }
            return
        }
        // No key frame flagged (the demuxer could not read the configuration to find one): the
        // configuration record itself must then be well formed.
        if read > 0, ParameterSetRecord.name(codec: video.codecName) != nil {
            if let corrupt = corruptRecord(video) { throw .badInput(corrupt) }
        }
    }

    private static func open(_ input: MediaInput) throws(ExportFailure) -> Demuxer {
        // The container's header holds the codec and its configuration; a raw stream has no
        // header, and its configuration comes from reading its first packets.
        try ExportFailure.reading { () throws(AVFailure) in
            try Demuxer(url: input.path, timing: input.timing, readsStreamInfo: input.timing != nil)
        }
    }

    /// The cause a user can act on: the configuration record when it does not parse, else the frame.
    static func cause(of failure: String, video: StreamInfo) -> String {
        corruptRecord(video) ?? failure
    }

    /// The cause when the stream's configuration record (`avcC`, `hvcC`) is malformed; else nil.
    static func corruptRecord(_ video: StreamInfo) -> String? {
        guard let record = ParameterSetRecord.name(codec: video.codecName), !video.extradata.isEmpty,
            !ParameterSetRecord.isWellFormed(video.extradata, codec: video.codecName)
        else { return nil }
        return "video decoder configuration (\(record)) is corrupt"
    }
}

/// The decoder of the check, fed the first key frame and the packets after it.
private final class Decoding {
    let decoder: Decoder
    let frame: Frame
    /// Packets sent so far, the key frame first.
    private(set) var packets = 0
    /// Frames received so far (the key frame's is the first).
    private var frames = 0
    /// The key frame's presentation time: frames shown before it (an open GOP's leading pictures)
    /// may refer to pictures before the file's start and are not held to decode.
    private var keyTime: Int64?

    init(parameters: CodecParameters, video: StreamInfo) throws(AVFailure) {
        decoder = try Decoder(parameters: parameters, timeBase: video.timeBase, threads: 1)
        frame = try Frame()
    }

    /// Nil while every frame decodes whole; else what went wrong, as a cause.
    func decode(_ packet: Packet) -> String? {
        packets += 1
        if packets == 1 { keyTime = packet.pts }
        // A frame an edit list hides still has to decode: shown, it tells.
        packet.isDiscarded = false
        do {
            _ = try decoder.send(packet)
        } catch {
            return failure(error.description, frame: packets)
        }
        return receive()
    }

    /// Drains the decoder; nil when the key frame and every frame after it decoded whole.
    func finish() -> String? {
        do {
            _ = try decoder.send(nil)
        } catch {
            return failure(error.description, frame: frames + 1)
        }
        if let failure = receive() { return failure }
        return frames == 0 ? failure("no picture", frame: 1) : nil
    }

    private func receive() -> String? {
        while true {
            do {
                guard case .value = try decoder.receive(into: frame) else { return nil }
            } catch {
                return failure(error.description, frame: frames + 1)
            }
            frames += 1
            let isLeading = frames > 1 && (frame.bestEffortTimestamp ?? .max) < (keyTime ?? .min)
            if frame.isCorrupt, !isLeading { return failure("decodes with errors", frame: frames) }
        }
    }

    /// The cause, naming the frame (counted from the key frame, 1) that failed.
    private func failure(_ what: String, frame number: Int) -> String {
        number <= 1
            ? "the first video key frame does not decode (\(what))"
            : "the video does not decode after its first key frame (frame \(number): \(what))"
    }
}

/// The layout of the decoder configuration records H.264 and HEVC keep in the container: version
/// 1, every parameter set within the record and of the NAL unit type its place says.
enum ParameterSetRecord {
    static func name(codec: String) -> String? {
        switch codec {
        case "h264": "avcC"
        case "hevc": "hvcC"
        default: nil
        }
    }

    /// Empty, a configuration record (version 1), or parameter sets behind start codes.
    static func isRecordOrAnnexB(_ b: [UInt8]) -> Bool {
        b.isEmpty || b[0] == 1 || b.starts(with: [0, 0, 1]) || b.starts(with: [0, 0, 0, 1])
    }

    static func isWellFormed(_ bytes: [UInt8], codec: String) -> Bool {
        switch codec {
        case "h264": isWellFormedAVCC(bytes)
        case "hevc": isWellFormedHVCC(bytes)
        default: true
        }
    }

    /// ISO 14496-15 5.3.3.1: version, profile, compatibility, level, length size, SPS count (≥ 1),
    /// SPS (type 7), PPS count (≥ 1), PPS (type 8).
    static func isWellFormedAVCC(_ b: [UInt8]) -> Bool {
        guard b.count >= 7, b[0] == 1 else { return false }
        var at = 5
        for type in [UInt8(7), 8] {
            guard at < b.count else { return false }
            let count = Int(type == 7 ? b[at] & 0x1F : b[at])
            at += 1
            guard count > 0 else { return false }
            for _ in 0..<count {
                guard at + 2 <= b.count else { return false }
                let length = Int(b[at]) << 8 | Int(b[at + 1])
                at += 2
                guard length > 0, at + length <= b.count, b[at] & 0x1F == type else { return false }
                at += length
            }
        }
        return true
    }

    /// ISO 14496-15 8.3.3.1: version 1, 22 bytes of profile and format, then arrays of NAL units of
    /// parameter-set or SEI types, each within the record and of the type its array names.
    static func isWellFormedHVCC(_ b: [UInt8]) -> Bool {
        guard b.count >= 23, b[0] == 1 else { return false }
        var at = 23
        for _ in 0..<Int(b[22]) {
            guard at + 3 <= b.count else { return false }
            let type = b[at] & 0x3F
            let count = Int(b[at + 1]) << 8 | Int(b[at + 2])
            at += 3
            // Parameter sets (VPS 32, SPS 33, PPS 34) and SEI (39, 40), never an empty array.
            guard (32...40).contains(type), count > 0 else { return false }
            for _ in 0..<count {
                guard at + 2 <= b.count else { return false }
                let length = Int(b[at]) << 8 | Int(b[at + 1])
                at += 2
                guard length >= 2, at + length <= b.count, (b[at] >> 1) & 0x3F == type else { return false }
                at += length
            }
        }
        return true
    }
}
