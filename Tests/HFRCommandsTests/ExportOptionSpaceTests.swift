import Foundation
import HFRMedia
import HFRTestSupport
import Testing

@testable import HFRCommands
@testable import HFRExport

/// A property test of `hfr export`'s option space, in process: 2,400 generated command lines —
/// rates as integers, decimals of up to 12 digits and fractions, speeds from 1/100,000 to 100,
/// ramps of one to four segments, ranges, interpolation, audio and re-encode modes — parsed as the
/// command parses them and planned against two 2 s fixtures with audio, in turn: hfr's 120 fps
/// recording and ffmpeg's 30 fps libx264 with B-frames. Each either is refused with one line and
/// exit 64 or 65, or gives a plan inside every bound (`PlanBounds`): at least one frame and at most
/// 10 million, at most 100 hours, a rate FFmpeg's time bases hold, pitch-preserving audio stretched
/// at most 1000×, an output clock that never runs backwards. (`ExportOptionSampleTests` runs a
/// sample of the same generator through the binary.)
@Suite struct ExportOptionSpaceTests {
    static let cases = 2400
    static let seed: UInt64 = 0x5EED_0031

    @Test func everyGeneratedCommandLineIsRefusedInOneLineOrPlannedWithinBounds() throws {
        let peakBefore = Self.peakMemory()
        // hfr's own 120 fps recording and ffmpeg's 30 fps libx264 with B-frames, in turn.
        let inputs = try ["layered-120fps.mp4", "x264-bframes.mp4"].map { name in
            let path = Fixtures.path(name)
            return (path, Int64(try FileManager.default.attributesOfItem(atPath: path)[.size] as! Int))
        }
        var random = SplitMix64(seed: Self.seed)
        var analyses: [String: Result<InputAnalysis, ExportFailure>] = [:]
        var (planned, refusedAtParse, refusedAtPlan) = (0, 0, 0)
        var problems: [String] = []
        for n in 0..<Self.cases {
            let (input, size) = inputs[n % inputs.count]
            let arguments = ExportOptionSpace.arguments(&random, input: input)
            let line = arguments.joined(separator: " ")
            let command: ExportCommand
            do {
                command = try ExportCommand(ParsedArguments(arguments, for: ExportCommand.self))
            } catch {
                refusedAtParse += 1
                if let problem = Self.problem(with: error) { problems.append("#\(n) \(line): \(problem)") }
                continue
            }
            let settings = command.settings
            let key = input + (settings.range.map { "\($0.start)-\($0.end.map { "\($0)" } ?? "")" } ?? "all")
            let analysis =
                analyses[key]
                ?? Result(catching: { () throws(ExportFailure) -> InputAnalysis in
                    try InputAnalysis.analyze(path: input, fileSize: size, range: settings.range)
                })
            analyses[key] = analysis
            do {
                let plan = try ExportPlan.make(settings, try analysis.get())
                planned += 1
                problems += Self.violations(plan, settings: settings).map { "#\(n) \(line): \($0)" }
            } catch {
                refusedAtPlan += 1
                let failure = ExportCommand.error(error, settings: settings)
                if let problem = Self.problem(with: failure) { problems.append("#\(n) \(line): \(problem)") }
            }
        }
        // The test process's high-water mark, which the suites running beside this one raise too.
        let peakAfter = Self.peakMemory()
        print(
            "export option space: \(Self.cases) command lines (seed \(Self.seed)): \(planned) planned, "
                + "\(refusedAtParse) refused as typed, \(refusedAtPlan) refused by the plan, \(problems.count) problems; "
                + "test process peak memory \(peakBefore >> 20) → \(peakAfter >> 20) MiB"
        )
        #expect(problems.isEmpty, "\(problems.prefix(10).joined(separator: "\n"))")
        // The generator reaches every outcome, so the bounds are exercised from both sides.
        #expect(planned > Self.cases / 4 && refusedAtParse > 20 && refusedAtPlan > 20)
    }

    /// This process's peak resident set in bytes (`ru_maxrss`).
    static func peakMemory() -> Int {
        var usage = rusage()
        getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
        return usage.ru_maxrss * 1024
    }

    /// What is wrong with a refusal: not one line, or not a usage or data error.
    static func problem(with error: HFRError) -> String? {
        if error.message.isEmpty || error.message.contains("\n") { return "not one line: '\(error.message)'" }
        if error.exitCode != .usage && error.exitCode != .dataError { return "exit \(error.exitCode.rawValue)" }
        return nil
    }

    /// The bounds a plan that was made must keep.
    static func violations(_ plan: ExportPlan, settings: ExportSettings) -> [String] {
        var found: [String] = []
        let o = plan.outputRate
        let frames = (plan.outputDuration * o).doubleValue
        if !(frames >= 1 && frames <= 10_000_000) { found.append("\(frames) output frames") }
        if plan.outputDuration > Rational(360_000) { found.append("\(plan.outputDuration.doubleValue) s of output") }
        if o > Rational(1000) || o.denominator > Int64(Int32.max) || o.numerator > Int64(Int32.max) {
            found.append("output rate \(o)")
        }
        if !(plan.start < plan.end) { found.append("range \(plan.start)…\(plan.end)") }
        if settings.audio == .spectral || settings.audio == .timeDomain,
            let slowest = plan.map.segments.filter({ $0.start < plan.end && ($0.end ?? plan.end) > plan.start })
                .map(\.speed).min(), slowest.reciprocal > Rational(1000)
        {
            found.append("audio stretched \(slowest.reciprocal.doubleValue)×")
        }
        // The output clock runs forwards across the range (and the segment boundaries inside it).
        let points =
            [plan.start, plan.end]
            + plan.map.segments.compactMap(\.end).filter { $0 > plan.start && $0 < plan.end }
        let times = points.sorted().map { plan.map.outputTime(at: $0) }
        if zip(times, times.dropFirst()).contains(where: { $1 < $0 }) { found.append("output time runs backwards") }
        return found
    }
}
