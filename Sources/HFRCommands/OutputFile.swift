import HFRMedia

#if canImport(Glibc)
    import Glibc
#endif

/// Checks an output path before any work: container known, not one of the inputs, directory
/// writable, nothing overwritten without `--force`.
enum OutputFile {
    /// `inputs` are the files the command reads (the media file, a timestamps file): the output may
    /// be none of them, by any name, `--force` or not.
    static func prepare(
        _ output: String, partial: String?, force: Bool, inputs: [String] = [], of command: (any Command.Type)? = nil
    ) throws(HFRError) {
        try checkTarget(output, inputs: inputs, of: command)
        var info = stat()
        if output.withPathBytes({ stat($0, &info) }) == 0 {
            if info.st_mode & S_IFMT == S_IFDIR { throw .io(output, "is a directory") }
            if !force { throw .io(output, "already exists (use --force to replace it)") }
        }
        if let partial, partial.withPathBytes({ stat($0, &info) }) == 0 {
            if !force {
                throw .io(
                    output,
                    "\(partial) is left from an unfinished recording (it plays): move it away to keep it, "
                        + "or pass --force to replace it")
            }
            FileSystem.unlink(partial)
        }
        try checkDirectory(of: output)
    }

    /// What needs no file read: a container hfr writes, and none of `inputs` under another name.
    static func checkTarget(
        _ output: String, inputs: [String], of command: (any Command.Type)? = nil
    ) throws(HFRError) {
        try checkContainer(output, among: Container.exportExtensions, of: command)
        try checkNotInput(output, inputs: inputs, of: command)
    }

    /// The output's extension must name a container the command writes (`extensions`: record's
    /// .mp4, .mov, .mkv; export's also .webm): libav knows many more (.avi, .ts) that cannot hold
    /// what hfr writes, and would fail only at the end.
    static func checkContainer(
        _ output: String, among extensions: [String] = Container.recordExtensions,
        of command: (any Command.Type)? = nil
    ) throws(HFRError) {
        guard Container.hasKnownExtension(output, among: extensions) else {
            let name = output.split(separator: "/").last ?? ""
            let ext = name.lastIndex(of: ".").map { " (\(name[$0...]))" } ?? ""
            throw .usage(
                "\(output): unknown container\(ext); hfr writes \(Container.listed(extensions))", of: command)
        }
    }

    /// Refuses an output that is one of `inputs` by device and inode (an alias, symlink or hard link).
    static func checkNotInput(
        _ output: String, inputs: [String], of command: (any Command.Type)? = nil
    ) throws(HFRError) {
        for input in inputs where FileIdentity.output(output, isSameFileAs: input) {
            throw .usage(
                "\(output) is the same file as the input \(input); hfr never writes over an input", of: command)
        }
    }

    /// The directory `output` goes in must exist and be writable (for its temporary and the rename).
    static func checkDirectory(of output: String) throws(HFRError) {
        let slash = output.lastIndex(of: "/")
        let directory = slash.map { String(output[..<$0]) }.map { $0.isEmpty ? "/" : $0 } ?? "."
        var info = stat()
        guard directory.withPathBytes({ stat($0, &info) }) == 0, info.st_mode & S_IFMT == S_IFDIR else {
            throw .io(output, "directory \(directory) does not exist")
        }
        guard FileSystem.access(directory, W_OK) == 0 else {
            throw .io(output, "cannot write in \(directory) (\(String(cString: strerror(errno))))")
        }
    }
}
