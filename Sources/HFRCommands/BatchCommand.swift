import Foundation
import HFRBatch
import HFRMedia

#if canImport(Glibc)
    import Glibc
#endif

/// `hfr batch`: the exports a manifest lists, on N workers, optionally one shard of a CI matrix.
public struct BatchCommand: Command {
    public static let name = "batch"
    public static let abstract = "Run the exports a manifest lists: parallel, sharded over CI, resumable."
    public static let discussion = """
        The manifest (schema hfr.batch/1, see 'hfr batch --example' and docs/batch-manifest.md) lists
        jobs: an input file or glob, an output template ({stem}, {name}, {dir}) and any hfr export
        options. Paths are relative to the manifest. The whole manifest is checked before any job
        runs: syntax, unknown options, bad values, missing inputs, a path with a control character
        (a NUL, a newline), two jobs writing one output are refused with the manifest's line and
        field (exit 64). Every file the batch writes (outputs, their OUTPUT.hfr-batch.json records,
        --report, --json-report) is checked against every input, the manifest and every other file
        it writes, by file identity (through ./, .., symlinks and hard links): a clash is refused
        before any job runs, also with --dry-run (exit 64).

        Each job runs as a child 'hfr export --json' process, so a crashing job fails alone. Outputs
        are written under a temporary name and renamed when complete; next to each output,
        OUTPUT.hfr-batch.json records how it was made. An output the batch did not write is never
        replaced without --force; one it wrote (it has a record) is redone and replaced.

          --shard K/N    run the K-th of N parts (1-based). Jobs are dealt by a hash of input,
                         output and options, so every job is in exactly one part whatever the
                         manifest's order.
          --shard auto   the part from the CI: CI_NODE_INDEX/CI_NODE_TOTAL (from 1 on GitLab, where
                         GITLAB_CI is set, else from 0; HFR_SHARD_INDEX_BASE=0|1 decides),
                         JOB_COMPLETION_INDEX (Kubernetes, from 0) with HFR_SHARD_TOTAL or
                         JOB_COMPLETIONS, SLURM_ARRAY_TASK_ID/SLURM_ARRAY_TASK_COUNT (from
                         SLURM_ARRAY_TASK_MIN), AWS_BATCH_JOB_ARRAY_INDEX (from 0) with
                         AWS_BATCH_JOB_ARRAY_SIZE or HFR_SHARD_TOTAL, CLOUD_RUN_TASK_INDEX (from 0)
                         with CLOUD_RUN_TASK_COUNT. Says on stderr which it used.
          --resume       skip a job whose output exists and whose record matches: same input
                         SHA-256, same options, same output size. A job another batch is running
                         (its record's claim: this host and a live pid, or another host that
                         touched the record within 10 minutes) is left to it; one whose batch died
                         is redone once, the dead attempt in its history.
          --retries N    run a failed export again, up to N more times (not exit 65, bad input
                         data, nor 64: they would fail the same way). Each export gets
                         HFR_BATCH_ATTEMPT=1, 2, … in its environment.
          --logs DIR     keep each attempt's log as DIR/<job id>-<attempt>.log: the command line,
                         the export's stderr as it runs, how it ended. The reports name them
                         (JSON jobs[].history[].log, JUnit <system-out>).

        A job that says "split": N (or "auto": parts of about --segment-seconds of input, default
        60) is cut at the input's keyframes into N video parts (export --range A-B --split-part
        video) and one unit with every other track of the whole job (--split-part rest): units that
        shards, --resume and the reports treat as jobs, written to OUTPUT.hfr-split/. When every
        unit is done the output is joined from them without decoding: copied video and the audio
        come out packet for packet as one export writes them. 'hfr batch' joins when it ran every
        unit, 'hfr batch merge' does for shards. Split jobs write MP4 or MOV.

        --dry-run runs nothing and writes nothing: a table of the shard's jobs, each with its export's
        plan (copied or re-encoded, frames and seconds written, the audio as really handled: copied
        where the speed is 1), or the error its export would fail with. --json: the same as JSON
        (schema hfr.batch.plan/1, each job's plan as export --dry-run --json prints it).

        Progress goes to stderr: on a terminal one line redrawn twice a second (jobs done / total,
        failures, input MB done, ETA from the input bytes of the finished jobs, the running jobs);
        otherwise one line per finished job; with -q none. Ctrl-C or SIGTERM stops launching
        jobs and stops the running exports (they remove their temporary files); a second one kills
        them. The reports are written either way.

        --json-report is written as the batch starts and rewritten as jobs start and end
        ("finished": false until the end), for 'hfr batch status'.

        'hfr batch merge REPORT.json... --report junit.xml' combines the shards' --json-report files into
        one JUnit file and one JSON report, checking that every shard of one manifest is there once.
        'hfr batch status REPORT...' shows the shards' progress while they run (done, failed,
        running, pending, ETA); 'hfr batch failed REPORT... > rerun.json' writes a manifest of exactly
        the jobs that did not succeed, which runs as is; 'hfr batch matrix MANIFEST --max 256' prints
        the shards as a CI matrix (JSON). Each has its own --help.

        A job whose export was interrupted (it exits 130, or the batch stopped it) is reported as
        cancelled, not failed: JSON status "cancelled", a JUnit <skipped>.

        Exit codes: 0 every job of the shard succeeded (or was up to date), 1 a job failed or was
        cancelled or the batch was stopped, 64 usage or bad manifest, 74 manifest unreadable or a
        report not writable.
        """
    public static let options: [OptionSpec] = [
        .positional("MANIFEST", optional: true, help: "The batch manifest (JSON, schema hfr.batch/1)."),
        .value("jobs", "N", short: "j", help: "Exports running at once (default: the number of cores)."),
        .value(
            "shard", "K/N|auto", help: "Run only part K of N, or the part the CI's variables name.",
            choices: ["auto"]),
        .value("report", "FILE", help: "Write a JUnit XML report: one testcase per job."),
        .value("json-report", "FILE", help: "Write a JSON report (schema hfr.batch.report/1)."),
        .value(
            "segment-seconds", "S",
            help: "Parts of a job that says \"split\": \"auto\" are about S seconds of input (default 60)."),
        .flag("resume", help: "Skip jobs whose output is up to date (input digest and options match)."),
        .flag("force", help: "Replace outputs that hfr batch did not write."),
        .flag("fail-fast", help: "Stop at the first failed job."),
        .value("retries", "N", help: "Run a failed job's export up to N more times (default 0)."),
        .value("logs", "DIR", help: "Keep each attempt's log (command line, export's stderr) as DIR/ID-ATTEMPT.log."),
        .flag("dry-run", help: "List this shard's jobs with their export plans on stdout; run nothing."),
        .flag("json", help: "With --dry-run: the list as JSON (schema hfr.batch.plan/1)."),
        .flag("example", help: "Print a commented example manifest."),
    ]

    enum ShardChoice {
        case fixed(Shard)
        case auto
    }

    let manifest: String?
    let segmentSeconds: Rational
    let workers: Int
    let shard: ShardChoice
    let report: String?
    let jsonReport: String?
    let resume: Bool
    let force: Bool
    let failFast: Bool
    let retries: Int
    let logs: String?
    let dryRun: Bool
    let json: Bool
    let example: Bool

    public init(_ arguments: ParsedArguments) throws(HFRError) {
        let command = BatchCommand.self
        example = arguments.flag("example")
        manifest = arguments.positional("MANIFEST")
        if manifest == nil, !example { throw .usage("missing MANIFEST", of: command) }
        if let text = arguments.value("segment-seconds") {
            guard let seconds = Rational(parsingTime: text), seconds > Rational(0) else {
                throw .usage(
                    "--segment-seconds must be a length of input such as 60 or 2:30, not '\(text)'", of: command)
            }
            segmentSeconds = seconds
        } else {
            segmentSeconds = Rational(60)
        }
        let cores = ProcessInfo.processInfo.activeProcessorCount
        workers = try arguments.value("jobs", as: Int.self) ?? cores
        guard workers >= 1 else { throw .usage("-j must be at least 1", of: command) }
        switch arguments.value("shard") {
        case nil: shard = .fixed(.all)
        case "auto": shard = .auto
        case let text?:
            guard let s = Shard(parsing: text) else {
                throw .usage("--shard must be K/N with 1 ≤ K ≤ N (e.g. 2/4) or auto, not '\(text)'", of: command)
            }
            shard = .fixed(s)
        }
        report = arguments.value("report")
        jsonReport = arguments.value("json-report")
        resume = arguments.flag("resume")
        force = arguments.flag("force")
        failFast = arguments.flag("fail-fast")
        retries = try arguments.value("retries", as: Int.self) ?? 0
        guard (0...100).contains(retries) else { throw .usage("--retries must be 0 to 100", of: command) }
        logs = arguments.value("logs")
        dryRun = arguments.flag("dry-run")
        json = arguments.flag("json")
        if json, !dryRun {
            throw .usage("--json goes with --dry-run (a run's report: --json-report FILE)", of: command)
        }
    }

    /// The export options a manifest may set, checked by the export's own parser.
    static let exportOptions = ExportOptionTable(
        options: ExportCommand.options.compactMap { spec in
            switch spec.kind {
            case .positional: nil
            case .flag: (spec.name, .flag)
            case .value: (spec.name, .value)
            case .repeatedValue: (spec.name, .repeated)
            }
        }.filter { !["json", "force", "dry-run", "split-part"].contains($0.0) },
        reserved: [
            "dry-run": "use 'hfr batch --dry-run' to see every job's plan",
            "json": "set by hfr batch itself (it reads each export's summary)",
            "force": "set by hfr batch itself: use 'hfr batch --force' to replace outputs it did not write",
            "split-part": "the units of a split job are made by hfr, not written in a manifest",
        ],
        validate: { arguments in
            do throws(HFRError) {
                _ = try ExportCommand(ParsedArguments(arguments, for: ExportCommand.self))
                return nil
            } catch {
                return error.message
            }
        })

    public func run() throws(HFRError) {
        if example {
            Console.output(BatchExample.text)
            return
        }
        guard let manifest else { return }
        let parsed = try Self.load(manifest, segmentSeconds: segmentSeconds)
        let written = try Self.checkReports(
            [("--report", report), ("--json-report", jsonReport)], files: parsed.files, of: Self.self)
        try checkLogs(parsed.jobs, files: written)
        let (part, shardSource) = try chosenShard()
        for note in parsed.notes { Console.error("Note: \(note)\n") }
        let jobs = part.select(parsed.jobs)
        if dryRun {
            list(jobs, of: parsed.jobs.count, shard: part, manifest: manifest)
            return
        }
        for path in [report, jsonReport].compactMap({ $0 }) { try OutputFile.checkDirectory(of: path) }
        if let logs, !FileSystem.makeDirectories(logs) { throw .io(logs, "cannot be made a directory (--logs)") }
        let started = Date()
        let live = jsonReport.map { path in
            BatchLiveReport(jobs: jobs, path: path) { [workers] results in
                BatchJSON.document(
                    manifest: manifest, shard: part, shardSource: shardSource, workers: workers,
                    manifestJobs: parsed.jobs, results: results,
                    run: (started, Date().timeIntervalSince(started), Self.hostname), stoppedEarly: false,
                    finished: false
                ).rendered + "\n"
            }
        }
        let outcome = run(jobs, started: started, live: live)
        // Split jobs whose every unit ran here are joined now; shards leave theirs to the merge.
        let joins = Signals.isStopRequested ? [] : BatchJoins.join(outcome.results, force: force)
        BatchJoins.report(joins)
        if let report {
            var suite = JUnitReport.Suite(
                manifest: manifest, shard: part, results: outcome.results, seconds: outcome.seconds,
                started: outcome.started, hostname: Self.hostname)
            suite.source = shardSource
            try Self.write(JUnitReport.document([suite]), to: report)
        }
        if let jsonReport {
            let document = BatchJSON.document(
                manifest: manifest, shard: part, shardSource: shardSource, workers: workers, manifestJobs: parsed.jobs,
                results: outcome.results, run: (outcome.started, outcome.seconds, Self.hostname),
                stoppedEarly: outcome.stoppedEarly, joins: joins)
            try Self.write(document.rendered + "\n", to: jsonReport)
        }
        try Self.conclude(
            outcome.results, manifest: manifest, shard: part, manifestJobs: parsed.jobs.count,
            seconds: outcome.seconds)
        try Self.concludeJoins(joins, manifest: manifest)
    }

    /// Exit 1 when a split job's output could not be joined from units that all succeeded.
    static func concludeJoins(_ joins: [BatchJoins.Join], manifest: String) throws(HFRError) {
        guard let failed = joins.first(where: { $0.status == .failed }) else { return }
        throw HFRError(
            "\(manifest): \(failed.manifestOutput) could not be joined from its parts: \(failed.error ?? "")",
            exitCode: .failure)
    }

    /// How the jobs went, and when.
    struct Outcome {
        let results: [JobResult]
        let stoppedEarly: Bool
        let started: Date
        let seconds: Double
    }

    /// The manifest read and checked whole; its problems are usage errors naming line and field.
    static func load(_ manifest: String, segmentSeconds: Rational = Rational(60)) throws(HFRError) -> BatchManifest {
        let text = try read(manifest)
        do throws(ManifestError) {
            return try BatchManifest(
                text: text, path: manifest, table: exportOptions, segmentSeconds: segmentSeconds)
        } catch {
            throw .usage(error.describe(manifest: manifest), of: BatchCommand.self)
        }
    }

    /// Refuses (exit 64) a report path with a control character, or one that is a file the batch
    /// reads or writes (`files`: the manifest, inputs, outputs, records) or the other report, under
    /// any name: checked before any job runs, as for a dry run.
    @discardableResult
    static func checkReports(
        _ reports: [(option: String, path: String?)], files: BatchPaths, of command: any Command.Type
    ) throws(HFRError) -> BatchPaths {
        var files = files
        for case let (option, path?) in reports {
            if let control = BatchPaths.controlCharacter(in: path) {
                throw .usage("\(option) names a path with the control character \(control)", of: command)
            }
            do throws(BatchPaths.Conflict) {
                try files.write(path, shown: path, as: .report(option: option))
            } catch {
                throw .usage("\(option) \(error.message)", of: command)
            }
        }
        return files
    }

    /// Refuses (exit 64) a `--logs` directory with a control character, or one where a log (of any
    /// job's attempts, a redo of an abandoned one included) would be a file the batch reads or writes.
    func checkLogs(_ jobs: [BatchJob], files: BatchPaths) throws(HFRError) {
        guard let logs else { return }
        if let control = BatchPaths.controlCharacter(in: logs) {
            throw .usage("--logs names a path with the control character \(control)", of: Self.self)
        }
        var files = files
        for job in jobs {
            for number in 1...(retries + 2) {
                let path = JobAttempt.logPath(in: logs, job: job, number: number)
                do throws(BatchPaths.Conflict) {
                    try files.write(path, shown: path, as: .log)
                } catch {
                    throw .usage("--logs: \(error.message)", of: Self.self)
                }
            }
        }
    }

    /// The part to run and what chose it (nil for the whole manifest).
    func chosenShard() throws(HFRError) -> (Shard, source: String?) {
        switch shard {
        case .fixed(let s):
            return (s, s.total > 1 ? "--shard \(s)" : nil)
        case .auto:
            switch ShardEnvironment.detect(ProcessInfo.processInfo.environment) {
            case .success(let (s, why)):
                Console.error("batch: \(why)\n")
                return (s, why)
            case .failure(let problem):
                throw .usage("--shard auto: \(problem.message)", of: BatchCommand.self)
            }
        }
    }

    /// `--dry-run`: the shard's jobs and what each export would do, a table (or JSON) on stdout;
    /// the message of each export that would fail on stderr.
    func list(_ jobs: [BatchJob], of manifestJobs: Int, shard: Shard, manifest: String) {
        let entries = BatchPlan.entries(jobs)
        if json {
            let document = BatchPlan.document(entries, manifest: manifest, shard: shard, manifestJobs: manifestJobs)
            Console.output(document.rendered + "\n")
        } else {
            Console.output(BatchPlan.text(entries))
        }
        var failing = 0
        for e in entries {
            guard case .failure(let error) = e.plan else { continue }
            failing += 1
            Console.error("batch: job \(e.job.id) (\(e.job.manifestInput)) would fail: \(error.message)\n")
        }
        let fails = failing > 0 ? ", \(failing) would fail" : ""
        Console.error("batch: \(jobs.count) of \(manifestJobs) jobs in shard \(shard)\(fails) (dry run)\n")
    }

    /// Runs `jobs` with the progress line on stderr (and the report written as they run).
    func run(_ jobs: [BatchJob], started: Date, live: BatchLiveReport?) -> Outcome {
        let progress = BatchProgress(jobs: jobs)
        // hfr -v batch: the exports log libav's messages too (into the reports' failure text); -q:
        // no export prints progress lines into its log (their stderr is a file, read for errors).
        var settings = BatchRunner.Settings(
            workers: workers, resume: resume, force: force, failFast: failFast, executable: Self.executable,
            extraArguments: ["-q"] + Array(repeating: "-v", count: LibavLog.verbosity))
        settings.retries = retries
        settings.logs = logs
        let runner = BatchRunner(
            jobs: jobs, settings: settings,
            onStart: { job in
                progress.started(job)
                live?.started(job)
            },
            onNote: { progress.note($0) },
            onFinish: { result, tally in
                progress.finished(result, tally)
                live?.finished(result)
            })
        progress.start()
        live?.start()
        let (results, stoppedEarly) = runner.run()
        live?.stop()
        progress.stop()
        return Outcome(
            results: results, stoppedEarly: stoppedEarly, started: started,
            seconds: Date().timeIntervalSince(started))
    }

    /// The summary line; throws (exit 1) when the batch was stopped or a job failed or did not finish.
    static func conclude(
        _ results: [JobResult], manifest: String, shard: Shard, manifestJobs: Int, seconds: Double
    ) throws(HFRError) {
        let failed = results.filter { $0.status == .failed }.count
        let skipped = results.filter { $0.status == .skipped }.count
        let succeeded = results.filter { $0.status == .succeeded }.count
        var summary = "batch: \(results.count) jobs"
        if shard.total > 1 { summary += " (shard \(shard) of \(manifestJobs))" }
        summary += ": \(succeeded) done, \(skipped) up to date, \(failed) failed"
        let unfinished = results.count - succeeded - skipped - failed
        if unfinished > 0 { summary += ", \(unfinished) not done" }
        summary += " in \(DecimalText.fixed(seconds, digits: 1)) s"
        Console.error(summary + "\n")
        if Signals.isStopRequested {
            throw HFRError("\(manifest): interrupted; \(unfinished) jobs not done", exitCode: .failure)
        }
        if failed > 0 {
            let first = results.first { $0.status == .failed }?.error.map { "; first: \($0)" } ?? ""
            throw HFRError("\(manifest): \(failed) of \(results.count) jobs failed\(first)", exitCode: .failure)
        }
        if unfinished > 0, !results.contains(where: { $0.status == .cancelled }) {
            // --resume left jobs to the live batches that claim them.
            let first = results.first { $0.status == .notRun }?.error.map { "; first: \($0)" } ?? ""
            throw HFRError(
                "\(manifest): \(unfinished) of \(results.count) jobs were left to other batches\(first)",
                exitCode: .failure)
        }
        if unfinished > 0 {
            // Exports interrupted on their own (exit 130), not by this batch.
            let first = results.first { $0.status == .cancelled }?.error.map { "; first: \($0)" } ?? ""
            throw HFRError(
                "\(manifest): \(unfinished) of \(results.count) jobs were cancelled\(first)", exitCode: .failure)
        }
    }

    /// The program each job runs: this hfr (or `HFR_BATCH_EXECUTABLE`, e.g. a wrapper script).
    static var executable: String {
        if let path = ProcessInfo.processInfo.environment["HFR_BATCH_EXECUTABLE"], !path.isEmpty { return path }
        return FileSystem.realpath("/proc/self/exe") ?? "/proc/self/exe"
    }

    /// This machine's name (gethostname(2)).
    static var hostname: String { ResumeClaim.hostname }

    static func read(_ path: String) throws(HFRError) -> String {
        _ = try InputFile.status(of: path, expecting: "a manifest")
        guard let data = FileSystem.contents(path).map({ Data($0) }) else { throw .io(path, "cannot be read") }
        guard let text = String(data: data, encoding: .utf8) else {
            throw .usage("\(path): not UTF-8 text", of: BatchCommand.self)
        }
        return text
    }

    static func write(_ text: String, to path: String) throws(HFRError) {
        guard AtomicFile.write(Data(text.utf8), to: path) else { throw .io(path, "cannot be written") }
    }
}
