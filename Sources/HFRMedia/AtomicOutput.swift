import CFFmpeg

#if canImport(Glibc)
    import Glibc
#endif

/// An output file that appears whole or not at all, and leaves nothing when it does not — even if
/// hfr crashes or is killed. It is written as an unnamed file in the output's directory
/// (`O_TMPFILE`), reached through `/proc/self/fd/N`, which the kernel removes with the process;
/// `commit()` gives it its name (`linkat`, or a hidden name renamed over an existing file, rename(2)
/// being atomic). Where the file system has no unnamed files, it is written under a hidden name
/// beside the output instead, removed by `discard()` or when dropped uncommitted. Record, export
/// and batch write through this one type.
public struct AtomicOutput: ~Copyable {
    /// Where the file ends up.
    public let path: String
    /// Where it is written until then (open it by this path: `/proc/self/fd/N` for an unnamed file).
    public let temporaryPath: String
    /// The unnamed file, open until this is dropped; nil when a named temporary is used.
    private let descriptor: Int32?
    private var isSettled = false

    /// Creates the unnamed file in `path`'s directory (nothing named appears), or reserves the
    /// hidden temporary name where that cannot be.
    public init(path: String) {
        self.path = path
        let fd = FileSystem.open(AtomicOutput.directory(of: path), hfr_o_tmpfile | O_RDWR | O_CLOEXEC, 0o666)
        descriptor = fd >= 0 ? fd : nil
        temporaryPath = fd >= 0 ? "/proc/self/fd/\(fd)" : AtomicOutput.temporaryPath(for: path)
    }

    deinit {
        if let descriptor {
            close(descriptor)
        } else if !isSettled {
            FileSystem.unlink(temporaryPath)
        }
    }

    /// Gives the finished file its name `path` (replacing a file there); on failure nothing named
    /// is left and the errno is thrown.
    public consuming func commit() throws(Errno) {
        isSettled = true
        guard descriptor != nil else {
            guard FileSystem.rename(temporaryPath, path) == 0 else {
                let error = Errno.current
                FileSystem.unlink(temporaryPath)
                throw error
            }
            return
        }
        if FileSystem.link(temporaryPath, path) == 0 { return }
        guard Errno.current.rawValue == EEXIST else { throw Errno.current }
        // A file is there (--force): linked under the hidden name, then renamed over it at once.
        let hidden = AtomicOutput.temporaryPath(for: path)
        FileSystem.unlink(hidden)
        guard FileSystem.link(temporaryPath, hidden) == 0 else { throw Errno.current }
        guard FileSystem.rename(hidden, path) == 0 else {
            let error = Errno.current
            FileSystem.unlink(hidden)
            throw error
        }
    }

    /// Drops what was written (a failed or cancelled write).
    public consuming func discard() {
        isSettled = true
        if descriptor == nil { FileSystem.unlink(temporaryPath) }
    }

    /// The directory holding `path` ("." for a bare name).
    static func directory(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }

    /// `dir/clip.mp4` → `dir/.clip.mp4.<pid>.tmp`. `pid` is the writing process (a batch names its
    /// children's temporaries to clean up after them).
    public static func temporaryPath(for output: String, pid: Int32? = nil) -> String {
        let slash = output.lastIndex(of: "/").map { output.index(after: $0) } ?? output.startIndex
        return output[..<slash] + "." + output[slash...] + ".\(pid ?? getpid()).tmp"
    }
}
