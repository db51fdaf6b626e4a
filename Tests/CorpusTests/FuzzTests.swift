import Foundation
import HFRTestSupport
import Testing

/// A seeded mutation corpus over MP4, MOV, MKV, fragmented MP4, x264, x265 and layered inputs run
/// through `probe` and `export`: no signal, no hang, one `Error:` line with a documented exit code,
/// nothing left behind, the input unchanged, under 1 GB of memory, and every success a decodable,
/// correctly timed file. Besides the general cases, kinds of their own: PCM sample descriptions in
/// MOV, Matroska element sizes and TimestampScale, timestamps files of raw H.264/HEVC streams, and
/// fragmented MP4 decode times (`FuzzCorpus.kinds`).
/// `HFR_FUZZ_CASES`, `HFR_FUZZ_KIND_CASES` (each kind's), `HFR_FUZZ_SEED` and `HFR_FUZZ_ONLY` (case
/// numbers) choose the cases;
/// `HFR_FUZZ_KEEP` names a directory that receives the failing inputs; `HFR_FUZZ_VERBOSE` prints
/// every case with what hfr did.
@Suite(.serialized) struct FuzzTests {
    static let directory: TemporaryDirectory? = try? TemporaryDirectory()
    static let seeds: Result<[FuzzCorpus.Seed], any Error> = Result {
        guard let directory else { throw CocoaError(.fileWriteUnknown) }
        return try FuzzCorpus.seeds(in: directory)
    }

    @Test func walkersFindTheStructureOfRealFiles() throws {
        let seeds = try Self.seeds.get()
        let layered = try #require(seeds.first { $0.name == "layered.mp4" })
        let types = Set(MP4Walker.boxes(layered.bytes).map(\.type))
        for type in ["moov", "trak", "mdia", "minf", "stbl", "stsd", "avc1", "avcC", "stts", "stsz", "stco", "ilst"] {
            #expect(types.contains(type), "\(type) not found")
        }
        let samples = MP4Walker.samples(layered.bytes, entry: "avc1")
        #expect(samples.count == 120)
        // Each sample is a whole number of length-prefixed NAL units.
        for sample in samples {
            var at = sample.offset
            while at < sample.offset + sample.size { at += 4 + Int(MP4Walker.be32(layered.bytes, at)) }
            #expect(at == sample.offset + sample.size)
        }
        let x264 = try #require(seeds.first { $0.name == "x264.mp4" })
        #expect(Set(MP4Walker.boxes(x264.bytes).map(\.type)).isSuperset(of: ["ctts", "stss", "keys"]))
        let frag = try #require(seeds.first { $0.name == "x264-frag.mp4" })
        #expect(Set(MP4Walker.boxes(frag.bytes).map(\.type)).isSuperset(of: ["moof", "traf", "trun", "tfhd"]))
        let mkv = try #require(seeds.first { $0.name == "x264.mkv" })
        let ids = Set(EBMLMutator.elements(mkv.bytes).map(\.id))
        #expect(ids.isSuperset(of: [0x1853_8067, 0x1F43_B675, 0xA3, 0x63A2, 0x1654_AE6B]))
        #expect(seeds.filter(\.isGeneral).allSatisfy { $0.categories.count >= 6 })
        let pcm = seeds.filter { $0.name.hasPrefix("pcm-") }.map { seed in
            MP4Walker.boxes(seed.bytes).first { Mutator.pcmEntries.contains($0.type) }?.type ?? "none"
        }
        #expect(pcm == ["sowt", "in24", "lpcm"])
        let scale = EBMLMutator.elements(mkv.bytes).first { $0.id == 0x2A_D7B1 }
        #expect(scale.map { $0.dataEnd - $0.dataStart } == 3)
        #expect(Mutator.decodeTimes(frag.bytes, MP4Walker.boxes(frag.bytes)).count >= 4)
    }

    /// The harness tells exit codes from signals and hangs, and measures the program's own peak
    /// memory (not the test runner's, which a child's `ru_maxrss` would start from).
    @Test func timedRunsReportExitSignalHangAndPeakMemory() throws {
        let exit = try TimedRun.run("/bin/sh", ["-c", "exit 65"])
        #expect(exit.status == 65 && !exit.signalled && !exit.hung)
        let trap = try TimedRun.run("/bin/sh", ["-c", "kill -ILL $$"])
        #expect(trap.status == SIGILL && trap.signalled && !trap.hung)
        let hang = try TimedRun.run("/bin/sh", ["-c", "sleep 30"], timeout: 0.5)
        #expect(hang.hung && !hang.signalled)
        let help = try TimedRun.run(Tool.hfrPath, ["--help"])
        #expect(help.status == 0 && help.peakMemory > 1 << 20 && help.peakMemory < 64 << 20, "\(help.peakMemory)")
    }

    @Test func mutationsAreReproducible() throws {
        let cases = FuzzCorpus.cases(try Self.seeds.get())
        // The first general cases and every case of the other kinds.
        for c in cases.prefix(40) + cases.filter({ $0.index >= 10_000 }) {
            let (a, ta, da) = FuzzCorpus.mutated(c)
            let (b, tb, db) = FuzzCorpus.mutated(c)
            let same = a == b && ta == tb && da == db
            let changed = a != c.seed.bytes || ta != c.seed.timestamps
            #expect(same, "case \(c.index) differs between two runs")
            #expect(changed, "case \(c.index) \(c.category) \(da) changed nothing")
        }
        let kinds = Set(cases.map(\.category))
        #expect(FuzzCorpus.kinds.allSatisfy { kinds.contains($0.category) })
    }

    @Test func corruptInputsAreRefusedOrExportedCorrectly() throws {
        let cases = FuzzCorpus.cases(try Self.seeds.get())
        let start = Date()
        let lock = NSLock()
        nonisolated(unsafe) var failures: [FuzzFailure] = []
        nonisolated(unsafe) var runs = 0
        nonisolated(unsafe) var peak = Peak()
        DispatchQueue.concurrentPerform(iterations: 2) { stripe in
            for (k, c) in cases.enumerated() where k % 2 == stripe {
                let (found, count, memory) = Self.run(c)
                lock.withLock {
                    failures += found
                    runs += count
                    if memory.bytes > peak.bytes { peak = memory }
                }
            }
        }
        let runtime = Date().timeIntervalSince(start)
        print(Self.summary(cases, runs: runs, failures: failures, runtime: runtime, peak: peak))
        for f in failures {
            Issue.record("fuzz \(f.kind): \(f.command): \(f.detail) — \(f.caseID)")
        }
    }

    /// The largest peak resident set of an hfr run, and the case and command that reached it.
    struct Peak {
        var bytes = 0
        var caseID = ""
        var command = ""
    }

    /// Runs case `c`; keeps the failing input (and timestamps file) in `HFR_FUZZ_KEEP` when set.
    static func run(_ c: FuzzCorpus.Case) -> ([FuzzFailure], Int, Peak) {
        do {
            var run = try FuzzCaseRun(c)
            try run.runAll()
            if FuzzCorpus.environment["HFR_FUZZ_VERBOSE"] != nil {
                print("\(run.id): \(run.outcomes.joined(separator: "; "))")
            }
            if !run.failures.isEmpty, let keep = FuzzCorpus.environment["HFR_FUZZ_KEEP"] {
                try? FileManager.default.createDirectory(atPath: keep, withIntermediateDirectories: true)
                let target = URL(fileURLWithPath: keep).appendingPathComponent("case\(c.index)-\(c.seed.name)")
                try? Data(run.bytes).write(to: target)
                if let timestamps = run.timestampBytes {
                    try? Data(timestamps).write(
                        to: target.deletingLastPathComponent().appendingPathComponent("case\(c.index)-pts.txt"))
                }
            }
            let peak = Peak(bytes: run.peakMemory.bytes, caseID: run.id, command: run.peakMemory.command)
            return (run.failures, 1 + c.seed.exports.count, peak)
        } catch {
            return (
                [FuzzFailure(kind: "harness", caseID: "case \(c.index)", command: "", detail: "\(error)")], 0, Peak()
            )
        }
    }

    static func summary(
        _ cases: [FuzzCorpus.Case], runs: Int, failures: [FuzzFailure], runtime: Double, peak: Peak
    ) -> String {
        func tally(_ keys: [String]) -> String {
            Dictionary(grouping: keys) { $0 }.map { "\($0.key)=\($0.value.count)" }.sorted().joined(separator: " ")
        }
        let failedCases = Set(failures.map(\.caseID)).count
        return """
            fuzz: \(cases.count) cases (seed \(FuzzCorpus.baseSeed)), \(runs) hfr runs, \
            \(String(format: "%.1f", runtime)) s; inputs: \(tally(cases.map(\.seed.name))); \
            categories: \(tally(cases.map(\.category))); failing cases: \(failedCases); \
            failures by kind: \(failures.isEmpty ? "none" : tally(failures.map(\.kind))); \
            peak memory \(peak.bytes >> 20) MiB (limit \(FuzzCaseRun.memoryLimit >> 20) MiB): \(peak.command) of \(peak.caseID)
            """
    }
}
