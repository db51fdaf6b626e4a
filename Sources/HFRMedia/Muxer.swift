import CFFmpeg

/// Owns an output `AVFormatContext` and its file: streams, header, interleaved packets, trailer.
///
/// `finish()` writes the trailer and closes the file; a muxer dropped without it closes the file
/// as is (the caller removes the partial output).
public struct Muxer: ~Copyable {
    let context: UnsafeMutablePointer<AVFormatContext>
    public let path: String
    /// Set when packets view a mapped input whose payload the kernel copies (see `FileCopySink`).
    private let copySink: FileCopySink?
    /// What a Matroska or WebM output's timestamps count, when finer than FFmpeg's millisecond
    /// (`Muxer+MatroskaTick`); chosen by `writeHeader`.
    private(set) var matroskaTick: MatroskaTick?

    /// Creates `path`; the container is chosen from `format` or else from the extension.
    public init(path: String, format: Container? = nil) throws(AVFailure) {
        let ctx = try Muxer.outputContext(path: path, format: format)
        if ctx.pointee.oformat.pointee.flags & AVFMT_NOFILE == 0 {
            let opened = path.withPathBytes { avio_open(&ctx.pointee.pb, $0, AVIO_FLAG_WRITE) }
            if opened < 0 {
                avformat_free_context(ctx)
                throw AVFailure(code: opened, operation: "avio_open", stage: .writingOutput)
            }
        }
        context = ctx
        self.path = path
        copySink = nil
    }

    /// Creates `path` for packets that view `source` (`Packet.view(of:)`): their payload is copied
    /// from file to file by the kernel instead of being written from memory. Packets are written
    /// in the order given (the caller interleaves: a copy of a file's packets keeps the file's order).
    public init(path: String, format: Container, copyingFrom source: MappedFile) throws(AVFailure) {
        let ctx = try Muxer.outputContext(path: path, format: format)
        let sink: FileCopySink
        do {
            sink = try FileCopySink(path: path, source: source)
        } catch {
            avformat_free_context(ctx)
            throw AVFailure(errno: error, operation: "open", stage: .writingOutput)
        }
        guard let pb = Muxer.customIO(for: sink) else {
            avformat_free_context(ctx)
            throw AVFailure(code: hfr_averror(ENOMEM), operation: "avio_alloc_context", stage: .writingOutput)
        }
        ctx.pointee.pb = pb
        ctx.pointee.flags |= AVFMT_FLAG_CUSTOM_IO
        context = ctx
        self.path = path
        copySink = sink
    }

    /// A new output context for `path` (the container from `format`, else from the extension).
    private static func outputContext(path: String, format: Container?) throws(AVFailure)
        -> UnsafeMutablePointer<AVFormatContext>
    {
        var ctx: UnsafeMutablePointer<AVFormatContext>? = nil
        try check(
            path.withPathBytes { avformat_alloc_output_context2(&ctx, nil, format?.name, $0) },
            "avformat_alloc_output_context2", .writingOutput)
        guard let ctx else {
            throw AVFailure(
                code: hfr_averror(ENOMEM), operation: "avformat_alloc_output_context2", stage: .writingOutput)
        }
        return ctx
    }

    /// An AVIOContext that hands every write straight to `sink` (direct: no copy into a buffer first).
    private static func customIO(for sink: FileCopySink) -> UnsafeMutablePointer<AVIOContext>? {
        let size = 1 << 16
        guard let buffer = av_malloc(size) else { return nil }
        let pb = avio_alloc_context(
            buffer.assumingMemoryBound(to: UInt8.self), Int32(size), 1, Unmanaged.passUnretained(sink).toOpaque(), nil,
            { opaque, bytes, count in
                Unmanaged<FileCopySink>.fromOpaque(opaque!).takeUnretainedValue().write(bytes!, count: Int(count))
            },
            { opaque, offset, whence in
                Unmanaged<FileCopySink>.fromOpaque(opaque!).takeUnretainedValue().seek(to: offset, whence: whence)
            })
        guard let pb else {
            av_free(buffer)
            return nil
        }
        pb.pointee.direct = 1
        return pb
    }

    deinit {
        closeFile()
        avformat_free_context(context)
    }

    /// Flushes and closes the output (an FFmpeg-opened file or the custom one).
    @discardableResult
    private func closeFile() -> Int32 {
        if let copySink {
            guard let pb = context.pointee.pb else { return 0 }
            avio_flush(pb)
            copySink.flush()
            av_freep(&pb.pointee.buffer)
            var owned: UnsafeMutablePointer<AVIOContext>? = pb
            avio_context_free(&owned)
            context.pointee.pb = nil
            return copySink.failure.map { hfr_averror($0.rawValue) } ?? 0
        }
        if context.pointee.oformat.pointee.flags & AVFMT_NOFILE == 0 {
            return avio_closep(&context.pointee.pb)
        }
        return 0
    }

    /// Adds a stream with a copy of `parameters`; returns its index.
    public func addStream(copying parameters: CodecParameters, timeBase: Rational) throws(AVFailure) -> Int {
        guard let stream = avformat_new_stream(context, nil) else {
            throw AVFailure(code: hfr_averror(ENOMEM), operation: "avformat_new_stream", stage: .writingOutput)
        }
        try check(
            avcodec_parameters_copy(stream.pointee.codecpar, parameters.pointer), "avcodec_parameters_copy",
            .writingOutput)
        // The input container's tag may not be valid in this one; the muxer picks its own.
        stream.pointee.codecpar.pointee.codec_tag = 0
        if let tb = timeBase.avRational { stream.pointee.time_base = tb }
        return Int(stream.pointee.index)
    }

    /// Writes out the fragment collected so far (with `movflags=frag_custom`); returns the file
    /// offset after it, a point where the file is complete and playable.
    public func flushFragment() throws(AVFailure) -> Int64 {
        try check(av_write_frame(context, nil), "av_write_frame(flush fragment)", .writingOutput)
        guard let pb = context.pointee.pb else { return 0 }
        avio_flush(pb)
        // AVIO errors are sticky and not returned by the write calls: a full disk shows up here.
        try check(pb.pointee.error, "write", .writingOutput)
        return avio_tell(pb)
    }

    /// Bytes written to the output so far.
    public var bytesWritten: Int64 {
        guard let pb = context.pointee.pb else { return 0 }
        return avio_tell(pb)
    }

    /// Sets a container-level tag (e.g. `com.android.capture.fps`).
    public func setMetadata(_ key: String, _ value: String) {
        av_dict_set(&context.pointee.metadata, key, value, 0)
    }

    /// Sets the frame rate the muxer declares for stream `index`.
    public func setFrameRate(_ rate: Rational, ofStream index: Int) {
        guard let r = rate.avRational else { return }
        context.pointee.streams[index]!.pointee.avg_frame_rate = r
        context.pointee.streams[index]!.pointee.r_frame_rate = r
    }

    /// Writes the header; `options` are muxer options such as `movflags`. Call it once.
    public mutating func writeHeader(options: [String: String] = [:]) throws(AVFailure) {
        // libavformat sets `encoder` to its own name (or removes it under bitexact) as it
        // initialises the muxer; a writer's own `encoder` tag is put back before the header.
        let encoder = av_dict_get(context.pointee.metadata, "encoder", nil, 0).map { String(cString: $0.pointee.value) }
        let tick = chooseMatroskaTick()
        let result = withOptions(options.merging(Muxer.options(for: tick)) { own, _ in own }) { options in
            let initialized = avformat_init_output(context, &options)
            guard initialized >= 0 else { return initialized }
            if let encoder { av_dict_set(&context.pointee.metadata, "encoder", encoder, 0) }
            if let tick { keepInterleavingWindow(for: tick) }
            return avformat_write_header(context, nil)
        }
        try check(result, "avformat_write_header", .writingOutput)
        matroskaTick = tick
    }

    /// The time base of stream `index`'s timestamps in the file; read it only after `writeHeader`.
    /// A Matroska tick (`matroskaTick`) where there is one: FFmpeg's stream says milliseconds.
    public func timeBase(ofStream index: Int) -> Rational {
        matroskaTick?.timeBase ?? Rational(context.pointee.streams[index]!.pointee.time_base) ?? Rational(1, 90000)
    }

    /// Writes `packet` to output stream `stream`: its timestamps are rescaled from `timeBase` (the
    /// time base they were computed in) to the stream's, and it is interleaved by dts. This is the
    /// one place where output timestamps are rescaled. Takes the packet's payload.
    public func write(_ packet: Packet, from timeBase: Rational, to stream: Int) throws(AVFailure) {
        // A Matroska tick: FFmpeg takes the counts for milliseconds, the patch after the trailer
        // makes the file say what they are.
        let target = matroskaTick?.timeBase.avRational ?? context.pointee.streams[stream]!.pointee.time_base
        if let source = timeBase.avRational, source.num != target.num || source.den != target.den {
            av_packet_rescale_ts(packet.pointer, source, target)
        }
        if let matroskaTick, packet.duration == 0 {
            packet.duration = frameDuration(of: packet, onStream: stream, in: matroskaTick)
        }
        packet.pointer.pointee.stream_index = Int32(stream)
        // A byte position in the input means nothing in the output.
        packet.pointer.pointee.pos = -1
        if copySink != nil {
            // Interleaving would copy a packet that views the mapped input; the caller keeps file order.
            try check(av_write_frame(context, packet.pointer), "av_write_frame", .writingOutput)
        } else {
            try check(av_interleaved_write_frame(context, packet.pointer), "av_interleaved_write_frame", .writingOutput)
        }
    }

    /// Closes the file without a trailer (after a failed write); what was buffered is flushed if it can be.
    public func abandonFile() {
        closeFile()
    }

    /// Flushes interleaving queues, writes the trailer and closes the file.
    public consuming func finish() throws(AVFailure) {
        try writeTrailer()
    }

    /// `finish()` for an owner that cannot give the muxer up (a stage object holding it).
    /// Call it once; the file is closed afterwards.
    public func writeTrailer() throws(AVFailure) {
        try check(av_write_trailer(context), "av_write_trailer", .writingOutput)
        try check(closeFile(), "close", .writingOutput)
        // Before the file is renamed into place (`AtomicOutput`): it says milliseconds until then.
        if let matroskaTick { try MatroskaTimestampScalePatch.setTimestampScale(matroskaTick, inFileAt: path) }
    }
}
