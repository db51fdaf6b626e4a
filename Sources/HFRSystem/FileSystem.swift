#if canImport(Glibc)
    import Glibc
#endif

/// The system calls hfr makes on file names, given the bytes each name stands for (`PathBytes`).
///
/// Swift passes a `String` to a C `const char *` as its UTF-8, which for a name that is not UTF-8
/// is another name: every call with a path goes through here, or gets the bytes from
/// `withPathBytes` (stat(2), whose struct this module does not export).
public enum FileSystem {
    /// open(2); `mode` for a file it creates.
    public static func open(_ path: String, _ flags: Int32, _ mode: UInt32 = 0) -> Int32 {
        path.withPathBytes { Glibc.open($0, flags, mode_t(mode)) }
    }

    /// access(2).
    public static func access(_ path: String, _ mode: Int32) -> Int32 {
        path.withPathBytes { Glibc.access($0, mode) }
    }

    /// unlink(2).
    @discardableResult
    public static func unlink(_ path: String) -> Int32 {
        path.withPathBytes { Glibc.unlink($0) }
    }

    /// rename(2).
    public static func rename(_ from: String, _ to: String) -> Int32 {
        from.withPathBytes { a in to.withPathBytes { b in Glibc.rename(a, b) } }
    }

    /// linkat(2) of two names relative to the working directory, following a symlink `from`.
    public static func link(_ from: String, _ to: String) -> Int32 {
        from.withPathBytes { a in to.withPathBytes { b in linkat(AT_FDCWD, a, AT_FDCWD, b, AT_SYMLINK_FOLLOW) } }
    }

    /// truncate(2).
    @discardableResult
    public static func truncate(_ path: String, _ length: Int64) -> Int32 {
        path.withPathBytes { Glibc.truncate($0, off_t(length)) }
    }

    /// mkdir(2).
    public static func mkdir(_ path: String, _ mode: UInt32) -> Int32 {
        path.withPathBytes { Glibc.mkdir($0, mode_t(mode)) }
    }

    /// realpath(3): the absolute name with no symlinks, `.` or `..`; nil with `errno`.
    public static func realpath(_ path: String) -> String? {
        guard let resolved = path.withPathBytes({ Glibc.realpath($0, nil) }) else { return nil }
        defer { free(resolved) }
        return PathBytes.string(cString: resolved)
    }

    /// The names in directory `path` (without `.` and `..`); nil with `errno` when it cannot be read.
    public static func names(in path: String) -> [String]? {
        guard let directory = path.withPathBytes({ opendir($0) }) else { return nil }
        defer { closedir(directory) }
        var names: [String] = []
        while let entry = readdir(directory) {
            let name = withUnsafePointer(to: &entry.pointee.d_name) {
                $0.withMemoryRebound(to: CChar.self, capacity: 256) { PathBytes.string(cString: $0) }
            }
            if name != ".", name != ".." { names.append(name) }
        }
        return names
    }

    /// The whole file `path` names; nil with `errno` when it cannot be read.
    public static func contents(_ path: String) -> [UInt8]? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let n = read(fd, &buffer, buffer.count)
            if n < 0, errno == EINTR { continue }
            guard n >= 0 else { return nil }
            if n == 0 { return bytes }
            bytes += buffer[0..<n]
        }
    }

    /// mkdir -p: `path` and the directories above it that are missing; false when one cannot be made.
    @discardableResult
    public static func makeDirectories(_ path: String) -> Bool {
        var info = Glibc.stat()
        if path.withPathBytes({ stat($0, &info) }) == 0 { return info.st_mode & S_IFMT == S_IFDIR }
        if let slash = path.lastIndex(of: "/"), slash != path.startIndex {
            guard makeDirectories(String(path[..<slash])) else { return false }
        }
        return mkdir(path, 0o777) == 0 || errno == EEXIST
    }
}
