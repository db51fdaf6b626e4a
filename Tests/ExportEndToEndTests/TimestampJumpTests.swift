import Foundation
import HFRTestSupport
import Testing

/// A fragmented MP4 whose second video fragment starts at an absurd time (its `tfdt`): probe and
/// export refuse it (exit 65) with one line saying where the times jump and by how much. Before,
/// probe printed a 600479950316062.848 s video at "0.000 fps" with exit 0, export said only "240
/// frames in 18325193792.500064 s is 0.000 fps", and 2⁶³ crashed both (SIGILL, exit 132).
@Suite struct TimestampJumpTests {
    @Test(arguments: [
        (UInt64(0x7FFF_FFFF_FFFF_0000), "the video's timestamps jump by ", "hours at frame 61"),
        // Int64.min: FFmpeg's "no time" for the first frame, the second one 2⁶³ ticks back.
        (UInt64(0x8000_0000_0000_0000), "the video's timestamps jump back by ", "hours at frame 62"),
    ])
    func hugeFragmentTimeIsRefused(time: UInt64, jump: String, at: String) throws {
        let dir = try TemporaryDirectory()
        let input = dir.path("jump.mp4")
        var bytes = try Data(contentsOf: URL(fileURLWithPath: try CorruptInputs.base("fragmented")))
        try MP4Edit.setFragmentStart(&bytes, track: 1, fragment: 1, to: time)
        try bytes.write(to: URL(fileURLWithPath: input))
        try Self.expectRefused(input, in: dir, starting: "corrupt timestamps: \(jump)", ending: at)
    }

    /// probe and export of `input` exit 65 with one line, "Error: INPUT: " + `starting` … `ending`,
    /// print nothing else and leave nothing in `dir`.
    static func expectRefused(_ input: String, in dir: TemporaryDirectory, starting: String, ending: String) throws {
        let before = try dir.contents()
        for command in [["probe", input], ["export", input, dir.path("out.mp4"), "--conform", "30"]] {
            let r = try Tool.hfr(command)
            #expect(r.status == 65, "\(command[0]): \(r.stderr)")
            let lines = r.stderr.split(separator: "\n").filter { !$0.hasPrefix("export: ") }
            #expect(lines.count == 1, "\(command[0]): \(r.stderr)")
            let line = String(lines.first ?? "")
            #expect(line.hasPrefix("Error: \(input): \(starting)"), "\(command[0]): \(line)")
            #expect(line.hasSuffix(ending), "\(command[0]): \(line)")
            #expect(!line.contains("--range") && !line.contains(" -"), "\(command[0]): \(line)")
            #expect(r.stdout.isEmpty, "\(command[0]): \(r.stdout)")
        }
        #expect(try dir.contents() == before)
    }

    /// Every audio fragment far from the video (its times moved by `offset` ticks of 1/48000 s):
    /// no packet jumps from the one before, but the audio lies wholly outside the video. Before,
    /// export exited 0 with that track silent.
    @Test(arguments: [
        (Int64(0x7000_0000_0000_0000), "after"), (Int64(1) << 46, "after"), (-(Int64(1) << 46), "before"),
    ])
    func audioFarFromTheVideoIsRefused(offset: Int64, side: String) throws {
        let dir = try TemporaryDirectory()
        let input = dir.path("far.mp4")
        var bytes = try Data(contentsOf: URL(fileURLWithPath: try CorruptInputs.base("fragmented")))
        let moved = try MP4Edit.shiftFragmentStarts(&bytes, track: 2, by: offset)
        try #require(moved > 1)
        try bytes.write(to: URL(fileURLWithPath: input))
        try Self.expectRefused(
            input, in: dir, starting: "corrupt timestamps: stream #1 (audio) starts ", ending: "hours \(side) the video"
        )
    }
}

extension MP4Edit {
    /// Where the 64-bit time of each `tfdt` (version 1) of track `track` lies, fragment by fragment.
    static func fragmentStarts(_ data: Data, track: UInt32) throws -> [Int] {
        var starts: [Int] = []
        var from = data.startIndex
        while let tfdt = data.range(of: Data("tfdt".utf8), in: from..<data.endIndex) {
            from = tfdt.upperBound
            // The track fragment header before it names the track (after version, flags).
            let tfhd = try #require(data.range(of: Data("tfhd".utf8), options: .backwards, in: 0..<tfdt.lowerBound))
            let id = data[(tfhd.upperBound + 4)..<(tfhd.upperBound + 8)].reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
            guard id == track else { continue }
            try #require(data[tfdt.upperBound] == 1, "a version-0 tfdt")
            starts.append(tfdt.upperBound + 4)
        }
        return starts
    }

    static func setTime(_ data: inout Data, at start: Int, to time: UInt64) {
        data.replaceSubrange(
            start..<(start + 8), with: (0..<8).map { UInt8(truncatingIfNeeded: time >> (56 - 8 * $0)) })
    }

    /// Adds `offset` to the base media decode time (`tfdt`) of every fragment of track `track`;
    /// returns how many it moved.
    static func shiftFragmentStarts(_ data: inout Data, track: UInt32, by offset: Int64) throws -> Int {
        let starts = try fragmentStarts(data, track: track)
        for start in starts {
            let time = data[start..<(start + 8)].reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
            setTime(&data, at: start, to: time &+ UInt64(bitPattern: offset))
        }
        return starts.count
    }

    /// Sets the base media decode time (`tfdt`) of fragment `fragment` (from 0) of track `track` to
    /// `time`.
    static func setFragmentStart(_ data: inout Data, track: UInt32, fragment: Int, to time: UInt64) throws {
        let starts = try fragmentStarts(data, track: track)
        guard fragment < starts.count else {
            Issue.record("no fragment \(fragment) of track \(track)")
            return
        }
        setTime(&data, at: starts[fragment], to: time)
    }
}
