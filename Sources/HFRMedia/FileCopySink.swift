import CFFmpeg

#if canImport(Glibc)
    import Glibc
#endif

/// The write side of a muxer whose packets view a `MappedFile`: what libavformat writes from inside
/// the mapping (sample payloads) is copied file to file by the kernel, `copy_file_range`, in runs as
/// long as the input and output stay contiguous; everything else (box headers, the index) is
/// written. The output file offset is the descriptor's own, shared by both kinds of write.
final class FileCopySink {
    let descriptor: Int32
    let source: MappedFile
    /// A copy not yet made: input offset and length (contiguous runs are merged).
    private var pending: (offset: Int64, count: Int)?
    /// The first failure's errno; later calls fail with it too.
    private(set) var failure: Errno?

    init(path: String, source: MappedFile) throws(Errno) {
        let fd = FileSystem.open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw Errno.current }
        descriptor = fd
        self.source = source
    }

    deinit { close(descriptor) }

    /// libavformat's write callback: `count` bytes at `buffer`; an AVERROR on failure.
    func write(_ buffer: UnsafePointer<UInt8>, count: Int) -> Int32 {
        if failure == nil {
            if let offset = source.offset(of: UnsafeRawPointer(buffer), count: count) {
                if let run = pending, run.offset + Int64(run.count) == offset {
                    pending = (run.offset, run.count + count)
                } else {
                    flush()
                    pending = (offset, count)
                }
            } else {
                flush()
                if failure == nil { writeAll(UnsafeRawPointer(buffer), count) }
            }
        }
        return failure.map { hfr_averror($0.rawValue) } ?? Int32(count)
    }

    /// libavformat's seek callback (the MP4 muxer goes back to patch the `mdat` size).
    func seek(to offset: Int64, whence: Int32) -> Int64 {
        flush()
        if whence & AVSEEK_SIZE != 0 {
            var info = stat()
            return fstat(descriptor, &info) == 0 ? Int64(info.st_size) : -1
        }
        let position = lseek(descriptor, off_t(offset), whence & ~AVSEEK_FORCE)
        return position < 0 ? Int64(hfr_averror(Errno.current.rawValue)) : Int64(position)
    }

    /// Makes the pending copy.
    func flush() {
        guard let run = pending, failure == nil else { return }
        pending = nil
        var from = Int64(run.offset)
        var left = run.count
        while left > 0 {
            let n = retryingInterrupts { copy_file_range(source.descriptor, &from, descriptor, nil, left, 0) }
            if n > 0 {
                left -= n
                continue
            }
            if n == 0 || Errno.current == .crossDeviceLink || Errno.current == .invalidArgument
                || Errno.current == .notPermitted
            {
                // Not copyable in the kernel here (another filesystem, a special file): write it.
                writeAll(source.bytes.baseAddress! + Int(from), left)
                return
            }
            failure = Errno.current
            return
        }
    }

    private func writeAll(_ bytes: UnsafeRawPointer, _ count: Int) {
        var done = 0
        while done < count {
            let n = retryingInterrupts { Glibc.write(descriptor, bytes + done, count - done) }
            guard n > 0 else {
                failure = n < 0 ? Errno.current : .noSpace
                return
            }
            done += n
        }
    }
}
