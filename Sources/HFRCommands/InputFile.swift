import HFRMedia

#if canImport(Glibc)
    import Glibc
#endif

/// Checks an input path before FFmpeg sees it, so each failure gets its own clear cause.
enum InputFile {
    /// Returns the file's size; throws for missing, directory, unreadable or empty inputs.
    static func validate(_ path: String) throws(HFRError) -> Int64 {
        let info = try status(of: path, expecting: "a media file")
        // open() rather than access(): it answers for the effective user, the way reading will.
        let fd = FileSystem.open(path, O_RDONLY)
        guard fd >= 0 else {
            throw .io(path, errno == EACCES ? "permission denied" : String(cString: strerror(errno)))
        }
        close(fd)
        if info.st_mode & S_IFMT == S_IFREG, info.st_size == 0 { throw .badInput(path, "empty file") }
        return Int64(info.st_size)
    }

    /// stat(2) of an input that must exist and not be a directory (`expected` says what it should
    /// be: "a media file", "a manifest").
    static func status(of path: String, expecting expected: String) throws(HFRError) -> stat {
        var info = stat()
        guard path.withPathBytes({ stat($0, &info) }) == 0 else {
            throw .io(path, errno == ENOENT ? "no such file" : String(cString: strerror(errno)))
        }
        if info.st_mode & S_IFMT == S_IFDIR { throw .io(path, "is a directory, not \(expected)") }
        return info
    }
}
