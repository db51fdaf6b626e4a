import CFFmpeg

/// An FFmpeg library hfr loads on first use instead of at start-up (see CFFmpeg's lazy.c).
///
/// Linking libavfilter and libavdevice cost every invocation ~60 ms of dynamic loading for
/// libraries only export's time-domain audio and device inputs need.
enum LazyLibrary {
    case avfilter
    case avdevice

    /// Loads the library (once per process); throws with the loader's reason when it is missing.
    func load(during stage: AVFailure.Stage) throws(AVFailure) {
        let (status, reason) =
            switch self {
            case .avfilter: (hfr_avfilter_load(), hfr_avfilter_load_error())
            case .avdevice: (hfr_avdevice_load(), hfr_avdevice_load_error())
            }
        guard status < 0 else { return }
        let why = reason.map { String(cString: $0) } ?? "not found"
        throw AVFailure(code: status, operation: "loading lib\(self) (\(why))", stage: stage)
    }
}
