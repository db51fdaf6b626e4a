import HFRCapture
import HFRMedia

/// The table `hfr formats` prints.
enum FormatsText {
    static func document(
        device: V4L2Device, formats: [V4L2FormatModes], modes: [[V4L2Mode]], best: ModeSelector.Choice?,
        controls: [(V4L2Control, Int32?)]
    ) -> String {
        let caps = device.capabilities
        let api = caps.isMultiplanar ? " (multi-planar)" : ""
        var text =
            "\(device.path): \(caps.card) [\(caps.driver), \(caps.busInfo)]\(api), \(formats.count) pixel formats\n"
        if let best {
            let high = best.rate > Rational(30)
            text +=
                "Supports high frame rate (> 30 fps): \(high ? "yes" : "no"); max \(ModeSelector.rateText(best.rate)) fps "
                + "at \(best.mode.width)x\(best.mode.height) \(best.mode.format.fourCC) (* = what record --fps max takes)\n"
        } else {
            text += "No mode hfr can record.\n"
        }
        for (i, f) in formats.enumerated() {
            var notes: [String] = []
            if f.isCompressed { notes.append("compressed") }
            if f.format.preferenceRank == nil { notes.append("hfr cannot record this format") }
            text +=
                "[\(i)] \(f.format.fourCC)  \(f.name)\(notes.isEmpty ? "" : "  (" + notes.joined(separator: ", ") + ")")\n"
            for (size, intervals) in f.sizes {
                let largest = size.largest
                let isBest =
                    best.map {
                        $0.mode.format == f.format && $0.mode.width == largest.width && $0.mode.height == largest.height
                    } ?? false
                text += "  \(isBest ? "*" : " ") \(sizeText(size))  \(intervalsText(intervals))\n"
                for preset in FormatsJSON.presets(in: size, of: modes[i]) {
                    let isTaken = best.map { $0.mode == preset } ?? false
                    text +=
                        "  \(isTaken ? "*" : " ")   preset \(preset.width)x\(preset.height)  "
                        + "\(intervalsText(preset.intervals))\n"
                }
            }
        }
        if !controls.isEmpty {
            text += "Controls (record --control NAME=V):\n"
            for (c, value) in controls {
                let range = c.isButton ? "button" : "\(c.minimum)…\(c.maximum)"
                let now = value.map { " = \($0)" } ?? ""
                text += "  \(c.key)  \(range)\(now)  (\(c.name))\n"
            }
        }
        return text
    }

    static func sizeText(_ size: V4L2FrameSize) -> String {
        switch size {
        case .discrete(let w, let h): return "\(w)x\(h)"
        case .stepwise(let minW, let maxW, let stepW, let minH, let maxH, let stepH):
            return "\(minW)x\(minH) to \(maxW)x\(maxH) in steps of \(stepW)x\(stepH) (rates at the largest)"
        case .continuous(let minW, let maxW, let minH, let maxH):
            return "\(minW)x\(minH) to \(maxW)x\(maxH) (rates at the largest)"
        }
    }

    static func intervalsText(_ intervals: [V4L2FrameInterval]) -> String {
        if intervals.isEmpty { return "no frame rates listed" }
        return intervals.map { i in
            switch i {
            case .discrete(let interval): return ModeSelector.rateText(interval.reciprocal)
            case .stepwise(let min, let max, let step):
                return
                    "\(ModeSelector.rateText(max.reciprocal))–\(ModeSelector.rateText(min.reciprocal)) (interval step \(step))"
            case .continuous(let min, let max):
                return "\(ModeSelector.rateText(max.reciprocal))–\(ModeSelector.rateText(min.reciprocal))"
            }
        }.joined(separator: ", ") + " fps"
    }
}
