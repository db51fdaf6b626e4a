import CFFmpeg

/// Owns an `AVFilterGraph` with one buffer source and one buffer sink: frames in, frames out.
public struct FilterGraph: ~Copyable {
    let graph: UnsafeMutablePointer<AVFilterGraph>
    let source: UnsafeMutablePointer<AVFilterContext>
    let sink: UnsafeMutablePointer<AVFilterContext>

    /// Builds `description` (e.g. "atempo=2.0") between a source and a sink.
    ///
    /// - Parameters:
    ///   - isAudio: `abuffer`/`abuffersink` when true, `buffer`/`buffersink` otherwise.
    ///   - sourceArguments: the buffer source's arguments, e.g.
    ///     "time_base=1/48000:sample_rate=48000:sample_fmt=fltp:channel_layout=mono".
    public init(description: String, isAudio: Bool, sourceArguments: String) throws(AVFailure) {
        try LazyLibrary.avfilter.load(during: .encoding)
        guard let graph = hfr_avfilter_graph_alloc() else {
            throw AVFailure(code: hfr_averror(ENOMEM), operation: "avfilter_graph_alloc", stage: .encoding)
        }
        var owned: UnsafeMutablePointer<AVFilterGraph>? = graph
        var source: UnsafeMutablePointer<AVFilterContext>? = nil
        var sink: UnsafeMutablePointer<AVFilterContext>? = nil
        var outputs = hfr_avfilter_inout_alloc()
        var inputs = hfr_avfilter_inout_alloc()
        defer {
            hfr_avfilter_inout_free(&outputs)
            hfr_avfilter_inout_free(&inputs)
        }
        var created = hfr_avfilter_graph_create_filter(
            &source, hfr_avfilter_get_by_name(isAudio ? "abuffer" : "buffer"), "in", sourceArguments, nil, graph)
        if created >= 0 {
            created = hfr_avfilter_graph_create_filter(
                &sink, hfr_avfilter_get_by_name(isAudio ? "abuffersink" : "buffersink"), "out", nil, nil, graph)
        }
        if created >= 0, outputs != nil, inputs != nil {
            // The parser links the description's open ends to these: "in" feeds it, "out" drains it.
            outputs!.pointee.name = av_strdup("in")
            outputs!.pointee.filter_ctx = source
            inputs!.pointee.name = av_strdup("out")
            inputs!.pointee.filter_ctx = sink
            created = hfr_avfilter_graph_parse_ptr(graph, description, &inputs, &outputs, nil)
            if created >= 0 { created = hfr_avfilter_graph_config(graph, nil) }
        } else if created >= 0 {
            created = hfr_averror(ENOMEM)
        }
        if created < 0 {
            hfr_avfilter_graph_free(&owned)
            throw AVFailure(code: created, operation: "avfilter graph \"\(description)\"")
        }
        self.graph = graph
        self.source = source!
        self.sink = sink!
    }

    deinit {
        var owned: UnsafeMutablePointer<AVFilterGraph>? = graph
        hfr_avfilter_graph_free(&owned)
    }

    /// Pushes a frame into the graph, or nil to signal end of input.
    public func push(_ frame: Frame?) throws(AVFailure) {
        try check(
            hfr_av_buffersrc_add_frame_flags(source, frame?.pointer, 0), "av_buffersrc_add_frame_flags", .encoding)
    }

    /// Pulls the next filtered frame into `frame`.
    public func pull(into frame: Frame) throws(AVFailure) -> Drain<Void> {
        try drainState(hfr_av_buffersink_get_frame(sink, frame.pointer), "av_buffersink_get_frame", .encoding)
    }

    /// The sink's output time base.
    public var outputTimeBase: Rational { Rational(hfr_av_buffersink_get_time_base(sink)) ?? Rational(1, 1) }
}
