import HFRExport
import HFRMedia
import Testing

@testable import HFRCommands

/// One time syntax for every option that takes a time: `--duration`, `--range` bounds, `--ramp` bounds.
@Suite struct TimeSyntaxTests {
    static let accepted: [(String, Rational)] = [
        ("5", Rational(5)), ("5s", Rational(5)), ("2.5s", Rational(5, 2)), ("2.5", Rational(5, 2)),
        ("500ms", Rational(1, 2)), ("250us", Rational(1, 4000)), ("1/3", Rational(1, 3)),
        ("1:30", Rational(90)), ("1:02:03", Rational(3723)), ("0:01.5", Rational(3, 2)),
        ("00:00:00.001", Rational(1, 1000)), ("0.000001s", Rational(1, 1_000_000)),
        ("59:59", Rational(3599)), ("100:00", Rational(6000)),
    ]
    static let refused = [
        "", "s", "ms", "-5", "+5", "5 s", "5m", "5min", "1e3", ".5", "5.", "1:", ":30", "1:60", "1:2:60",
        "1:60:00", "1.5:30", "1:30s", "1:2:3:4", "1/-3", "1/0", "abc", "12345678901234",
    ]

    @Test(arguments: accepted) func parsesEveryForm(text: String, seconds: Rational) {
        #expect(Rational(parsingTime: text) == seconds)
        #expect(Duration(argument: text)?.seconds == seconds)
    }

    @Test(arguments: refused) func refusesOtherText(text: String) {
        #expect(Rational(parsingTime: text) == nil)
        #expect(Duration(argument: text) == nil)
    }

    @Test func durationMustBePositiveAndSaysWhatItTakes() {
        #expect(Rational(parsingTime: "0") == Rational(0))
        #expect(Duration(argument: "0") == nil)
        #expect(Duration(argument: "0:00") == nil)
        for form in ["5s", "500ms", "1:30", "1:02:03"] { #expect(Duration.expectation.contains(form)) }
    }

    @Test func recordDurationTakesSecondsWithAUnit() throws {
        let parsed = try ParsedArguments(
            ["--source", "test", "--duration", "5s", "out.mp4"], for: RecordCommand.self)
        #expect(try RecordCommand.limits(parsed).duration == Rational(5))
        let millis = try ParsedArguments(
            ["--source", "test", "--duration", "1500ms", "o.mp4"], for: RecordCommand.self)
        #expect(try RecordCommand.limits(millis).duration == Rational(3, 2))
    }

    func range(_ text: String) throws(HFRError) -> (start: Rational, end: Rational?)? {
        let parsed = try ParsedArguments(
            ["--conform", "30", "--range", text, "in.mp4", "out.mp4"], for: ExportCommand.self)
        return try ExportCommand.range(parsed)
    }

    @Test func rangeBoundsTakeTheSameForms() throws {
        #expect(try range("1.5-4")?.start == Rational(3, 2))
        #expect(try range("1.5-4")?.end == Rational(4))
        #expect(try range("0:05-1:30")?.end == Rational(90))
        #expect(try range("500ms-2s")?.start == Rational(1, 2))
        #expect(try range("0-")?.end == nil)
        #expect(try range("2-")?.start == Rational(2))
        #expect(try range("-3")?.start == Rational(0))
        #expect(throws: HFRError.self) { try range("4-2") }
        #expect(throws: HFRError.self) { try range("1:75-2:00") }
        do {
            _ = try range("1x-2")
            Issue.record("1x-2 was accepted")
        } catch {
            #expect(error.message.contains("500ms") && error.message.contains("1:30"))
        }
    }

    @Test func rampBoundsTakeTheSameForms() throws {
        let plain = try TimeMap(parsing: "0-2@1,2-4@0.25,4-@1")
        #expect(try TimeMap(parsing: "0-0:02@1,0:02-0:04@1/4,0:04-@1") == plain)
        #expect(try TimeMap(parsing: "0-2s@1,2s-4000ms@0.25,4s-@1") == plain)
        #expect(plain.segments.map(\.speed) == [Rational(1), Rational(1, 4), Rational(1)])
        #expect(throws: TimeMap.Invalid.self) { try TimeMap(parsing: "0-2@1s") }
        do {
            _ = try TimeMap(parsing: "0-2x@1")
            Issue.record("0-2x@1 was accepted")
        } catch {
            #expect(error.description.contains("1:30"))
        }
    }
}
