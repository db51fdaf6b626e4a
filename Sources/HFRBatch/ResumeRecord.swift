import Foundation
import HFRMedia

#if canImport(Glibc)
    import Glibc
#endif

/// What `--resume` trusts: `OUTPUT.hfr-batch.json` next to each output, saying how it was made.
///
/// Written (atomically: temporary name, then rename) as `running` before the export starts, and as
/// `done` with the input's SHA-256 and the options only after the export has renamed the finished
/// output into place. A job is skipped only when its output exists, its record is `done`, and the
/// record's input digest, options and output size match now. A record also marks the output as the
/// batch's own: only such outputs are replaced without `--force`.
public struct ResumeRecord: Sendable, Equatable {
    public static let schema = "hfr.batch.record/1"

    public enum State: String, Sendable {
        case running, done, failed
    }

    public var state: State
    public var input: String
    public var inputSHA256: String?
    public var options: [String]
    public var outputBytes: Int64?
    public var frames: Int?
    /// Who runs the job (in a `running` record): for `--resume` to find a batch that died.
    public var claim: ResumeClaim?

    public init(
        state: State, input: String, inputSHA256: String? = nil, options: [String], outputBytes: Int64? = nil,
        frames: Int? = nil, claim: ResumeClaim? = nil
    ) {
        self.state = state
        self.input = input
        self.inputSHA256 = inputSHA256
        self.options = options
        self.outputBytes = outputBytes
        self.frames = frames
        self.claim = claim
    }

    /// Whether this record says `job` made its output, now `outputBytes` long, and finished. The
    /// input's digest is compared apart: computing it is the expensive part.
    func matches(_ job: BatchJob, outputBytes: Int64) -> Bool {
        state == .done && input == job.manifestInput && options == job.options && self.outputBytes == outputBytes
    }

    /// Where the record of `output` lives.
    public static func path(for output: String) -> String { output + ".hfr-batch.json" }

    /// The record of `output`, if there is a readable one.
    public static func read(for output: String) -> ResumeRecord? {
        guard let data = FileSystem.contents(path(for: output)).map({ Data($0) }),
            let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
            object["schema"] as? String == schema,
            let state = (object["state"] as? String).flatMap(State.init(rawValue:)),
            let input = object["input"] as? String, let options = object["options"] as? [String]
        else { return nil }
        return ResumeRecord(
            state: state, input: input, inputSHA256: object["inputSHA256"] as? String, options: options,
            outputBytes: (object["outputBytes"] as? NSNumber)?.int64Value, frames: object["frames"] as? Int,
            claim: ResumeClaim(object["claim"] as? [String: Any]))
    }

    /// Writes the record of `output` atomically; false when it cannot.
    @discardableResult
    public func write(for output: String) -> Bool {
        var object: [String: Any] = [
            "schema": Self.schema, "state": state.rawValue, "input": input, "options": options,
        ]
        if let inputSHA256 { object["inputSHA256"] = inputSHA256 }
        if let outputBytes { object["outputBytes"] = outputBytes }
        if let frames { object["frames"] = frames }
        if let claim { object["claim"] = claim.object }
        guard let data = try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]) else {
            return false
        }
        return AtomicFile.write(data + Data("\n".utf8), to: Self.path(for: output))
    }

    /// Removes the record of `output`.
    public static func remove(for output: String) { FileSystem.unlink(path(for: output)) }
}
