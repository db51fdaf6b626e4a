#if canImport(Glibc)
    import Glibc
#endif

/// A whole input file mapped read-only: packets can point into it (no read into a buffer) and an
/// output can copy ranges of it inside the kernel (`copy_file_range`), so a stream copy moves no
/// payload through user space.
///
/// A final class because packets that view it and the muxer that copies from it must not outlive
/// it: they hold a reference.
public final class MappedFile {
    public let path: String
    package let descriptor: Int32
    /// The mapping; empty for an empty file.
    public let bytes: UnsafeRawBufferPointer

    /// Maps `path`; throws the errno of `open`, `fstat` or `mmap` (EISDIR for a directory).
    public init(path: String) throws(Errno) {
        let fd = FileSystem.open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw Errno.current }
        var info = stat()
        guard fstat(fd, &info) == 0 else {
            let error = Errno.current
            close(fd)
            throw error
        }
        guard info.st_mode & S_IFMT != S_IFDIR else {
            close(fd)
            throw Errno(rawValue: EISDIR)
        }
        let size = Int(info.st_size)
        var base: UnsafeRawPointer? = nil
        if size > 0 {
            let mapped = mmap(nil, size, PROT_READ, MAP_SHARED, fd, 0)
            guard let mapped, mapped != MAP_FAILED else {
                let error = Errno.current
                close(fd)
                throw error
            }
            // Read once, in order: let the kernel read ahead and drop pages behind.
            madvise(mapped, size, MADV_SEQUENTIAL)
            base = UnsafeRawPointer(mapped)
        }
        self.path = path
        descriptor = fd
        bytes = UnsafeRawBufferPointer(start: base, count: size)
    }

    deinit {
        if let base = bytes.baseAddress { munmap(UnsafeMutableRawPointer(mutating: base), bytes.count) }
        close(descriptor)
    }

    /// Unmaps the pages before `offset` from this process (they stay in the page cache): a
    /// front-to-back pass keeps only what it is reading in its resident memory.
    public func release(before offset: Int64) {
        let page = Int64(sysconf(Int32(_SC_PAGESIZE)))
        let end = min(offset, Int64(bytes.count)) / page * page
        guard let base = bytes.baseAddress, end > released else { return }
        madvise(UnsafeMutableRawPointer(mutating: base + Int(released)), Int(end - released), MADV_DONTNEED)
        released = end
    }

    /// Where `release(before:)` has got to.
    private var released: Int64 = 0

    /// The file offset of `pointer` when it points into the mapping.
    package func offset(of pointer: UnsafeRawPointer, count: Int) -> Int64? {
        guard let base = bytes.baseAddress, pointer >= base, pointer + count <= base + bytes.count else { return nil }
        return Int64(pointer - base)
    }
}
