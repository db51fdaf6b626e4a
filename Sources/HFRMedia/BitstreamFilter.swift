import CFFmpeg

/// One libavcodec bitstream filter (`h264_metadata`, `hevc_metadata`, …) set up for a stream:
/// packets in, packets out, and the stream's codec parameters as the filter leaves them (a
/// metadata filter rewrites the parameter sets in the extradata when it opens).
public final class BitstreamFilter {
    private var context: UnsafeMutablePointer<AVBSFContext>?
    private let name: String

    /// Opens filter `name` for a stream of `parameters` in `timeBase`, with its private `options`;
    /// without `extradata` the filter reads packets as Annex B and leaves the record alone.
    public init(
        name: String, parameters: CodecParameters, timeBase: Rational, options: [(String, String)],
        extradata: Bool = true
    ) throws(AVFailure) {
        self.name = name
        guard let filter = av_bsf_get_by_name(name) else {
            throw AVFailure(code: hfr_averror(ENOSYS), operation: "av_bsf_get_by_name(\(name))")
        }
        try check(av_bsf_alloc(filter, &context), "av_bsf_alloc(\(name))")
        guard let context else { throw AVFailure(code: hfr_averror(ENOMEM), operation: "av_bsf_alloc(\(name))") }
        try check(avcodec_parameters_copy(context.pointee.par_in, parameters.pointer), "avcodec_parameters_copy")
        if !extradata {
            av_freep(&context.pointee.par_in.pointee.extradata)
            context.pointee.par_in.pointee.extradata_size = 0
        }
        if let tb = timeBase.avRational { context.pointee.time_base_in = tb }
        for (key, value) in options {
            try check(av_opt_set(context.pointee.priv_data, key, value, 0), "\(name) option \(key)=\(value)")
        }
        try check(av_bsf_init(context), "av_bsf_init(\(name))")
    }

    deinit { av_bsf_free(&context) }

    /// The stream's parameters after the filter (its extradata rewritten).
    public func outputParameters() throws(AVFailure) -> CodecParameters {
        try CodecParameters(copying: context!.pointee.par_out)
    }

    /// Passes `packet` through a filter that gives one packet for each it takes: its payload is
    /// replaced; timestamps, flags and side data stay. When the filter fails the packet is as it was.
    public func filter(_ packet: Packet) throws(AVFailure) {
        let input = try Packet()
        let output = try Packet()
        try check(av_packet_ref(input.pointer, packet.pointer), "av_packet_ref")
        try check(av_bsf_send_packet(context, input.pointer), "av_bsf_send_packet(\(name))")
        try check(av_bsf_receive_packet(context, output.pointer), "av_bsf_receive_packet(\(name))")
        av_packet_unref(packet.pointer)
        av_packet_move_ref(packet.pointer, output.pointer)
    }
}
