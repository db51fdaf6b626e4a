import HFRCapture
import Testing

@Suite struct V4L2NamesTests {
    @Test(arguments: [
        ("Percentage of Dropped Buffers", "percentage_of_dropped_buffers"),
        ("Inject V4L2_BUF_FLAG_ERROR", "inject_v4l2_buf_flag_error"),
        ("Exposure, Dynamic Framerate", "exposure_dynamic_framerate"),
        ("White Balance Temperature, Auto", "white_balance_temperature_auto"), ("Gain", "gain"),
    ])
    func controlKeysFollowV4L2Ctl(name: String, key: String) {
        #expect(V4L2Control.key(for: name) == key)
    }

    @Test func fourCCRoundTrips() {
        #expect(V4L2PixelFormat("NV12").code == 0x3231_564E)
        #expect(V4L2PixelFormat(code: 0x3231_564E).fourCC == "NV12")
        #expect(V4L2PixelFormat("Y16 ").fourCC == "Y16")
        #expect(V4L2PixelFormat("AR15-BE").fourCC == "AR15-BE")
        #expect(V4L2PixelFormat("AR15-BE").code == V4L2PixelFormat("AR15").code | 1 << 31)
    }

    @Test(arguments: [("nv12", "NV12"), ("yuv420p", "YU12"), ("yuyv422", "YUYV"), ("mjpeg", "MJPG"), ("UYVY", "UYVY")])
    func pixelFormatNames(name: String, fourCC: String) {
        #expect(V4L2PixelFormat(name: name)?.fourCC == fourCC)
    }

    @Test func unknownNamesAreRejected() {
        #expect(V4L2PixelFormat(name: "bogus") == nil)
    }
}
