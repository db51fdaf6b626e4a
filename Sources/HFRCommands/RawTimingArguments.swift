import Foundation
import HFRMedia

/// `--timestamps FILE` and `--input-fps R` (export and probe): the frame times of a raw H.264/HEVC
/// stream, which has none of its own.
struct RawTimingArguments {
    static let timestampsOption = OptionSpec.value(
        "timestamps", "FILE", help: "Raw stream: frame times in ms (rpicam-vid --save-pts, v2 format).")
    static let inputRateOption = OptionSpec.value(
        "input-fps", "R", help: "Raw stream: constant frame rate (e.g. 120 or 120000/1001).")

    /// `--timestamps FILE`, read when the command runs (batch checks arguments without the files).
    let timestampsPath: String?
    let inputRate: Rational?

    /// Checks the two options (a positive rate; not both) without reading any file.
    init(_ arguments: ParsedArguments, of command: any Command.Type) throws(HFRError) {
        timestampsPath = arguments.value("timestamps")
        guard let text = arguments.value("input-fps") else {
            inputRate = nil
            return
        }
        guard timestampsPath == nil else {
            throw .usage("--timestamps and --input-fps exclude each other", of: command)
        }
        guard let rate = Rational(parsing: text), rate > Rational(0), rate.numerator < Int64(Int32.max),
            rate.denominator < Int64(Int32.max)
        else {
            throw .usage(
                "--input-fps must be a positive frame rate such as 120 or 120000/1001, not '\(text)'", of: command)
        }
        inputRate = rate
    }

    /// Refuses the options for a container, which has timestamps of its own (export does the same).
    static func checkRawStream(_ path: String, of command: any Command.Type) throws(HFRError) {
        let demuxer: Demuxer
        do {
            demuxer = try Demuxer(url: path)
        } catch {
            throw .reading(path, error)
        }
        guard demuxer.isRawStream else {
            throw .usage(
                "--timestamps and --input-fps are for raw H.264/HEVC streams; \(path) (\(demuxer.formatLongName)) "
                    + "has its own timestamps", of: command)
        }
    }

    /// The timing asked for, reading the timestamps file: unreadable → exit 74, not text or a bad
    /// line → 65.
    func timing() throws(HFRError) -> InputTiming? {
        if let inputRate { return .constantRate(inputRate) }
        guard let path = timestampsPath else { return nil }
        let file: MappedFile
        do {
            file = try MappedFile(path: path)
        } catch {
            throw .io(path, "cannot read the timestamps file (\(error))")
        }
        // Copied while the mapping lives.
        let bytes = withExtendedLifetime(file) { Data(file.bytes) }
        guard let text = Self.text(bytes) else {
            throw .badInput(path, "not a text file of timestamps (neither UTF-8 nor UTF-16 with a byte-order mark)")
        }
        do {
            return .timestamps(try TimestampFile.parse(text, source: path))
        } catch {
            throw .badInput(path, error.description)
        }
    }

    /// The file's text: UTF-8 (a byte-order mark skipped), or UTF-16 with its byte-order mark, as
    /// Windows tools write it; nil when it is neither.
    static func text(_ bytes: Data) -> String? {
        let utf16Marks: [[UInt8]] = [[0xFF, 0xFE], [0xFE, 0xFF]]
        if utf16Marks.contains(where: { bytes.starts(with: $0) }) {
            return String(data: bytes, encoding: .utf16)
        }
        let utf8Mark: [UInt8] = [0xEF, 0xBB, 0xBF]
        let body = bytes.starts(with: utf8Mark) ? bytes.dropFirst(3) : bytes[...]
        return String(bytes: body, encoding: .utf8)
    }
}
