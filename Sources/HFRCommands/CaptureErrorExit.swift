import HFRCapture

extension HFRError {
    /// A capture session's failure as one line: exit 64 with `command`'s usage when what was asked
    /// cannot be, else 69 (the device or source cannot do it). `noCameraHint` ends the line when
    /// there is no camera at all (what the command can do instead).
    static func capture(_ error: CaptureError, of command: any Command.Type, noCameraHint: String? = nil)
        -> HFRError
    {
        if case .noCamera(nil) = error, let noCameraHint {
            return HFRError("\(error.description); \(noCameraHint)", exitCode: .unavailable)
        }
        if error.isUsage { return .usage(error.description, of: command) }
        return HFRError(error.description, exitCode: .unavailable)
    }
}
