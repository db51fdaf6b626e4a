#if canImport(Glibc)
    import Glibc
#endif

/// A file as the kernel knows it: its device and inode. Two paths name the same file — an alias
/// (`./a.mp4`, `dir/../a.mp4`), a symlink, a hard link, a path through a symlinked directory —
/// exactly when their identities match; comparing path text misses all of these.
public struct FileIdentity: Hashable, Sendable {
    public let device: UInt64
    public let inode: UInt64

    init(device: UInt64, inode: UInt64) {
        self.device = device
        self.inode = inode
    }

    /// The file `path` names, following symlinks; nil when there is none (or it cannot be reached).
    public init?(path: String) {
        var info = stat()
        guard path.withPathBytes({ stat($0, &info) }) == 0 else { return nil }
        device = UInt64(info.st_dev)
        inode = UInt64(info.st_ino)
    }

    /// Whether writing `output` would land on the file `input`: the same device and inode, or, for
    /// an output that cannot be looked at yet, the same place once its directory is resolved
    /// (realpath of the directory, then the name).
    public static func output(_ output: String, isSameFileAs input: String) -> Bool {
        if let target = FileIdentity(path: output) { return target == FileIdentity(path: input) }
        guard let place = resolvedPlace(of: output), let inputPlace = realPath(input) else { return false }
        return place == inputPlace
    }

    /// `dir/name` with `dir` resolved by realpath(3): where a file not yet there would be created.
    static func resolvedPlace(of path: String) -> String? {
        let slash = path.lastIndex(of: "/")
        let directory = slash.map { String(path[..<$0]) }.map { $0.isEmpty ? "/" : $0 } ?? "."
        let name = slash.map { String(path[path.index(after: $0)...]) } ?? path
        guard let resolved = realPath(directory) else { return nil }
        return (resolved == "/" ? "" : resolved) + "/" + name
    }

    static func realPath(_ path: String) -> String? { FileSystem.realpath(path) }
}

/// One version of a file's content, as far as the kernel tells: its identity, size and the times
/// it was last modified and last changed (to the nanosecond). What a cache of facts read from a
/// file is keyed by: a file deleted and another made in its place can have the same inode.
public struct FileVersion: Hashable, Sendable {
    public let identity: FileIdentity
    let size: Int64
    let modified: timespec
    let changed: timespec

    /// The file `path` names as it is now, following symlinks; nil when there is none.
    public init?(path: String) {
        var info = stat()
        guard path.withPathBytes({ stat($0, &info) }) == 0 else { return nil }
        identity = FileIdentity(device: UInt64(info.st_dev), inode: UInt64(info.st_ino))
        size = Int64(info.st_size)
        modified = info.st_mtim
        changed = info.st_ctim
    }

    public static func == (a: FileVersion, b: FileVersion) -> Bool {
        a.identity == b.identity && a.size == b.size && a.modified.tv_sec == b.modified.tv_sec
            && a.modified.tv_nsec == b.modified.tv_nsec && a.changed.tv_sec == b.changed.tv_sec
            && a.changed.tv_nsec == b.changed.tv_nsec
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(identity)
        hasher.combine(size)
        hasher.combine(modified.tv_nsec)
    }
}
