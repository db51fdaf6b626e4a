import Foundation
import HFRTestSupport

/// The fuzz suite's seed inputs and its cases: each case is one seed, one mutation category and a
/// seed for SplitMix64, so `HFR_FUZZ_SEED` + the case number reproduce it exactly.
enum FuzzCorpus {
    struct Seed: Sendable {
        let name: String
        let bytes: [UInt8]
        let categories: [String]
        let matroska: Bool
        /// Exports run on it (the layered recording also drops a layer).
        let exports: [[String]]
    }

    struct Case: Sendable {
        let index: Int
        let seed: Seed
        let category: String
        let rngSeed: UInt64
    }

    static let environment = ProcessInfo.processInfo.environment
    static let baseSeed: UInt64 = environment["HFR_FUZZ_SEED"].flatMap { UInt64($0) } ?? 13
    static let count: Int = environment["HFR_FUZZ_CASES"].flatMap { Int($0) } ?? 420

    /// Makes the seeds in `dir`: small (1 s, 320x180) and made the way other tools make them.
    static func seeds(in dir: TemporaryDirectory) throws -> [Seed] {
        let conform = ["--conform", "30"]
        let layered = dir.path("layered.mp4")
        let r = try Tool.hfr([
            "record", "--source", "test", "--fps", "120", "--size", "320x180", "--duration", "1",
            "--late-frames", "queue", layered,
        ])
        guard r.status == 0 else { throw CocoaError(.fileWriteUnknown, userInfo: ["stderr": r.stderr]) }
        let x264 = dir.path("x264.mp4")
        let tag = ["-metadata", "com.android.capture.fps=60", "-movflags", "+use_metadata_tags"]
        try ExportInputs.ffmpeg(
            [
                "-f", "lavfi", "-i", "testsrc=size=320x180:rate=60", "-f", "lavfi", "-i",
                "sine=f=440:sample_rate=48000",
                "-t", "1", "-c:v", "libx264", "-bf", "2", "-g", "30", "-pix_fmt", "yuv420p", "-c:a", "aac",
            ] + tag + [x264])
        let copy = ["-i", x264, "-map", "0", "-c", "copy", "-map_metadata", "0"]
        try ExportInputs.ffmpeg(copy + tag + [dir.path("x264.mov")])
        try ExportInputs.ffmpeg(copy + [dir.path("x264.mkv")])
        try ExportInputs.ffmpeg(
            copy + [
                "-metadata", "com.android.capture.fps=60", "-movflags", "+frag_keyframe+empty_moov+use_metadata_tags",
            ]
                + [dir.path("x264-frag.mp4")])
        try ExportInputs.ffmpeg(
            [
                "-f", "lavfi", "-i", "testsrc=size=320x180:rate=60", "-t", "1", "-c:v", "libx265", "-x265-params",
                "log-level=none:bframes=2", "-tag:v", "hvc1", "-pix_fmt", "yuv420p",
            ] + tag + [dir.path("hevc.mp4")])
        return try ["layered.mp4", "x264.mp4", "x264.mov", "x264.mkv", "x264-frag.mp4", "hevc.mp4"].map { name in
            let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: dir.path(name))))
            let matroska = name.hasSuffix(".mkv")
            return Seed(
                name: name, bytes: bytes,
                categories: matroska ? EBMLMutator.categories : Mutator.mp4Categories(bytes), matroska: matroska,
                exports: name == "layered.mp4" ? [conform, ["--fps", "60"]] : [conform])
        }
    }

    /// The cases: seeds in turn, a seeded category each.
    static func cases(_ seeds: [Seed]) -> [Case] {
        let only = environment["HFR_FUZZ_ONLY"].map { Set($0.split(separator: ",").compactMap { Int($0) }) }
        return (0..<count).compactMap { i in
            if let only, !only.contains(i) { return nil }
            let seed = seeds[i % seeds.count]
            var rng = SplitMix64(seed: baseSeed &* 0x1_0000_0001 &+ UInt64(i))
            return Case(index: i, seed: seed, category: rng.pick(seed.categories), rngSeed: rng.next())
        }
    }

    /// The mutated input of `c` and what was done to it.
    static func mutated(_ c: Case) -> (bytes: [UInt8], detail: String) {
        var rng = SplitMix64(seed: c.rngSeed)
        var details: [String] = []
        var bytes = c.seed.bytes
        // A mutation that happens to write the value already there is followed by another one.
        while bytes == c.seed.bytes, details.count < 8 {
            details.append(
                c.seed.matroska
                    ? EBMLMutator.mutate(&bytes, category: c.category, rng: &rng)
                    : Mutator.mutateMP4(&bytes, category: c.category, rng: &rng))
        }
        return (bytes, details.joined(separator: "; "))
    }
}
