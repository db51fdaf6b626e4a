import CV4L2
import Testing

@testable import HFRCapture
// For the frames' planes (`Frame.pointer`), to check the pixels delivered.
@testable import HFRMedia

/// `V4L2Capture` driven through the driver seam with scripted answers: mode read-back, the
/// buffer cycle, and what errors, damaged buffers and sequence numbers do to frames and losses.
@Suite struct V4L2CaptureTests {
    static let yu12 = V4L2Mode(
        format: V4L2PixelFormat("YU12"), width: 16, height: 8, intervals: [.discrete(Rational(1, 60))])

    /// A capture of the 16x8 YU12 mode at 60 fps on `driver`.
    func capture(_ driver: ScriptedV4L2Driver) throws -> V4L2Capture {
        let device = try V4L2Device(path: "/dev/scripted", driver: driver)
        return try V4L2Capture(
            device: device, choice: ModeSelector.Choice(mode: V4L2CaptureTests.yu12, rate: Rational(60)))
    }

    /// Started with the driver's buffers, read until the script runs out (the first idle).
    func frames(_ driver: ScriptedV4L2Driver) throws -> (frames: [Frame], capture: V4L2Capture) {
        let capture = try capture(driver)
        try capture.start()
        var frames: [Frame] = []
        while case .video(let frame, _)? = try capture.next() { frames.append(frame) }
        return (frames, capture)
    }

    @Test(
        arguments: [
            (nil, v4l2_fract(numerator: 1, denominator: 30), "YU12 16x8 at 30 fps"),
            ((8, 8), nil, "YU12 8x8 at 60 fps"),
        ] as [((Int, Int)?, v4l2_fract?, String)])
    func aModeTheDriverDoesNotGrantFails(size: (Int, Int)?, interval: v4l2_fract?, granted: String) {
        let driver = ScriptedV4L2Driver()
        driver.grantedSize = size.map { (width: $0.0, height: $0.1) }
        driver.grantedInterval = interval
        #expect {
            _ = try capture(driver)
        } throws: { error in
            guard let failure = error as? V4L2Failure else { return false }
            return failure.isModeNotGranted && !failure.isDisconnect
                && failure.description
                    == "mode read-back on /dev/scripted: asked for YU12 16x8 at 60 fps, the driver granted \(granted)"
        }
        #expect(driver.calls == ["VIDIOC_QUERYCAP", "VIDIOC_S_FMT", "VIDIOC_S_PARM", "VIDIOC_G_FMT", "VIDIOC_G_PARM"])
    }

    @Test func grantedModeIsReadBack() throws {
        let capture = try capture(ScriptedV4L2Driver())
        #expect(capture.granted.width == 16 && capture.granted.height == 8 && capture.granted.bytesPerLine == 20)
        #expect(capture.granted.interval == Rational(1, 60) && capture.granted.format.fourCC == "YU12")
        #expect(capture.defaultBufferCount == 30 && capture.stallLimit == 3_000_000)
    }

    @Test func startMapsQueuesAndStreamsAndTeardownReleases() throws {
        let driver = ScriptedV4L2Driver()
        do {
            let capture = try capture(driver)
            try capture.start()
            let perBuffer: [String] = ["VIDIOC_QUERYBUF", "mmap", "VIDIOC_QBUF"]
            let expected: [String] = ["VIDIOC_REQBUFS"] + (0..<4).flatMap { _ in perBuffer } + ["VIDIOC_STREAMON"]
            #expect(Array(driver.calls.dropFirst(5)) == expected)
            #expect(driver.buffers.count == 4)
        }
        #expect(
            driver.calls.suffix(6) == ["VIDIOC_STREAMOFF", "munmap", "munmap", "munmap", "munmap", "VIDIOC_REQBUFS"])
        #expect(driver.unmapped == 4)
    }

    @Test func framesArrivePixelExactWithPtsFromTheSequence() throws {
        let driver = ScriptedV4L2Driver(script: (0..<6).map { .frame(sequence: 40 + $0) })
        let (frames, capture) = try frames(driver)
        #expect(frames.count == 6)
        #expect(frames.map(\.pts) == [0, 1, 2, 3, 4, 5])
        // Six frames through four buffers: each was copied before its buffer was filled again.
        for (i, frame) in frames.enumerated() { expectPicture(frame, sequence: 40 + UInt32(i)) }
        #expect(capture.losses == SourceLosses(dropped: 0, corrupt: 0, timestampDiscontinuities: 0))
        // Every buffer went back: 4 at start and one per frame.
        #expect(driver.calls.filter { $0 == "VIDIOC_QBUF" }.count == 4 + 6)
    }

    @Test func tryAgainFromDQBUFIsRetried() throws {
        let driver = ScriptedV4L2Driver(script: [
            .frame(sequence: 0), .fail(.tryAgain), .fail(.tryAgain), .frame(sequence: 1),
        ])
        let (frames, capture) = try frames(driver)
        #expect(frames.map(\.pts) == [0, 1])
        expectPicture(frames[1], sequence: 1)
        #expect(driver.calls.filter { $0 == "VIDIOC_DQBUF" }.count == 4)
        #expect(capture.losses == SourceLosses(dropped: 0, corrupt: 0, timestampDiscontinuities: 0))
    }

    @Test func aDisconnectEndsTheStreamAfterTheFramesBeforeIt() throws {
        let driver = ScriptedV4L2Driver(script: (0..<3).map { .frame(sequence: $0) } + [.fail(.noSuchDevice)])
        let capture = try capture(driver)
        try capture.start()
        var frames: [Frame] = []
        var failure: V4L2Failure?
        do {
            while case .video(let frame, _)? = try capture.next() { frames.append(frame) }
        } catch let error as V4L2Failure {
            failure = error
        }
        #expect(frames.map(\.pts) == [0, 1, 2])
        expectPicture(frames[2], sequence: 2)
        #expect(failure?.isDisconnect == true)
        #expect(failure?.isModeNotGranted == false)
        #expect(failure?.description == "VIDIOC_DQBUF on /dev/scripted: No such device")
    }

    @Test func errorFlaggedAndShortBuffersAreCountedAndSkipped() throws {
        let error = UInt32(V4L2_BUF_FLAG_ERROR)
        let driver = ScriptedV4L2Driver(script: [
            .frame(sequence: 0), .frame(sequence: 1, flags: error), .frame(sequence: 2),
            .frame(sequence: 3, bytesUsed: ScriptedV4L2Driver.pictureSize - 1), .frame(sequence: 4, flags: error),
            .frame(sequence: 5),
        ])
        let (frames, capture) = try frames(driver)
        // Skipped frames keep their slots: the file shows the gap where they were.
        #expect(frames.map(\.pts) == [0, 2, 5])
        expectPicture(frames[1], sequence: 2)
        expectPicture(frames[2], sequence: 5)
        #expect(capture.losses == SourceLosses(dropped: 0, corrupt: 3, timestampDiscontinuities: 0))
        #expect(driver.calls.filter { $0 == "VIDIOC_QBUF" }.count == 4 + 6)
    }

    @Test func aWrappingSequenceIsNoDrop() throws {
        let driver = ScriptedV4L2Driver(
            script: [0xFFFF_FFFD, 0xFFFF_FFFE, 0xFFFF_FFFF, 0, 1, 2].map { .frame(sequence: $0) })
        let (frames, capture) = try frames(driver)
        #expect(frames.map(\.pts) == [0, 1, 2, 3, 4, 5])
        expectPicture(frames[3], sequence: 0)
        #expect(capture.losses == SourceLosses(dropped: 0, corrupt: 0, timestampDiscontinuities: 0))
    }

    @Test func aSequenceGapIsCountedAsDrops() throws {
        let driver = ScriptedV4L2Driver(script: [0xFFFF_FFFE, 0xFFFF_FFFF, 2, 3, 7].map { .frame(sequence: $0) })
        let (frames, capture) = try frames(driver)
        // 0 and 1 are missing across the wrap, then 4, 5 and 6.
        #expect(frames.map(\.pts) == [0, 1, 4, 5, 9])
        #expect(capture.losses == SourceLosses(dropped: 5, corrupt: 0, timestampDiscontinuities: 0))
    }

    @Test func onlyTheFirstFrameCarriesAWallClockFromAMonotonicTimestamp() throws {
        let monotonic = UInt32(V4L2_BUF_FLAG_TIMESTAMP_MONOTONIC)
        let driver = ScriptedV4L2Driver(script: (0..<2).map { .frame(sequence: $0, flags: monotonic) })
        // Captured 20 ms ago: the wall clock of the frame is 20 ms before now.
        driver.firstTimestamp = Clock.monotonicMicroseconds - 20_000
        let capture = try capture(driver)
        try capture.start()
        let wallNow = Clock.wallMicroseconds
        guard case .video(_, let first)? = try capture.next(), case .video(_, let second)? = try capture.next() else {
            Issue.record("expected two frames")
            return
        }
        let age = wallNow - (first ?? 0)
        #expect((19_000..<120_000).contains(age))
        #expect(second == nil)
    }

    @Test func aTimestampOnAnotherClockGivesNoWallClock() throws {
        let driver = ScriptedV4L2Driver(script: [.frame(sequence: 0)])
        driver.firstTimestamp = Clock.monotonicMicroseconds - 20_000
        let capture = try capture(driver)
        try capture.start()
        guard case .video(_, let clock)? = try capture.next() else {
            Issue.record("expected a frame")
            return
        }
        #expect(clock == nil)
    }

    @Test func nothingToTakeIsIdleNotAnError() throws {
        let driver = ScriptedV4L2Driver()
        let capture = try capture(driver)
        try capture.start()
        guard case .idle? = try capture.next() else {
            Issue.record("expected .idle")
            return
        }
        #expect(driver.calls.last == "poll")
        #expect(!driver.calls.contains("VIDIOC_DQBUF"))
    }

    /// Checks size, layout and pixels of a delivered frame against the scripted picture of `sequence`.
    func expectPicture(_ frame: Frame, sequence: UInt32, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(frame.width == 16 && frame.height == 8, sourceLocation: sourceLocation)
        #expect(frame.pixelFormat == .yuv420p, sourceLocation: sourceLocation)
        let planes = frame.pointer.pointee.data
        let lines = frame.pointer.pointee.linesize
        guard let y = planes.0, let u = planes.1, let v = planes.2 else {
            Issue.record("frame without planes", sourceLocation: sourceLocation)
            return
        }
        let luma = (0..<8).flatMap { row in (0..<16).map { y[Int(lines.0) * row + $0] } }
        let expected = (0..<8).flatMap { row in
            (0..<16).map { ScriptedV4L2Driver.luma(sequence: sequence, x: $0, y: row) }
        }
        #expect(luma == expected, sourceLocation: sourceLocation)
        let chroma = ScriptedV4L2Driver.chroma(sequence: sequence)
        let us = (0..<4).flatMap { row in (0..<8).map { u[Int(lines.1) * row + $0] } }
        let vs = (0..<4).flatMap { row in (0..<8).map { v[Int(lines.2) * row + $0] } }
        #expect(us == Array(repeating: chroma.u, count: 32), sourceLocation: sourceLocation)
        #expect(vs == Array(repeating: chroma.v, count: 32), sourceLocation: sourceLocation)
    }
}
