/// One export of a batch: an input, an output and `hfr export` options, after glob expansion.
public struct BatchJob: Sendable, Equatable {
    /// The input as the export gets it (the manifest's directory joined to the manifest's path).
    public let input: String
    /// The output as the export gets it.
    public let output: String
    /// Normalized `hfr export` options, in the export's option-table order: `["--conform", "30"]`.
    public let options: [String]
    /// Input and output relative to the manifest: the same on every machine and in every checkout.
    public let manifestInput: String
    public let manifestOutput: String
    /// Which entry of the manifest's `jobs` array made this job (0-based), and its line.
    public let entry: Int
    public let line: Int
    /// A unit of a job that says `"split"`: which part of the job's output it writes (`output` is
    /// then the unit's own file); nil for a whole job.
    public var split: SplitUnit?

    public init(
        input: String, output: String, options: [String], manifestInput: String, manifestOutput: String, entry: Int,
        line: Int
    ) {
        self.input = input
        self.output = output
        self.options = options
        self.manifestInput = manifestInput
        self.manifestOutput = manifestOutput
        self.entry = entry
        self.line = line
    }

    /// What makes the job itself, independent of the manifest's order: shards are cut from it.
    public var identity: String { ([manifestInput, manifestOutput] + options).joined(separator: "\u{0}") }

    /// A short stable id for reports: FNV-1a of the identity, in hex.
    public var id: String {
        let hex = String(FNV1a.hash(identity), radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }

    /// `in/a.mp4 → out/a-slow.mp4 --conform 30`: how reports name the job.
    public var title: String { ([manifestInput, "→", manifestOutput] + options).joined(separator: " ") }
}
