import CaptureSessionChecks
import HFRCapture
import HFRMedia
import Testing

/// The `CaptureSession` suite (CaptureSessionChecks) on the sources every machine has: the test
/// pattern and filter graphs through libavdevice. DeviceTests.CaptureSessionOnDevices runs the same
/// suite inside the VM against vivid's V4L2 devices.
@Suite struct CaptureSessionTests {
    static let generated: [CaptureRequest] = [
        CaptureRequest(
            source: .testPattern, width: 320, height: 240, frameRate: Rational(60), includesSourceAudio: true),
        CaptureRequest(
            source: .filterGraph("smptebars"), width: 160, height: 120, frameRate: Rational(30000, 1001),
            pixelFormat: "nv12", includesSourceAudio: false),
        CaptureRequest(
            source: .filterGraph("color=black,drawbox=c=white:t=fill:enable=gte(t\\,0.2)"), width: 64, height: 48,
            frameRate: Rational(120), includesSourceAudio: false),
    ]

    @Test(arguments: generated) func conformsOnAGeneratedSource(_ request: CaptureRequest) {
        let run = CaptureSessionChecks.run(.generated(request))
        #expect(run.problems.isEmpty, "\(request.source): \(run.problems)")
        #expect(run.skippedSlots == 0, "a generated source skips no slot")
        if let format = request.pixelFormat { #expect(run.grant?.pixelFormat == format) }
    }

    @Test func aGraphThatMakesNoPictureFailsToStartAsAUsageError() throws {
        let session = try CaptureSession.open(
            .generated(
                CaptureRequest(
                    source: .filterGraph("nosuchfilter"), width: 64, height: 48, frameRate: Rational(30),
                    includesSourceAudio: false)))
        #expect(session.state == .opened)
        #expect {
            try session.start()
        } throws: { error in
            guard let e = error as? CaptureError, case .cannotMake = e else { return false }
            return e.isUsage
                && e.description.hasPrefix(
                    "lavfi source: cannot make 64x48 at 30 fps from the filter graph 'nosuchfilter'")
        }
    }

    /// A size the source's pixel format cannot hold (4:2:0 at odd sides) is made smaller by FFmpeg:
    /// refused at start as what was asked (`hfr preview --size 3x3` was exit 69, as a device fault).
    @Test func aSizeTheSourceCannotMakeIsAUsageError() throws {
        let session = try CaptureSession.open(
            .generated(
                CaptureRequest(
                    source: .testPattern, width: 3, height: 3, frameRate: Rational(30), includesSourceAudio: false)))
        #expect {
            try session.start()
        } throws: { error in
            guard let e = error as? CaptureError, case .mismatch = e else { return false }
            return e.isUsage && e.description == "test source: asked for 3x3, the source delivers 2x2"
        }
    }

    /// Cameras that are not there, and nodes that are no camera, are refused at open with the
    /// cause in the user's words (exit 69: not a usage error).
    @Test(arguments: [
        ("/dev/hfr-no-such-camera", "/dev/hfr-no-such-camera: no such device"),
        ("/dev/null", "/dev/null: not a V4L2 device"),
    ])
    func aDeviceThatIsNoCameraIsRefusedAtOpen(_ path: String, _ message: String) {
        let request = CaptureSession.CameraRequest(device: path, mode: .init(rate: nil), controls: CameraControls())
        #expect {
            _ = try CaptureSession.open(.camera(request))
        } throws: { error in
            guard let e = error as? CaptureError else { return false }
            return !e.isUsage && e.description == message && e.underlying is V4L2Failure
        }
    }
}

extension CaptureRequest: CustomTestStringConvertible {
    public var testDescription: String { "\(source.name) \(width)x\(height) at \(frameRate) fps" }
}
