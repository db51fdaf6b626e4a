import COpenH264
import CRubberBand
import CSoundTouch
import CV4L2
import Testing

/// The C modules no Swift library uses yet still import, link and say what their headers say.
@Suite struct CModuleTests {
    @Test func openH264LinksAndReportsVersion2() {
        let version = WelsGetCodecVersion()
        #expect(version.uMajor == 2)
        var encoder: UnsafeMutablePointer<ISVCEncoder?>? = nil
        #expect(WelsCreateSVCEncoder(&encoder) == 0)
        var params = SEncParamExt()
        #expect(hfr_encoder_get_default_params(encoder, &params) == 0)
        #expect(params.iTemporalLayerNum >= 1)
        WelsDestroySVCEncoder(encoder)
    }

    @Test func rubberBandCreatesAStretcher() {
        let state = rubberband_new(48000, 1, Int32(RubberBandOptionProcessOffline.rawValue), 4.0, 1.0)
        #expect(state != nil)
        #expect(rubberband_get_time_ratio(state) == 4.0)
        rubberband_delete(state)
    }

    /// Debian's SoundTouch behind the C interface: 0.1 s of stereo at tempo 0.25 comes out four
    /// times as long (SoundTouch counts its own output), and a channel count it refuses gives NULL.
    @Test func soundTouchStretchesToItsTempo() throws {
        #expect(String(cString: hfr_time_stretch_version()).hasPrefix("2."))
        var settings = hfr_time_stretch_settings(sequence_ms: 10, seek_window_ms: 5, overlap_ms: 4)
        #expect(hfr_time_stretch_create(48000, 17, 0.25, &settings) == nil)
        let stretch = try #require(hfr_time_stretch_create(48000, 2, 0.25, &settings))
        defer { hfr_time_stretch_destroy(stretch) }
        // A triangle wave, the same on both channels.
        let input = (0..<4800 * 2).map { i -> Float in Float(abs((i / 2) % 100 - 50)) / 50 - 0.5 }
        #expect(hfr_time_stretch_put(stretch, input, 4800) == 0)
        #expect(hfr_time_stretch_flush(stretch) == 0)
        var output = [Float](repeating: 0, count: 4096 * 2)
        var frames = 0
        while case let got = Int(hfr_time_stretch_receive(stretch, &output, 4096)), got > 0 { frames += got }
        #expect(frames == 4 * 4800)
    }

    /// The tempo changes between sequences, and the position says how far they have come: at
    /// 0.25 the output made is four times the input passed, within a sequence; after a change to
    /// 1 each further input sample makes one output sample. A tempo that is not positive is refused.
    @Test func soundTouchChangesTempoAndSaysWhereItIs() throws {
        var settings = hfr_time_stretch_settings(sequence_ms: 10, seek_window_ms: 5, overlap_ms: 4)
        let stretch = try #require(hfr_time_stretch_create(48000, 1, 0.25, &settings))
        defer { hfr_time_stretch_destroy(stretch) }
        let input = (0..<4800).map { i -> Float in Float(abs(i % 100 - 50)) / 50 - 0.5 }
        #expect(hfr_time_stretch_put(stretch, input, 4800) == 0)
        let slow = hfr_time_stretch_get_position(stretch)
        #expect(slow.sequence > 0 && slow.consumed > 0 && slow.consumed <= 4800)
        #expect(abs(slow.produced - 4 * slow.consumed) <= Int64(slow.sequence), "\(slow)")
        #expect(hfr_time_stretch_set_tempo(stretch, 1) == 0)
        #expect(hfr_time_stretch_put(stretch, input, 4800) == 0)
        let real = hfr_time_stretch_get_position(stretch)
        #expect(real.consumed - slow.consumed > 4000)
        #expect(abs((real.produced - slow.produced) - (real.consumed - slow.consumed)) <= 1, "\(slow) → \(real)")
        #expect(hfr_time_stretch_set_tempo(stretch, 0) == -1)
        #expect(!String(cString: hfr_time_stretch_error(stretch)).isEmpty)
    }

    @Test func v4l2RequestCodesAndFourCCsMatchTheKernelABI() {
        // _IOR('V', 0, struct v4l2_capability): direction read (2), size 104, type 'V', number 0.
        #expect(HFR_VIDIOC_QUERYCAP == 0x8068_5600)
        #expect(HFR_V4L2_PIX_FMT_NV12 == fourCC("NV12"))
        #expect(HFR_V4L2_PIX_FMT_YUYV == fourCC("YUYV"))
        #expect(HFR_V4L2_PIX_FMT_MJPEG == fourCC("MJPG"))
        #expect(MemoryLayout<v4l2_capability>.size == 104)
    }

    func fourCC(_ text: String) -> UInt32 {
        text.utf8.reversed().reduce(0) { $0 << 8 | UInt32($1) }
    }
}
