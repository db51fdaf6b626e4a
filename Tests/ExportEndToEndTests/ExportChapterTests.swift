import EndToEndSupport
import Foundation
import HFRTestSupport
import Testing

/// Chapters (made by ffmpeg from an FFMETADATA file, as editors and `mkvmerge --chapters` give
/// them) come out retimed with the video; they vanished without a note before.
@Suite struct ExportChapterTests {
    /// A 2 s 120 fps MKV with chapters at 0–1 s ("One") and 1–2 s ("Two").
    static func input(in dir: TemporaryDirectory) throws -> String {
        let chapters = dir.path("chapters.txt")
        try """
        ;FFMETADATA1
        [CHAPTER]
        TIMEBASE=1/1000
        START=0
        END=1000
        title=One
        [CHAPTER]
        TIMEBASE=1/1000
        START=1000
        END=2000
        title=Two

        """.write(toFile: chapters, atomically: true, encoding: .utf8)
        let path = dir.path("in.mkv")
        try ExportInputs.ffmpeg([
            "-f", "lavfi", "-i", "testsrc2=size=160x120:rate=120", "-i", chapters, "-map", "0", "-map_chapters", "1",
            "-t", "2", "-c:v", "libx264", "-preset", "ultrafast", path,
        ])
        return path
    }

    /// (start, end, title) of every chapter, as ffprobe reads them.
    static func chapters(_ path: String) throws -> [(Double, Double, String)] {
        try Tool.run(
            "ffprobe",
            [
                "-v", "error", "-show_chapters", "-show_entries", "chapter=start_time,end_time:chapter_tags=title",
                "-of", "csv=p=0", path,
            ]
        ).stdout.split(separator: "\n").compactMap { line in
            let f = line.split(separator: ",").map(String.init)
            guard f.count == 3, let s = Double(f[0]), let e = Double(f[1]) else { return nil }
            return (s, e, f[2])
        }
    }

    @Test(arguments: [
        (["--conform", "30"], "mp4", [(0.0, 4.0, "One"), (4.0, 8.0, "Two")]),
        (["--conform", "30"], "mkv", [(0.0, 4.0, "One"), (4.0, 8.0, "Two")]),
        (["--ramp", "0-1@1,1-@0.25", "--fps", "30"], "mov", [(0.0, 1.0, "One"), (1.0, 5.0, "Two")]),
        (["--conform", "30", "--range", "1.5-"], "mp4", [(0.0, 2.0, "Two")]),
    ])
    func chaptersAreRetimedWithTheVideo(_ arguments: [String], _ ext: String, _ expected: [(Double, Double, String)])
        throws
    {
        let dir = try TemporaryDirectory()
        let input = try Self.input(in: dir)
        let out = dir.path("out.\(ext)")
        let r = try Tool.hfr(["export", input, out] + arguments)
        #expect(r.status == 0, "\(r.stderr)")
        let got = try Self.chapters(out)
        #expect(got.count == expected.count, "\(got)")
        for (g, e) in zip(got, expected) {
            #expect(abs(g.0 - e.0) < 0.002 && abs(g.1 - e.1) < 0.002 && g.2 == e.2, "\(got)")
        }
        let outside = expected.count < 2 ? " (1 outside the range left out)" : ""
        #expect(r.stderr.contains("Note: \(expected.count) of 2 chapters kept, retimed with the video\(outside)"))
    }
}
