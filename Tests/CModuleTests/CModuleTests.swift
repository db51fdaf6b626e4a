import COpenH264
import CRubberBand
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
