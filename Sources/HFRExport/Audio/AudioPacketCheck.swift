import HFRMedia

/// Decodes audio packets that are copied, only to refuse corrupt ones: AAC decoding costs far less
/// than reading the file, and a copied corrupt packet would play as a click or drop-out.
final class AudioPacketCheck {
    private let decoder: Decoder
    private let frame: Frame

    init(parameters: CodecParameters, timeBase: Rational) throws(AVFailure) {
        decoder = try Decoder(parameters: parameters, timeBase: timeBase, threads: 1)
        frame = try Frame()
    }

    /// Throws when `packet` does not decode.
    func check(_ packet: Packet) throws(ExportFailure) {
        do throws(AVFailure) {
            _ = try decoder.send(packet)
            while case .value = try decoder.receive(into: frame) {
                let isCorrupt = frame.isCorrupt
                frame.unref()
                if isCorrupt { throw AVFailure.invalidData("audio frame") }
            }
        } catch {
            throw .badInput(
                "corrupt audio packet at byte \(packet.position ?? -1) (\(error.operation): \(error.message))")
        }
    }
}
