import Foundation
import HFRTestSupport
import Testing

/// The VM guest that scripts/vm-test boots: Debian's kernel with `vivid` and `snd-aloop` as a real
/// ALSA loopback card. vivid has four instances (`Guest.vividArguments`): /dev/video0 a webcam,
/// /dev/video1 an HDMI capture input, /dev/video2 a video output, /dev/video3 a webcam on the
/// multi-planar API (`multiplanar=2`). Device tests run only there; on the host,
/// `RealDriverHarnessTests` boots the guest and runs them.
enum Guest {
    static let vividArguments =
        "n_devs=4 node_types=0x1,0x1,0x100,0x1 num_inputs=1,1,1,1 input_types=0x0,0x3,0x0,0x0 multiplanar=1,1,1,2"
    static let isInside = ProcessInfo.processInfo.environment["HFR_IN_GUEST"] == "1"
    static let reason =
        "runs inside the VM guest against vivid/snd-aloop (the host test RealDriverHarnessTests boots it)"

    static let camera = "/dev/video0"
    static let hdmi = "/dev/video1"
    static let outputNode = "/dev/video2"
    static let multiplanar = "/dev/video3"

    /// Sets a vivid control with v4l2-ctl (an independent tool, not hfr).
    static func set(_ control: String, _ value: Int, on device: String = camera) throws {
        let r = try Tool.run("v4l2-ctl", ["-d", device, "-c", "\(control)=\(value)"])
        #expect(r.status == 0, "v4l2-ctl -c \(control)=\(value): \(r.stderr)")
    }

    /// The fault controls a test may leave set, back to off.
    static func resetFaults() throws {
        for c in ["percentage_of_dropped_buffers", "wrap_sequence_number", "wrap_timestamp", "reduced_framerate"] {
            for device in [camera, hdmi, multiplanar] { _ = try Tool.run("v4l2-ctl", ["-d", device, "-c", "\(c)=0"]) }
        }
    }

    /// Waits until `device` exists as a V4L2 node again (after vivid's simulated unplug).
    static func waitForCamera(_ device: String = camera, timeout: Double = 10) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if let r = try? Tool.run("v4l2-ctl", ["-d", device, "--all"]), r.status == 0 { return true }
            usleep(100_000)
        }
        return false
    }

    /// Every video frame's pts in seconds, as ffprobe reads them.
    static func frameTimes(_ path: String) throws -> [Double] {
        let r = try Tool.run(
            "ffprobe",
            ["-v", "error", "-select_streams", "v:0", "-show_entries", "packet=pts_time", "-of", "csv=p=0", path])
        return r.stdout.split(separator: "\n").compactMap { Double($0) }.sorted()
    }

    /// A stream's value from ffprobe (`r_frame_rate`, `start_time` …).
    static func stream(_ path: String, _ selector: String, _ entry: String) throws -> String {
        let r = try Tool.run(
            "ffprobe",
            ["-v", "error", "-select_streams", selector, "-show_entries", "stream=\(entry)", "-of", "csv=p=0", path])
        return r.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }
}

/// All device tests share one camera, so they run one after another.
@Suite(.serialized, .enabled(if: Guest.isInside, Comment(rawValue: Guest.reason)))
struct DeviceTests {}
