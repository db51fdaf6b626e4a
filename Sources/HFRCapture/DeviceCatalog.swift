import Foundation

/// The capture devices of this machine: V4L2 video nodes and ALSA capture PCMs.
public enum DeviceCatalog {
    /// A V4L2 node and what QUERYCAP says about it (or why it could not be opened).
    public struct VideoNode: Sendable {
        public var path: String
        /// `/dev/v4l/by-id/…`: stable across reboots and re-plugging, when udev made one.
        public var stablePath: String?
        public var capabilities: V4L2Device.Capabilities?
        public var failure: V4L2Failure?

        public var canCapture: Bool { capabilities?.canCapture ?? false }
    }

    /// An ALSA PCM that can capture.
    public struct AudioPCM: Sendable {
        public var card: Int
        public var device: Int
        /// The card's id (`Loopback`), usable in `hw:ID,DEV`.
        public var cardID: String
        public var cardName: String
        public var name: String
        /// What `record --audio` takes: `alsa:hw:Loopback,1`.
        public var recordName: String { "alsa:hw:\(cardID),\(device)" }
    }

    /// Every `/dev/videoN`, in number order.
    public static func videoNodes(in directory: String = "/dev") -> [VideoNode] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        let numbered = names.compactMap { n -> (Int, String)? in
            guard n.hasPrefix("video"), let i = Int(n.dropFirst(5)) else { return nil }
            return (i, directory + "/" + n)
        }.sorted { $0.0 < $1.0 }
        let stable = stablePaths()
        var nodes: [VideoNode] = []
        for (_, path) in numbered {
            do throws(V4L2Failure) {
                let device = try V4L2Device(path: path)
                nodes.append(VideoNode(path: path, stablePath: stable[path], capabilities: device.capabilities))
            } catch {
                nodes.append(VideoNode(path: path, stablePath: stable[path], failure: error))
            }
        }
        return nodes
    }

    /// `/dev/v4l/by-id` links by the node they point at.
    static func stablePaths() -> [String: String] {
        let dir = "/dev/v4l/by-id"
        var result: [String: String] = [:]
        for name in (try? FileManager.default.contentsOfDirectory(atPath: dir)) ?? [] {
            let link = dir + "/" + name
            let target = URL(fileURLWithPath: link).resolvingSymlinksInPath().path
            if result[target] == nil { result[target] = link }
        }
        return result
    }

    /// ALSA PCMs with a capture side, from `/proc/asound/pcm` and `/proc/asound/cards`.
    public static func audioCapturePCMs(procDirectory: String = "/proc/asound") -> [AudioPCM] {
        guard let pcms = try? String(contentsOfFile: procDirectory + "/pcm", encoding: .utf8) else { return [] }
        var ids: [Int: (id: String, name: String)] = [:]
        if let cards = try? String(contentsOfFile: procDirectory + "/cards", encoding: .utf8) {
            // " 0 [Loopback       ]: Loopback - Loopback"
            for line in cards.split(separator: "\n") {
                let trimmed = line.drop { $0 == " " }
                guard let open = trimmed.firstIndex(of: "["), let close = trimmed.firstIndex(of: "]"),
                    let number = Int(trimmed[..<open].trimmingCharacters(in: .whitespaces))
                else { continue }
                let id = trimmed[trimmed.index(after: open)..<close].trimmingCharacters(in: .whitespaces)
                let rest = trimmed[close...].split(separator: "-", maxSplits: 1).last.map(String.init) ?? id
                ids[number] = (id, rest.trimmingCharacters(in: .whitespaces))
            }
        }
        // "00-01: Loopback PCM : Loopback PCM : playback 8 : capture 8"
        return pcms.split(separator: "\n").compactMap { line in
            let fields = line.split(separator: ":").map { $0.trimmingCharacters(in: .whitespaces) }
            let numbers = fields.first?.split(separator: "-").compactMap { Int($0) } ?? []
            guard numbers.count == 2, fields.contains(where: { $0.hasPrefix("capture") }) else { return nil }
            let card = ids[numbers[0]]
            return AudioPCM(
                card: numbers[0], device: numbers[1], cardID: card?.id ?? String(numbers[0]),
                cardName: card?.name ?? "", name: fields.count > 1 ? fields[1] : "")
        }
    }

    /// `--device`: a path, a node number (`2` → /dev/video2), or part of a capture device's name.
    public static func resolve(_ spec: String, in directory: String = "/dev") -> Resolution {
        if spec.hasPrefix("/") || spec.hasPrefix(".") { return .path(spec) }
        if let number = Int(spec), number >= 0 { return .path("\(directory)/video\(number)") }
        let capture = videoNodes(in: directory).filter(\.canCapture)
        let matches = capture.filter { $0.capabilities!.card.localizedCaseInsensitiveContains(spec) }
        switch matches.count {
        case 1: return .path(matches[0].path)
        case 0: return .noMatch(available: capture.map { "\($0.path) (\($0.capabilities!.card))" })
        default: return .ambiguous(matches.map { "\($0.path) (\($0.capabilities!.card))" })
        }
    }

    public enum Resolution: Sendable, Equatable {
        case path(String)
        case noMatch(available: [String])
        case ambiguous([String])
    }
}
