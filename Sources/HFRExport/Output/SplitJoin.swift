import HFRMedia
import HFRProbe

/// Joins the units of a split batch job into the output one export would have written: the video
/// packets of every part (`ExportSettings.SplitPart.video`, each a `--range` cut at a keyframe),
/// one after another and moved to where their range starts on the whole job's timeline, and every
/// other track of the rest unit, packets interleaved by time. Nothing is decoded or encoded: copied
/// video comes out bit-identical, and the audio is the one stretch of the whole job, so it equals
/// a single export's to the sample. Written under a temporary name and renamed when complete.
public enum SplitJoin {
    /// What was joined.
    public struct Result: Sendable {
        public var videoPackets = 0
        public var otherPackets = 0
    }

    /// Joins `parts` (in order) and `rest` into `output`.
    public static func join(parts: [String], rest: String, output: String) throws(ExportFailure) -> Result {
        guard !parts.isEmpty else { throw .processing("a split job without video parts") }
        let file = AtomicOutput(path: output)
        let result: Result
        do {
            result = try write(parts: parts, rest: rest, to: file.temporaryPath, format: Container(output: output))
        } catch let failure as ExportFailure {
            throw failure
        } catch {
            throw .of("joining the parts of \(output)", error, as: nil)
        }
        do {
            try file.commit()
        } catch {
            throw .writing(AVFailure(errno: error, operation: "rename to \(output)"))
        }
        return result
    }

    private static func write(
        parts: [String], rest: String, to path: String, format: Container
    ) throws -> Result {
        let restInput = try Demuxer(url: rest)
        let tags = restInput.metadata
        guard let restStart = SplitTags.value(SplitTags.start, in: tags) else {
            throw ExportFailure.badInput("\(rest): not a split job's rest unit (no \(SplitTags.start) tag)")
        }
        let delay = SplitTags.value(SplitTags.videoDelay, in: tags) ?? Rational(0)
        var muxer = try Muxer(path: path, format: format)
        // The video as the first part declares it; every part must have been encoded alike.
        let first = try Demuxer(url: parts[0])
        guard let video = first.streams.first(where: { $0.kind == .video }) else {
            throw ExportFailure.badInput("\(parts[0]): a video part without video")
        }
        let videoIndex = try muxer.addStream(
            copying: first.codecParameters(ofStream: video.index), timeBase: video.timeBase)
        muxer.keepIdentity(of: video, onStream: videoIndex)
        if let timecode = video.metadata["timecode"] { muxer.setMetadata("timecode", timecode, ofStream: videoIndex) }
        try muxer.setDisplayMatrix(first.presentation(ofStream: video.index).displayMatrix, ofStream: videoIndex)
        var outputIndex: [Int: Int] = [:]
        for stream in restInput.streams {
            outputIndex[stream.index] = try muxer.addStream(
                copying: restInput.codecParameters(ofStream: stream.index), timeBase: stream.timeBase)
            muxer.keepIdentity(of: stream, onStream: outputIndex[stream.index]!)
        }
        let brand: Set<String> = ["major_brand", "minor_version", "compatible_brands"]
        for (key, value) in tags.sorted(by: { $0.key < $1.key })
        where !SplitTags.isSplitTag(key) && !brand.contains(key)
            && key.lowercased() != Prober.androidCaptureRateKey.lowercased()
        {
            muxer.setMetadata(key, value)
        }
        let captureRate = SplitTags.value(Prober.captureRateKey, in: tags)
        if let captureRate {
            muxer.setMetadata(
                Prober.androidCaptureRateKey,
                format.holdsCaptureRateTag ? MP4MetadataPatch.placeholder : DecimalText.fixed(captureRate, digits: 6))
        }
        try muxer.writeHeader(options: format.isISO ? ["movflags": "+use_metadata_tags"] : ["fflags": "+bitexact"])
        var result = Result()
        let packet = try Packet()
        let other = try Packet()
        var others = OtherTracks(streams: restInput.streams, outputIndex: outputIndex)
        others.pending = try restInput.read(into: other)
        var lastDecodeTime: Int64?
        for (n, path) in parts.enumerated() {
            let input = try Demuxer(url: path)
            guard let stream = input.streams.first(where: { $0.kind == .video }),
                stream.codecName == video.codecName, stream.extradata == video.extradata,
                stream.width == video.width, stream.height == video.height
            else {
                throw ExportFailure.badInput(
                    "\(path): part \(n + 1)'s video was not encoded as part 1's; export the job again")
            }
            guard let start = SplitTags.value(SplitTags.start, in: input.metadata) else {
                throw ExportFailure.badInput("\(path): not a split job's video part (no \(SplitTags.start) tag)")
            }
            let shift = ((start - restStart + delay) / stream.timeBase).rounded()
            input.discardStreams(except: [stream.index])
            while try input.read(into: packet) {
                guard packet.streamIndex == stream.index else { continue }
                packet.pts = packet.pts.map { $0 + shift }
                packet.dts = packet.dts.map { $0 + shift }
                // Matroska stores no decode times: a part's first frames before the reordering
                // delay have none. After a seam they follow the previous part's, one tick apart.
                if packet.dts == nil, let last = lastDecodeTime, let pts = packet.pts {
                    packet.dts = min(last + 1, pts)
                }
                lastDecodeTime = packet.dts ?? lastDecodeTime
                let time = Rational.seconds(packet.dts ?? packet.pts ?? 0, in: stream.timeBase)
                result.otherPackets += try others.write(restInput, other, before: time, to: &muxer)
                try muxer.write(packet, from: stream.timeBase, to: videoIndex)
                result.videoPackets += 1
            }
        }
        result.otherPackets += try others.write(restInput, other, before: nil, to: &muxer)
        try muxer.finish()
        if format.holdsCaptureRateTag, let captureRate {
            try MP4MetadataPatch.setFloat32(
                [Prober.androidCaptureRateKey: Float(captureRate.doubleValue)], inFileAt: path)
        }
        if format.rotation == .quarterTurns, let turn = video.presentation.clockwiseRotation, turn != 0 {
            try MatroskaRotationPatch.setRotation(clockwise: turn, inFileAt: path)
        }
        return result
    }

    /// The rest unit's packets, read one ahead and written in time order with the video's.
    struct OtherTracks {
        let streams: [StreamInfo]
        let outputIndex: [Int: Int]
        /// Whether the packet read ahead is yet to be written.
        var pending = false

        /// Writes `packet` and the ones after it that come before `seconds` (all with nil); how many.
        mutating func write(
            _ input: borrowing Demuxer, _ packet: Packet, before seconds: Rational?, to muxer: inout Muxer
        ) throws -> Int {
            var written = 0
            while pending {
                let stream = streams[packet.streamIndex]
                if let seconds, Rational.seconds(packet.dts ?? packet.pts ?? 0, in: stream.timeBase) > seconds {
                    break
                }
                if let index = outputIndex[stream.index] {
                    try muxer.write(packet, from: stream.timeBase, to: index)
                    written += 1
                }
                pending = try input.read(into: packet)
            }
            return written
        }
    }
}
