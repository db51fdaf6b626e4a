import CFFmpeg

extension Frame {
    /// A picture plane's first byte and its stride in bytes, for code that works on the samples
    /// (interpolation); nil when the frame has no such plane. Valid while the frame holds its data;
    /// write only to frames made by `picture(width:height:format:)`.
    public func plane(_ index: Int) -> (bytes: UnsafeMutablePointer<UInt8>, bytesPerLine: Int)? {
        guard (0..<4).contains(index) else { return nil }
        let data = withUnsafeBytes(of: pointer.pointee.data) {
            $0.bindMemory(to: UnsafeMutablePointer<UInt8>?.self)[index]
        }
        let line = withUnsafeBytes(of: pointer.pointee.linesize) { $0.bindMemory(to: Int32.self)[index] }
        guard let data else { return nil }
        return (data, Int(line))
    }
}
