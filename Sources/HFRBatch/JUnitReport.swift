import Foundation
import HFRMedia

/// `--report junit.xml`: one `<testcase>` per job, in the JUnit XML shape CI systems read
/// (`testsuites` > `testsuite` > `testcase` with `failure` or `skipped`).
public enum JUnitReport {
    /// One `<testsuite>`: a shard's results, when and where it ran.
    public struct Suite: Sendable {
        public var manifest: String
        public var shard: Shard
        public var results: [JobResult]
        public var seconds: Double
        /// Unknown for a report that does not say (nil: no `timestamp`, `hostname`).
        public var started: Date?
        public var hostname: String?
        /// Where the shard came from (`--shard auto`'s variables), as a property.
        public var source: String? = nil

        public init(
            manifest: String, shard: Shard, results: [JobResult], seconds: Double, started: Date?, hostname: String?
        ) {
            self.manifest = manifest
            self.shard = shard
            self.results = results
            self.seconds = seconds
            self.started = started
            self.hostname = hostname
        }
    }

    /// The document for `results` of `manifest`'s `shard`.
    public static func document(
        manifest: String, shard: Shard, results: [JobResult], seconds: Double, started: Date, hostname: String
    ) -> String {
        document([
            Suite(
                manifest: manifest, shard: shard, results: results, seconds: seconds, started: started,
                hostname: hostname)
        ])
    }

    /// One document of several suites (`hfr batch merge`: one per shard); the totals add up.
    public static func document(_ suites: [Suite]) -> String {
        let all = suites.flatMap(\.results)
        let seconds = suites.map(\.seconds).max() ?? 0
        var xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        xml += "<testsuites name=\"hfr batch\" \(counts(all, seconds: seconds))>\n"
        for suite in suites { xml += self.suite(suite) }
        xml += "</testsuites>\n"
        return xml
    }

    /// `tests=… failures=… errors=… skipped=… time=…`.
    static func counts(_ results: [JobResult], seconds: Double) -> String {
        let failures = results.filter { $0.status == .failed }.count
        let skipped = results.count - failures - results.filter { $0.status == .succeeded }.count
        return "tests=\"\(results.count)\" failures=\"\(failures)\" errors=\"0\" skipped=\"\(skipped)\" "
            + "time=\"\(time(seconds))\""
    }

    static func suite(_ suite: Suite) -> String {
        let name = suite.shard.total > 1 ? "\(suite.manifest) (shard \(suite.shard))" : suite.manifest
        var xml = "  <testsuite name=\"\(escape(name))\" \(counts(suite.results, seconds: suite.seconds))"
        if let started = suite.started { xml += " timestamp=\"\(timestamp(started))\"" }
        if let hostname = suite.hostname { xml += " hostname=\"\(escape(hostname))\"" }
        xml += ">\n    <properties>\n"
        xml += "      <property name=\"manifest\" value=\"\(escape(suite.manifest))\"/>\n"
        xml += "      <property name=\"shard\" value=\"\(suite.shard)\"/>\n"
        if let source = suite.source { xml += "      <property name=\"source\" value=\"\(escape(source))\"/>\n" }
        xml += "    </properties>\n"
        let className = "hfr.batch." + manifestStem(suite.manifest)
        for r in suite.results { xml += testcase(r, className: className) }
        return xml + "  </testsuite>\n"
    }

    static func testcase(_ r: JobResult, className: String) -> String {
        var xml = "    <testcase name=\"\(escape(r.job.title))\" classname=\"\(escape(className))\""
        xml += " time=\"\(time(r.seconds))\""
        let out = systemOut(r.attempts)
        switch r.status {
        case .succeeded:
            guard let out else { return xml + "/>\n" }
            return xml + ">\n" + out + "    </testcase>\n"
        case .failed:
            let type = r.signal.map { "signal \($0)" } ?? r.exitCode.map { "exit \($0)" } ?? "not started"
            let message = r.error ?? "failed"
            xml += ">\n      <failure message=\"\(escape(message))\" type=\"\(escape(type))\">"
            xml += escape(r.log.isEmpty ? message : r.log, isAttribute: false) + "</failure>\n"
        case .skipped:
            xml += ">\n      <skipped message=\"output up to date (--resume)\"/>\n"
        case .cancelled:
            xml += ">\n      <skipped message=\"cancelled while running: the export was interrupted\"/>\n"
        case .notRun, .running, .pending:
            let why = r.error ?? "the batch was stopped before this job"
            xml += ">\n      <skipped message=\"not run: \(escape(why))\"/>\n"
        }
        return xml + (out ?? "") + "    </testcase>\n"
    }

    /// `<system-out>` naming each attempt and its log (when there were retries or logs), with the
    /// logs as `[[ATTACHMENT|path]]` lines, which Jenkins and GitLab show as the test's attachments.
    static func systemOut(_ attempts: [JobAttempt]) -> String? {
        guard attempts.count > 1 || attempts.contains(where: { $0.log != nil }) else { return nil }
        var lines: [String] = []
        for a in attempts {
            var line = "attempt \(a.number): \(a.outcome.rawValue)"
            if let signal = a.signal {
                line += ", signal \(signal)"
            } else if let code = a.exitCode {
                line += ", exit \(code)"
            }
            if a.outcome != .abandoned { line += " (\(time(a.seconds)) s)" }
            if let error = a.error, a.outcome != .succeeded { line += ": \(error)" }
            if let log = a.log { line += "; log: \(log)" }
            lines.append(line)
        }
        lines += attempts.compactMap { $0.log.map { "[[ATTACHMENT|\($0)]]" } }
        return "      <system-out>" + escape(lines.joined(separator: "\n") + "\n", isAttribute: false)
            + "</system-out>\n"
    }

    static func manifestStem(_ manifest: String) -> String {
        let name = (manifest as NSString).lastPathComponent
        return (name as NSString).deletingPathExtension.replacingOccurrences(of: ".", with: "_")
    }

    /// Seconds with milliseconds, as JUnit's `time` attributes.
    static func time(_ seconds: Double) -> String { DecimalText.fixed(seconds, digits: 3) }

    /// ISO 8601 without a zone, as the JUnit schema's `timestamp` wants; UTC.
    static func timestamp(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyy-MM-dd'T'HH:mm:ss"
        return formatter.string(from: date)
    }

    /// Text and attribute escaping; characters XML 1.0 cannot hold at all (most control
    /// characters, e.g. a terminal's escape codes) are dropped.
    static func escape(_ text: String, isAttribute: Bool = true) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "\n": out += isAttribute ? "&#10;" : "\n"
            case "\t": out += "&#9;"
            case "\r": out += "&#13;"
            case let c where c.value < 0x20 || (0xFFFE...0xFFFF).contains(c.value): continue
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }
}
