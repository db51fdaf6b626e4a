/// Changes the duration of audio by a fixed ratio, chunk by chunk (one segment of the time map).
protocol AudioStretcher: AnyObject {
    /// Feeds source samples; returns the output that is ready.
    func process(_ input: AudioChunk) throws(ExportFailure) -> AudioChunk
    /// Ends the input; returns the rest of the output.
    func finish() throws(ExportFailure) -> AudioChunk
}
