import CaptureSessionChecks
import HFRCapture
import HFRMedia
import Testing

extension DeviceTests {
    /// The `CaptureSession` suite (CaptureSessionChecks) that HFRCaptureTests runs on the test
    /// source and filter graphs, here on vivid's real V4L2 nodes: the webcam through hfr's own
    /// capture and through libavdevice, the multi-planar webcam, and the HDMI input's stepwise sizes.
    @Suite struct CaptureSessionOnDevices {
        struct Case: Sendable, CustomTestStringConvertible {
            var device: String
            var api: CaptureAPI
            var size: (width: Int, height: Int)?
            var testDescription: String { "\(device) \(api)" + (size.map { " \($0.width)x\($0.height)" } ?? "") }

            var request: CaptureSession.Request {
                .camera(
                    CaptureSession.CameraRequest(
                        device: device, mode: ModeSelector.Request(rate: nil, size: size), controls: CameraControls(),
                        api: api))
            }
        }

        static let cases = [
            Case(device: Guest.camera, api: .own), Case(device: Guest.camera, api: .avdevice),
            Case(device: Guest.multiplanar, api: .own), Case(device: Guest.hdmi, api: .own, size: (640, 480)),
        ]

        @Test(arguments: cases) func conformsOnAV4L2Device(_ c: Case) throws {
            try Guest.resetFaults()
            let run = CaptureSessionChecks.run(c.request)
            #expect(run.problems.isEmpty, "\(c.testDescription): \(run.problems)")
            #expect(run.grant?.card?.isEmpty == false)
            print(
                "\(c.testDescription): \(run.grant?.summary ?? "-"), \(run.frames) frames, \(run.skippedSlots) slots without a frame"
            )
        }

        /// While one session streams, a second on the same camera is refused as busy, by the cause
        /// in the user's words; once the first stops, the second opens.
        @Test func aStreamingCameraIsBusyUntilItsSessionStops() throws {
            let request = Self.cases[0].request
            let first = try CaptureSession.open(request)
            try first.start()
            #expect {
                _ = try CaptureSession.open(request)
            } throws: { error in
                guard let e = error as? CaptureError, case .device(let f) = e else { return false }
                return f.code == .busy && e.description.hasPrefix("\(Guest.camera): busy: another program is capturing")
            }
            first.stop()
            let second = try CaptureSession.open(request)
            try second.start()
            second.stop()
        }
    }
}
