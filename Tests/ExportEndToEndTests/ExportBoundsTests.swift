import Foundation
import HFRTestSupport
import Testing

/// Option values that made hfr crash inside Rubber Band (a 2 s clip slowed 5,000× and more), write
/// for days, or overflow a time base of its own are refused before any work, with exit 64, one
/// line naming the bound, and nothing left in the output directory.
@Suite struct ExportBoundsTests {
    static let cases: [(arguments: [String], mentions: String)] = [
        // Before: glibc abort "corrupted double-linked list" / std::bad_alloc in librubberband.
        (["--speed", "0.0002"], "the audio would be stretched 5000× keeping its pitch (--audio spectral)"),
        // Before: a segfault inside librubberband (exit 139), leaving .out.mp4.PID.tmp.
        (["--ramp", "0-0.5@0.0001"], "the audio would be stretched 10000×"),
        // 10000× of the 120 fps recording, 2500× of the 30 fps one.
        (["--conform", "0.012"], "× keeping its pitch (--audio spectral), beyond the 1000×"),
        (["--speed", "0.0002", "--audio", "time-domain"], "(--audio time-domain)"),
        // Before: "corrupt timestamps" for a valid input (exit 65), an overflow of hfr's own.
        (["--conform", "30.0000000001"], "is finer than a media time base holds"),
        (["--speed", "0.00000001", "--audio", "mute"], "hours, more than the 100.0 hours hfr writes"),
        (["--fps", "1000", "--speed", "0.0001", "--audio", "mute"], "frames, more than the 10000000 hfr writes"),
        // Before: exit 0, "120 of 120 frames copied", 0.004 s of output (119 of them hidden).
        (["--conform", "30", "--range", "1.999-"], "s, less than one frame at 30 fps (1.999–2 s of the input)"),
    ]

    /// hfr's own 120 fps recording, and ffmpeg's 30 fps libx264 with B-frames and AAC (both 2 s).
    static let inputs = ["layered-120fps.mp4", "x264-bframes.mp4"]

    @Test(arguments: inputs, cases)
    func aValueBeyondABoundIsRefusedBeforeAnyWork(_ name: String, _ c: (arguments: [String], mentions: String))
        throws
    {
        let dir = try TemporaryDirectory()
        let input = try Fixtures.copy(name, to: dir)
        let r = try Tool.hfr(["export", input, dir.path("out.mp4")] + c.arguments)
        #expect(r.status == 64, "\(c.arguments): \(r.stderr)")
        let errors = r.stderr.split(separator: "\n").filter { $0.hasPrefix("Error: ") }
        #expect(errors.count == 1 && errors[0].contains(c.mentions), "\(c.arguments): \(r.stderr)")
        #expect(!r.stderr.contains("Backtrac"), "\(r.stderr)")
        #expect(try dir.contents() == [name])
    }

    /// The bound is where it says: 1,000× of pitch-preserving stretch is still made (a 0.25 s range
    /// of the clip, so the 250 s of output stay quick), and varispeed has no such bound.
    @Test(arguments: [["--speed", "0.001"], ["--speed", "0.0002", "--audio", "varispeed"]])
    func theLargestStretchesWithinTheBoundsAreMade(_ arguments: [String]) throws {
        let dir = try TemporaryDirectory()
        let input = try Fixtures.copy("layered-120fps.mp4", to: dir)
        let out = dir.path("out.mp4")
        let r = try Tool.hfr(["export", input, out, "--range", "0-0.05"] + arguments)
        #expect(r.status == 0, "\(arguments): \(r.stderr)")
        let audio = try Tool.run(
            "ffprobe",
            ["-v", "error", "-select_streams", "a:0", "-show_entries", "stream=duration", "-of", "csv=p=0", out])
        let seconds = Double(audio.stdout.trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0
        let factor = arguments[1] == "0.001" ? 1000.0 : 5000.0
        #expect(abs(seconds - 0.05 * factor) < 0.1, "audio lasts \(seconds) s")
    }
}
