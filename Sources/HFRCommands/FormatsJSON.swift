import HFRCapture
import HFRMedia

/// The `hfr formats --json` document (schema "hfr.formats/1").
enum FormatsJSON {
    static func document(
        device: V4L2Device, formats: [V4L2FormatModes], best: ModeSelector.Choice?,
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
            ("formats", .array(formats.map(format))),
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

    static func format(_ f: V4L2FormatModes) -> JSONValue {
        .object([
            ("fourcc", .string(f.format.fourCC)),
            ("description", .string(f.name)),
            ("compressed", .bool(f.isCompressed)),
            ("recordable", .bool(f.format.preferenceRank != nil)),
            ("sizes", .array(f.sizes.map { size($0.size, $0.intervals) })),
        ])
    }

    static func size(_ s: V4L2FrameSize, _ intervals: [V4L2FrameInterval]) -> JSONValue {
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
