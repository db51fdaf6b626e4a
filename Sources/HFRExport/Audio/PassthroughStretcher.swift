/// Speed 1: the samples as they are (every stretcher alters sound a little even at ratio 1).
final class PassthroughStretcher: AudioStretcher {
    func process(_ input: AudioChunk) throws(ExportFailure) -> AudioChunk { input }
    func finish() throws(ExportFailure) -> AudioChunk { AudioChunk(planes: []) }
}
