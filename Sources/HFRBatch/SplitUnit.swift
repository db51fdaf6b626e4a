import Foundation
import HFRMedia

/// One unit of a split job (`"split": N` or `"auto"` in a manifest): the video of one stretch of
/// the input, cut at keyframes (`hfr export --range A-B --split-part video`), or every other track
/// of the whole job (`--split-part rest`). Each unit is an ordinary job for shards and `--resume`;
/// its file lies in `OUTPUT.hfr-split/`, and when every unit of the job is done, `hfr batch` (or
/// `hfr batch merge` for shards) joins them into the job's output (`SplitJoin`).
public struct SplitUnit: Sendable, Equatable {
    public enum Part: Sendable, Equatable {
        /// The video of part N (1-based) of the job's range.
        case video(Int)
        /// Audio, subtitles and data of the whole job; the video planned, not written.
        case rest
    }

    public let part: Part
    /// How many video parts the job has.
    public let parts: Int
    /// The job's own output (where the join writes), as the export would get it and relative to
    /// the manifest.
    public let output: String
    public let manifestOutput: String

    public init(part: Part, parts: Int, output: String, manifestOutput: String) {
        self.part = part
        self.parts = parts
        self.output = output
        self.manifestOutput = manifestOutput
    }

    /// `video 2/4` or `rest`: how reports name the part.
    public var name: String {
        switch part {
        case .video(let n): "video \(n)/\(parts)"
        case .rest: "rest"
        }
    }

    /// The directory of a job's units, next to its output.
    public static func directory(of output: String) -> String { output + ".hfr-split" }

    /// The file of `part` of the job that writes `output` (same container as the output).
    public static func file(_ part: Part, of output: String) -> String {
        let ext = (output as NSString).pathExtension
        let name: String
        switch part {
        case .video(let n): name = "video-" + String(format: "%03d", n)
        case .rest: name = "rest"
        }
        return directory(of: output) + "/" + name + (ext.isEmpty ? "" : "." + ext)
    }

    /// `--range` text for exact seconds: `0`, `61/120`.
    static func rangeText(_ start: Rational, _ end: Rational?) -> String {
        start.compactDescription + "-" + (end?.compactDescription ?? "")
    }

    /// The range a job's options give (`--range A-B`), in seconds; nil without one.
    static func range(in options: [String]) -> (start: Rational, end: Rational?)? {
        guard let i = options.firstIndex(of: "--range"), i + 1 < options.count else { return nil }
        let parts = options[i + 1].split(separator: "-", maxSplits: 1, omittingEmptySubsequences: false)
        guard parts.count == 2 else { return nil }
        let start = parts[0].isEmpty ? Rational(0) : Rational(parsingTime: String(parts[0])) ?? Rational(0)
        return (start, parts[1].isEmpty ? nil : Rational(parsingTime: String(parts[1])))
    }

    /// The whole job's options, from its rest unit's (which add only `--split-part rest`).
    public static func jobOptions(fromRest options: [String]) -> [String] {
        guard let i = options.firstIndex(of: "--split-part"), i + 1 < options.count else { return options }
        return Array(options[..<i] + options[(i + 2)...])
    }

    /// `options` without `--range` and its value.
    static func withoutRange(_ options: [String]) -> [String] {
        guard let i = options.firstIndex(of: "--range"), i + 1 < options.count else { return options }
        return Array(options[..<i] + options[(i + 2)...])
    }
}
