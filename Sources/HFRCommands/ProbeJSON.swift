import HFRMedia
import HFRProbe

/// The stable `hfr probe --json` document (schema "hfr.probe/1", documented in docs/probe-json.md).
///
/// Rates and time bases are exact rationals written as "num/den" strings; times are seconds as
/// numbers. Keys are never removed or renamed within a schema version.
enum ProbeJSON {
    static let schema = "hfr.probe/1"

    /// The first members, written before any frame: enough for a reader to know what follows.
    static func header(path: String) -> [(String, JSONValue)] {
        [("schema", .string(schema)), ("file", .string(path))]
    }

    static func frame(_ f: ProbedFrame) -> JSONValue {
        let s = f.structure
        return .object([
            ("index", .int(Int64(f.index))),
            ("pts", .optional(f.pts.map { .int($0) })),
            ("dts", .optional(f.dts.map { .int($0) })),
            ("time", .optional(f.time.map { .double($0.doubleValue) })),
            ("size", .int(Int64(f.size))),
            ("key", .bool(f.isKeyframe)),
            ("sliceType", .optional(s?.sliceType.map { .string($0.rawValue) })),
            ("idr", .optional(s.map { .bool($0.isIDR) })),
            ("nalRefIdc", .optional(s.map { .int(Int64($0.nalRefIdc)) })),
            ("temporalId", .optional(s?.temporalID.map { .int(Int64($0)) })),
            ("droppable", .optional(s.map { .bool($0.isDroppable) })),
            ("containerDisposable", .bool(f.isContainerDisposable)),
        ])
    }

    /// The members after the frames: container, streams, capture rate, layers.
    static func summary(_ r: ProbeReport) -> [(String, JSONValue)] {
        [
            ("size", .int(r.fileSize)),
            (
                "container",
                .object([
                    ("format", .string(r.container.formatName)),
                    ("formatLongName", .string(r.container.formatLongName)),
                    ("duration", seconds(r.container.duration)),
                    ("bitRate", .int(r.container.bitRate)),
                    ("tags", .object(r.container.tags.sorted { $0.key < $1.key }.map { ($0.key, .string($0.value)) })),
                ])
            ),
            ("streams", .array(r.streams.map(stream))),
            ("video", .optional(r.video.map(video))),
            ("avStartOffset", seconds(r.avStartOffset)),
            ("samsungSlowMotion", .optional(r.samsungSlowMotion.map(samsung))),
            ("clip", .optional(ProbeClip(tags: r.container.tags)?.json)),
            ("flicker", .optional(r.flicker.map(flicker))),
        ]
    }

    /// `flicker`: mains flicker in the first pictures, or `found` false.
    static func flicker(_ f: FlickerProbe.Reading) -> JSONValue {
        .object([
            ("found", .bool(f.frequency != nil)),
            ("frequency", .optional(f.frequency.map { .double($0) })),
            ("depth", .optional(f.depth.map { .double($0) })),
            ("bands", .bool(f.inBands)),
            ("frames", .int(Int64(f.frames))),
            ("seconds", .double(f.seconds)),
        ])
    }

    static func samsung(_ s: SamsungSlowMotion) -> JSONValue {
        .object([
            ("captureFrameRate", .optional(s.captureFrameRate.map { .int(Int64($0)) })),
            ("temporalLayerCount", .optional(s.temporalLayerCount.map { .int(Int64($0)) })),
            (
                "slowMotionSegments",
                .array(
                    s.segments.map {
                        .object([
                            ("start", .double(Double($0.start) / 1000)),
                            ("end", .double(Double($0.end) / 1000)),
                            ("speed", .string(Rational(1, $0.speedDivisor).description)),
                        ])
                    })
            ),
        ])
    }

    static func rational(_ r: Rational?) -> JSONValue { .optional(r.map { .string($0.description) }) }
    static func seconds(_ r: Rational?) -> JSONValue { .optional(r.map { .double($0.doubleValue) }) }

    static func stream(_ s: ProbeReport.Stream) -> JSONValue {
        let i = s.info
        var members: [(String, JSONValue)] = [
            ("index", .int(Int64(i.index))),
            ("type", .string(i.kind.rawValue)),
            ("codec", .string(i.codecName)),
            ("profile", .optional(i.profile.map { .string($0) })),
            ("timeBase", rational(i.timeBase)),
            ("startTime", seconds(s.firstPts.map { Rational.seconds($0, in: i.timeBase) })),
            ("duration", seconds(i.durationSeconds ?? s.measuredDuration)),
            ("measuredDuration", seconds(s.measuredDuration)),
            ("packets", .int(Int64(s.packetCount))),
            ("frames", .int(Int64(s.frameCount))),
            ("bytes", .int(s.byteCount)),
            ("bitRate", .int(i.bitRate)),
        ]
        switch i.kind {
        case .video:
            members += [
                ("width", .int(Int64(i.width))),
                ("height", .int(Int64(i.height))),
                ("pixelFormat", .optional(i.pixelFormat.map { .string($0) })),
                ("frameRate", rational(i.averageFrameRate)),
                ("realFrameRate", rational(i.realFrameRate)),
                ("measuredFrameRate", rational(s.measuredFrameRate)),
                ("rotation", .optional(i.presentation.rotation.map { .double($0) })),
                ("clockwiseRotation", .optional(i.presentation.clockwiseRotation.map { .int(Int64($0)) })),
                ("colorPrimaries", .optional(i.presentation.colorNames.primaries.map { .string($0) })),
                ("colorTransfer", .optional(i.presentation.colorNames.transfer.map { .string($0) })),
                ("colorSpace", .optional(i.presentation.colorNames.space.map { .string($0) })),
                ("colorRange", .optional(i.presentation.colorNames.range.map { .string($0) })),
            ]
        case .audio:
            members += [
                ("sampleRate", .int(Int64(i.sampleRate))),
                ("channels", .int(Int64(i.channels))),
                ("channelLayout", .optional(i.channelLayout.map { .string($0) })),
                ("sampleFormat", .optional(i.sampleFormat.map { .string($0) })),
                ("bitsPerSample", .optional(i.bitsPerSample > 0 ? .int(Int64(i.bitsPerSample)) : nil)),
            ]
        default: break
        }
        members.append(("tags", .object(i.metadata.sorted { $0.key < $1.key }.map { ($0.key, .string($0.value)) })))
        return .object(members)
    }

    static func video(_ v: ProbeReport.VideoStructure) -> JSONValue {
        .object([
            ("streamIndex", .int(Int64(v.streamIndex))),
            ("captureFrameRate", rational(v.captureFrameRate)),
            ("captureFrameRateSource", .string(v.captureFrameRateSource.rawValue)),
            ("captureRateNotes", .array(v.captureRateNotes.map { .string($0) })),
            ("playbackFrameRate", rational(v.playbackFrameRate)),
            ("slowMotionFactor", rational(v.slowMotionFactor)),
            ("bitstreamAnalyzed", .bool(v.isBitstreamAnalyzed)),
            ("layerSignalling", .string(v.layerSignalling.rawValue)),
            ("layerCount", .int(Int64(v.layers.count))),
            (
                "layers",
                .array(
                    v.layers.map {
                        .object([
                            ("id", .int(Int64($0.id))),
                            ("frames", .int(Int64($0.frameCount))),
                            ("share", .double($0.share)),
                            ("droppable", .int(Int64($0.droppableCount))),
                        ])
                    })
            ),
            ("frames", .int(Int64(v.frameCount))),
            ("droppableFrames", .int(Int64(v.droppableFrameCount))),
            ("droppableShare", .double(v.droppableShare)),
            ("containerMarkedFrames", .int(Int64(v.containerMarkedCount))),
            ("markedButReferenced", .int(Int64(v.markedButReferencedCount))),
            ("droppableButUnmarked", .int(Int64(v.droppableButUnmarkedCount))),
            (
                "reachableRates",
                .array(
                    v.reachableRates.map {
                        .object([
                            ("keep", .string($0.description)),
                            ("frames", .int(Int64($0.keptFrames))),
                            ("rate", rational($0.rate)),
                            ("uniform", .bool($0.isUniform)),
                        ])
                    })
            ),
            ("exportTimeMap", .optional(v.exportTimeMap.map(timeMap))),
            ("interpolation", .optional(v.interpolation.map { .string($0) })),
            (
                "filledDrops",
                .optional(
                    v.filledDrops.map { filled in
                        .object([
                            ("count", .int(Int64(filled.count))),
                            ("method", .optional(v.filledDropsMethod.map { .string($0) })),
                            ("frames", .string(filled.description)),
                        ])
                    })
            ),
        ])
    }

    /// An hfr export's time map: source seconds, speed, and where each segment plays in the export.
    static func timeMap(_ map: ExportTimeMap) -> JSONValue {
        .array(
            map.segments.map {
                .object([
                    ("sourceStart", seconds($0.sourceStart)), ("sourceEnd", seconds($0.sourceEnd)),
                    ("speed", rational($0.speed)), ("ease", seconds($0.ease)), ("outputStart", seconds($0.outputStart)),
                    ("outputEnd", seconds($0.outputEnd)),
                ])
            })
    }
}
