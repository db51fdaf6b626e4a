import HFRBatch
import HFRMedia

/// `hfr batch matrix`: the shards of a manifest as a CI matrix.
public struct BatchMatrixCommand: Command {
    public static let name = "batch matrix"
    public static let abstract = "Print the shards of a manifest as a CI matrix (JSON) within a leg limit."
    public static let discussion = """
        Reads and checks the manifest as 'hfr batch' does, counts its jobs and prints on stdout one
        line of JSON, {"shard":["1/N","2/N",...,"N/N"]}, with N the number of jobs or --max (256 by
        default: GitHub Actions' limit of jobs per matrix), whichever is smaller. Each value is what
        --shard takes, so a GitHub Actions workflow passes it through:

          plan:    run: echo "matrix=$(hfr batch matrix jobs.json)" >> "$GITHUB_OUTPUT"
          export:  strategy: { matrix: ${{ fromJSON(needs.plan.outputs.matrix) }} }
                   run: hfr batch jobs.json --shard ${{ matrix.shard }} --json-report shard.json

        Exit codes: 0 printed, 64 usage or bad manifest, 74 manifest unreadable.
        """
    public static let options: [OptionSpec] = [
        .positional("MANIFEST", help: "The batch manifest (JSON, schema hfr.batch/1)."),
        .value("max", "N", help: "At most N shards (default 256)."),
    ]

    let manifest: String
    let maximum: Int

    public init(_ arguments: ParsedArguments) throws(HFRError) {
        guard let manifest = arguments.positional("MANIFEST") else { throw .usage("missing MANIFEST", of: Self.self) }
        self.manifest = manifest
        maximum = try arguments.value("max", as: Int.self) ?? 256
        guard maximum >= 1 else { throw .usage("--max must be at least 1", of: Self.self) }
    }

    public func run() throws(HFRError) {
        let jobs = try BatchCommand.load(manifest).jobs.count
        let total = max(1, min(jobs, maximum))
        Console.output(Self.document(shards: total).rendered + "\n")
        Console.error("batch matrix: \(jobs) jobs in \(total) shards of \(Self.sizes(jobs: jobs, shards: total))\n")
    }

    static func document(shards total: Int) -> JSONValue {
        .object([("shard", .array((1...total).map { .string("\($0)/\(total)") }))])
    }

    /// `10 jobs`, `10 or 11 jobs`: how many each shard runs (shards differ by at most one).
    static func sizes(jobs: Int, shards: Int) -> String {
        let low = jobs / shards
        if jobs % shards != 0 { return "\(low) or \(low + 1) jobs" }
        return low == 1 ? "1 job" : "\(low) jobs"
    }
}
