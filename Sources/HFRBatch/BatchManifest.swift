import Foundation
import HFRMedia

/// A batch manifest (schema `hfr.batch/1`), read, checked and expanded into jobs before any runs.
///
/// ```
/// { "schema": "hfr.batch/1",
///   "defaults": { "audio": "time-domain" },
///   "jobs": [ { "input": "clips/*.mp4", "output": "out/{stem}-slowmo.mp4", "conform": 30 } ] }
/// ```
/// Every problem is a `ManifestError` naming the line and the field.
public struct BatchManifest: Sendable {
    public static let schema = "hfr.batch/1"

    /// Every job, in manifest order (entries in order, each entry's inputs sorted).
    public let jobs: [BatchJob]
    /// Things worth saying that are not errors (inputs left out because they are outputs).
    public let notes: [String]
    /// Every file the jobs read and write, and the manifest, checked against each other: reports
    /// are checked against them before any job runs.
    public let files: BatchPaths

    /// Reads and expands the manifest at `path` (a file that could be read: the caller reads it).
    /// `segmentSeconds`: how long the parts of a job that says `"split": "auto"` are (`--segment-seconds`).
    public init(
        text: String, path: String, table: ExportOptionTable, segmentSeconds: Rational = Rational(60)
    ) throws(ManifestError) {
        let root: JSONNode
        do {
            root = try JSONReader.parse(text)
        } catch {
            throw ManifestError("invalid JSON: \(error.message)", at: error.position)
        }
        let entries = try Self.entries(of: root, table: table)
        (jobs, notes, files) = try Self.expand(entries, manifest: path, segmentSeconds: segmentSeconds)
    }

    /// One element of `jobs` as written.
    struct Entry {
        let index: Int
        let position: TextPosition
        let input: (text: String, position: TextPosition)
        let output: (text: String, position: TextPosition)
        let options: [String]
        /// `"split"`: how many parts, and where it was written.
        var split: (request: SplitRequest, position: TextPosition)? = nil
    }

    /// A job's `"split"`: N parts, or parts of about `--segment-seconds`.
    enum SplitRequest: Equatable {
        case parts(Int)
        case auto
    }

    // MARK: reading the document

    static func entries(of root: JSONNode, table: ExportOptionTable) throws(ManifestError) -> [Entry] {
        guard case .object(let top) = root.value else {
            throw ManifestError("the manifest must be a JSON object, not \(root.kindName)", at: root.position)
        }
        for member in top where !["schema", "defaults", "jobs"].contains(member.key) {
            throw ManifestError(
                "unknown field (a manifest has schema, defaults and jobs)", at: member.keyPosition, field: member.key)
        }
        guard let schema = top.first(where: { $0.key == "schema" }) else {
            throw ManifestError("missing \"schema\": \"\(Self.schema)\"", at: root.position)
        }
        guard case .string(let name) = schema.value.value, name == Self.schema else {
            throw ManifestError(
                "unsupported schema (this hfr reads \"\(Self.schema)\")", at: schema.value.position, field: "schema")
        }
        var defaults: [JSONNode.Member] = []
        if let d = top.first(where: { $0.key == "defaults" }) {
            guard case .object(let members) = d.value.value else {
                throw ManifestError(
                    "must be an object of hfr export options, not \(d.value.kindName)", at: d.value.position,
                    field: "defaults")
            }
            defaults = members
            if let split = members.first(where: { $0.key == "split" }) {
                throw ManifestError(
                    "belongs to a job (each job says how it is split), not to defaults", at: split.keyPosition,
                    field: "defaults.split")
            }
            for member in members {
                _ = try option(member, field: "defaults.\(member.key)", table: table)
            }
        }
        guard let jobsMember = top.first(where: { $0.key == "jobs" }) else {
            throw ManifestError("missing \"jobs\": [ … ]", at: root.position)
        }
        guard case .array(let items) = jobsMember.value.value, !items.isEmpty else {
            throw ManifestError("must be a non-empty array of jobs", at: jobsMember.value.position, field: "jobs")
        }
        var entries: [Entry] = []
        for (index, item) in items.enumerated() {
            entries.append(try entry(item, index: index, defaults: defaults, table: table))
        }
        return entries
    }

    static func entry(
        _ item: JSONNode, index: Int, defaults: [JSONNode.Member], table: ExportOptionTable
    ) throws(ManifestError) -> Entry {
        let field = "jobs[\(index)]"
        guard case .object(let members) = item.value else {
            throw ManifestError("must be an object, not \(item.kindName)", at: item.position, field: field)
        }
        func path(_ key: String) throws(ManifestError) -> (String, TextPosition) {
            guard let member = members.first(where: { $0.key == key }) else {
                throw ManifestError("missing \"\(key)\"", at: item.position, field: field)
            }
            guard case .string(let text) = member.value.value, !text.isEmpty else {
                throw ManifestError(
                    "must be a non-empty string, not \(member.value.kindName)", at: member.value.position,
                    field: "\(field).\(key)")
            }
            if let control = BatchPaths.controlCharacter(in: text) {
                throw ManifestError(
                    "has the control character \(control); a path may not", at: member.value.position,
                    field: "\(field).\(key)")
            }
            return (text, member.value.position)
        }
        let input = try path("input")
        let output = try path("output")
        // The job's own options replace the defaults; null removes a default.
        var chosen: [String: (member: JSONNode.Member, field: String)] = [:]
        for member in defaults { chosen[member.key] = (member, "defaults.\(member.key)") }
        for member in members where !["input", "output", "split"].contains(member.key) {
            if case .null = member.value.value {
                guard table.options.contains(where: { $0.name == member.key }) else {
                    _ = try option(member, field: "\(field).\(member.key)", table: table)
                    continue
                }
                chosen[member.key] = nil
            } else {
                chosen[member.key] = (member, "\(field).\(member.key)")
            }
        }
        var arguments: [String] = []
        for (name, _) in table.options {
            guard let (member, optionField) = chosen[name] else { continue }
            arguments += try option(member, field: optionField, table: table)
        }
        for (name, (member, optionField)) in chosen where !table.options.contains(where: { $0.name == name }) {
            _ = try option(member, field: optionField, table: table)
        }
        // The export's own parser judges the values and their combinations.
        if let problem = table.validate(["input.mp4", "output.mp4"] + arguments) {
            let culprit = chosen.filter { problem.contains("--\($0.key)") }.min { $0.key < $1.key }?.value
            throw ManifestError(
                problem, at: culprit?.member.value.position ?? item.position, field: culprit?.field ?? field)
        }
        var entry = Entry(index: index, position: item.position, input: input, output: output, options: arguments)
        if let member = members.first(where: { $0.key == "split" }) {
            entry.split = (try splitRequest(member.value, field: "\(field).split"), member.value.position)
        }
        return entry
    }

    /// `"split": N` (1 to 256 parts; 1 is no split) or `"split": "auto"`.
    static func splitRequest(_ node: JSONNode, field: String) throws(ManifestError) -> SplitRequest {
        switch node.value {
        case .string("auto"): return .auto
        case .number(let text):
            guard let n = Int(text), (1...256).contains(n) else {
                throw ManifestError(
                    "must be a whole number of parts from 1 to 256, not \(text)", at: node.position, field: field)
            }
            return .parts(n)
        default:
            throw ManifestError(
                "must be a number of parts (2, 4, …) or \"auto\" (parts of --segment-seconds), not \(node.kindName)",
                at: node.position, field: field)
        }
    }

    /// `"conform": 30` → `["--conform", "30"]`; the error names the field.
    static func option(
        _ member: JSONNode.Member, field: String, table: ExportOptionTable
    ) throws(ManifestError) -> [String] {
        if let reason = table.reserved[member.key] {
            throw ManifestError(reason, at: member.keyPosition, field: field)
        }
        guard let kind = table.options.first(where: { $0.name == member.key })?.kind else {
            let names = table.options.map(\.name).joined(separator: ", ")
            throw ManifestError(
                "unknown hfr export option (known: input, output, \(names))", at: member.keyPosition, field: field)
        }
        func scalar(_ node: JSONNode) throws(ManifestError) -> String {
            switch node.value {
            case .string(let s): return s
            case .number(let n): return n
            default:
                throw ManifestError(
                    "must be a string or a number, not \(node.kindName)", at: node.position, field: field)
            }
        }
        switch (kind, member.value.value) {
        case (.flag, .bool(let on)): return on ? ["--\(member.key)"] : []
        case (.flag, _):
            throw ManifestError(
                "must be true or false, not \(member.value.kindName)", at: member.value.position, field: field)
        case (.value, _): return ["--\(member.key)", try scalar(member.value)]
        case (.repeated, .array(let items)):
            var arguments: [String] = []
            for item in items { arguments += ["--\(member.key)", try scalar(item)] }
            return arguments
        case (.repeated, _): return ["--\(member.key)", try scalar(member.value)]
        }
    }

    // MARK: expanding into jobs

    static func expand(
        _ entries: [Entry], manifest: String, segmentSeconds: Rational
    ) throws(ManifestError) -> ([BatchJob], [String], BatchPaths) {
        let paths = ManifestPaths(manifest: manifest)
        var expanded: [Expansion] = []
        for entry in entries { expanded.append(try Expansion(entry, paths: paths)) }
        // A pattern that also matches what the batch writes (outputs next to inputs, their records)
        // must not pick up last run's files as new inputs.
        let written = Set(
            expanded.flatMap { e in
                e.inputs.flatMap { input in [e.output(for: input), ResumeRecord.path(for: e.output(for: input))] }
            })
        // Everything read first, then each output and record checked against it and each other.
        var files = BatchPaths()
        files.read(manifest, shown: manifest, as: .manifest)
        var notes: [String] = []
        var kept: [[String]] = []
        for e in expanded {
            var inputs: [String] = []
            for input in e.inputs {
                if e.isPattern, written.contains(input) {
                    notes.append("jobs[\(e.entry.index)]: \(input) left out: the batch writes it")
                    continue
                }
                files.read(paths.resolve(input), shown: input, as: .input(entry: e.entry.index))
                inputs.append(input)
            }
            kept.append(inputs)
        }
        var jobs: [BatchJob] = []
        for (e, inputs) in zip(expanded, kept) {
            for input in inputs {
                let job = e.job(for: input, paths: paths)
                try checkOutput(of: job, from: e.entry, files: &files)
                guard let split = e.entry.split else {
                    jobs.append(job)
                    continue
                }
                let units = try SplitUnits.units(
                    of: job, split.request, segmentSeconds: segmentSeconds, notes: &notes,
                    at: (split.position, "jobs[\(e.entry.index)].split"))
                for unit in units where units.count > 1 { try checkOutput(of: unit, from: e.entry, files: &files) }
                jobs += units
            }
        }
        return (jobs, notes, files)
    }

    /// One entry with its input pattern expanded and its output template read.
    struct Expansion {
        let entry: Entry
        /// Normalized, relative to the manifest.
        let inputs: [String]
        let template: OutputTemplate
        let isPattern: Bool

        init(_ entry: Entry, paths: ManifestPaths) throws(ManifestError) {
            self.entry = entry
            isPattern = ManifestPaths.isPattern(entry.input.text)
            inputs = try Self.inputs(of: entry, isPattern: isPattern, paths: paths).map(ManifestPaths.normalize)
            do {
                template = try OutputTemplate(entry.output.text)
            } catch {
                throw ManifestError(error.message, at: entry.output.position, field: "jobs[\(entry.index)].output")
            }
        }

        /// The files a pattern matches (at least one), or the one file named (which must exist).
        static func inputs(
            of entry: Entry, isPattern: Bool, paths: ManifestPaths
        ) throws(ManifestError) -> [String] {
            let field = "jobs[\(entry.index)].input"
            let pattern = entry.input.text
            if isPattern {
                let inputs = paths.expand(pattern)
                if inputs.isEmpty {
                    throw ManifestError(
                        "\"\(pattern)\" matches no file in \(paths.base)", at: entry.input.position, field: field)
                }
                return inputs
            }
            var info = stat()
            let resolved = paths.resolve(pattern)
            guard resolved.withPathBytes({ stat($0, &info) }) == 0 else {
                throw ManifestError(
                    "\(resolved): \(String(cString: strerror(errno)))", at: entry.input.position, field: field)
            }
            if info.st_mode & S_IFMT == S_IFDIR {
                throw ManifestError(
                    "\(resolved) is a directory; use a pattern such as \(pattern)/*.mp4", at: entry.input.position,
                    field: field)
            }
            return [ManifestPaths.normalize(pattern)]
        }

        /// What the entry writes for `input`, normalized.
        func output(for input: String) -> String { ManifestPaths.normalize(template.output(for: input)) }

        func job(for input: String, paths: ManifestPaths) -> BatchJob {
            let output = output(for: input)
            return BatchJob(
                input: paths.resolve(input), output: paths.resolve(output), options: entry.options,
                manifestInput: input, manifestOutput: output, entry: entry.index, line: entry.position.line)
        }
    }

    /// Refuses an output libav cannot write, one with a control character in its name (from an
    /// input's name), and one that is a file the batch reads or writes already (`BatchPaths`);
    /// then its resume record the same way.
    static func checkOutput(of job: BatchJob, from entry: Entry, files: inout BatchPaths) throws(ManifestError) {
        let output = job.manifestOutput
        let outputField = "jobs[\(entry.index)].output"
        guard Container.hasKnownExtension(output, among: Container.exportExtensions) else {
            throw ManifestError(
                "\(output): unknown container; use \(Container.listed(Container.exportExtensions))",
                at: entry.output.position, field: outputField)
        }
        if let control = BatchPaths.controlCharacter(in: output) {
            throw ManifestError(
                "gives a name with the control character \(control) (from an input's name); a path may not",
                at: entry.output.position, field: outputField)
        }
        let line = entry.position.line
        do throws(BatchPaths.Conflict) {
            try files.write(
                job.output, shown: output,
                as: .output(entry: entry.index, line: line, input: job.manifestInput, template: entry.output.text))
            try files.write(
                ResumeRecord.path(for: job.output), shown: ResumeRecord.path(for: output),
                as: .record(entry: entry.index, line: line))
        } catch {
            throw ManifestError(error.message, at: entry.output.position, field: outputField)
        }
    }
}
