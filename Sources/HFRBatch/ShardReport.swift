import Foundation

/// One shard's `--json-report` (schema `hfr.batch.report/1`) read back, for `hfr batch merge`.
public struct ShardReport: Sendable {
    public static let schema = "hfr.batch.report/1"

    /// The file it was read from, as given.
    public var path: String
    public var manifest: String
    /// `BatchJob.setID` of the whole manifest: equal in every shard of one manifest.
    public var jobSet: String
    public var shard: Shard
    public var source: String?
    public var workers: Int
    public var manifestJobs: Int
    public var hostname: String?
    public var started: Date?
    public var seconds: Double
    public var stoppedEarly: Bool
    public var results: [JobResult]
    /// False in a report written while its batch runs (or one that died before its end).
    public var finished: Bool
    /// The batch's process and when it last wrote the report (nil from older reports).
    public var pid: Int32?
    public var updated: Date?
    /// The manifest's directory, absolute, as the batch saw it (nil from older reports).
    public var manifestDirectory: String?

    /// Reads the report in `data`; the problem (naming `path`) when it is not one.
    public init(data: Data, path: String) throws(ReportError) {
        guard let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else {
            throw ReportError("\(path): not a JSON object (an hfr batch --json-report file?)")
        }
        let read = Fields(object: object, path: path)
        let schema = try read.string("schema")
        guard schema == Self.schema else {
            throw ReportError("\(path): schema \(schema), not \(Self.schema) (an hfr batch --json-report file?)")
        }
        self.path = path
        manifest = try read.string("manifest")
        guard let jobSet = object["jobSet"] as? String else {
            throw ReportError("\(path): no jobSet (written by an hfr older than batch merge: run the shard again)")
        }
        self.jobSet = jobSet
        let shardObject = Fields(object: try read.object("shard"), path: path, prefix: "shard.")
        guard let shard = Shard(index: try shardObject.int("index"), total: try shardObject.int("total")) else {
            throw ReportError("\(path): shard.index is not between 1 and shard.total")
        }
        self.shard = shard
        source = shardObject.object["source"] as? String
        workers = try read.int("workers")
        manifestJobs = try read.int("manifestJobs")
        hostname = object["hostname"] as? String
        started = (object["started"] as? String).flatMap { ISO8601DateFormatter().date(from: $0) }
        seconds = try read.number("elapsedSeconds")
        stoppedEarly = object["stoppedEarly"] as? Bool ?? false
        finished = object["finished"] as? Bool ?? true
        pid = (object["pid"] as? NSNumber)?.int32Value
        updated = (object["updated"] as? String).flatMap { ISO8601DateFormatter().date(from: $0) }
        manifestDirectory = object["manifestDirectory"] as? String
        guard let jobs = object["jobs"] as? [[String: Any]] else { throw ReportError("\(path): jobs is not an array") }
        results = try jobs.enumerated().map { (i, job) throws(ReportError) in
            try Self.result(Fields(object: job, path: path, prefix: "jobs[\(i)]."))
        }
    }

    /// One `jobs[]` element: the job (its id checked against what it says it is) and how it ended.
    static func result(_ read: Fields) throws(ReportError) -> JobResult {
        guard let options = read.object["options"] as? [String] else {
            throw ReportError("\(read.path): \(read.prefix)options is not an array of strings")
        }
        var job = BatchJob(
            input: try read.string("input"), output: try read.string("output"), options: options,
            manifestInput: try read.string("manifestInput"), manifestOutput: try read.string("manifestOutput"),
            entry: try read.int("manifestEntry"), line: 0)
        if let split = read.object["split"] as? [String: Any] {
            let unit = Fields(object: split, path: read.path, prefix: read.prefix + "split.")
            let part: SplitUnit.Part =
                try unit.string("part") == "rest" ? .rest : .video((split["index"] as? Int) ?? 0)
            job.split = SplitUnit(
                part: part, parts: try unit.int("parts"), output: try unit.string("output"),
                manifestOutput: try unit.string("manifestOutput"))
        }
        let id = try read.string("id")
        guard id == job.id else {
            throw ReportError("\(read.path): \(read.prefix)id \(id) is not the id of \(job.title)")
        }
        let statusText = try read.string("status")
        guard let status = JobResult.Status(rawValue: statusText) else {
            throw ReportError("\(read.path): \(read.prefix)status \"\(statusText)\" is not a job status")
        }
        var result = JobResult(job: job, status: status)
        result.seconds = try read.number("durationSeconds")
        result.frames = read.object["frames"] as? Int
        result.outputBytes = (read.object["outputBytes"] as? NSNumber)?.int64Value
        result.exitCode = (read.object["exitCode"] as? NSNumber)?.int32Value
        result.signal = (read.object["signal"] as? NSNumber)?.int32Value
        result.error = read.object["error"] as? String
        let history = read.object["history"] as? [[String: Any]] ?? []
        result.attempts = history.compactMap { a in
            guard let number = a["attempt"] as? Int,
                let outcome = (a["outcome"] as? String).flatMap(JobAttempt.Outcome.init(rawValue:))
            else { return nil }
            var attempt = JobAttempt(number: number, outcome: outcome)
            attempt.seconds = (a["durationSeconds"] as? NSNumber)?.doubleValue ?? 0
            attempt.exitCode = (a["exitCode"] as? NSNumber)?.int32Value
            attempt.signal = (a["signal"] as? NSNumber)?.int32Value
            attempt.error = a["error"] as? String
            attempt.log = a["log"] as? String
            return attempt
        }
        return result
    }

    /// Typed members of one JSON object, with errors naming the file and the member.
    struct Fields {
        let object: [String: Any]
        let path: String
        var prefix = ""

        func string(_ name: String) throws(ReportError) -> String {
            guard let value = object[name] as? String else { throw missing(name, "a string") }
            return value
        }

        func int(_ name: String) throws(ReportError) -> Int {
            guard let value = object[name] as? Int else { throw missing(name, "a whole number") }
            return value
        }

        func number(_ name: String) throws(ReportError) -> Double {
            guard let value = (object[name] as? NSNumber)?.doubleValue else { throw missing(name, "a number") }
            return value
        }

        func object(_ name: String) throws(ReportError) -> [String: Any] {
            guard let value = object[name] as? [String: Any] else { throw missing(name, "an object") }
            return value
        }

        func missing(_ name: String, _ kind: String) -> ReportError {
            ReportError("\(path): \(prefix)\(name) is missing or not \(kind)")
        }
    }
}

/// Why reports cannot be read or merged: one line naming the file (exit 65).
public struct ReportError: Error, Sendable, Equatable {
    public let message: String
    public init(_ message: String) { self.message = message }
}
