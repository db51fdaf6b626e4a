import CFFmpeg

/// Owns an input `AVFormatContext`: opens a file or device, reads its packets in file order.
public struct Demuxer: ~Copyable {
    let context: UnsafeMutablePointer<AVFormatContext>
    /// Times for a raw stream's video packets (`init(input:)`); nil: the demuxer's own.
    var retimer: PacketRetimer?
    /// Times for MPEG-4 Part 2 anchors in AVI (see `AnchorTimes`).
    let anchors = AnchorTimes()
    /// Decode times for fragmented MP4 samples that share one (see `FragmentTimes`).
    let fragmentTimes: FragmentTimes?
    /// Stream index → its program's id, for a file of several programs (`programIDs`).
    let programOf: [Int: Int]

    /// Opens `url` and reads enough to know its streams.
    ///
    /// - Parameters:
    ///   - format: an input format name (`"v4l2"`, `"lavfi"`), or nil to detect it from the data.
    ///   - options: demuxer/device options (`framerate`, `video_size`, …).
    ///   - timing: times for a raw stream's frames (see `init(input:)`).
    ///   - readsStreamInfo: false takes only what the header says (no packets read or decoded):
    ///     enough for frame counts and durations of an MP4/MOV index.
    public init(
        url: String, format: String? = nil, options: [String: String] = [:], timing: InputTiming? = nil,
        readsStreamInfo: Bool = true
    ) throws(AVFailure) {
        var input: UnsafePointer<AVInputFormat>? = nil
        if let format {
            try Demuxer.registerDevices.get()
            input = av_find_input_format(format)
            if input == nil {
                throw AVFailure(
                    code: HFR_AVERROR_DEMUXER_NOT_FOUND, operation: "av_find_input_format(\(format))",
                    stage: .openingInput)
            }
        }
        var ctx: UnsafeMutablePointer<AVFormatContext>? = nil
        // As ffmpeg and ffprobe do: an MPEG-TS reads every program table within the probe size, so
        // a program that starts later (PIDs that change half-way) is known with its parameters.
        var options = options
        if format == nil, options["scan_all_pmts"] == nil { options["scan_all_pmts"] = "1" }
        let opened = withOptions(options) { options in
            url.withPathBytes { avformat_open_input(&ctx, $0, input, &options) }
        }
        try check(opened, "avformat_open_input", .openingInput)
        guard let ctx else {
            throw AVFailure(code: hfr_averror(ENOMEM), operation: "avformat_open_input", stage: .openingInput)
        }
        let found = readsStreamInfo ? avformat_find_stream_info(ctx, nil) : 0
        if found < 0 {
            var owned: UnsafeMutablePointer<AVFormatContext>? = ctx
            avformat_close_input(&owned)
            throw AVFailure(code: found, operation: "avformat_find_stream_info", stage: .openingInput)
        }
        var retimer: PacketRetimer? = nil
        if let timing {
            do {
                retimer = try Demuxer.retimer(timing, for: ctx, url: url)
            } catch {
                var owned: UnsafeMutablePointer<AVFormatContext>? = ctx
                avformat_close_input(&owned)
                throw error
            }
        }
        context = ctx
        self.retimer = retimer
        programOf = Demuxer.programIDs(ctx)
        fragmentTimes = FragmentTimes.of(ctx, path: url)
    }

    /// libavdevice's inputs (v4l2, lavfi, alsa) exist only after registration, done once, and
    /// libavdevice itself is loaded then, on first use.
    private static let registerDevices = Result { () throws(AVFailure) in
        try LazyLibrary.avdevice.load(during: .openingInput)
        hfr_avdevice_register_all()
    }

    deinit {
        var owned: UnsafeMutablePointer<AVFormatContext>? = context
        avformat_close_input(&owned)
    }

    /// The container format's short name(s), e.g. "mov,mp4,m4a,3gp,3g2,mj2".
    public var formatName: String { String(cString: context.pointee.iformat.pointee.name) }

    /// The container format's descriptive name.
    public var formatLongName: String {
        context.pointee.iformat.pointee.long_name.map { String(cString: $0) } ?? formatName
    }

    /// Container-level metadata (tags), including `com.android.capture.fps` when the file has it.
    public var metadata: [String: String] { [String: String](context.pointee.metadata) }

    /// Container duration in seconds (AV_TIME_BASE units underneath); nil when unknown.
    public var durationSeconds: Rational? {
        if let retimer { return streams[retimer.streamIndex].durationSeconds }
        return Packet.optional(context.pointee.duration).map { Rational($0, Int64(AV_TIME_BASE)) }
    }

    /// Container bit rate in bits per second, 0 when unknown.
    public var bitRate: Int64 { context.pointee.bit_rate }

    /// Every stream, as plain values.
    public var streams: [StreamInfo] {
        (0..<Int(context.pointee.nb_streams)).map { i in
            var info = StreamInfo(context.pointee.streams[i]!)
            info.programID = programOf[i]
            guard let retimer, retimer.streamIndex == i else { return info }
            return retimer.describe(info)
        }
    }

    /// Stream index → the id of the program holding it, when the file has more than one program
    /// (an MPEG-TS whose programs follow one another); empty otherwise. Read when the input is
    /// opened: the MPEG-TS demuxer empties and refills a program's list as its tables come by.
    private static func programIDs(_ context: UnsafeMutablePointer<AVFormatContext>) -> [Int: Int] {
        let count = Int(context.pointee.nb_programs)
        guard count > 1, let programs = context.pointee.programs else { return [:] }
        var ids: [Int: Int] = [:]
        for p in 0..<count {
            guard let program = programs[p]?.pointee, let indices = program.stream_index else { continue }
            for k in 0..<Int(program.nb_stream_indexes) where ids[Int(indices[k])] == nil {
                ids[Int(indices[k])] = Int(program.id)
            }
        }
        return ids
    }

    /// Tells the demuxer to skip streams not in `indices` (saves copying their payloads).
    public func discardStreams(except indices: Set<Int>) {
        for i in 0..<Int(context.pointee.nb_streams) where !indices.contains(i) {
            context.pointee.streams[i]!.pointee.discard = AVDISCARD_ALL
        }
    }

    /// A copy of stream `index`'s codec parameters (to open a decoder or add an output stream).
    public func codecParameters(ofStream index: Int) throws(AVFailure) -> CodecParameters {
        try CodecParameters(copying: context.pointee.streams[index]!.pointee.codecpar)
    }

    /// Reads the next packet into `packet`; false at end of input.
    public func read(into packet: Packet) throws(AVFailure) -> Bool {
        while true {
            if anchors.next(into: packet) { return true }
            guard try readPacket(into: packet) else {
                anchors.finish()
                return anchors.next(into: packet)
            }
            let stream = context.pointee.streams[packet.streamIndex]!.pointee
            let isAnchor = AnchorTimes.applies(to: packet, of: stream)
            guard isAnchor || (anchors.isHolding && anchors.heldStream == packet.streamIndex) else { return true }
            try anchors.take(packet, isAnchor: isAnchor)
        }
    }

    /// The next packet from the file, timed (raw streams; colliding MP4 fragments; AVI video
    /// without B-frames).
    private func readPacket(into packet: Packet) throws(AVFailure) -> Bool {
        packet.unref()
        let result = av_read_frame(context, packet.pointer)
        if result == HFR_AVERROR_EOF {
            try retimer?.finish()
            return false
        }
        try check(result, "av_read_frame", .readingInput)
        if let retimer, packet.streamIndex == retimer.streamIndex { try retime(packet, by: retimer) }
        fragmentTimes?.repair(packet)
        // AVI stores decode times only: a video frame no decoder reorders is shown when decoded
        // (FFmpeg leaves it to the muxer; its readers need the presentation time here).
        if packet.pts == nil, let dts = packet.dts {
            let stream = context.pointee.streams[packet.streamIndex]!.pointee
            if stream.codecpar.pointee.codec_type == AVMEDIA_TYPE_VIDEO, stream.codecpar.pointee.video_delay == 0 {
                packet.pts = dts
            }
        }
        return true
    }
}
