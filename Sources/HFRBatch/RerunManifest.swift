import HFRMedia

/// `hfr batch failed`: a manifest (schema `hfr.batch/1`) of exactly the jobs of some reports that
/// did not succeed, each with its own input, output and options, that `hfr batch` runs as is.
public enum RerunManifest {
    /// A job to run again, its paths absolute when the report says where its manifest was.
    public struct Entry: Sendable {
        public let job: BatchJob
        public let input: String
        public let output: String
        /// A split job (a unit of it did not succeed): run again whole, in this many parts.
        public var split: Int? = nil
    }

    /// The failed, cancelled and not-run jobs of `reports` (and the running and pending ones of an
    /// unfinished report), once each, in the reports' order.
    public static func entries(_ reports: [ShardReport]) -> [Entry] {
        var seen = Set<String>()
        var entries: [Entry] = []
        for report in reports {
            let base = report.manifestDirectory ?? FileSystem.realpath(ManifestPaths(manifest: report.manifest).base)
            for r in report.results where ![.succeeded, .skipped].contains(r.status) {
                func path(_ manifestPath: String, _ asRun: String) -> String {
                    guard let base else { return asRun }
                    return manifestPath.hasPrefix("/")
                        ? manifestPath : ManifestPaths.normalize(base + "/" + manifestPath)
                }
                var entry = Entry(
                    job: r.job, input: path(r.job.manifestInput, r.job.input),
                    output: path(r.job.manifestOutput, r.job.output))
                if let unit = r.job.split {
                    // The whole job again, split as it was, with the options its rest unit ran (every
                    // one the manifest gave, its range included).
                    let rest = reports.lazy.flatMap(\.results).first {
                        $0.job.split?.output == unit.output && $0.job.split?.part == .rest
                    }
                    let options = SplitUnit.jobOptions(fromRest: rest?.job.options ?? r.job.options)
                    let job = BatchJob(
                        input: r.job.input, output: unit.output, options: options, manifestInput: r.job.manifestInput,
                        manifestOutput: unit.manifestOutput, entry: r.job.entry, line: r.job.line)
                    entry = Entry(job: job, input: entry.input, output: path(unit.manifestOutput, unit.output))
                    entry.split = unit.parts
                }
                guard seen.insert(entry.input + "\u{0}" + entry.output).inserted else { continue }
                entries.append(entry)
            }
        }
        return entries
    }

    /// The manifest: one job per line; an input with glob characters escaped (it is one file).
    public static func text(_ entries: [Entry], table: ExportOptionTable) -> String {
        let jobs = entries.map { e in
            let input = ManifestPaths.isPattern(e.input) ? ManifestPaths.escape(e.input) : e.input
            var members = [("input", JSONValue.string(input)), ("output", .string(e.output))]
            members += options(e.job.options, table: table)
            if let parts = e.split { members.append(("split", .int(Int64(parts)))) }
            return "    " + JSONValue.object(members).rendered
        }
        return "{\n  \"schema\": \"\(BatchManifest.schema)\",\n  \"jobs\": [\n" + jobs.joined(separator: ",\n")
            + "\n  ]\n}\n"
    }

    /// `["--conform", "30", "--rotate", "90"]` back into manifest members, as the table says each
    /// option is written (a flag true, a repeated option an array).
    static func options(_ arguments: [String], table: ExportOptionTable) -> [(String, JSONValue)] {
        var members: [(String, JSONValue)] = []
        var i = 0
        while i < arguments.count {
            let name = String(arguments[i].drop { $0 == "-" })
            let kind = table.options.first { $0.name == name }?.kind ?? .value
            i += 1
            if kind == .flag {
                members.append((name, .bool(true)))
                continue
            }
            let value = JSONValue.string(i < arguments.count ? arguments[i] : "")
            i += 1
            if kind == .repeated, let k = members.firstIndex(where: { $0.0 == name }), case .array(let a) = members[k].1
            {
                members[k].1 = .array(a + [value])
            } else {
                members.append((name, kind == .repeated ? .array([value]) : value))
            }
        }
        return members
    }
}
