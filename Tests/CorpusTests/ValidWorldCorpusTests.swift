import EndToEndSupport
import Foundation
import HFRTestSupport
import Testing

/// Issue 25's valid-world corpus: `scripts/make-corpus` writes ~150 small valid files as ffmpeg's
/// encoders and muxers (many `movflags`), mkvmerge, the x264/x265 CLIs, GStreamer and camera-like
/// layouts (GoPro, iPhone, Sony, Canon, DJI, Android) make them; `scripts/corpus-check` runs each
/// through `probe`, `export --conform 30`, `--fps HALF` and a ramp and checks the outputs with
/// ffprobe/ffmpeg (frames, lengths, every audio and subtitle track, timestamps, pixel format).
///
/// The corpus is made once per machine (`/var/cache/hfr-corpus`, `HFR_CORPUS_DIR` moves it), again
/// only when the script changes. Nothing may crash or hang; a refusal or a wrong output fails the
/// test unless it is one of `knownLimits`, the open items of issue 25 that docs/inputs.md lists.
@Suite struct ValidWorldCorpusTests {
    /// A failure hfr does not handle yet: `result` (REFUSED, WRONG) of `commands` on files ending
    /// in `suffix` whose message contains `message`.
    struct KnownLimit {
        let result: String
        let commands: Set<String>
        let message: String
        var suffix = ""
        let why: String
    }

    static let knownLimits: [KnownLimit] = []

    static var corpusDirectory: String { ValidWorldCorpus.directory }

    @Test func everyValidFileProbesAndExports() throws {
        let scripts = Fixtures.root.appendingPathComponent("scripts")
        let made = try Tool.run(scripts.appendingPathComponent("make-corpus").path, [Self.corpusDirectory])
        try #require(made.status == 0, "scripts/make-corpus failed: \(made.stderr.suffix(2000))")
        let dir = try TemporaryDirectory()
        let results = dir.path("results.tsv")
        // A generous limit per command: a hang is still caught, a slow moment on a loaded machine is not.
        let check = try Tool.run(
            "/usr/bin/env",
            [
                "TIMEOUT=300", scripts.appendingPathComponent("corpus-check").path, Self.corpusDirectory, Tool.hfrPath,
                results,
            ])
        try #require(check.status == 0, "scripts/corpus-check failed: \(check.stderr.suffix(2000))")
        print(check.stdout.split(separator: "\n").filter { !$0.contains(" ok") }.joined(separator: "\n"))

        let rows = try String(contentsOfFile: results, encoding: .utf8).split(separator: "\n").dropFirst()
            .map { $0.split(separator: "\t", omittingEmptySubsequences: false).map(String.init) }
        #expect(rows.count >= 400, "\(rows.count) results: the corpus should hold 100+ files")
        var known: [String: Int] = [:]
        for row in rows where row.count >= 8 && row[6] != "ok" {
            let (file, command, result, message) = (row[0], row[4].split(separator: " ")[0], row[6], row[7])
            if let limit = Self.knownLimits.first(where: {
                $0.result == result && $0.commands.contains(String(command)) && message.contains($0.message)
                    && file.hasSuffix($0.suffix)
            }) {
                known[limit.why, default: 0] += 1
            } else {
                Issue.record("\(file) \(row[4]): \(result) \(message)")
            }
        }
        for (why, count) in known.sorted(by: { $0.value > $1.value }) { print("known limit (\(count)): \(why)") }
        // Issue 42: every conform export's plan lists each input stream (ffprobe's count), every
        // convert and drop with a reason and each drop on stderr (corpus-check's `plan` column;
        // a plan that does not is WRONG above).
        let plans = rows.filter { $0.count >= 10 && $0[4] == "conform" && $0[5] == "0" }.map { $0[9] }
        #expect(plans.count >= 100, "\(plans.count) conform plans")
        for plan in plans {
            let counts = plan.split(separator: "/")
            #expect(counts.count == 2 && counts[0] == counts[1], "plan tracks \(plan)")
        }
    }
}
