import HFRMedia

/// Reads a media file packet by packet, without decoding, into a `ProbeReport`.
///
/// Memory stays constant: per-frame facts go to `onFrame` as they are read and only counters are kept.
public enum Prober {
    /// Probes `path` (a raw stream timed by `timing`); calls `onFrame` with each frame of the main
    /// video stream in file order.
    public static func probe(
        path: String, fileSize: Int64, timing: InputTiming? = nil, onFrame: ((ProbedFrame) -> Void)? = nil
    ) throws(ProbeFailure) -> ProbeReport {
        do {
            return try read(MediaInput(path: path, timing: timing), fileSize: fileSize, onFrame: onFrame)
        } catch let failure as AVFailure {
            throw .av(failure)
        } catch let failure as ProbeFailure {
            throw failure
        } catch {
            preconditionFailure("unexpected error \(error)")
        }
    }

    private static func read(
        _ input: MediaInput, fileSize: Int64, onFrame: ((ProbedFrame) -> Void)?
    ) throws -> ProbeReport {
        let path = input.path
        let demuxer = try Demuxer(input: input)
        let streams = demuxer.streams
        let video = streams.first { $0.kind == .video && !$0.isAttachedPicture }
        var parser = video.flatMap { FrameParser(codecName: $0.codecName, extradata: $0.extradata) }

        let isMP4Family = Container.isISO(demuxer: demuxer.formatName)
        let indexed = input.timing == nil ? IndexScan.standIn(demuxer, path: path) : nil
        let marks = indexed?.1 ?? (isMP4Family ? MP4SampleFlags(path: path) : nil)
        var tallies = [StreamTally](repeating: StreamTally(), count: streams.count)
        if let video { tallies[video.index] = .video(shownFrom: video.startTime) }
        var layers = LayerTally(temporalIDSignalling: parser?.codec == .hevc ? .hevcTemporalID : .svcTemporalID)
        var videoIndex = 0
        let promise = IndexPromise(demuxer)
        try promise.checkWithin(fileSize: fileSize)
        // A regular MP4/MOV whose index stands in for the video packets (`IndexScan`): the frames
        // come from the index and a mapping of the file, of which only the bytes the parser looks at
        // (NAL unit headers) are read: O(index), not O(file). The demuxer reads the other streams.
        var videoFromIndex: Int?
        if let video, let marks, indexed != nil, let file = try? MappedFile(path: path) {
            videoFromIndex = video.index
            try readVideoFromIndex(
                demuxer, video: video, marks: marks, file: file, parser: parser, tallies: &tallies,
                layers: &layers, videoIndex: &videoIndex, onFrame: onFrame)
        }
        try readPackets(
            demuxer, streams: streams, video: video, marks: marks, videoFromIndex: videoFromIndex, fileSize: fileSize,
            parser: &parser, tallies: &tallies, layers: &layers, videoIndex: &videoIndex, onFrame: onFrame)

        // An index (MP4 stsz, …) that promises more samples than the file holds: cut short.
        for info in streams { try promise.checkRead(stream: info.index, packets: tallies[info.index].packetCount) }
        if let video { try checkStarts(tallies, of: streams, against: video) }
        return assemble(
            demuxer, path: path, fileSize: fileSize, tallies: tallies, layers: layers, isAnalyzed: parser != nil)
    }

    /// The video's frames from the index and `file`, a mapping of the file (`IndexScan`), counted
    /// into `tallies`, `layers` and `videoIndex`.
    private static func readVideoFromIndex(
        _ demuxer: borrowing Demuxer, video: StreamInfo, marks: MP4SampleFlags, file: MappedFile,
        parser: FrameParser?, tallies: inout [StreamTally], layers: inout LayerTally, videoIndex: inout Int,
        onFrame: ((ProbedFrame) -> Void)?
    ) throws {
        var parse = parser.map { IndexFrameParse(file: file, parser: $0) }
        // Without a parser (codecs other than H.264 and HEVC) no frame is read.
        let structures: (([IndexEntry]) -> [FrameStructure?])? =
            parse == nil
            ? nil
            : { entries in
                // Pages read stay out of this process (its peak RSS flat, not the file's size).
                if let first = entries.first { file.release(before: first.position) }
                return parse!.structures(of: entries)
            }
        try IndexScan.forEachFrame(demuxer, video: video, marks: marks, structures: structures) {
            frame, duration in
            tallies[video.index].add(pts: frame.pts, duration: duration, size: frame.size)
            try checkJumps(tallies[video.index], of: video)
            videoIndex += 1
            layers.add(frame)
            onFrame?(frame)
        }
    }

    /// The packets the demuxer reads, counted into `tallies` (the video's frames also into `layers`
    /// and `videoIndex`): every stream's but the video's when `videoFromIndex` names it.
    private static func readPackets(
        _ demuxer: borrowing Demuxer, streams: [StreamInfo], video: StreamInfo?, marks: MP4SampleFlags?,
        videoFromIndex: Int?, fileSize: Int64, parser: inout FrameParser?, tallies: inout [StreamTally],
        layers: inout LayerTally,
        videoIndex: inout Int, onFrame: ((ProbedFrame) -> Void)?
    ) throws {
        // An audio stream's sample period: the decoder skips whole samples at its start (priming).
        let samplePeriods = streams.map {
            $0.kind == .audio && $0.sampleRate > 0
                ? (sample: Rational(1, Int64($0.sampleRate)), timeBase: $0.timeBase) : nil
        }
        let packet = try Packet()
        // The other streams of such a file come from the index too, after their first packet (read:
        // it carries what the decoder skips at the start) matched the index's first entry; only
        // streams that do not match, or whose packets the demuxer reshapes, are read to the end.
        // Nothing then reads the file's media data: O(index).
        var fromIndex: Set<Int> = videoFromIndex.map { [$0] } ?? []
        var awaitingFirst = Set(
            videoFromIndex == nil
                ? []
                : streams.filter { IndexScan.othersStandIn(demuxer, stream: $0, marks: marks) }
                    .map(\.index))
        demuxer.discardStreams(except: Set(streams.map(\.index)).subtracting(fromIndex))
        while fromIndex.count < streams.count, try demuxer.read(into: packet) {
            let index = packet.streamIndex
            guard index < tallies.count, !fromIndex.contains(index) else { continue }
            if packet.isCorrupt || (packet.position.map { $0 + Int64(packet.size) > fileSize } ?? false) {
                throw ProbeFailure.corruptPacket(
                    stream: index, frame: tallies[index].packetCount, position: packet.position)
            }
            let skipped =
                samplePeriods[index].map { rates -> Int64 in
                    let samples = Int64(packet.skippedStartSamples)
                    return samples == 0 ? 0 : Rational.rescale(samples, from: rates.sample, to: rates.timeBase)
                } ?? 0
            tallies[index].add(pts: packet.pts, duration: packet.duration, size: packet.size, skippedTicks: skipped)
            try checkJumps(tallies[index], of: streams[index])
            if awaitingFirst.remove(index) != nil, IndexScan.matchesFirstEntry(packet, in: demuxer) {
                try tallyFromIndex(&tallies[index], demuxer, of: streams[index], fileSize: fileSize)
                fromIndex.insert(index)
                demuxer.discardStreams(except: Set(streams.map(\.index)).subtracting(fromIndex))
                continue
            }
            guard let video, index == video.index else { continue }
            let structure = packet.withData { data in parser?.parse(data) }
            let frame = ProbedFrame(
                index: videoIndex, pts: packet.pts, dts: packet.dts,
                timeBase: video.timeBase, size: packet.size,
                isKeyframe: packet.isKeyframe, structure: structure,
                isContainerDisposable: packet.isDisposable
                    || marks?.isDisposable(track: video.index, sample: videoIndex) == true)
            videoIndex += 1
            layers.add(frame)
            onFrame?(frame)
        }
    }

    /// Counts stream `info`'s packets after the first from its index, as reading them would.
    private static func tallyFromIndex(
        _ tally: inout StreamTally, _ demuxer: borrowing Demuxer, of info: StreamInfo, fileSize: Int64
    ) throws(ProbeFailure) {
        do {
            try IndexScan.forEachPacket(demuxer, of: info, from: tally.packetCount) { entry, duration in
                guard entry.position >= 0, entry.position + Int64(entry.size) <= fileSize else {
                    throw ProbeFailure.corruptPacket(
                        stream: info.index, frame: tally.packetCount, position: entry.position)
                }
                tally.add(pts: entry.timestamp, duration: duration, size: entry.size)
                try checkJumps(tally, of: info)
            }
        } catch let failure as ProbeFailure {
            throw failure
        } catch {
            preconditionFailure("unexpected error \(error)")
        }
    }

    /// Refuses a stream that starts further from the video than any recording pauses (a damaged
    /// first time, e.g. an audio fragment's `tfdt` of 2⁶³): exported, it would lie wholly outside the
    /// video and come out silent.
    private static func checkStarts(
        _ tallies: [StreamTally], of streams: [StreamInfo], against video: StreamInfo
    ) throws(ProbeFailure) {
        guard let videoStart = tallies[video.index].minStart else { return }
        let origin = Double(videoStart) * video.timeBase.doubleValue
        for info in streams where info.index != video.index && !info.isAttachedPicture {
            guard let start = tallies[info.index].minStart else { continue }
            if let far = TimestampJump(start: Double(start) * info.timeBase.doubleValue - origin, of: info) {
                throw .timestampJump(far)
            }
        }
    }

    /// Refuses times that leap further than any recording pauses, at the packet that leaps: no
    /// length, rate or offset computed from them (nor the spacing of the frames after) holds.
    private static func checkJumps(_ tally: StreamTally, of info: StreamInfo) throws(ProbeFailure) {
        if let jump = TimestampJump(tally.jumps, in: info) { throw .timestampJump(jump) }
    }

    /// The report from what reading the packets counted.
    private static func assemble(
        _ demuxer: borrowing Demuxer, path: String, fileSize: Int64, tallies: [StreamTally], layers: LayerTally,
        isAnalyzed: Bool
    ) -> ProbeReport {
        let streams = demuxer.streams
        let video = streams.first { $0.kind == .video && !$0.isAttachedPicture }
        let audio = streams.first { $0.kind == .audio }
        let streamReports = streams.map { info in
            var t = tallies[info.index]
            // An index listing more entries than frames (an AVI's empty chunks after its first frame).
            t.rate?.spacing.takesWholeFirstGapAsOffset = info.declaredFrameCount > Int64(t.packetCount)
            return ProbeReport.Stream(
                info: info, packetCount: t.packetCount, frameCount: t.packetCount, byteCount: t.byteCount,
                firstPts: t.minStart,
                measuredFrameRate: info.kind == .video
                    ? t.measuredFrameRate(timeBase: info.timeBase, declared: declaredRate(info)) : nil,
                measuredDuration: t.measuredDuration(timeBase: info.timeBase), leadingFrame: t.leadingFrame)
        }
        let tags = demuxer.metadata
        let structure = video.map { info in
            videoStructure(
                info: info, report: streamReports[info.index], tags: tags, layers: layers, isAnalyzed: isAnalyzed,
                path: path)
        }
        var offset: Rational? = nil
        if let v = video, let a = audio, let vs = streamReports[v.index].firstPts,
            let as_ = streamReports[a.index].firstPts
        {
            offset = Rational.seconds(as_, in: a.timeBase) - Rational.seconds(vs, in: v.timeBase)
        }
        var report = ProbeReport(
            path: path, fileSize: fileSize,
            container: .init(
                formatName: demuxer.formatName, formatLongName: demuxer.formatLongName,
                duration: demuxer.durationSeconds, bitRate: demuxer.bitRate, tags: tags),
            streams: streamReports, video: structure, avStartOffset: offset)
        report.samsungSlowMotion = try? SamsungSlowMotion.read(path: path)
        return report
    }

    /// hfr's own tag for the capture frame rate, stored as an exact rational ("120/1").
    public static let captureRateKey = "com.hfr.capture.fps"
    /// The tag Android (and hence other tools) reads, stored as a decimal ("120.000000").
    public static let androidCaptureRateKey = "com.android.capture.fps"
    /// hfr export's tag on an output holding pictures made between captured frames: the method
    /// (`flow`, `blend`).
    public static let interpolatedKey = "com.hfr.interpolated"
    /// hfr export's tag on an output where `--fill-drops` synthesized the frames the capture
    /// dropped: their output frame indices (`FrameRanges`: `120-122,300`); and how (`flow`,
    /// `blend` for pictures too small for flow, `repeat`).
    public static let filledDropsKey = "com.hfr.filled-drops"
    public static let filledDropsMethodKey = "com.hfr.filled-drops.method"

    /// The capture rate a file declares, hfr's exact key first.
    public static func declaredCaptureRate(
        tags: [String: String], streamTags: [String: String]
    ) -> (Rational, ProbeReport.CaptureRateSource)? {
        // Matroska stores tag names in upper case; MP4 keeps them as written.
        func lookUp(_ key: String) -> String? { PlaybackTiming.lookUp(key, tags, streamTags) }
        for (key, source) in [
            (captureRateKey, ProbeReport.CaptureRateSource.hfrTag), (androidCaptureRateKey, .androidTag),
        ] {
            if let text = lookUp(key), let rate = Rational(parsing: text), isSaneCaptureRate(rate) {
                return (source == .androidTag ? nearestExactRate(rate) : rate, source)
            }
        }
        return nil
    }

    /// Capture rates a tag may declare: 1 to 10,000 fps. Outside (0.0000001, 2147483647) the tag is
    /// damaged or wrong, and the measured rate is used instead.
    public static let captureRateBounds = Rational(1)...Rational(10_000)

    static func isSaneCaptureRate(_ rate: Rational) -> Bool {
        rate.denominator > 0 && captureRateBounds.contains(rate)
    }

    /// A note for each capture-rate tag present but ignored (not a number, not finite, outside
    /// `captureRateBounds`), naming its value; empty when every tag is usable or none is present.
    public static func ignoredCaptureRateTags(tags: [String: String], streamTags: [String: String]) -> [String] {
        [captureRateKey, androidCaptureRateKey].compactMap { key in
            guard
                let text =
                    (tags.first { $0.key.lowercased() == key } ?? streamTags.first { $0.key.lowercased() == key })?
                    .value
            else { return nil }
            if let rate = Rational(parsing: text), isSaneCaptureRate(rate) { return nil }
            return "capture-rate tag \(key) = \"\(text)\" ignored (not a rate between 1 and 10000 fps); "
                + "the measured rate is used"
        }
    }

    /// Android's tag is a float32, which FFmpeg prints with six decimals: 120000/1001 reads back as
    /// "119.880119". The exact rate it stood for — a whole number, an NTSC rate (n·1000/1001) or
    /// three decimals — when one lies within float32's and the printout's rounding of it.
    public static func nearestExactRate(_ rate: Rational) -> Rational {
        let x = rate.doubleValue
        let tolerance = 1e-5 + x * 1e-7
        let candidates = [
            Rational(Int64(x.rounded())),
            Rational(Int64((x * 1.001).rounded()) * 1000, 1001),
            Rational(Int64((x * 1000).rounded()), 1000),
        ]
        return candidates.first { $0.numerator > 0 && abs($0.doubleValue - x) <= tolerance } ?? rate
    }

    /// The frame rate the container declares for `info` (to which a measurement within 1 % is
    /// taken as rounded): its base rate, else its average.
    static func declaredRate(_ info: StreamInfo) -> Rational? {
        info.realFrameRate ?? info.averageFrameRate
    }

    /// The capture rate: declared by a tag, else measured from the timestamps, else the container's
    /// average rate.
    static func captureRate(
        info: StreamInfo, measured: Rational?, tags: [String: String], path: String
    ) -> (Rational?, ProbeReport.CaptureRateSource) {
        if let (rate, source) = declaredCaptureRate(path: path, tags: tags, streamTags: info.metadata) {
            return (rate, source)
        }
        if let rate = measured ?? info.averageFrameRate { return (rate, .measured) }
        return (nil, .unknown)
    }

    private static func videoStructure(
        info: StreamInfo, report: ProbeReport.Stream, tags: [String: String], layers: LayerTally, isAnalyzed: Bool,
        path: String
    ) -> ProbeReport.VideoStructure {
        let playback = info.averageFrameRate ?? report.measuredFrameRate
        let (capture, source) = captureRate(info: info, measured: report.measuredFrameRate, tags: tags, path: path)
        var structure = ProbeReport.VideoStructure(
            streamIndex: info.index, captureFrameRate: capture, captureFrameRateSource: source,
            playbackFrameRate: playback, streamScale: PlaybackTiming.streamScale(path: path, tags: tags, video: info),
            isBitstreamAnalyzed: isAnalyzed, layerSignalling: layers.signalling,
            layers: layers.layers(), frameCount: layers.frameCount, droppableFrameCount: layers.droppableCount,
            containerMarkedCount: layers.containerMarkedCount,
            markedButReferencedCount: layers.markedButReferencedCount,
            droppableButUnmarkedCount: layers.droppableButUnmarkedCount,
            reachableRates: layers.reachableRates(captureRate: capture),
            captureRateNotes: ignoredCaptureRateTags(tags: tags, streamTags: info.metadata))
        structure.exportTimeMap = ExportTimeMap.read(tags: tags, streamTags: info.metadata)
        structure.interpolation = PlaybackTiming.lookUp(interpolatedKey, tags, info.metadata)
        structure.filledDrops = PlaybackTiming.lookUp(filledDropsKey, tags, info.metadata).flatMap {
            FrameRanges(parsing: $0)
        }
        if structure.filledDrops != nil {
            structure.filledDropsMethod = PlaybackTiming.lookUp(filledDropsMethodKey, tags, info.metadata)
        }
        return structure
    }
}
