import CFFmpeg

#if canImport(Glibc)
    import Glibc
#endif

/// An output file that appears whole or not at all: written under a temporary name in the same
/// directory (so the final rename(2) is atomic), renamed into place by `commit()`, removed by
/// `discard()` or when dropped uncommitted. Record, export and batch write through this one type.
public struct AtomicOutput: ~Copyable {
    /// Where the file ends up.
    public let path: String
    /// Where it is written until then.
    public let temporaryPath: String
    private var isSettled = false

    /// Reserves the temporary name for `path` (nothing is created yet).
    public init(path: String) {
        self.path = path
        temporaryPath = AtomicOutput.temporaryPath(for: path)
    }

    deinit {
        if !isSettled { unlink(temporaryPath) }
    }

    /// Renames the finished temporary file to `path`; on failure removes it and throws the errno.
    public consuming func commit() throws(Errno) {
        isSettled = true
        guard rename(temporaryPath, path) == 0 else {
            let error = Errno.current
            unlink(temporaryPath)
            throw error
        }
    }

    /// Removes the temporary file (a failed or cancelled write).
    public consuming func discard() {
        isSettled = true
        unlink(temporaryPath)
    }

    /// `dir/clip.mp4` → `dir/.clip.mp4.<pid>.tmp`. `pid` is the writing process (a batch names its
    /// children's temporaries to clean up after them).
    public static func temporaryPath(for output: String, pid: Int32? = nil) -> String {
        let slash = output.lastIndex(of: "/").map { output.index(after: $0) } ?? output.startIndex
        return output[..<slash] + "." + output[slash...] + ".\(pid ?? getpid()).tmp"
    }

    /// The extensions of the containers hfr records to: the ones that hold H.264 with `sdtp`/temporal
    /// layers, AAC and the tags hfr stores. Others libav knows (.avi, .ts…) are refused before any work.
    public static let containerExtensions = ["mp4", "mov", "mkv"]
    /// Exports also write WebM (VP8, VP9 or AV1 copied; the audio retimed to Vorbis).
    public static let exportContainerExtensions = containerExtensions + ["webm"]

    /// Whether `output`'s extension (any case) is one of `extensions`: checked before any work.
    public static func hasKnownContainer(_ output: String, among extensions: [String] = containerExtensions) -> Bool {
        let name = output.split(separator: "/").last ?? ""
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return false }
        return extensions.contains(name[name.index(after: dot)...].lowercased())
    }

    /// "`.mp4`, `.mov` or `.mkv`" for `extensions`, as error messages name them.
    public static func listed(_ extensions: [String]) -> String {
        let dotted = extensions.map { "." + $0 }
        return dotted.count < 2 ? dotted.joined() : dotted.dropLast().joined(separator: ", ") + " or " + dotted.last!
    }

    /// The muxer libav picks for `output`'s extension ("mp4", "mov", "matroska"); mp4 when unknown.
    public static func containerFormat(for output: String) -> String {
        guard let format = av_guess_format(nil, output, nil) else { return "mp4" }
        return String(cString: format.pointee.name)
    }
}
