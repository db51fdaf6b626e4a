import HFRMedia
import Testing

@testable import HFRCapture
@testable import HFRCommands

/// `--exposure`'s values, antiflicker among them, and the choice in `hfr record --json`.
@Suite struct ExposureChoiceTests {
    @Test func antiflickerTakesFiftyOrSixtyHertz() {
        #expect(ExposureChoice(argument: "antiflicker")?.antiFlicker == AntiFlicker())
        #expect(ExposureChoice(argument: "antiflicker")?.setting == nil)
        #expect(ExposureChoice(argument: "antiflicker=50")?.antiFlicker == AntiFlicker(mains: 50))
        #expect(ExposureChoice(argument: "antiflicker=60")?.antiFlicker == AntiFlicker(mains: 60))
        #expect(ExposureChoice(argument: "antiflicker=60")?.setting == nil)
        for bad in ["antiflicker=", "antiflicker=55", "antiflicker=50Hz", "antiflicker=-50", "anti", "antiflicker60"] {
            #expect(ExposureChoice(argument: bad) == nil, "\(bad)")
        }
        // The other forms are unchanged.
        #expect(ExposureChoice(argument: "auto")?.setting == .auto)
        #expect(ExposureChoice(argument: "auto")?.antiFlicker == nil)
        #expect(ExposureChoice(argument: "1/500")?.setting == .value(20))
        #expect(ExposureChoice(argument: "2ms")?.setting == .value(20))
        #expect(ExposureChoice(argument: "83")?.setting == .value(83))
    }

    /// A wrong frequency is a usage error (64) naming the option.
    @Test func anotherFrequencyIsAUsageErrorNamingTheOption() throws {
        let arguments = try ParsedArguments(
            ["x.mp4", "--device", "/dev/video0", "--exposure", "antiflicker=55"], for: RecordCommand.self)
        #expect {
            _ = try CaptureArguments.controls(arguments, of: RecordCommand.self)
        } throws: { error in
            guard let e = error as? HFRError else { return false }
            return e.exitCode == .usage && e.message.contains("'antiflicker=55' for '--exposure'")
        }
        let good = try ParsedArguments(["--exposure", "antiflicker"], for: RecordCommand.self)
        #expect(try CaptureArguments.controls(good, of: RecordCommand.self).antiFlicker == AntiFlicker())
    }

    @Test func theChoiceIsInTheRecordReport() {
        let json = RecordStatus.antiFlickerJSON(sample).rendered
        for member in [
            "\"mains\":60", "\"method\":\"exposure\"", "\"exposureSeconds\":0.0083", "\"exposure\":\"83/10000\"",
            "\"periods\":1", "\"warning\":false",
        ] {
            #expect(json.contains(member), "\(json)")
        }
    }

    let sample = AntiFlicker.Choice(
        mains: 60, method: .exposure, exposure: Rational(83, 10_000), periods: 1, text: "exposure 8.3 ms",
        isWarning: false)
}
