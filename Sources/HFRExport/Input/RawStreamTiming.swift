import HFRMedia

/// The rule for `--timestamps`/`--input-fps`: a raw H.264/HEVC stream has no frame times and needs
/// one of them; a container has its own times and takes neither (they would contradict them).
enum RawStreamTiming {
    /// The usage error for `timing` given (or missing) on an input of `format`; nil when right.
    static func misuse(_ input: MediaInput, isRawStream: Bool, format: String) -> String? {
        switch (isRawStream, input.timing) {
        case (true, nil):
            "\(input.path) is \(format) without frame times: give them with --timestamps FILE "
                + "(rpicam-vid --save-pts, timestamp format v2) or --input-fps R"
        case (false, _?):
            "--timestamps and --input-fps are for raw H.264/HEVC streams; \(input.path) (\(format)) "
                + "has its own timestamps"
        default: nil
        }
    }
}
