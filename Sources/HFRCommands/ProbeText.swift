import HFRMedia
import HFRProbe

/// The human-readable `hfr probe` output.
enum ProbeText {
    static func frameHeader() -> String {
        "frame       time   size key type ref tid droppable sdtp\n"
    }

    static func frame(_ f: ProbedFrame) -> String {
        let s = f.structure
        let columns: [String] = [
            pad(String(f.index), 5),
            pad(f.time.map { DecimalText.fixed($0.doubleValue, digits: 4) } ?? "-", 10),
            pad(String(f.size), 6),
            pad(f.isKeyframe ? "K" : "-", 3),
            pad(s?.sliceType?.rawValue ?? "-", 4),
            pad(s.map { String($0.nalRefIdc) } ?? "-", 3),
            pad(s?.temporalID.map(String.init) ?? "-", 3),
            pad(s.map { $0.isDroppable ? "yes" : "no" } ?? "-", 9),
            f.isContainerDisposable ? "yes" : "no",
        ]
        return columns.joined(separator: " ") + "\n"
    }

    static func summary(_ r: ProbeReport) -> String {
        var lines: [String] = []
        let duration =
            r.container.duration.map { DecimalText.fixed($0.doubleValue, digits: 3) + " s" } ?? "unknown duration"
        lines.append("\(r.path): \(r.container.formatLongName), \(duration), \(r.fileSize) bytes")
        for s in r.streams { lines.append("  " + stream(s)) }
        if let offset = r.avStartOffset {
            lines.append("A/V start offset: \(signed(offset.doubleValue * 1000)) ms (audio − video)")
        }
        if let v = r.video { lines += video(v) }
        if let s = r.samsungSlowMotion { lines += samsung(s) }
        if let clip = ProbeClip(tags: r.container.tags) { lines.append(clip.line) }
        if let f = r.flicker { lines.append(flicker(f)) }
        return lines.joined(separator: "\n") + "\n"
    }

    /// "Flicker: mains flicker 100 Hz, depth 12 % (first 0.600 s)", or none found.
    static func flicker(_ f: FlickerProbe.Reading) -> String {
        let span = "first \(f.frames) frames, \(DecimalText.fixed(f.seconds, digits: 3)) s"
        guard let hz = f.frequency, let depth = f.depth else { return "Flicker: none (\(span))" }
        return
            "Flicker: mains flicker \(DecimalText.fixed(hz, digits: 1)) Hz, depth \(DecimalText.fixed(depth * 100, digits: 1)) %"
            + (f.inBands ? ", in bands (rolling shutter)" : "") + " (\(span))"
    }

    /// Samsung slow motion: the `smta` capture rate and the segments the phone plays slowed down.
    static func samsung(_ s: SamsungSlowMotion) -> [String] {
        var head = "Samsung slow motion (SEF): captured at \(s.captureFrameRate.map(String.init) ?? "?") fps"
        if let layers = s.temporalLayerCount { head += ", \(layers) temporal layers" }
        let segments = s.segments.map {
            "  \(DecimalText.fixed(Double($0.start) / 1000, digits: 3))-\(DecimalText.fixed(Double($0.end) / 1000, digits: 3)) s"
                + " at 1/\($0.speedDivisor) speed"
        }
        return [head + (segments.isEmpty ? ", no slow-motion segments" : "")] + segments
    }

    /// The display matrix as `--rotate` says it (", rotation 90° clockwise"); FFmpeg's
    /// counter-clockwise angle for one that is not a quarter turn; nothing without one.
    static func rotation(_ p: StreamPresentation) -> String {
        switch (p.clockwiseRotation, p.rotation) {
        case (0?, _), (nil, nil): ""
        case (let r?, _): ", rotation \(r)° clockwise"
        case (nil, let r?):
            ", display matrix with a flip or an odd angle (ffprobe: \(DecimalText.fixed(r, digits: 0))°)"
        }
    }

    static func stream(_ s: ProbeReport.Stream) -> String {
        let i = s.info
        var text = "#\(i.index) \(i.kind.rawValue): \(i.codecName == "none" ? i.codecTag ?? "none" : i.codecName)"
        if let p = i.profile { text += " (\(p))" }
        switch i.kind {
        case .video:
            text += " \(i.width)x\(i.height)"
            if let f = i.pixelFormat { text += " \(f)" }
            let c = i.presentation.colorNames
            let colour = [[c.primaries, c.transfer, c.space].compactMap { $0 }.joined(separator: "/"), c.range ?? ""]
            if colour != ["", ""] { text += " " + colour.filter { !$0.isEmpty }.joined(separator: " ") }
            text += rotation(i.presentation)
            text += ", \(rate(i.averageFrameRate)) fps"
            if let m = s.measuredFrameRate, m != i.averageFrameRate { text += " (measured \(rate(m)))" }
        case .audio:
            text += " \(i.sampleRate) Hz \(i.channelLayout ?? "\(i.channels) ch")"
            if let f = i.sampleFormat { text += " \(f)" }
            // 24-bit FLAC, ALAC or PCM decodes to 32-bit samples: say what they hold.
            if i.bitsPerSample > 0, i.sampleFormat?.hasPrefix("s32") == true, i.bitsPerSample < 32 {
                text += " (\(i.bitsPerSample)-bit)"
            }
        default: break
        }
        text += ", \(s.frameCount) frames"
        if let d = i.durationSeconds ?? s.measuredDuration {
            text += ", \(DecimalText.fixed(d.doubleValue, digits: 3)) s"
        }
        text += ", time base \(i.timeBase)"
        return text
    }

    static func video(_ v: ProbeReport.VideoStructure) -> [String] {
        var lines: [String] = []
        var capture = "Capture rate: \(rate(v.captureFrameRate)) fps (\(v.captureFrameRateSource.rawValue))"
        capture += ", plays at \(rate(v.playbackFrameRate)) fps"
        if let f = v.slowMotionFactor {
            capture += f > Rational(1) ? ", slow motion \(rate(f))×" : ", time-lapse \(rate(f.reciprocal))×"
        }
        lines.append(capture)
        if let map = v.exportTimeMap, map.isRamp { lines += timeMap(map) }
        if let method = v.interpolation {
            lines.append(
                "Interpolated: holds frames hfr export made between captured ones (\(method), \(Prober.interpolatedKey))"
            )
        }
        if let filled = v.filledDrops {
            let method = v.filledDropsMethod.map { " by \($0)" } ?? ""
            lines.append(
                "Filled drops: \(filled.count) frames synthesized (filled drops)\(method): output frames \(filled) (\(Prober.filledDropsKey))"
            )
        }
        lines += v.captureRateNotes.map { "Note: \($0)" }
        guard v.isBitstreamAnalyzed else {
            lines.append("Temporal structure: not analysed (only H.264 and HEVC bitstreams are parsed)")
            return lines
        }
        let how =
            switch v.layerSignalling {
            case .svcTemporalID: "from SVC temporal_id"
            case .hevcTemporalID: "from HEVC nuh_temporal_id_plus1"
            default: "no temporal ids; by nal_ref_idc"
            }
        lines.append("Temporal layers: \(v.layers.count) (\(how))")
        for l in v.layers {
            lines.append(
                "  layer \(l.id): \(pad(String(l.frameCount), 6)) frames (\(percent(l.share))), droppable \(l.droppableCount)"
            )
        }
        var droppable = "Droppable: \(v.droppableFrameCount) of \(v.frameCount) frames (\(percent(v.droppableShare)))"
        droppable +=
            v.containerMarkedCount == 0
            ? "; container marks none (no sdtp)"
            : "; container marks \(v.containerMarkedCount) (sdtp)"
        if v.markedButReferencedCount > 0 {
            droppable += "; WARNING: \(v.markedButReferencedCount) marked frames are referenced"
        }
        lines.append(droppable)
        let rates = v.reachableRates.map {
            "\(rate($0.rate)) fps (\($0.keep)\($0.isUniform ? "" : ", uneven"))"
        }
        if !rates.isEmpty { lines.append("Real-time rates without re-encoding: " + rates.joined(separator: ", ")) }
        return lines
    }

    static func rate(_ r: Rational?) -> String {
        guard let r else { return "unknown" }
        return r.isInteger ? String(r.numerator) : "\(r) (\(DecimalText.fixed(r.doubleValue, digits: 3)))"
    }

    static func signed(_ value: Double) -> String { (value >= 0 ? "+" : "") + DecimalText.fixed(value, digits: 1) }

    static func percent(_ share: Double) -> String { DecimalText.fixed(share * 100, digits: 1) + " %" }

    static func pad(_ text: String, _ width: Int) -> String {
        String(repeating: " ", count: max(0, width - text.count)) + text
    }
}

extension ProbeReport.ReachableRate {
    var keep: String { description }
}

extension ProbeText {
    /// A ramped hfr export's segments: no single slow-motion factor describes it.
    static func timeMap(_ map: ExportTimeMap) -> [String] {
        func time(_ r: Rational) -> String {
            r.isInteger ? String(r.numerator) : DecimalText.fixed(r.doubleValue, digits: 3)
        }
        func span(_ start: Rational, _ end: Rational?) -> String {
            end.map { "\(time(start))-\(time($0)) s" } ?? "\(time(start)) s-end"
        }
        return ["Time map (hfr export ramp, \(PlaybackTiming.exportSpeedKey)):"]
            + map.segments.map { s in
                let how =
                    s.speed < Rational(1)
                    ? "slow motion \(rate(s.speed.reciprocal))×"
                    : s.speed > Rational(1) ? "fast \(rate(s.speed))×" : "real time"
                let ease = s.ease.map { ", eased in over \(time($0)) s" } ?? ""
                return
                    "  source \(span(s.sourceStart, s.sourceEnd)) at speed \(s.speed.compactDescription) (\(how))\(ease), "
                    + "plays at \(span(s.outputStart, s.outputEnd))"
            }
    }
}
