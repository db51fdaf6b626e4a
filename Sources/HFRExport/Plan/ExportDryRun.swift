import HFRMedia

extension ExportPipeline {
    /// `export --dry-run`: the export itself — the same analysis, plan and refusals, the same pass
    /// over the packets deciding each one — into a `CountingSink` instead of the muxer, its
    /// re-encoders counting their slots (`SlotCounter`) and its audio retimers the samples
    /// (`PlannedRetime`) instead of making them. Nothing is written, not even a temporary file.
    public func preview(fileSize: Int64) throws(ExportFailure) -> ExportPreview {
        let demuxer = try ExportPipeline.openInput(MediaInput(path: settings.input, timing: settings.timing))
        let (analysis, plan) = try plan(demuxer, fileSize: fileSize)
        let container = Container(output: settings.output)
        let pass = try pass(demuxer, analysis: analysis, plan: plan, fileSize: fileSize, progress: nil) { _ in
            CountingSink(container: container)
        }
        return pass.preview
    }
}
