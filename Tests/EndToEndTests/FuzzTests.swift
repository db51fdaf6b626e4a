import Foundation
import HFRTestSupport
import Testing

/// A seeded mutation corpus over MP4, MOV, MKV, fragmented MP4, x264, x265 and layered inputs run
/// through `probe` and `export`: no signal, no hang, one `Error:` line with a documented exit code,
/// nothing left behind, the input unchanged, and every success a decodable, correctly timed file.
/// `HFR_FUZZ_CASES`, `HFR_FUZZ_SEED` and `HFR_FUZZ_ONLY` (case numbers) choose the cases;
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
        #expect(seeds.allSatisfy { $0.categories.count >= 6 })
    }

    @Test func mutationsAreReproducible() throws {
        let cases = FuzzCorpus.cases(try Self.seeds.get())
        for c in cases.prefix(40) {
            let (a, da) = FuzzCorpus.mutated(c)
            let (b, db) = FuzzCorpus.mutated(c)
            let same = a == b && da == db
            let changed = a != c.seed.bytes
            #expect(same, "case \(c.index) differs between two runs")
            #expect(changed, "case \(c.index) \(c.category) \(da) changed nothing")
        }
    }

    @Test func corruptInputsAreRefusedOrExportedCorrectly() throws {
        let cases = FuzzCorpus.cases(try Self.seeds.get())
        let start = Date()
        let lock = NSLock()
        nonisolated(unsafe) var failures: [FuzzFailure] = []
        nonisolated(unsafe) var runs = 0
        DispatchQueue.concurrentPerform(iterations: 2) { stripe in
            for c in cases where c.index % 2 == stripe {
                let (found, count) = Self.run(c)
                lock.withLock {
                    failures += found
                    runs += count
                }
            }
        }
        let runtime = Date().timeIntervalSince(start)
        print(Self.summary(cases, runs: runs, failures: failures, runtime: runtime))
        for f in failures {
            Issue.record("fuzz \(f.kind): \(f.command): \(f.detail) — \(f.caseID)")
        }
    }

    /// Runs case `c`; keeps the failing input in `HFR_FUZZ_KEEP` when set.
    static func run(_ c: FuzzCorpus.Case) -> ([FuzzFailure], Int) {
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
            }
            return (run.failures, 1 + c.seed.exports.count)
        } catch {
            return ([FuzzFailure(kind: "harness", caseID: "case \(c.index)", command: "", detail: "\(error)")], 0)
        }
    }

    static func summary(_ cases: [FuzzCorpus.Case], runs: Int, failures: [FuzzFailure], runtime: Double) -> String {
        func tally(_ keys: [String]) -> String {
            Dictionary(grouping: keys) { $0 }.map { "\($0.key)=\($0.value.count)" }.sorted().joined(separator: " ")
        }
        let failedCases = Set(failures.map(\.caseID)).count
        return """
            fuzz: \(cases.count) cases (seed \(FuzzCorpus.baseSeed)), \(runs) hfr runs, \
            \(String(format: "%.1f", runtime)) s; inputs: \(tally(cases.map(\.seed.name))); \
            categories: \(tally(cases.map(\.category))); failing cases: \(failedCases); \
            failures by kind: \(failures.isEmpty ? "none" : tally(failures.map(\.kind)))
            """
    }
}
