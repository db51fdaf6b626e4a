import EndToEndSupport
import Foundation
import HFRTestSupport

/// The fuzz suite's seed inputs and its cases: each case is one seed, one mutation category and a
/// seed for SplitMix64, so `HFR_FUZZ_SEED` + the case number reproduce it exactly. The general
/// cases (0 ..< `HFR_FUZZ_CASES`) draw their category from the seed's; then each of `kinds` has
/// its own cases on its own seeds, numbered from 10,000 × (its place + 1).
enum FuzzCorpus {
    struct Seed: Sendable {
        let name: String
        let bytes: [UInt8]
        /// The categories of the general cases; none for a seed only `kinds` use.
        let categories: [String]
        let matroska: Bool
        /// Exports run on it (the layered recording also drops a layer).
        let exports: [[String]]
        /// A raw stream's `--timestamps` file.
        var timestamps: [UInt8]? = nil

        var isGeneral: Bool { !categories.isEmpty }
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
    /// `HFR_FUZZ_KIND_CASES`: the number of cases of every kind, instead of each one's own (at most 10,000).
    static let kindCount: Int? = environment["HFR_FUZZ_KIND_CASES"].flatMap { Int($0) }.map { min($0, 10_000) }

    /// Mutation kinds with their own seeds and number of cases: PCM sample descriptions in MOV,
    /// Matroska element sizes and TimestampScale, raw streams' timestamps files, fragments' decode times.
    static let kinds: [(category: String, seeds: [String], cases: Int)] = [
        ("pcm-entry", ["pcm-sowt.mov", "pcm-in24.mov", "pcm-lpcm.mov"], 24),
        ("ebml-size-field", ["x264.mkv"], 16),
        ("timestamp-scale", ["x264.mkv"], 10),
        (TimestampFileMutator.category, ["raw.h264", "raw.hevc"], 24),
        ("tfdt-time", ["x264-frag.mp4"], 16),
    ]

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
        let general = try ["layered.mp4", "x264.mp4", "x264.mov", "x264.mkv", "x264-frag.mp4", "hevc.mp4"].map { name in
            let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: dir.path(name))))
            let matroska = name.hasSuffix(".mkv")
            return Seed(
                name: name, bytes: bytes,
                categories: matroska ? EBMLMutator.categories : Mutator.mp4Categories(bytes), matroska: matroska,
                exports: name == "layered.mp4" ? [conform, ["--fps", "60"]] : [conform])
        }
        return try general + kindSeeds(in: dir)
    }

    /// The seeds only `kinds` use: x264 with PCM audio in MOV (sowt version 0, in24 version 1,
    /// lpcm version 2), and the x264 and x265 video as raw streams with a timestamps file. Two PCM
    /// seeds are exported with varispeed audio: Rubber Band's spectral stretch, which the sowt seed
    /// and the general cases run, costs ten times more and reads no sample description.
    static func kindSeeds(in dir: TemporaryDirectory) throws -> [Seed] {
        let conform = ["--conform", "30"]
        let pcm: [(name: String, codec: String, rate: String, channels: String, export: [String])] = [
            ("pcm-sowt.mov", "pcm_s16le", "48000", "1", conform),
            ("pcm-in24.mov", "pcm_s24le", "48000", "2", conform + ["--audio", "varispeed"]),
            ("pcm-lpcm.mov", "pcm_s16le", "96000", "1", conform + ["--audio", "varispeed"]),
        ]
        for (name, codec, rate, channels, _) in pcm {
            try ExportInputs.ffmpeg([
                "-i", dir.path("x264.mp4"), "-f", "lavfi", "-i", "sine=f=440:sample_rate=\(rate):d=1", "-map", "0:v",
                "-map", "1", "-c:v", "copy", "-c:a", codec, "-ac", channels, "-metadata",
                "com.android.capture.fps=60", "-movflags", "+use_metadata_tags", dir.path(name),
            ])
        }
        let raw = [("raw.h264", "x264.mp4", "h264"), ("raw.hevc", "hevc.mp4", "hevc")]
        for (name, source, format) in raw {
            try ExportInputs.ffmpeg([
                "-i", dir.path(source), "-map", "0:v", "-c", "copy", "-bsf:v", "\(format)_mp4toannexb", "-f", format,
                dir.path(name),
            ])
        }
        let timestamps = TimestampFileMutator.text(framesPerSecond: 60, frames: 60)
        let exports = pcm.map { ($0.name, $0.export) } + raw.map { ($0.0, conform) }
        return try exports.map { name, options in
            let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: dir.path(name))))
            return Seed(
                name: name, bytes: bytes, categories: [], matroska: false, exports: [options],
                timestamps: name.hasPrefix("raw.") ? timestamps : nil)
        }
    }

    /// The cases: the general seeds in turn with a seeded category each, then each kind's cases
    /// on its seeds in turn.
    static func cases(_ seeds: [Seed]) -> [Case] {
        let only = environment["HFR_FUZZ_ONLY"].map { Set($0.split(separator: ",").compactMap { Int($0) }) }
        let general = seeds.filter(\.isGeneral)
        let named = Dictionary(seeds.map { ($0.name, $0) }) { first, _ in first }
        let planned: [(index: Int, seed: Seed, category: String?)] =
            (0..<count).map { ($0, general[$0 % general.count], nil) }
            + kinds.enumerated().flatMap { k, kind in
                (0..<(kindCount ?? kind.cases)).map { j in
                    (10_000 * (k + 1) + j, named[kind.seeds[j % kind.seeds.count]]!, kind.category)
                }
            }
        return planned.compactMap { i, seed, category in
            if let only, !only.contains(i) { return nil }
            var rng = SplitMix64(seed: baseSeed &* 0x1_0000_0001 &+ UInt64(i))
            return Case(index: i, seed: seed, category: category ?? rng.pick(seed.categories), rngSeed: rng.next())
        }
    }

    /// The mutated input of `c` (and timestamps file), and what was done to it.
    static func mutated(_ c: Case) -> (bytes: [UInt8], timestamps: [UInt8]?, detail: String) {
        var rng = SplitMix64(seed: c.rngSeed)
        var details: [String] = []
        var bytes = c.seed.bytes
        var timestamps = c.seed.timestamps
        // A mutation that happens to write the value already there is followed by another one.
        while bytes == c.seed.bytes, timestamps == c.seed.timestamps, details.count < 8 {
            if c.category == TimestampFileMutator.category, timestamps != nil {
                details.append(TimestampFileMutator.mutate(&timestamps!, rng: &rng))
            } else {
                details.append(
                    c.seed.matroska
                        ? EBMLMutator.mutate(&bytes, category: c.category, rng: &rng)
                        : Mutator.mutateMP4(&bytes, category: c.category, rng: &rng))
            }
        }
        return (bytes, timestamps, details.joined(separator: "; "))
    }
}
