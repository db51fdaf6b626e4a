import HFRCapture
import HFRMedia

/// The `hfr formats --json` document (schema "hfr.formats/1").
enum FormatsJSON {
    static func document(
        device: V4L2Device, formats: [V4L2FormatModes], modes: [[V4L2Mode]], best: ModeSelector.Choice?,
        controls: [(V4L2Control, Int32?)]
    ) -> JSONValue {
        let caps = device.capabilities
        var members: [(String, JSONValue)] = [
            ("schema", "hfr.formats/1"),
            ("device", .string(device.path)),
            ("card", .string(caps.card)),
            ("driver", .string(caps.driver)),
            ("bus", .string(caps.busInfo)),
            ("supportsHighFrameRate", .bool(best.map { $0.rate > Rational(30) } ?? false)),
            (
                "maxFrameRateMode",
                .optional(
                    best.map {
                        .object([
                            ("format", .string($0.mode.format.fourCC)),
                            ("width", .int(Int64($0.mode.width))),
                            ("height", .int(Int64($0.mode.height))),
                            ("frameRate", .string($0.rate.description)),
                        ])
                    })
            ),
            ("formats", .array(zip(formats, modes).map { format($0, modes: $1, best: best) })),
        ]
        if !controls.isEmpty {
            members.append(
                (
                    "controls",
                    .array(
                        controls.map { c, value in
                            .object([
                                ("name", .string(c.key)),
                                ("label", .string(c.name)),
                                ("id", .int(Int64(c.id))),
                                ("type", .int(Int64(c.type))),
                                ("minimum", .int(c.minimum)),
                                ("maximum", .int(c.maximum)),
                                ("default", .int(c.defaultValue)),
                                ("value", .optional(value.map { .int(Int64($0)) })),
                            ])
                        })
                ))
        }
        return .object(members)
    }

    static func format(_ f: V4L2FormatModes, modes: [V4L2Mode], best: ModeSelector.Choice?) -> JSONValue {
        .object([
            ("fourcc", .string(f.format.fourCC)),
            ("description", .string(f.name)),
            ("compressed", .bool(f.isCompressed)),
            ("recordable", .bool(f.format.preferenceRank != nil)),
            (
                "sizes",
                .array(
                    f.sizes.map {
                        size($0.size, $0.intervals, presets: presets(in: $0.size, of: modes), best)
                    })
            ),
        ])
    }

    /// The modes at the preset sizes inside a stepwise or continuous `size` (none for a discrete one).
    static func presets(in size: V4L2FrameSize, of modes: [V4L2Mode]) -> [V4L2Mode] {
        V4L2FormatModes.presetSizes(in: size).compactMap { p in
            modes.first { $0.width == p.width && $0.height == p.height }
        }
    }

    static func size(
        _ s: V4L2FrameSize, _ intervals: [V4L2FrameInterval], presets: [V4L2Mode], _ best: ModeSelector.Choice?
    ) -> JSONValue {
        var members: [(String, JSONValue)]
        switch s {
        case .discrete(let w, let h):
            members = [("type", "discrete"), ("width", .int(Int64(w))), ("height", .int(Int64(h)))]
        case .stepwise(let minW, let maxW, let stepW, let minH, let maxH, let stepH):
            members = [
                ("type", "stepwise"), ("minWidth", .int(Int64(minW))), ("maxWidth", .int(Int64(maxW))),
                ("stepWidth", .int(Int64(stepW))), ("minHeight", .int(Int64(minH))), ("maxHeight", .int(Int64(maxH))),
                ("stepHeight", .int(Int64(stepH))),
            ]
        case .continuous(let minW, let maxW, let minH, let maxH):
            members = [
                ("type", "continuous"), ("minWidth", .int(Int64(minW))), ("maxWidth", .int(Int64(maxW))),
                ("minHeight", .int(Int64(minH))), ("maxHeight", .int(Int64(maxH))),
            ]
        }
        members.append(("maxFrameRate", .string(intervals.map(\.maxRate).max()?.description ?? "0")))
        members.append(("intervals", .array(intervals.map(interval))))
        if case .discrete = s { return .object(members) }
        members.append(
            (
                "presets",
                .array(
                    presets.map { p in
                        .object([
                            ("width", .int(Int64(p.width))), ("height", .int(Int64(p.height))),
                            ("maxFrameRate", .string(p.maxRate.description)),
                            ("intervals", .array(p.intervals.map(interval))),
                            ("takenByFpsMax", .bool(best.map { $0.mode == p } ?? false)),
                        ])
                    })
            ))
        return .object(members)
    }

    static func interval(_ i: V4L2FrameInterval) -> JSONValue {
        switch i {
        case .discrete(let v):
            return .object([
                ("type", "discrete"), ("interval", .string(v.description)),
                ("frameRate", .string(v.reciprocal.description)),
            ])
        case .stepwise(let min, let max, let step):
            return .object([
                ("type", "stepwise"), ("min", .string(min.description)), ("max", .string(max.description)),
                ("step", .string(step.description)),
            ])
        case .continuous(let min, let max):
            return .object([
                ("type", "continuous"), ("min", .string(min.description)), ("max", .string(max.description)),
            ])
        }
    }
}
