import HFRMedia

#if canImport(Glibc)
    import Glibc
#endif

/// Checks an output path before any work: container known, directory writable, nothing overwritten
/// without `--force`.
enum OutputFile {
    static func prepare(_ output: String, partial: String?, force: Bool) throws(HFRError) {
        guard AtomicOutput.hasKnownContainer(output) else {
            throw .usage("\(output): unknown container; use .mp4, .mov or .mkv")
        }
        var info = stat()
        if stat(output, &info) == 0 {
            if info.st_mode & S_IFMT == S_IFDIR { throw .io(output, "is a directory") }
            if !force { throw .io(output, "already exists (use --force to replace it)") }
        }
        if let partial, stat(partial, &info) == 0 {
            if !force {
                throw .io(
                    output, "an unfinished recording is in the way: \(partial) (keep it elsewhere or use --force)")
            }
            unlink(partial)
        }
        try checkDirectory(of: output)
    }

    /// The directory `output` goes in must exist and be writable (for its temporary and the rename).
    static func checkDirectory(of output: String) throws(HFRError) {
        let slash = output.lastIndex(of: "/")
        let directory = slash.map { String(output[..<$0]) }.map { $0.isEmpty ? "/" : $0 } ?? "."
        var info = stat()
        guard stat(directory, &info) == 0, info.st_mode & S_IFMT == S_IFDIR else {
            throw .io(output, "directory \(directory) does not exist")
        }
        guard access(directory, W_OK) == 0 else {
            throw .io(output, "cannot write in \(directory) (\(String(cString: strerror(errno))))")
        }
    }
}
