import HFRMedia
import Testing

@Suite struct TimestampFileTests {
    func parse(_ text: String) throws(TimestampFile.Failure) -> [Rational] {
        try TimestampFile.parse(text, source: "pts.txt").seconds
    }

    /// The coarsest time base that holds every time: microseconds for rpicam-vid's files.
    @Test func choosesTheCoarsestExactTimeBase() throws {
        let micro = try TimestampFile.parse("# timecode format v2\n0.000\n8.333\n16.667\n", source: "a")
        #expect(micro.timeBase == Rational(1, 1_000_000) && micro.ticks == [0, 8333, 16667])
        let milli = try TimestampFile.parse("# timecode format v2\n0\n40\n80.0\n", source: "b")
        #expect(milli.timeBase == Rational(1, 25) && milli.ticks == [0, 1, 2])
        #expect(TimestampList(seconds: milli.seconds, source: "b") == milli)
    }

    /// rpicam-vid's header and its three-decimal milliseconds, read exactly (seconds).
    @Test func readsRpicamVidFiles() throws {
        let times = try parse("# timecode format v2\n0.000\n8.333\n16.667\n33.334\n")
        #expect(
            times == [Rational(0), Rational(8333, 1_000_000), Rational(16667, 1_000_000), Rational(33334, 1_000_000)])
    }

    /// mkvmerge's newer header name, any case, CRLF line ends, blank lines, comments, integers.
    @Test(arguments: [
        "# timestamp format v2\r\n0\r\n40\r\n",
        "#  Timestamp  Format  V2\n\n0\n# a comment\n40.0\n\n",
        "\n# timecode format v2\n  0  \n\t40\n",
    ])
    func acceptsHeaderVariantsCommentsAndBlankLines(text: String) throws {
        #expect(try parse(text) == [Rational(0), Rational(1, 25)])
    }

    @Test func keepsDecimalsUpToNanoseconds() throws {
        #expect(
            try parse("# timestamp format v2\n0.000001\n1.5\n") == [
                Rational(1, 1_000_000_000), Rational(3, 2000),
            ])
    }

    /// A bad line is named by its number (counting blank and comment lines) and quoted.
    @Test(arguments: [
        ("# timecode format v2\n0\n8.3\n\n12.5x\n", 5, "'12.5x'"),
        ("# timecode format v2\n0\n-8\n", 3, "'-8'"),
        ("# timecode format v2\n0\n8.\n", 3, "'8.'"),
        ("# timecode format v2\n0\n1.1234567\n", 3, "'1.1234567'"),
        ("# timecode format v2\n0\n12345678901\n", 3, "'12345678901'"),
        ("# timecode format v2\n0\n8 16\n", 3, "'8 16'"),
        ("# timecode format v2\n0\n8.333\n8.333\n", 4, "not after the previous time"),
        ("# timecode format v2\n0\n8.333\n4\n", 4, "not after the previous time"),
        ("0\n8.333\n", 1, "no '# timestamp format v2' header"),
        ("# timecode format v1\n0\n", 2, "no '# timestamp format v2' header"),
    ])
    func namesTheBadLine(text: String, line: Int, cause: String) {
        #expect {
            try parse(text)
        } throws: { error in
            let failure = error as? TimestampFile.Failure
            return failure?.line == line && failure?.description.hasPrefix("line \(line): ") == true
                && failure?.description.contains(cause) == true
        }
    }

    /// What a bad line quotes stays on one short line: UTF-16 without its byte-order mark read as
    /// UTF-8 (NUL bytes), a stray CR, a line of a hundred thousand digits.
    @Test(arguments: [
        ("# timecode format v2\n0\n1\0.\05\n", 3, "NUL bytes"),
        ("# timecode format v2\n0\n1\r2\n", 3, "'1\\r2'"),
        ("# timecode format v2\n0\n" + String(repeating: "9", count: 100_000) + "\n", 3, "'9999"),
    ])
    func quotesABadLineOnOneShortLine(text: String, line: Int, cause: String) {
        #expect {
            try parse(text)
        } throws: { error in
            let description = (error as? TimestampFile.Failure)?.description ?? ""
            return description.hasPrefix("line \(line): ") && description.contains(cause)
                && !description.contains("\r") && !description.contains("\0") && description.count < 200
        }
    }

    @Test(arguments: ["", "\n\n", "# timecode format v2\n", "# timecode format v2\n# nothing\n"])
    func refusesFilesWithoutTimes(text: String) {
        #expect(throws: TimestampFile.Failure.self) { try parse(text) }
    }
}
