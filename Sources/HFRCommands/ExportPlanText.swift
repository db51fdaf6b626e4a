import HFRExport
import HFRMedia

/// An export's plan for people (`export --dry-run`): a line on what is done, one table row per
/// segment of the time map, the totals, a splice's re-encoded stretches, one table row per track,
/// and the notes.
enum ExportPlanText {
    static func render(_ p: ExportPreview) -> String {
        let spliced = p.splicedReason.map {
            "copied losslessly but for the re-encode segments, spliced in (\($0))"
        }
        let with = p.encoder.map { " with \($0)" + (p.quality.map { " \($0)" } ?? "") } ?? ""
        let how = p.reencodeReason.map { "re-encoded\(with) (\($0))" } ?? spliced ?? "copied losslessly"
        var out = "Plan: \(p.input) → \(p.output) (\(p.container.displayName)), video \(how)\n"
        out += "capture \(p.captureRate.compactDescription) fps (\(p.captureRateSource)), "
        out += "output \(p.outputRate.compactDescription) fps, time map \(p.map)\(layers(p))\n\n"
        var rows = [["source s", "speed", "video", "frames in", "kept", "dropped", "frames out", "output s"]]
        for s in p.segments {
            rows.append([
                span(s.sourceStart, s.sourceEnd),
                s.easeFrom.map { "ease \($0.compactDescription)→\(s.speed.compactDescription)" }
                    ?? s.speed.compactDescription,
                s.maxLevel == nil ? "re-encode" : "copy",
                String(s.frames.framesIn), kept(s, shutter: p.shutter), levels(s.frames.dropped),
                String(s.frames.framesOut),
                span(s.outputStart, s.outputEnd),
            ])
        }
        out += table(rows)
        out += "\nOutput: \(p.framesOut) frames at \(p.outputRate.compactDescription) fps, "
        out += "\(seconds(p.outputDuration)) s"
        if p.hiddenFrames > 0 { out += ", \(p.hiddenFrames) of them before the start (hidden by an edit list)" }
        if let method = p.interpolation {
            out += ", \(p.interpolatedFrames) of them made between captured frames (\(method)"
            out += p.cutFill.map { "; across a scene cut: \($0))" } ?? ")"
        }
        if let shutter = p.shutter {
            out += ", each the average of the frames a \(shutter.compactDescription)° shutter sees"
        }
        if let method = p.dropFill {
            out += ", \(p.filledDrops) of them filling the capture's drops (\(method))"
        }
        out += "; audio \(p.audioAlgorithm == "copy" ? "copied" : p.audioAlgorithm)\n"
        for s in p.reencodedSpans { out += spanLine(s) }
        out +=
            "\n"
            + table(p.tracks.map(trackRow), header: ["track", "input", "kind", "codec", "packets", "seconds", "how"])
        for note in p.notes { out += "Note: \(note)\n" }
        return out
    }

    /// A splice's re-encoded stretch: what it covers and the frames it writes.
    static func spanLine(_ s: ExportPreview.Span) -> String {
        let to = s.sourceEnd.map(seconds) ?? "end"
        var line = "Re-encoded \(seconds(s.sourceStart))-\(to) s (decoded from \(seconds(s.decodeFrom)) s): "
        line += "\(s.framesOut) frames"
        if let start = s.frames.firstStart { line += ", output \(span(start, s.frames.end)) s" }
        return line + "\n"
    }

    /// One track: output and input stream, kind, codec, packets, seconds, and what happens to it.
    static func trackRow(_ t: ExportTrack) -> [String] {
        let how =
            switch t.method {
            case .copy: "copied"
            case .retime: "copied, retimed"
            case .reencode: "re-encoded"
            case .splice: "copied, segments re-encoded"
            case .stretch: "stretched (\(t.algorithm ?? "")), \(t.samples ?? 0) samples at \(t.sampleRate ?? 0) Hz"
            case .timecode:
                t.output == nil ? "timecode tag, from the start timecode" : "timecode track, from the start timecode"
            case .attach: "attached as it is"
            case .drop: "left out: \(t.reason ?? "")"
            }
        return [
            t.output.map { "#\($0)" } ?? "-", "#\(t.input)", t.kind, t.codec,
            t.packets.map(String.init) ?? "-", t.duration.map(seconds) ?? "-", how,
        ]
    }

    /// What the levels (L0, L1, …) of the table are.
    static func layers(_ p: ExportPreview) -> String {
        switch (p.layerSignalling, p.levelCount) {
        case ("nal-ref-idc", _): ", levels L0 reference and L1 non-reference frames (nal_ref_idc)"
        case (let signalling?, let count?) where count > 1:
            ", \(count) temporal layers L0-L\(count - 1) (\(signalling))"
        default: ""
        }
    }

    /// What a segment keeps: every frame, the re-encoder's choice, or the kept frames per layer.
    static func kept(_ s: ExportPreview.Segment, shutter: Rational? = nil) -> String {
        if let method = s.interpolation {
            return method == "repeat"
                ? "earlier frame again between captured ones (repeat)"
                : "\(s.frames.interpolated) made between captured frames (\(method))"
        }
        if s.maxLevel == nil, let shutter {
            return "the frames a \(shutter.compactDescription)° shutter sees, averaged"
        }
        if s.maxLevel == nil { return "nearest frame per output frame" }
        if s.keepsEveryFrame { return "every frame" }
        return levels(s.frames.kept) + " (1 in \(s.stride.compactDescription))"
    }

    /// `L0 15, L1 15`; `-` for none.
    static func levels(_ counts: [Int: Int]) -> String {
        counts.isEmpty
            ? "-" : counts.sorted { $0.key < $1.key }.map { "L\($0.key) \($0.value)" }.joined(separator: ", ")
    }

    static func span(_ a: Rational, _ b: Rational) -> String { "\(seconds(a))-\(seconds(b))" }

    static func seconds(_ r: Rational) -> String { DecimalText.fixed(r.doubleValue, digits: 3) }

    /// `rows` under `header`, numbers (the packets and seconds) right-aligned.
    static func table(_ rows: [[String]], header: [String]) -> String {
        table([header] + rows, numeric: [4, 5])
    }

    /// Columns padded to their widest cell; numbers right-aligned.
    static func table(_ rows: [[String]], numeric: Set<Int> = [3, 6]) -> String {
        let widths = rows[0].indices.map { c in rows.map { $0[c].count }.max() ?? 0 }
        return rows.map { row in
            row.indices.map { c in
                let pad = String(repeating: " ", count: widths[c] - row[c].count)
                return numeric.contains(c) ? pad + row[c] : row[c] + pad
            }.joined(separator: "  ").trimmingSuffix() + "\n"
        }.joined()
    }
}

extension String {
    fileprivate func trimmingSuffix() -> String {
        var s = self
        while s.last == " " { s.removeLast() }
        return s
    }
}
