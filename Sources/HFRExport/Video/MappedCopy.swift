import HFRMedia
import HFRProbe

/// The zero-copy form of a conform: the video samples' places, times and sizes come from the MP4/MOV
/// index, each packet views its sample in the mapped input (nothing is read into a buffer), and the
/// muxer has the kernel copy the payload file to file. Checks still see every sample's bytes
/// through the mapping (NAL structure, droppable marks), touching only the pages they read.
///
/// Taken only where the index stands in for the packets exactly (`IndexScan`) and every frame is
/// copied as it is: a whole-file conform into MP4/MOV, with audio absent, muted or retimed.
struct MappedCopy {
    let file: MappedFile
    let entries: [IndexEntry]

    /// The mapped input and its video index, when this export can be made this way; else nil.
    static func prepare(
        _ demuxer: borrowing Demuxer, settings: ExportSettings, plan: ExportPlan, video: StreamInfo, format: Container
    ) -> MappedCopy? {
        guard case .conform = settings.mode, settings.range == nil, format.isISO,
            let layers = plan.layers, layers.maxLevels.allSatisfy({ $0 >= layers.levelCount - 1 }),
            plan.map.isConstant, plan.decodeStart == nil, !plan.copiesAudio || settings.audio == .mute,
            IndexScan.standsIn(demuxer, path: settings.input)
        else { return nil }
        let entries = demuxer.indexEntries(ofStream: video.index)
        guard !entries.contains(where: \.isDiscarded), let file = try? MappedFile(path: settings.input) else {
            return nil
        }
        return MappedCopy(file: file, entries: entries)
    }

    /// Every video sample as a packet viewing the mapping, in file order, with the audio packets
    /// `nextAudio` reads placed between them by file position.
    func forEachPacket(
        video: StreamInfo, nextAudio: () throws(ExportFailure) -> Packet?,
        _ body: (Packet, _ isVideo: Bool) throws(ExportFailure) -> Void
    ) throws(ExportFailure) {
        var audio = try nextAudio()
        for (i, entry) in entries.enumerated() {
            while let a = audio, (a.position ?? Int64.max) < entry.position {
                try body(a, false)
                audio = try nextAudio()
            }
            guard entry.position >= 0, entry.position + Int64(entry.size) <= Int64(file.bytes.count) else {
                throw .badInput("truncated or corrupt: frame \(i) at byte \(entry.position) lies past the end")
            }
            let next = i + 1 < entries.count ? entries[i + 1].timestamp : (video.duration ?? entry.timestamp)
            let packet = try ExportFailure.during("allocating a packet") {
                try Packet.view(
                    of: UnsafeRawBufferPointer(
                        rebasing: file.bytes[Int(entry.position)..<Int(entry.position) + entry.size]),
                    in: file)
            }
            // What the MOV demuxer would give: pts = dts = the sample's time, its duration up to the next.
            packet.pts = entry.timestamp
            packet.dts = entry.timestamp
            packet.duration = max(0, next - entry.timestamp)
            packet.isKeyframe = entry.isKeyframe
            try body(packet, true)
            // Written: its pages need not stay resident in this process (checked every 512 frames).
            if i % 512 == 0 { file.release(before: entry.position) }
        }
        while let a = audio {
            try body(a, false)
            audio = try nextAudio()
        }
    }
}
