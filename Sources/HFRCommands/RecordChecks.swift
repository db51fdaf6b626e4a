import HFRMedia

extension RecordCommand {
    /// What `record` suggests when there is no camera.
    static let noCameraHint = "try --source test"

    /// A camera mode chosen for the request (not a `--size`, which `checked` has seen) that the
    /// encoder cannot take: refused before anything is written.
    static func encodable(_ width: Int, _ height: Int, device: String) throws(HFRError) {
        guard let problem = H264Limits.problem(width: width, height: height) else { return }
        throw .usage(
            "\(device): the camera's mode \(width)x\(height) \(problem); ask for a smaller one with --size "
                + "('hfr formats --device \(device)' lists them)",
            of: RecordCommand.self)
    }
}
