import EndToEndSupport
import Foundation
import HFRTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Progress as a user sees it: on a terminal (a tmux pane: its screens, and everything written to it)
/// one line updated in place; piped, whole lines only and no carriage return; with `-q`, none.
///
/// Progress lines come at wall-clock intervals, so how many a run shows depends on the machine's
/// speed and load: these tests read every redraw from the terminal's transcript and check what
/// holds at any speed, never a count of lines per second.
struct ProgressTests {
    /// 30 s of 1280x720 at 60 fps from libx264 (no temporal layers; a 3 s clip stream-copied 10
    /// times): `--conform 30 --reencode always` decodes and re-encodes 1800 frames into a minute.
    static let longInput: Result<String, any Error> = Result {
        guard let directory = ExportInputs.directory else { throw CocoaError(.fileWriteUnknown) }
        let clip = directory.path("progress-3s.mp4")
        let path = directory.path("progress-30s.mp4")
        try ExportInputs.ffmpeg([
            "-f", "lavfi", "-i", "testsrc2=size=1280x720:rate=60:duration=3", "-c:v", "libx264", "-preset",
            "ultrafast", "-g", "60", clip,
        ])
        try ExportInputs.ffmpeg(["-stream_loop", "9", "-i", clip, "-c", "copy", path])
        return path
    }

    static var exportLine: Regex<AnyRegexOutput> {
        try! Regex(
            #"re-encoding: frame= *(\d+) fps= *\d+ speed=\d+\.\d+x time=\d+:\d\d\.\d/(\d+:\d\d\.\d) ETA (\d+:\d\d|-:--)"#
        )
    }
    static var recordLine: Regex<AnyRegexOutput> {
        try! Regex(
            #"frame=(\d+) fps=\d+\.\d \(target 120\) time=(\d+\.\d\d)/10 s drops camera \d+ late \d+ queue \d+/\d+ "#
                + #"size=\d+\.\d MB bitrate=\d+\.\d Mb/s"#)
    }

    /// Frames written and the planned output length of an export's stats line (all of `line`).
    static func exportStats(_ line: String) -> (frames: Int, total: String)? {
        guard let match = try? exportLine.wholeMatch(in: line), let frames = match.output[1].substring,
            let total = match.output[2].substring
        else { return nil }
        return Int(frames).map { ($0, String(total)) }
    }

    @Test func exportLineUpdatesInPlaceOnATerminal() throws {
        let dir = try TemporaryDirectory()
        let input = try Self.longInput.get()
        let session = try TerminalSession(
            [Tool.hfrPath, "export", input, "out.mp4", "--conform", "30", "--reencode", "always"], in: dir.path("."))
        let screens = try session.samples()
        let last = try #require(screens.last)
        #expect(session.exitCode(in: last) == 0, "\(last)")
        // Every screen while it runs: at most one stats line (redrawn, never scrolled).
        for screen in screens.dropLast() {
            #expect(screen.filter { $0.contains("frame=") }.count <= 1, "\(screen)")
        }
        // Every redraw, from the transcript: all on one terminal line, the counter never going back and
        // rising (the first is drawn as writing starts, at frame 0; then every half second).
        let transcript = try #require(session.transcript())
        let drawn = TerminalSession.redraws(in: transcript).filter { $0.text.contains("frame=") }
        #expect(Set(drawn.map(\.line)).count == 1, "scrolled: \(drawn)")
        var frames: [Int] = []
        for redraw in drawn {
            let parsed = try #require(Self.exportStats(redraw.text), "not a stats line: '\(redraw.text)'")
            #expect(parsed.total == "1:00.0")
            frames.append(parsed.frames)
        }
        print("export on a terminal: frame= of each redraw: \(frames)")
        #expect(zip(frames, frames.dropFirst()).allSatisfy { $0 <= $1 }, "\(frames)")
        #expect(Set(frames).count >= 2 && frames.first ?? 0 < frames.last ?? 0, "\(frames)")
        // At the end the line is gone and the summary is there.
        #expect(!last.contains { $0.contains("frame=") }, "\(last)")
        #expect(last.contains { $0.hasPrefix("Exported out.mp4: 1800 of 1800 frames re-encoded") }, "\(last)")
    }

    @Test func exportPipedPrintsWholeLinesAndNothingWithQuiet() throws {
        let dir = try TemporaryDirectory()
        let input = try Self.longInput.get()
        let options = ["--conform", "30", "--reencode", "always"]
        let r = try Tool.hfr(["export", input, dir.path("a.mp4")] + options + ["--range", "0-15"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(!r.stderr.contains("\r"))
        let lines = r.stderr.split(separator: "\n").map(String.init)
        // Stats lines come 5 s apart, each saying it re-encodes (no note before them: an export
        // that fails early prints its error line alone).
        for line in lines.dropLast() {
            #expect(Self.exportStats(String(line.dropFirst(8)))?.total == "0:30.0", "'\(line)'")
            #expect(line.hasPrefix("export: re-encoding: "), "'\(line)'")
        }
        #expect(lines.last?.hasPrefix("Exported ") == true)
        let quiet = try Tool.hfr(["-q", "export", input, dir.path("b.mp4")] + options + ["--range", "0-3"])
        #expect(quiet.status == 0, "\(quiet.stderr)")
        #expect(
            quiet.stderr.split(separator: "\n").count == 1 && quiet.stderr.hasPrefix("Exported "), "\(quiet.stderr)")
    }

    @Test func recordShowsItsModeThenALiveLine() throws {
        let dir = try TemporaryDirectory()
        let session = try TerminalSession(
            [
                Tool.hfrPath, "record", "--source", "test", "--size", "640x360", "--fps", "120", "--duration", "10",
                "r.mp4",
            ],
            in: dir.path("."))
        let screens = try session.samples()
        let last = try #require(screens.last)
        #expect(session.exitCode(in: last) == 0, "\(last)")
        let mode = "record: test source 640x360 yuv420p at 120 fps, 3 layers, 1.7 Mb/s → r.mp4"
        #expect(last.first == mode, "\(last)")
        for screen in screens.dropLast() {
            #expect(screen.filter { $0.contains("frame=") }.count <= 1, "\(screen)")
        }
        // Every redraw, from the transcript: below the mode, all on one terminal line, the counter
        // never going back and rising.
        let transcript = try #require(session.transcript())
        let lines = transcript.replacingOccurrences(of: "\r\n", with: "\n").components(separatedBy: "\n")
        let modeLine = try #require(lines.firstIndex(of: mode), "\(transcript.debugDescription)")
        let drawn = TerminalSession.redraws(in: transcript).filter { $0.text.contains("frame=") }
        // A machine too loaded for the test source to keep up says so once, on a line of its own
        // above the live line, which then goes on one line lower.
        let warned = last.contains { $0.hasPrefix("Warning: test source delivers ") }
        #expect(
            Set(drawn.map(\.line)).count <= (warned ? 2 : 1) && drawn.allSatisfy { $0.line > modeLine }, "\(drawn)")
        var frames: [Int] = []
        for redraw in drawn {
            let line = redraw.text
            let match = try #require(try Self.recordLine.wholeMatch(in: line), "not a stats line: '\(line)'")
            let count = try #require(match.output[1].substring.flatMap { Int($0) })
            // time= is the frames encoded at 120 fps.
            let time = try #require(match.output[2].substring.flatMap { Double($0) })
            #expect(abs(time - Double(count) / 120) < 0.0051, "\(line)")
            frames.append(count)
        }
        print("record on a terminal: frame= of each redraw: \(frames)")
        #expect(zip(frames, frames.dropFirst()).allSatisfy { $0 <= $1 }, "\(frames)")
        #expect(Set(frames).count >= 2 && frames.first ?? 0 < frames.last ?? 0, "\(frames)")
        #expect(!last.contains { $0.contains("frame=") })
        // The summary accounts for the 1200 slots of 10 s at 120 fps: frames recorded, and those a
        // busy machine (the tests beside this one) let the encoder fall behind on, dropped late —
        // unless the source itself fell behind, said so, and the clock kept the 10 s.
        let summary = try #require(last.first { $0.hasPrefix("Recorded r.mp4: ") }, "\(last)")
        let recorded = Int(summary.dropFirst("Recorded r.mp4: ".count).prefix { $0.isNumber }) ?? -1
        let late = summary.firstMatch(of: /, dropped (\d+) late/).flatMap { Int($0.1) } ?? 0
        #expect(recorded > 0 && (warned ? recorded + late < 1200 : recorded + late == 1200), "\(summary)")
    }

    @Test func recordPipedPrintsWholeLinesAndNothingWithQuiet() throws {
        let dir = try TemporaryDirectory()
        let base = ["record", "--source", "test", "--size", "320x240", "--fps", "120"]
        let started = Date()
        let r = try Tool.hfr(base + ["--duration", "6", dir.path("a.mp4")])
        let seconds = Date().timeIntervalSince(started)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(!r.stderr.contains("\r"))
        let lines = r.stderr.split(separator: "\n").map(String.init)
        #expect(lines.first?.hasPrefix("record: test source 320x240 yuv420p at 120 fps, 3 layers") == true)
        // Less the line that says, once, that a loaded machine's test source fell behind.
        let stats = lines.dropFirst().dropLast().filter { !$0.hasPrefix("Warning: test source delivers ") }
        // A line at most every 5 s (ProgressLine.interval), the first 5 s after the start: the source
        // is paced in real time, so 6 s of it outlast the first interval on any machine, and however
        // long a loaded machine takes, there are no more lines than whole intervals in that time.
        #expect(stats.count >= 1 && stats.count <= Int(seconds / 5), "\(seconds) s: \(r.stderr)")
        for line in stats {
            let fields = line.split(separator: " ")
            #expect(fields.first == "record:" && fields.dropFirst().first?.hasPrefix("frame=") == true, "\(line)")
            #expect(line.contains("(target 120) time=") && line.contains("/6 s drops camera 0 late "), "\(line)")
        }
        #expect(lines.last?.hasPrefix("Recorded ") == true)
        let quiet = try Tool.hfr(["-q"] + base + ["--frames", "60", dir.path("b.mp4")])
        #expect(quiet.status == 0, "\(quiet.stderr)")
        #expect(
            quiet.stderr.split(separator: "\n").count == 1 && quiet.stderr.hasPrefix("Recorded "), "\(quiet.stderr)")
    }

    /// Ctrl-C twice: the second comes while the first is still finishing — the frames held in RAM
    /// (`--buffer ram`) for an encoder that cannot keep up with 1080p240, at least 30 of them when
    /// the first comes, after a second of them was saved (without a backlog, an encoder that keeps up finished before the second
    /// could come, and the test raced it): the status line ends, the message says what was kept,
    /// and it is true: the partial recording plays, the final file was not made.
    @Test func secondCtrlCEndsTheLineAndKeepsThePartialRecording() throws {
        let dir = try TemporaryDirectory()
        let session = try TerminalSession(
            [
                Tool.hfrPath, "record", "--source", "test", "--size", "1920x1080", "--fps", "240", "--buffer",
                "ram:2G", "--audio", "none", "r.mp4",
            ], in: dir.path("."))
        // A second of frames saved (the partial file has whole fragments), and a backlog.
        _ = try #require(
            try session.waitFor { Self.recordFrames($0) ?? 0 >= 240 && Self.heldFrames($0) ?? 0 >= 30 },
            "no backlog in RAM")
        try session.send("C-c")
        // The second as soon as hfr has taken the first (two sent at once could reach it as one
        // signal): its message is read from the transcript, milliseconds after it is written.
        #expect(session.waitForOutput("hfr: stopping: "), "the first Ctrl-C is not taken")
        try session.send("C-c")
        let screens = try session.samples(every: 0.2, timeout: 30)
        let last = try #require(screens.last)
        #expect(session.exitCode(in: last) == 130, "\(last)")
        // Each message on a line of its own (the terminal echoes ^C where the cursor was).
        let stopping = try #require(
            last.firstIndex { $0.hasPrefix("hfr: stopping: saving the frames held in RAM, then finalizing r.mp4") },
            "\(last)")
        let second = try #require(last.firstIndex { $0.hasPrefix("hfr: second interrupt") }, "\(last)")
        #expect(
            last[second]
                == "hfr: second interrupt: stopped at once; the frames saved so far are kept in r.partial.mp4 "
                + "(fragmented MP4); those still in RAM and r.mp4 were not written", "\(last)")
        #expect(stopping < second)
        #expect(!last.contains { $0.contains("frame=") && $0.contains("hfr:") }, "\(last)")
        #expect(try dir.contents() == ["r.partial.mp4"])
        let frames = try FFprobe.count(dir.path("r.partial.mp4"), decoding: true)
        #expect(frames >= 60, "\(frames) frames kept")
        print("second Ctrl-C: \(frames) frames kept in the partial recording")
    }

    /// Nine inputs of 8 s at 60 fps (libx264) and two manifests: re-encoding jobs (about a second
    /// each) and lossless conforms.
    static func batchWorkspace() throws -> TemporaryDirectory {
        let dir = try TemporaryDirectory()
        try FileManager.default.createDirectory(atPath: dir.path("in"), withIntermediateDirectories: true)
        try ExportInputs.ffmpeg([
            "-f", "lavfi", "-i", "testsrc2=size=640x360:rate=60:duration=8", "-c:v", "libx264", "-preset",
            "ultrafast", "-g", "60", dir.path("in/clip0.mp4"),
        ])
        for i in 1..<9 {
            try FileManager.default.copyItem(atPath: dir.path("in/clip0.mp4"), toPath: dir.path("in/clip\(i).mp4"))
        }
        for (name, job) in [
            ("reencode.json", #""output": "out/{stem}-slow.mp4", "conform": 30, "reencode": "always""#),
            ("copy.json", #""output": "copy/{stem}-c.mp4", "conform": 30"#),
        ] {
            try #"{ "schema": "hfr.batch/1", "jobs": [ { "input": "in/*.mp4", \#(job) } ] }"#.write(
                toFile: dir.path(name), atomically: true, encoding: .utf8)
        }
        return dir
    }

    static var batchLine: Regex<AnyRegexOutput> {
        try! Regex(
            #"batch: ([0-9])/9 done, \d+\.\d of \d+\.\d MB, ETA (\d+:\d\d|-:--)(, running: .+)?"#)
    }

    /// On a 100-column terminal: the line from the start, redrawn at least once a second, naming the
    /// running jobs (titles cut to fit), with an ETA once a job has finished.
    @Test func batchLineNamesTheRunningJobsAndUpdatesEverySecond() throws {
        let dir = try Self.batchWorkspace()
        let session = try TerminalSession(
            [Tool.hfrPath, "batch", "reencode.json", "-j", "2"], in: dir.path("."), width: 100)
        let screens = try session.samples()
        let last = try #require(screens.last)
        #expect(session.exitCode(in: last) == 0, "\(last)")
        for screen in screens.dropLast() {
            #expect(screen.filter { $0.hasPrefix("batch: ") }.count <= 1, "\(screen)")
        }
        // Every redraw, from the transcript: all on one terminal line, each a whole stats line that fits.
        let transcript = try #require(session.transcript())
        let drawn = TerminalSession.redraws(in: transcript).map(\.text).filter { $0.hasPrefix("batch: ") }
        #expect(Set(TerminalSession.redraws(in: transcript).map(\.line)).count == 1, "scrolled: \(drawn)")
        for line in drawn {
            #expect(line.count <= 99, "wider than the terminal: \(line)")
            #expect((try? Self.batchLine.wholeMatch(in: line)) != nil, "\(line)")
        }
        print("batch on a terminal, every redraw:\n" + drawn.joined(separator: "\n"))
        // Drawn before the first job starts; redrawn as each job ends (the counts in order, 0 to 9).
        #expect(drawn.first?.hasPrefix("batch: 0/9 done, 0.0 of ") == true, "\(drawn)")
        let done = drawn.compactMap { Int($0.dropFirst(7).prefix { $0.isNumber }) }
        #expect(done == done.sorted() && Array(Set(done)).sorted() == Array(0...9), "\(done)")
        let running = drawn.filter { $0.contains(", running: in/clip") }
        #expect(running.count >= 2 && running.allSatisfy { $0.contains(" s)") && $0.contains("…") }, "\(drawn)")
        #expect(drawn.contains { $0.contains(" done, ") && !$0.contains("ETA -:--") }, "no ETA: \(drawn)")
        // Redrawn on its own, not only as jobs end (more redraws than the first and the 9 ends), and at
        // least once a second: each running job's age (whole seconds, hfr's own clock) is shown at
        // every second from 0 up, none skipped.
        #expect(drawn.count > 10, "\(drawn)")
        let ages = Self.runningAges(drawn)
        #expect(!ages.isEmpty)
        for (clip, seen) in ages {
            #expect(Array(Set(seen)).sorted() == Array(0...(seen.max() ?? 0)), "\(clip): ages \(seen)")
        }
        #expect(last.contains { $0.hasPrefix("batch: 9 jobs: 9 done, 0 up to date, 0 failed in ") }, "\(last)")
    }

    /// For each input named as running in `lines` (`in/clip3.mp4 → … (2 s)`), the ages shown, in order.
    static func runningAges(_ lines: [String]) -> [String: [Int]] {
        let job = try! Regex(#"(in/clip\d\.mp4)[^;]* \((\d+) s\)"#)
        var ages: [String: [Int]] = [:]
        for line in lines {
            guard let range = line.range(of: ", running: ") else { continue }
            for match in line[range.upperBound...].matches(of: job) {
                guard let clip = match.output[1].substring, let age = match.output[2].substring.flatMap({ Int($0) })
                else { continue }
                ages[String(clip), default: []].append(age)
            }
        }
        return ages
    }

    /// Piped: one whole line per finished job; with -q only the summary.
    @Test func batchPipedPrintsALinePerJobAndNothingWithQuiet() throws {
        let dir = try Self.batchWorkspace()
        let r = try Tool.hfr(["batch", dir.path("copy.json"), "-j", "2"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(!r.stderr.contains("\r"))
        let lines = r.stderr.split(separator: "\n").map(String.init)
        #expect(lines.count == 10, "\(r.stderr)")
        for (k, line) in lines.dropLast().enumerated() {
            #expect(line.hasPrefix("batch: [\(k + 1)/9] ok in/clip") && line.contains(" frames)"), "\(line)")
        }
        #expect(lines.last?.hasPrefix("batch: 9 jobs: 9 done, ") == true)
        try FileManager.default.removeItem(atPath: dir.path("copy"))
        let quiet = try Tool.hfr(["-q", "batch", dir.path("copy.json"), "-j", "2"])
        #expect(quiet.status == 0, "\(quiet.stderr)")
        #expect(quiet.stderr.split(separator: "\n").count == 1, "\(quiet.stderr)")
        #expect(quiet.stderr.hasPrefix("batch: 9 jobs: 9 done, "), "\(quiet.stderr)")
    }

    /// The frames waiting in RAM on a `--buffer ram` status line (`RAM 1.3 GiB of 2.0 GiB (452 frames)`).
    static func heldFrames(_ line: String) -> Int? {
        guard line.hasPrefix("frame="), let match = line.firstMatch(of: /\((\d+) frames\)/) else { return nil }
        return Int(match.1)
    }

    static func recordFrames(_ line: String) -> Int? {
        guard line.hasPrefix("frame=") else { return nil }
        return Int(line.dropFirst(6).prefix { $0.isNumber })
    }
}
