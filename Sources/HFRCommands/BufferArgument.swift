import Foundation
import HFRMedia
import HFRPipeline

/// `--buffer ram[:SIZE]` (record): frames wait in RAM, up to SIZE bytes of them, between the capture
/// and an encoder slower than the camera, which saves what is left once the capture ends.
enum BufferArgument {
    static let option = OptionSpec.value(
        "buffer", "ram[:SIZE]",
        help: "Hold up to SIZE (512M, 4G) of frames in RAM for the encoder to save after the capture "
            + "(default SIZE: half the memory available, at most 16G).",
        choices: ["ram"])

    /// The default SIZE's ceiling.
    static let defaultCeiling = 16 << 30

    /// The budget in bytes `--buffer` asks for; nil without the option. SIZE: a number of bytes with
    /// K, M, G or T (binary, 1G = 1024M), at most the machine's memory.
    static func parse(_ arguments: ParsedArguments) throws(HFRError) -> Int? {
        guard let text = arguments.value("buffer") else { return nil }
        let memory = SystemMemory.read()
        if text == "ram" { return defaultBudget(available: memory?.available) }
        guard text.hasPrefix("ram:") else {
            throw .usage("--buffer takes ram or ram:SIZE (e.g. ram:4G), not '\(text)'", of: RecordCommand.self)
        }
        let size = String(text.dropFirst(4))
        guard let bytes = bytes(size), bytes > 0 else {
            throw .usage(
                "--buffer ram:\(size): SIZE is bytes with K, M, G or T, e.g. ram:512M or ram:4G", of: RecordCommand.self
            )
        }
        if let total = memory?.total, bytes > total {
            throw .usage(
                "--buffer ram:\(size) is more than this machine's memory (\(gibibytes(total)))", of: RecordCommand.self)
        }
        return bytes
    }

    /// Half the memory available now, at most `defaultCeiling`; 1 GiB when the kernel does not say.
    static func defaultBudget(available: Int?) -> Int {
        min(defaultCeiling, (available ?? 2 << 30) / 2)
    }

    /// `512M`, `4G`, `1.5G`, `100000` (bytes): binary multiples, any case; nil when not a size.
    static func bytes(_ text: String) -> Int? {
        let scale: [Character: Double] = ["k": 0x1p10, "m": 0x1p20, "g": 0x1p30, "t": 0x1p40]
        var number = text.lowercased()
        var factor = 1.0
        if let last = number.last, let s = scale[last] {
            factor = s
            number.removeLast()
        }
        guard number.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == ".") }), let value = Double(number) else {
            return nil
        }
        let bytes = (value * factor).rounded()
        return bytes < 0x1p50 ? Int(bytes) : nil
    }

    /// Refuses a budget that does not hold one frame of the mode recorded, and warns when it is more
    /// than the memory available now (the kernel would end the recording rather than let it fill).
    static func check(_ settings: RecordSettings) throws(HFRError) {
        guard let budget = settings.ramBudget else { return }
        let frame = settings.capture.width * settings.capture.height * 3 / 2
        if budget < frame {
            throw .usage(
                "--buffer: \(gibibytes(budget)) holds no \(settings.capture.width)x\(settings.capture.height) "
                    + "frame (\(gibibytes(frame)) each)", of: RecordCommand.self)
        }
        if let available = SystemMemory.read()?.available, budget > available {
            Console.error(
                "Warning: --buffer: \(gibibytes(budget)) is more than the memory available now "
                    + "(\(gibibytes(available))): if it fills, the system may end the recording\n")
        }
    }

    /// `4.0 GiB`, `512 MiB`: a size as the buffer's figures show it.
    static func gibibytes(_ bytes: Int) -> String {
        bytes >= 1 << 30
            ? DecimalText.fixed(Double(bytes) / Double(1 << 30), digits: 1) + " GiB"
            : DecimalText.fixed(Double(bytes) / Double(1 << 20), digits: bytes >= 10 << 20 ? 0 : 1) + " MiB"
    }
}
