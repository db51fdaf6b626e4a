import Foundation
import HFRMedia
import HFRProbe

#if canImport(Glibc)
    import Glibc
#endif

/// Turns the crash-safe fragmented recording into the final file: a regular MP4/MOV (index first,
/// `sdtp` marking the non-reference frames) or MKV, with the capture rate stored, then renamed into
/// place. The packets are copied, not re-encoded.
enum RecordingFinalizer {
    /// The capture-rate tags: Android's key and hfr's exact one. Into MP4/MOV (`isISO`) Android's
    /// holds `MP4MetadataPatch.placeholder` until `storeFloatCaptureRate` makes it the float32
    /// Android writes; Matroska has no typed tags and keeps the decimal text.
    static func captureRateTags(_ rate: Rational, isISO: Bool) -> [String: String] {
        [
            Prober.androidCaptureRateKey: isISO ? MP4MetadataPatch.placeholder : DecimalText.fixed(rate, digits: 6),
            Prober.captureRateKey: rate.description,
        ]
    }

    /// Android's capture-rate tag as the float32 MediaMuxer writes, in the MP4/MOV file at `path`.
    static func storeFloatCaptureRate(_ rate: Rational, inFileAt path: String) throws(AVFailure) {
        try MP4MetadataPatch.setFloat32([Prober.androidCaptureRateKey: Float(rate.doubleValue)], inFileAt: path)
    }

    /// How the audio track's samples lie: `priming` encoder-delay samples first, then `samples` real ones.
    struct AudioTiming {
        var priming: Int64
        var samples: Int64
    }

    /// A triggered recording's clip: `preroll` seconds of its video (from the key frame it starts
    /// at to its window's start) are hidden by an MP4/MOV edit list (decoded, not shown; the
    /// audio's edit list starts there too), and its own tags (`ClipTags`).
    struct ClipTiming {
        var preroll: Rational
        var tags: [(key: String, value: String)]
        var creationTime: String
    }

    /// Remuxes `partial` into `output` through a temporary file in the same directory.
    static func finalize(
        partial: String, output: String, captureRate: Rational, audio: AudioTiming?, clip: ClipTiming? = nil
    ) throws(AVFailure) {
        let file = AtomicOutput(path: output)
        try remux(
            partial, into: file.temporaryPath, format: Container(output: output),
            captureRate: captureRate, audio: audio, clip: clip)
        do {
            try file.commit()
        } catch {
            throw AVFailure(errno: error, operation: "rename to \(output)")
        }
        FileSystem.unlink(partial)
    }

    private static func remux(
        _ partial: String, into path: String, format: Container, captureRate: Rational, audio: AudioTiming?,
        clip: ClipTiming?
    ) throws(AVFailure) {
        let demuxer = try Demuxer(url: partial)
        let streams = demuxer.streams
        var muxer = try Muxer(path: path, format: format)
        let outputIndex = try addStreams(of: demuxer, to: &muxer, captureRate: captureRate)
        for (key, value) in captureRateTags(captureRate, isISO: format.holdsCaptureRateTag) {
            muxer.setMetadata(key, value)
        }
        // When capture started, as the fragmented file says (written as its first frame was encoded).
        let started =
            clip?.creationTime ?? demuxer.metadata["creation_time"]
            ?? HFRVersion.creationTimeText(secondsSince1970: Int64(Date().timeIntervalSince1970))
        for (key, value) in HFRVersion.tags(creationTime: started) { muxer.setMetadata(key, value) }
        for (key, value) in clip?.tags ?? [] { muxer.setMetadata(key, value) }
        try muxer.writeHeader(options: format.isISO ? ["movflags": "+faststart+use_metadata_tags"] : [:])
        let video = streams.first { $0.kind == .video }
        try copyPackets(from: demuxer, to: &muxer, outputIndex: outputIndex, audio: audio, clip: clip)
        try muxer.finish()
        if format.holdsCaptureRateTag { try storeFloatCaptureRate(captureRate, inFileAt: path) }
        // FFmpeg 5.1 writes no rotation into Matroska: `--rotate` goes in as a `Projection` roll.
        if format.rotation == .quarterTurns, let turn = video?.presentation.clockwiseRotation, turn != 0 {
            try MatroskaRotationPatch.setRotation(clockwise: turn, inFileAt: path)
        }
    }

    /// The fragmented file's video and audio streams added to `muxer`, the video at `captureRate`
    /// with its display matrix; the output stream of each input stream.
    private static func addStreams(
        of demuxer: borrowing Demuxer, to muxer: inout Muxer, captureRate: Rational
    ) throws(AVFailure) -> [Int: Int] {
        var outputIndex: [Int: Int] = [:]
        for stream in demuxer.streams where stream.kind == .video || stream.kind == .audio {
            outputIndex[stream.index] = try muxer.addStream(
                copying: demuxer.codecParameters(ofStream: stream.index), timeBase: stream.timeBase)
            if stream.kind == .video {
                muxer.setFrameRate(captureRate, ofStream: outputIndex[stream.index]!)
                // The display matrix (`--rotate`) of the fragmented file's `tkhd`.
                let matrix = demuxer.presentation(ofStream: stream.index).displayMatrix
                try muxer.setDisplayMatrix(matrix, ofStream: outputIndex[stream.index]!)
            }
        }
        return outputIndex
    }

    /// Every packet of the fragmented file into `muxer`: the video's disposable marks rebuilt and
    /// moved by a clip's preroll, the audio back on the encoder's timeline and cut at its end.
    private static func copyPackets(
        from demuxer: borrowing Demuxer, to muxer: inout Muxer, outputIndex: [Int: Int], audio: AudioTiming?,
        clip: ClipTiming?
    ) throws(AVFailure) {
        let streams = demuxer.streams
        let video = streams.first { $0.kind == .video }
        let packaging = video.map { NALPackaging(extradata: $0.extradata) }
        let packet = try Packet()
        var previousAudioStart: Int64?
        while try demuxer.read(into: packet) {
            let input = streams[packet.streamIndex]
            guard let index = outputIndex[input.index] else { continue }
            if input.kind == .video, let packaging {
                // The fragmented file cannot carry these marks (FFmpeg 5.1 writes none in trun);
                // the bitstream says which frames are non-reference, so `sdtp` is rebuilt from it.
                packet.isDisposable = packet.withData { FrameStructure(packet: $0, packaging: packaging) }.isDroppable
            }
            if input.kind == .video, let preroll = clip?.preroll, preroll > Rational(0) {
                // Frames before the clip's start get negative times: the edit list hides them.
                let shift = (preroll / input.timeBase).rounded()
                packet.pts = packet.pts.map { $0 - shift }
                packet.dts = packet.dts.map { $0 - shift }
            }
            if input.kind == .audio, let audio {
                // Back to the encoder's own timeline (priming before 0, hidden by the edit list) and the
                // last packet cut to the real end, so the audio lasts exactly as many samples as captured.
                let start = (packet.pts ?? 0) - audio.priming
                packet.pts = start
                packet.dts = packet.dts.map { $0 - audio.priming }
                let end = audio.samples
                // A fragmented file's ALAC has no sample durations (FFmpeg 5.1 writes none in trun):
                // each is the step from the previous packet, the last one up to the end.
                if packet.duration <= 0, let previous = previousAudioStart { packet.duration = start - previous }
                previousAudioStart = start
                if packet.duration <= 0 || start + packet.duration > end { packet.duration = max(0, end - start) }
            }
            try muxer.write(packet, from: input.timeBase, to: index)
        }
    }
}
