import Foundation
import HFRBatch
import HFRTestSupport
import Testing

/// Resume records and the input digest they hold.
struct ResumeRecordTests {
    @Test func digestMatchesSha256sum() throws {
        let path = Fixtures.path("layered-120fps.mp4")
        let reference = try Tool.run("sha256sum", [path]).stdout.split(separator: " ").first.map(String.init)
        #expect(FileDigest.sha256(of: path) == reference)
        #expect(FileDigest.sha256(of: path + ".missing") == nil)
    }

    @Test func recordsRoundTripAndLeaveNoTemporary() throws {
        let dir = try TemporaryDirectory()
        let output = dir.path("out.mp4")
        let record = ResumeRecord(
            state: .done, input: "in/a.mp4", inputSHA256: "ab", options: ["--conform", "30"], outputBytes: 1234,
            frames: 240)
        #expect(record.write(for: output))
        #expect(ResumeRecord.read(for: output) == record)
        #expect(try dir.contents() == ["out.mp4.hfr-batch.json"])
        ResumeRecord.remove(for: output)
        #expect(ResumeRecord.read(for: output) == nil)
    }
}
