import CFFmpeg

/// The containers outputs are written in, by their file names' extensions (libav's names).
extension AtomicOutput {
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

    /// How messages name container `format` (libav's name): "MP4", "MKV", "WebM".
    public static func displayName(ofFormat format: String) -> String {
        switch format {
        case "matroska": "MKV"
        case "webm": "WebM"
        default: format.uppercased()
        }
    }
}
