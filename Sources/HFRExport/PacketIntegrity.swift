import HFRProbe

/// Cheap structural checks of an H.264 packet that is copied without decoding: a corrupt packet
/// must be refused, not passed on bit-exact.
enum PacketIntegrity {
    /// Whether the length-prefixed NAL units tile the packet exactly, each with a valid header,
    /// and at least one is a coded slice. Annex B packets are accepted as they are.
    static func isWellFormed(_ data: UnsafeRawBufferPointer, packaging: NALPackaging) -> Bool {
        guard case .lengthPrefixed(let lengthSize) = packaging else { return true }
        var offset = 0
        var slices = 0
        while offset < data.count {
            guard offset + lengthSize <= data.count else { return false }
            var length = 0
            for i in 0..<lengthSize { length = length << 8 | Int(data[offset + i]) }
            offset += lengthSize
            guard length > 0, offset + length <= data.count else { return false }
            let header = data[offset]
            // forbidden_zero_bit must be 0; types 0 and 24-31 are unspecified in H.264.
            let type = header & 0x1F
            guard header & 0x80 == 0, type != 0, type < 24 else { return false }
            if type == 1 || type == 5 || type == 20 { slices += 1 }
            offset += length
        }
        return slices > 0
    }
}
