import Foundation
import HFRTestSupport
import Testing

extension DeviceTests {
    @Suite struct DeviceBadInput {
        /// One line, exit 69, nothing written.
        func expectRefused(_ r: ToolResult, _ dir: TemporaryDirectory, containing text: String) throws {
            #expect(r.status == 69, "status \(r.status): \(r.stderr)")
            #expect(r.stderr.split(separator: "\n").count == 1, "\(r.stderr)")
            #expect(r.stderr.contains(text), "\(r.stderr)")
            #expect(try dir.contents().filter { !$0.hasPrefix("bg-") }.isEmpty)
        }

        @Test func busyCameraIsNamed() throws {
            try Guest.resetFaults()
            let dir = try TemporaryDirectory()
            // Another program streams from the camera (v4l2-ctl, for 10 s at most).
            let other = try BackgroundProcess(
                "/usr/bin/v4l2-ctl", ["-d", Guest.camera, "--stream-mmap", "--stream-count=600"], directory: dir)
            // It prints a mark per frame: once one is out, it holds the camera's buffers.
            #expect(other.waitForOutput(timeout: 20), "v4l2-ctl did not start streaming")
            let r = try Tool.hfr(["record", dir.path("x.mp4"), "--device", Guest.camera, "--frames", "10"])
            other.send(SIGTERM)
            _ = other.wait()
            try expectRefused(r, dir, containing: "\(Guest.camera): busy")
        }

        @Test func missingNode() throws {
            let dir = try TemporaryDirectory()
            let r = try Tool.hfr(["record", dir.path("x.mp4"), "--device", "/dev/video42", "--frames", "10"])
            try expectRefused(r, dir, containing: "/dev/video42: no such device")
        }

        @Test func nodeThatIsNotACaptureDevice() throws {
            let dir = try TemporaryDirectory()
            // vivid's third instance is a video output node.
            let output = try Tool.run("v4l2-ctl", ["-d", Guest.outputNode, "--info"])
            #expect(output.stdout.contains("Video Output"), "the guest has no output node: \(output.stdout)")
            let r = try Tool.hfr(["record", dir.path("x.mp4"), "--device", Guest.outputNode, "--frames", "10"])
            try expectRefused(
                r, dir, containing: "\(Guest.outputNode) is not a video capture device (it is: video output")
            let notV4L2 = try Tool.hfr(["record", dir.path("x.mp4"), "--device", "/dev/null", "--frames", "10"])
            try expectRefused(notV4L2, dir, containing: "/dev/null: not a V4L2 device")
        }

        @Test func permissionDenied() throws {
            let dir = try TemporaryDirectory()
            _ = try Tool.run("chmod", ["0777", dir.path("")])
            let r = try Tool.run(
                "/usr/bin/setpriv",
                [
                    "--reuid=65534", "--regid=65534", "--clear-groups", Tool.hfrPath, "record", dir.path("x.mp4"),
                    "--device", Guest.camera, "--frames", "10",
                ])
            try expectRefused(r, dir, containing: "\(Guest.camera): permission denied")
        }
    }
}
