import Foundation
import HFRMedia

/// `--report junit.xml`: one `<testcase>` per job, in the JUnit XML shape CI systems read
/// (`testsuites` > `testsuite` > `testcase` with `failure` or `skipped`).
public enum JUnitReport {
    /// The document for `results` of `manifest`'s `shard`.
    public static func document(
        manifest: String, shard: Shard, results: [JobResult], seconds: Double, started: Date, hostname: String
    ) -> String {
        let failures = results.filter { $0.status == .failed }.count
        let skipped = results.count - failures - results.filter { $0.status == .succeeded }.count
        let suiteName = shard.total > 1 ? "\(manifest) (shard \(shard))" : manifest
        let counts =
            "tests=\"\(results.count)\" failures=\"\(failures)\" errors=\"0\" skipped=\"\(skipped)\" "
            + "time=\"\(time(seconds))\""
        var xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        xml += "<testsuites name=\"hfr batch\" \(counts)>\n"
        xml += "  <testsuite name=\"\(escape(suiteName))\" \(counts) timestamp=\"\(timestamp(started))\""
        xml += " hostname=\"\(escape(hostname))\">\n"
        xml += "    <properties>\n"
        xml += "      <property name=\"manifest\" value=\"\(escape(manifest))\"/>\n"
        xml += "      <property name=\"shard\" value=\"\(shard)\"/>\n"
        xml += "    </properties>\n"
        let className = "hfr.batch." + manifestStem(manifest)
        for r in results {
            xml += "    <testcase name=\"\(escape(r.job.title))\" classname=\"\(escape(className))\""
            xml += " time=\"\(time(r.seconds))\""
            switch r.status {
            case .succeeded:
                xml += "/>\n"
                continue
            case .failed:
                let type = r.signal.map { "signal \($0)" } ?? r.exitCode.map { "exit \($0)" } ?? "not started"
                let message = r.error ?? "failed"
                xml += ">\n      <failure message=\"\(escape(message))\" type=\"\(escape(type))\">"
                xml += escape(r.log.isEmpty ? message : r.log, isAttribute: false) + "</failure>\n"
            case .skipped:
                xml += ">\n      <skipped message=\"output up to date (--resume)\"/>\n"
            case .cancelled:
                xml += ">\n      <skipped message=\"cancelled while running: the export was interrupted\"/>\n"
            case .notRun:
                xml += ">\n      <skipped message=\"not run: the batch was stopped before this job\"/>\n"
            }
            xml += "    </testcase>\n"
        }
        xml += "  </testsuite>\n</testsuites>\n"
        return xml
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
