import HFRProbe

/// Cheap structural checks of an H.264 or HEVC packet that is copied without decoding: a corrupt
/// packet must be refused, not passed on bit-exact. Other codecs are copied unchecked.
enum PacketIntegrity {
    /// Whether the length-prefixed NAL units tile the packet exactly, each with a valid header,
    /// and at least one is a coded slice. Annex B packets are accepted as they are.
    static func isWellFormed(_ data: UnsafeRawBufferPointer, codec: FrameParser.Codec, packaging: NALPackaging) -> Bool
    {
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
            // forbidden_zero_bit must be 0 in both codecs.
            guard header & 0x80 == 0 else { return false }
            switch codec {
            case .h264:
                // Types 0 and 24-31 are unspecified in H.264.
                let type = header & 0x1F
                guard type != 0, type < 24 else { return false }
                if type == 1 || type == 5 || type == 20 { slices += 1 }
            case .hevc:
                // Two-byte header; nuh_temporal_id_plus1 0 is forbidden. Types 0-31 are slices.
                guard length >= 2, data[offset + 1] & 7 != 0 else { return false }
                if (header >> 1) & 0x3F < 32 { slices += 1 }
            }
            offset += length
        }
        return slices > 0
    }
}
