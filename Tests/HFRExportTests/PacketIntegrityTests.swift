import HFRProbe
import Testing

@testable import HFRExport

/// The structural check of copied packets, per codec, on hand-made length-prefixed packets.
@Suite struct PacketIntegrityTests {
    static func packet(_ nals: [[UInt8]]) -> [UInt8] {
        nals.flatMap { [0, 0, 0, UInt8($0.count)] + $0 }
    }

    static func check(_ bytes: [UInt8], _ codec: FrameParser.Codec) -> Bool {
        bytes.withUnsafeBytes {
            PacketIntegrity.isWellFormed($0, codec: codec, packaging: .lengthPrefixed(lengthSize: 4))
        }
    }

    @Test func hevcSlicesWithValidHeadersPass() {
        // A VPS (32) then a TRAIL_R slice (1) in sub-layer 0.
        #expect(Self.check(Self.packet([[32 << 1, 1, 0x0C], [1 << 1, 1, 0xAF]]), .hevc))
    }

    @Test(
        arguments: [
            ("temporal id plus 1 of 0", packet([[1 << 1, 0, 0xAF]])),
            ("forbidden bit set", packet([[0x80 | 1 << 1, 1, 0xAF]])),
            ("no slice", packet([[32 << 1, 1, 0x0C]])),
            ("length past the end", [0, 0, 0, 9, 1 << 1, 1, 0xAF]),
            ("one-byte NAL unit", packet([[1 << 1]])),
        ] as [(String, [UInt8])])
    func brokenHEVCPacketsFail(name: String, bytes: [UInt8]) {
        #expect(!Self.check(bytes, .hevc), "\(name)")
    }

    @Test func h264RulesStayH264() {
        // An H.264 IDR slice is fine; the same bytes read as an HEVC header are not (type 50,
        // nuh_temporal_id_plus1 0).
        let idr = Self.packet([[0x65, 0x88, 0x80]])
        #expect(Self.check(idr, .h264))
        #expect(!Self.check(idr, .hevc))
        #expect(!Self.check(Self.packet([[0x60, 0x88]]), .h264))  // type 0 is unspecified
    }
}
