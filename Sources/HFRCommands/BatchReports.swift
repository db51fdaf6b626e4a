import Foundation
import HFRBatch
import HFRMedia

/// The shards' `--json-report` files read for `batch merge`, `status` and `failed`.
enum BatchReports {
    /// Each report, or the error naming the first that is unreadable (74) or not a report (65).
    static func read(_ paths: [String]) throws(HFRError) -> [ShardReport] {
        var reports: [ShardReport] = []
        for path in paths { reports.append(try read(path)) }
        return reports
    }

    static func read(_ path: String) throws(HFRError) -> ShardReport {
        _ = try InputFile.status(of: path, expecting: "a batch report")
        guard let data = FileSystem.contents(path).map({ Data($0) }) else { throw .io(path, "cannot be read") }
        do throws(ReportError) {
            return try ShardReport(data: data, path: path)
        } catch {
            throw HFRError(error.message, exitCode: .dataError)
        }
    }
}
