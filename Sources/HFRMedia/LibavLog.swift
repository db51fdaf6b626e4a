import CFFmpeg

/// Where libav's own log messages go: nowhere by default, stderr with `--verbose`.
public enum LibavLog {
    /// Routes av_log to stderr at `verbose ? AV_LOG_INFO : AV_LOG_QUIET` (debug with two -v).
    public static func configure(verbosity: Int) {
        let level: Int32 =
            switch verbosity {
            case ...0: AV_LOG_QUIET
            case 1: AV_LOG_INFO
            default: AV_LOG_DEBUG
            }
        hfr_log_install(
            { _, line in
                guard let line else { return }
                Console.error("libav: " + String(cString: line))
            }, level)
    }

    /// The verbosity in effect, read back from libav's level (0 quiet, 1 info, 2 debug): what a batch
    /// passes on to its exports as `-v` flags.
    public static var verbosity: Int {
        let level = av_log_get_level()
        return level >= AV_LOG_DEBUG ? 2 : level >= AV_LOG_INFO ? 1 : 0
    }
}
