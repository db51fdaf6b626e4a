import Foundation
import HFRBatch
import Testing

/// The JUnit document: counts, one testcase per job, escaping.
struct JUnitReportTests {
    @Test func countsAndEscapes() {
        let job = { (i: Int) in
            BatchJob(
                input: "in/\(i).mp4", output: "out/\(i)&<x>.mp4", options: [], manifestInput: "in/\(i).mp4",
                manifestOutput: "out/\(i)&<x>.mp4", entry: 0, line: 1)
        }
        var failed = JobResult(job: job(1), status: .failed)
        failed.error = "in/1.mp4: \"bad\" \u{1B}[31mdata"
        failed.exitCode = 65
        failed.log = "Error: in/1.mp4: bad\n"
        let results = [
            JobResult(job: job(0), status: .succeeded), failed, JobResult(job: job(2), status: .skipped),
            JobResult(job: job(3), status: .cancelled), JobResult(job: job(4), status: .notRun),
        ]
        let xml = JUnitReport.document(
            manifest: "b.json", shard: .all, results: results, seconds: 1.5, started: Date(timeIntervalSince1970: 0),
            hostname: "h")
        #expect(xml.contains("<testsuites name=\"hfr batch\" tests=\"5\" failures=\"1\" errors=\"0\" skipped=\"3\""))
        #expect(xml.contains("timestamp=\"1970-01-01T00:00:00\""))
        #expect(xml.contains("out/0&amp;&lt;x&gt;.mp4"))
        #expect(xml.contains("<failure message=\"in/1.mp4: &quot;bad&quot; [31mdata\" type=\"exit 65\">"))
        #expect(xml.components(separatedBy: "<testcase ").count == 6)
        // Cancelled and not-run jobs are skipped testcases, not failures.
        #expect(xml.components(separatedBy: "<failure ").count == 2)
    }
}
