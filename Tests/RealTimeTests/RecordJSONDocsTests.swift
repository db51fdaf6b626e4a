import EndToEndSupport
import Foundation
import HFRTestSupport
import Testing

/// `hfr record --json` and docs/record-json.md agree (the `JSONDocsTests` convention): every member
/// written is documented and values of enumerated members are documented ones.
@Suite struct RecordJSONDocsTests {
    @Test func recordReportMatchesItsDocument() throws {
        let schema = try DocSchema(file: "record-json.md", section: "## `hfr record --json`")
        #expect(schema.members["capture.api"]?.values == ["own", "avdevice", "lavfi"])
        let dir = try TemporaryDirectory()
        let r = try Tool.hfr([
            "record", dir.path("t.mp4"), "--source", "test", "--size", "160x90", "--fps", "30", "--frames", "15",
            "--json",
        ])
        #expect(r.status == 0, "\(r.stderr)")
        let json = try Tool.json(r.stdout)
        schema.check(json, "record --source test")
        let capture = json["capture"] as? [String: Any]
        #expect(capture?["api"] as? String == "lavfi")
        #expect(capture?["dropsFrom"] as? String == "timestamp-gaps")
        #expect(json["buffer"] is NSNull)
        // With --buffer ram (its default SIZE) the buffer's members are written too; with a sound
        // that ends at 0.05 s, `audioStopped`'s.
        let buffered = try Tool.hfr([
            "record", dir.path("b.mp4"), "--source", "test", "--size", "160x90", "--fps", "30", "--frames", "15",
            "--buffer", "ram", "--audio", "lavfi:sine=d=0.05", "--json",
        ])
        #expect(buffered.status == 0, "\(buffered.stderr)")
        let bufferedJSON = try Tool.json(buffered.stdout)
        schema.check(bufferedJSON, "record --buffer ram")
        #expect((bufferedJSON["audioStopped"] as? [String: Any])?["cause"] as? String == "end-of-source")
        // Every documented member that is not optional is written (inside an object that is not
        // null: `slowSource` needs a source slower than asked, RecordSourcePaceTests).
        for (name, member) in schema.members where !member.isOptional && !name.contains("[]") {
            var value: Any? = bufferedJSON
            for part in name.split(separator: ".") where !(value is NSNull) {
                value = (value as? [String: Any])?[String(part)]
            }
            #expect(value != nil, "\(name) is documented but not written")
        }
    }
}
