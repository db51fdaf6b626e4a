import HFRMedia
import HFRProbe

/// The frame rate a copied H.264 or HEVC stream states in its own parameter sets (the VUI's
/// timing, time_scale ÷ num_units_in_tick), set to the output's rate when a copy is retimed.
///
/// FFmpeg's parsers, and players with them, take a frame's duration from it: x264's 30 fps
/// conformed to 60 fps still said 30, so ffprobe gave every packet 1/30 s and the last frame ran
/// 1/60 s past the end of the file. FFmpeg's `h264_metadata` / `hevc_metadata` filters write the
/// new SPS (and HEVC's VPS); they write Annex B, so each parameter set goes through them alone and
/// `ParameterSetEdit` puts the result back where the old one was (the avcC/hvcC record, packets
/// that repeat it). Slices are untouched and the packets without parameter sets are not read.
final class StatedRateRewrite {
    private let filter: BitstreamFilter
    private let edit: ParameterSetEdit
    private let packaging: NALPackaging
    /// The stream's codec parameters with the rewritten extradata.
    private(set) var parameters: CodecParameters
    /// Parameter sets already rewritten (in-band ones mostly repeat the record's).
    private var rewritten: [[UInt8]: [UInt8]] = [:]

    /// nil for other codecs, or a rate whose tick count does not fit the SPS's 32-bit fields.
    init?(parameters: CodecParameters, parser: FrameParser?, timeBase: Rational, rate: Rational) throws(AVFailure) {
        guard let parser else { return nil }
        // H.264 counts two ticks per frame (one per field); HEVC one.
        let ticks = parser.codec == .h264 ? rate * Rational(2) : rate
        guard ticks.numerator > 0, ticks.numerator <= Int64(Int32.max), ticks.denominator <= Int64(Int32.max) else {
            return nil
        }
        filter = try BitstreamFilter(
            name: parser.codec == .h264 ? "h264_metadata" : "hevc_metadata", parameters: parameters,
            timeBase: timeBase, options: [("tick_rate", ticks.description)], extradata: false)
        edit = ParameterSetEdit(codec: parser.codec)
        packaging = parser.packaging
        self.parameters = parameters
        self.parameters = try parameters.replacingExtradata(
            with: edit.extradata(parameters.extradata) { self.newUnit(for: $0) })
    }

    /// Rewrites the parameter sets `packet` repeats (the caller knows it has some from its
    /// `FrameStructure`, so the packets without are not read again).
    func rewrite(_ packet: Packet) {
        let edited = packet.withData { data in edit.packet(data, packaging: packaging) { self.newUnit(for: $0) } }
        guard let edited else { return }
        try? packet.replacePayload(with: edited)
    }

    /// `nal` through the filter, or nil when it cannot be rewritten (kept as it is: the stated
    /// rate is advice, and no picture may be lost for it).
    private func newUnit(for nal: [UInt8]) -> [UInt8]? {
        if let known = rewritten[nal] { return known }
        guard let packet = ([0, 0, 0, 1] + nal).withUnsafeBytes({ try? Packet(copying: $0) }) else { return nil }
        do {
            try filter.filter(packet)
        } catch {
            return nil
        }
        let units = packet.withData { ParameterSetEdit.annexBUnits($0) }
        // One unit of the same type back, or the filter did something else.
        guard units.count == 1, let new = units.first,
            new.withUnsafeBytes({ edit.type($0) }) == nal.withUnsafeBytes({ edit.type($0) })
        else { return nil }
        rewritten[nal] = new
        return new
    }
}
