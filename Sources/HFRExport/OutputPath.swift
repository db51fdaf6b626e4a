import CFFmpeg

#if canImport(Glibc)
    import Glibc
#endif

/// Where an output is written while it is incomplete, and how it is put in place.
public enum OutputPath {
    /// `dir/clip.mp4` → `dir/.clip.mp4.<pid>.tmp`: same filesystem, so the final rename is atomic.
    /// `pid` is the exporting process (a batch names its children's temporaries to clean up after them).
    public static func temporary(for output: String, pid: pid_t = getpid()) -> String {
        let slash = output.lastIndex(of: "/").map { output.index(after: $0) } ?? output.startIndex
        return output[..<slash] + "." + output[slash...] + ".\(pid).tmp"
    }

    /// The muxer for `output`'s extension ("mp4", "mov", "matroska"); mp4 for anything unknown.
    static func containerFormat(for output: String) -> String {
        guard let format = av_guess_format(nil, output, nil) else { return "mp4" }
        return String(cString: format.pointee.name)
    }
}
