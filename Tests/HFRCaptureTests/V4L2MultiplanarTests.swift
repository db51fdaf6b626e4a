import CV4L2
import Testing

@testable import HFRCapture
// For the frames' planes (`Frame.pointer`), to check the pixels delivered.
@testable import HFRMedia

/// `V4L2Capture` on a multi-planar node (`V4L2_BUF_TYPE_VIDEO_CAPTURE_MPLANE`) through the scripted
/// driver: `pix_mp` read-back with each plane's stride, buffers of several planes each mapped on
/// its own, and pictures whose planes come from separate buffers (YM12, YM21, NM12) or from one
/// (YU12 on the multi-planar API), each read from its `data_offset`.
@Suite struct V4L2MultiplanarTests {
    /// A started capture of the 16x8 `fourCC` mode at 60 fps on a multi-planar scripted node.
    func capture(_ fourCC: String, _ driver: ScriptedV4L2Driver) throws -> V4L2Capture {
        driver.isMultiplanar = true
        let mode = V4L2Mode(
            format: V4L2PixelFormat(fourCC), width: 16, height: 8, intervals: [.discrete(Rational(1, 60))])
        let device = try V4L2Device(path: "/dev/scripted", driver: driver)
        return try V4L2Capture(device: device, choice: ModeSelector.Choice(mode: mode, rate: Rational(60)))
    }

    /// The frames of the script, read until it runs out.
    func frames(_ fourCC: String, _ driver: ScriptedV4L2Driver) throws -> (frames: [Frame], capture: V4L2Capture) {
        let capture = try capture(fourCC, driver)
        try capture.start()
        var frames: [Frame] = []
        while case .video(let frame, _)? = try capture.next() { frames.append(frame) }
        return (frames, capture)
    }

    @Test func aMultiplanarNodeIsACaptureDevice() throws {
        let driver = ScriptedV4L2Driver()
        driver.isMultiplanar = true
        let caps = try V4L2Device(path: "/dev/scripted", driver: driver).capabilities
        #expect(caps.canCapture && caps.isMultiplanar && !caps.canCaptureSinglePlanar)
        #expect(caps.kind == "multi-planar capture")
        let single = try V4L2Device(path: "/dev/scripted", driver: ScriptedV4L2Driver()).capabilities
        #expect(single.canCapture && !single.isMultiplanar)
    }

    @Test func eachPlanesStrideIsReadBackFromPixMp() throws {
        let driver = ScriptedV4L2Driver()
        let capture = try capture("YM12", driver)
        #expect(driver.format.type == V4L2_BUF_TYPE_VIDEO_CAPTURE_MPLANE.rawValue)
        #expect(capture.granted.planeBytesPerLine == [20, 10, 10] && capture.granted.bytesPerLine == 20)
        #expect(capture.granted.width == 16 && capture.granted.height == 8 && capture.granted.format.fourCC == "YM12")
        #expect(driver.calls == ["VIDIOC_QUERYCAP", "VIDIOC_S_FMT", "VIDIOC_S_PARM", "VIDIOC_G_FMT", "VIDIOC_G_PARM"])
    }

    @Test func aSizeTheDriverDoesNotGrantFails() {
        let driver = ScriptedV4L2Driver()
        driver.grantedSize = (8, 8)
        #expect {
            _ = try capture("NM12", driver)
        } throws: { error in
            (error as? V4L2Failure)?.description
                == "mode read-back on /dev/scripted: asked for NM12 16x8 at 60 fps, the driver granted NM12 8x8 at 60 fps"
        }
    }

    @Test func everyPlaneIsMappedAndReleased() throws {
        let driver = ScriptedV4L2Driver()
        do {
            let capture = try capture("YM12", driver)
            try capture.start()
            let perBuffer = ["VIDIOC_QUERYBUF", "mmap", "mmap", "mmap", "VIDIOC_QBUF"]
            let expected = ["VIDIOC_REQBUFS"] + (0..<4).flatMap { _ in perBuffer } + ["VIDIOC_STREAMON"]
            #expect(Array(driver.calls.dropFirst(5)) == expected)
            #expect(driver.buffers.count == 12)
        }
        #expect(
            driver.calls.suffix(14) == ["VIDIOC_STREAMOFF"] + Array(repeating: "munmap", count: 12) + ["VIDIOC_REQBUFS"]
        )
        #expect(driver.unmapped == 12)
    }

    @Test(arguments: ["YM12", "YM21", "YU12"], [0, 32])
    func planarPicturesArrivePixelExact(fourCC: String, dataOffset: Int) throws {
        let driver = ScriptedV4L2Driver(script: (0..<6).map { .frame(sequence: 10 + $0) })
        driver.dataOffset = dataOffset
        let (frames, capture) = try frames(fourCC, driver)
        #expect(frames.map(\.pts) == [0, 1, 2, 3, 4, 5])
        for (i, frame) in frames.enumerated() {
            V4L2CaptureTests().expectPicture(frame, sequence: 10 + UInt32(i))
        }
        #expect(capture.losses == SourceLosses(dropped: 0, corrupt: 0, timestampDiscontinuities: 0))
        #expect(driver.calls.filter { $0 == "VIDIOC_QBUF" }.count == 4 + 6)
    }

    @Test func nm12ArrivesAsNV12WithItsChromaFromTheSecondBuffer() throws {
        let driver = ScriptedV4L2Driver(script: (0..<5).map { .frame(sequence: $0) })
        driver.dataOffset = 16
        let (frames, _) = try frames("NM12", driver)
        #expect(frames.count == 5)
        for (i, frame) in frames.enumerated() {
            #expect(frame.pixelFormat == .nv12 && frame.width == 16 && frame.height == 8)
            let (planes, lines) = (frame.pointer.pointee.data, frame.pointer.pointee.linesize)
            guard let y = planes.0, let uv = planes.1 else {
                Issue.record("frame without planes")
                return
            }
            let sequence = UInt32(i)
            let luma = (0..<8).flatMap { row in (0..<16).map { y[Int(lines.0) * row + $0] } }
            let expected = (0..<8).flatMap { row in
                (0..<16).map { ScriptedV4L2Driver.luma(sequence: sequence, x: $0, y: row) }
            }
            #expect(luma == expected)
            let (u, v) = ScriptedV4L2Driver.chroma(sequence: sequence)
            let chroma = (0..<4).flatMap { row in (0..<16).map { uv[Int(lines.1) * row + $0] } }
            #expect(chroma == Array(repeating: [u, v], count: 32).flatMap { $0 })
        }
    }

    @Test func aShortPlaneOrAnErrorFlagIsCountedAndSkipped() throws {
        let driver = ScriptedV4L2Driver(script: [
            .frame(sequence: 0), .frame(sequence: 1, bytesUsed: 39), .frame(sequence: 2),
            .frame(sequence: 3, flags: UInt32(V4L2_BUF_FLAG_ERROR)), .frame(sequence: 4),
        ])
        driver.dataOffset = 8
        let (frames, capture) = try frames("YM12", driver)
        #expect(frames.map(\.pts) == [0, 2, 4])
        V4L2CaptureTests().expectPicture(frames[1], sequence: 2)
        #expect(capture.losses == SourceLosses(dropped: 0, corrupt: 2, timestampDiscontinuities: 0))
    }

    @Test func theKernelsMultiplanarNamesAndTheirLayouts() {
        let names = ["NV12M", "NV21M", "YUV420M", "YVU420M", "NV16M", "YUV422M", "YUV444M"]
        #expect(
            names.map { V4L2PixelFormat(name: $0)?.fourCC } == ["NM12", "NM21", "YM12", "YM21", "NM16", "YM16", "YM24"])
        #expect(
            V4L2PixelFormat("YM21").conversion == .raw(.yuv420p) && V4L2PixelFormat("YM21").planeOrder == [0, 2, 1])
        #expect(V4L2PixelFormat("NM12").conversion == .raw(.nv12) && V4L2PixelFormat("NM12").planeOrder == [0, 1])
        #expect(V4L2PixelFormat("NV12").planeOrder == nil)
        // The multi-planar layouts rank with their one-buffer twins; NV61M has no FFmpeg layout.
        #expect(V4L2PixelFormat("YM12").preferenceRank == 0 && V4L2PixelFormat("NM21").preferenceRank == 1)
        #expect(V4L2PixelFormat("NM61").preferenceRank == nil)
    }
}
