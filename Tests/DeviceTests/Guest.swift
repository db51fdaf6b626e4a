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

    /// The fault controls a test may leave set, back to off: one v4l2-ctl per device (every process
    /// start costs a tenth of a second or more in the emulated guest), all four in one call.
    static func resetFaults() throws {
        let controls = ["percentage_of_dropped_buffers", "wrap_sequence_number", "wrap_timestamp", "reduced_framerate"]
        for device in [camera, hdmi, multiplanar] {
            let r = try Tool.run("v4l2-ctl", ["-d", device, "-c", controls.map { "\($0)=0" }.joined(separator: ",")])
            #expect(r.status == 0, "v4l2-ctl -d \(device): \(r.stderr)")
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

    /// What ffprobe says of a recording, from one run (`FFprobeReading`); `decoding` counts the
    /// frames that decode.
    static func probe(_ path: String, decoding: Bool = false) throws -> FFprobeReading {
        let r = try Tool.run("ffprobe", FFprobeReading.arguments(path, decoding: decoding))
        #expect(r.status == 0, "ffprobe \(path): \(r.stderr)")
        return FFprobeReading(json: r.stdout)
    }
}

/// All device tests share one camera, so they run one after another.
@Suite(.serialized, .enabled(if: Guest.isInside, Comment(rawValue: Guest.reason)))
struct DeviceTests {}
