#if canImport(Glibc)
    import Glibc
#endif

/// The two clocks capture works with, in microseconds.
public enum Clock {
    /// CLOCK_MONOTONIC: intervals and deadlines (V4L2 stamps frames with it).
    public static var monotonicMicroseconds: Int64 { read(CLOCK_MONOTONIC) }

    /// CLOCK_REALTIME: wall-clock time (libavdevice stamps ALSA and PulseAudio audio with it).
    public static var wallMicroseconds: Int64 { read(CLOCK_REALTIME) }

    private static func read(_ clock: clockid_t) -> Int64 {
        var now = timespec()
        clock_gettime(clock, &now)
        return Int64(now.tv_sec) * 1_000_000 + Int64(now.tv_nsec) / 1000
    }
}
