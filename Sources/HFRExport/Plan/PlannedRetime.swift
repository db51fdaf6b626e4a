import HFRMedia

/// The dry run's stand-in for an `AudioRetimer`: the track's packets decoded as the retimer decodes
/// them (so damage decoding finds fails the dry run as it fails the export), and the samples the
/// retimer writes counted from the same pieces of the time map. Nothing is stretched or encoded.
final class PlannedRetime {
    let sampleRate: Int
    /// Total output samples, as `AudioRetimer.outputSamples`.
    let outputSamples: Int64
    private let decoder: Decoder
    private let frame: Frame

    init(parameters: CodecParameters, info: StreamInfo, plan: ExportPlan) throws(ExportFailure) {
        decoder = try AudioRetimer.openDecoder(parameters, info: info)
        try AudioOutput.requireDescribed(info)
        sampleRate = info.sampleRate
        outputSamples = AudioRetimer.outputSamples(AudioPiece.segments(of: plan, sampleRate: sampleRate))
        frame = try ExportFailure.during("allocating a frame") { try Frame() }
    }

    /// Decodes one packet (nil: flushes the decoder), keeping nothing.
    func push(_ packet: Packet?) throws(ExportFailure) {
        try AudioRetimer.decode(packet, decoder, into: frame) { $0.unref() }
    }
}
