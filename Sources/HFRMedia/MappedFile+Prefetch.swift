import CFFmpeg

extension MappedFile {
    /// Asks the CPU to start loading the bytes at `offset` (a frame to be parsed soon), when it lies
    /// in the mapping: read later, they are then already on their way. A hint: nothing is read.
    public func prefetch(at offset: Int64) {
        guard let base = bytes.baseAddress, offset >= 0, offset < Int64(bytes.count) else { return }
        hfr_prefetch(base + Int(offset))
    }
}
