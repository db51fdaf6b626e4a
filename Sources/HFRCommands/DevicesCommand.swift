import HFRCapture
import HFRMedia

/// `hfr devices [--json]`: the video and audio capture devices of this machine.
public struct DevicesCommand: Command {
    public static let name = "devices"
    public static let abstract = "List video (V4L2) and audio (ALSA) capture devices."
    public static let discussion = """
        Video: every /dev/videoN with its driver, card name, bus and what the node does (its own
        device capabilities, not the driver's), plus its stable /dev/v4l/by-id path when udev made
        one. Nodes that cannot capture (metadata, output, codecs) are listed as such; nodes that
        cannot be opened say why. Audio: ALSA PCMs with a capture side, named as record --audio
        takes them (alsa:hw:CARD,DEV).

        --json writes {"schema": "hfr.devices/1", "video": [...], "audio": [...]}.

        Exit codes: 0 ok (also when there are no devices), 64 usage.
        """
    public static let options: [OptionSpec] = [.flag("json", help: "Write machine-readable JSON to stdout.")]

    let json: Bool

    public init(_ arguments: ParsedArguments) throws(HFRError) {
        json = arguments.flag("json")
    }

    public func run() throws(HFRError) {
        let video = DeviceCatalog.videoNodes()
        let audio = DeviceCatalog.audioCapturePCMs()
        if json {
            Console.output(DevicesCommand.json(video: video, audio: audio).rendered + "\n")
            return
        }
        var text = "Video capture devices:\n"
        let capture = video.filter(\.canCapture)
        if capture.isEmpty { text += "  (none)\n" }
        for node in capture {
            let c = node.capabilities!
            let api = c.isMultiplanar ? "  (multi-planar)" : ""
            text += "  \(node.path)  \(c.card)  [\(c.driver), \(c.busInfo)]\(api)\n"
            if let stable = node.stablePath { text += "      \(stable)\n" }
        }
        let others = video.filter { !$0.canCapture }
        if !others.isEmpty {
            text += "Other video nodes:\n"
            for node in others {
                if let c = node.capabilities {
                    text += "  \(node.path)  \(c.card)  (\(c.kind))\n"
                } else if let f = node.failure {
                    text += "  \(node.path)  cannot open: \(f.cause)\n"
                }
            }
        }
        text += "Audio capture devices:\n"
        if audio.isEmpty { text += "  (none)\n" }
        for pcm in audio { text += "  \(pcm.recordName)  \(pcm.name) (\(pcm.cardName))\n" }
        Console.output(text)
    }

    static func json(video: [DeviceCatalog.VideoNode], audio: [DeviceCatalog.AudioPCM]) -> JSONValue {
        .object([
            ("schema", "hfr.devices/1"),
            (
                "video",
                .array(
                    video.map { node in
                        let c = node.capabilities
                        return .object([
                            ("path", .string(node.path)),
                            ("stablePath", .optional(node.stablePath.map { .string($0) })),
                            ("driver", .optional(c.map { .string($0.driver) })),
                            ("card", .optional(c.map { .string($0.card) })),
                            ("bus", .optional(c.map { .string($0.busInfo) })),
                            ("kind", .optional(c.map { .string($0.kind) })),
                            ("canCapture", .bool(node.canCapture)),
                            ("error", .optional(node.failure.map { .string($0.cause) })),
                        ])
                    })
            ),
            (
                "audio",
                .array(
                    audio.map { pcm in
                        .object([
                            ("name", .string(pcm.recordName)),
                            ("card", .int(Int64(pcm.card))),
                            ("device", .int(Int64(pcm.device))),
                            ("cardID", .string(pcm.cardID)),
                            ("cardName", .string(pcm.cardName)),
                            ("pcmName", .string(pcm.name)),
                        ])
                    })
            ),
        ])
    }
}
