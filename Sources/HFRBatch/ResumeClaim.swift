import Foundation
import HFRMedia

#if canImport(Glibc)
    import Glibc
#endif

/// Who runs a job now: kept in its `running` resume record, so that `--resume` can tell a job
/// another batch is running from one whose batch died (killed, its node lost).
///
/// A claim is stale when, on this host, its process is gone (a pid that a later process took
/// does not count: its start time differs); on another host, when its heartbeat stopped — the
/// running batch touches the record every `heartbeat` seconds, so a record left untouched for
/// `staleAfter` seconds belongs to a batch that is gone (or a host whose clock is far off).
public struct ResumeClaim: Sendable, Equatable {
    /// How often a running batch touches the records of its running jobs.
    public static let heartbeat: Double = 60
    /// How long a claim of another host may go untouched before it is stale.
    public static let staleAfter: Double = 600

    public var host: String
    public var pid: Int32
    /// The process's start, in clock ticks after boot (field 22 of /proc/PID/stat).
    public var pidStart: UInt64?
    public var started: Date
    /// The attempt that runs (a redo of an abandoned claim continues the numbering).
    public var attempt: Int
    /// Its `--logs` file, if any.
    public var log: String?
    /// How many claims of this job before this one were abandoned (a job is redone after one).
    public var abandoned: Int

    public init(
        host: String, pid: Int32, pidStart: UInt64?, started: Date, attempt: Int, log: String?, abandoned: Int
    ) {
        self.host = host
        self.pid = pid
        self.pidStart = pidStart
        self.started = started
        self.attempt = attempt
        self.log = log
        self.abandoned = abandoned
    }

    /// A claim by this process, now.
    public static func mine(attempt: Int, log: String?, abandoned: Int) -> ResumeClaim {
        ResumeClaim(
            host: hostname, pid: getpid(), pidStart: startTicks(of: getpid()), started: Date(), attempt: attempt,
            log: log, abandoned: abandoned)
    }

    /// Whether the batch that made this claim is gone; `touched` is the record's modification time.
    public func isStale(touched: Date?, now: Date = Date(), host thisHost: String = hostname) -> Bool {
        if host == thisHost {
            guard let running = Self.startTicks(of: pid) else { return true }
            return pidStart.map { $0 != running } ?? false
        }
        guard let touched else { return true }
        return now.timeIntervalSince(touched) > Self.staleAfter
    }

    /// `pid 4242 on node7 since 2026-12-07T22:00:00Z`.
    public var description: String { "pid \(pid) on \(host) since \(Self.timestamp(started))" }

    /// gethostname(2): ProcessInfo's hostName may ask DNS, which can hang in a CI container.
    public static var hostname: String {
        var buffer = [CChar](repeating: 0, count: 256)
        guard gethostname(&buffer, buffer.count - 1) == 0 else { return "localhost" }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// When process `pid` started (clock ticks after boot), or nil when there is no such process.
    static func startTicks(of pid: Int32) -> UInt64? {
        guard let bytes = FileSystem.contents("/proc/\(pid)/stat") else { return nil }
        let text = String(decoding: bytes, as: UTF8.self)
        // The name (field 2) is in parentheses and may hold spaces: count from the last ')'.
        guard let close = text.lastIndex(of: ")") else { return nil }
        let fields = text[text.index(after: close)...].split(separator: " ")
        return fields.count > 19 ? UInt64(fields[19]) : nil
    }

    /// The modification time of `path` (a record's heartbeat).
    public static func modified(_ path: String) -> Date? {
        var info = stat()
        guard path.withPathBytes({ stat($0, &info) }) == 0 else { return nil }
        return Date(timeIntervalSince1970: Double(info.st_mtim.tv_sec) + Double(info.st_mtim.tv_nsec) / 1e9)
    }

    /// Touches `path` (the heartbeat): its modification time becomes now.
    static func touch(_ path: String) { _ = path.withPathBytes { utimes($0, nil) } }

    static func timestamp(_ date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime]
        return formatter.string(from: date)
    }

    // MARK: in the record

    var object: [String: Any] {
        var object: [String: Any] = [
            "host": host, "pid": pid, "started": Self.timestamp(started), "attempt": attempt, "abandoned": abandoned,
        ]
        if let pidStart { object["pidStart"] = pidStart }
        if let log { object["log"] = log }
        return object
    }

    init?(_ object: [String: Any]?) {
        guard let object, let host = object["host"] as? String, let pid = (object["pid"] as? NSNumber)?.int32Value
        else { return nil }
        self.host = host
        self.pid = pid
        pidStart = (object["pidStart"] as? NSNumber)?.uint64Value
        started = (object["started"] as? String).flatMap { ISO8601DateFormatter().date(from: $0) } ?? .distantPast
        attempt = object["attempt"] as? Int ?? 1
        log = object["log"] as? String
        abandoned = object["abandoned"] as? Int ?? 0
    }
}
