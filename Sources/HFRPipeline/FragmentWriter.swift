import Foundation
import HFRMedia

#if canImport(Glibc)
    import Glibc
#endif

/// Writes the recording as it happens: a fragmented MP4 flushed to disk every half second, so a
/// crash (even `kill -9`) leaves a playable file holding all but the last fragment.
final class FragmentWriter {
    private(set) var muxer: Muxer
    let videoIndex: Int
    let audioIndex: Int?
    /// The file offset after the last complete fragment: what survives a failed write.
    private(set) var safeLength: Int64 = 0
    private var lastFlushSeconds = Rational(0)
    static let fragmentSeconds = Rational(1, 2)

    init(
        path: String, width: Int, height: Int, parameterSets: [UInt8], videoTimeBase: Rational,
        audio: (parameters: CodecParameters, timeBase: Rational)?, captureRate: Rational, rotation: Int = 0
    ) throws(AVFailure) {
        muxer = try Muxer(path: path, format: .mp4)
        videoIndex = try muxer.addStream(
            copying: CodecParameters.h264(width: width, height: height, extradata: parameterSets),
            timeBase: videoTimeBase)
        // `--rotate`: the display matrix goes into the header's `tkhd`, so the partial file has it too.
        try muxer.setDisplayMatrix(DisplayRotation.matrix(clockwise: rotation), ofStream: videoIndex)
        if let audio {
            audioIndex = try muxer.addStream(copying: audio.parameters, timeBase: audio.timeBase)
        } else {
            audioIndex = nil
        }
        for (key, value) in RecordingFinalizer.captureRateTags(captureRate, isISO: true) {
            muxer.setMetadata(key, value)
        }
        // The first frame is encoded: capture has started (the final file keeps this time).
        for (key, value) in HFRVersion.tags(
            creationTime: HFRVersion.creationTimeText(secondsSince1970: Int64(Date().timeIntervalSince1970)))
        { muxer.setMetadata(key, value) }
        // empty_moov: the header holds no samples, each fragment carries its own index (moof).
        // frag_custom: fragments end when hfr says, so hfr knows where the file is whole.
        // avoid_negative_ts disabled: otherwise the muxer shifts video to line up with audio priming.
        try muxer.writeHeader(options: [
            "movflags": "empty_moov+default_base_moof+frag_custom+use_metadata_tags",
            "avoid_negative_ts": "disabled",
        ])
        safeLength = try muxer.flushFragment()
        // The header (with the movie box) is on disk and never rewritten: a recording cut short
        // already carries the float32 capture rate.
        try RecordingFinalizer.storeFloatCaptureRate(captureRate, inFileAt: path)
    }

    /// The last video packet, held until the next one says how long it lasts.
    private var heldVideo: (packet: Packet, timeBase: Rational)?

    /// Writes one packet; ends a fragment every half second of video.
    ///
    /// A video packet is written when the next one arrives, lasting until it: FFmpeg 5.1 takes a
    /// fragment's last sample's duration from its packet and starts the next fragment where that
    /// implies, so a frame the camera dropped right after a fragment's end would otherwise move
    /// the next frame back by the gap.
    func write(_ item: MuxItem) throws(AVFailure) {
        switch item {
        case .video(let packet, let timeBase):
            if let held = heldVideo, let next = packet.dts ?? packet.pts, let start = held.packet.dts ?? held.packet.pts
            {
                let step = Rational.rescale(next, from: timeBase, to: held.timeBase) - start
                if step > 0 { held.packet.duration = step }
                try writeVideo(held.packet, held.timeBase)
            }
            heldVideo = (packet, timeBase)
        case .audio(let packet, let timeBase):
            guard let audioIndex else { return }
            try muxer.write(packet, from: timeBase, to: audioIndex)
        }
    }

    private func writeVideo(_ packet: Packet, _ timeBase: Rational) throws(AVFailure) {
        let seconds = Rational.seconds(packet.pts ?? 0, in: timeBase)
        try muxer.write(packet, from: timeBase, to: videoIndex)
        if seconds - lastFlushSeconds >= FragmentWriter.fragmentSeconds {
            safeLength = try muxer.flushFragment()
            lastFlushSeconds = seconds
        }
    }

    var bytesWritten: Int64 { muxer.bytesWritten }

    /// Gives up after a failed write: closes the file, then cuts it after the last whole fragment.
    func abandon(path: String) {
        muxer.abandonFile()
        var info = stat()
        if path.withPathBytes({ stat($0, &info) }) == 0, Int64(info.st_size) > safeLength {
            FileSystem.truncate(path, Int64(safeLength))
        }
    }

    /// Writes the packets still interleaving, the last fragment and the trailer; closes the file.
    func finish() throws(AVFailure) {
        if let held = heldVideo {
            heldVideo = nil
            try writeVideo(held.packet, held.timeBase)
        }
        try muxer.writeTrailer()
    }
}
