import HFRMedia
import Testing

/// File names as bytes in strings: every byte sequence comes back as it went in.
struct PathBytesTests {
    @Test(arguments: [
        [UInt8](Array("clip.mp4".utf8)), Array("clip".utf8) + [0xFF] + Array(".mp4".utf8),
        Array("é/ü".utf8), [0xC3], [0xC0, 0x80], [0xED, 0xA0, 0x80], [0xF4, 0x90, 0x80, 0x80], [0x80, 0xBF, 0xFE],
        // The UTF-8 of an escape scalar (U+10EE80, U+10EEFF) is itself escaped byte by byte.
        [0xF4, 0x8E, 0xBA, 0x80], [0xF4, 0x8E, 0xBB, 0xBF], Array("a".utf8) + [0xF4, 0x8E, 0xBA],
    ])
    func bytesRoundTrip(bytes: [UInt8]) {
        let name = PathBytes.string(bytes: bytes)
        #expect(PathBytes.bytes(name) == bytes)
        #expect(
            name.withPathBytes { pointer in Array(UnsafeBufferPointer(start: pointer, count: bytes.count + 1)) }
                == bytes.map { CChar(bitPattern: $0) } + [0])
    }

    @Test func validUTF8IsTheStringItself() {
        #expect(PathBytes.string(bytes: Array("dir/clip é.mp4".utf8)) == "dir/clip é.mp4")
    }

    @Test func displayEscapesOnlyTheBytesThatAreNotUTF8() {
        let name = PathBytes.string(bytes: Array("é".utf8) + [0xFF, 0x80] + Array(".mp4".utf8))
        #expect(name.displayPath == "é\\xff\\x80.mp4")
        #expect(PathBytes.string(bytes: [0xF4, 0x8E, 0xBA, 0x80]).displayPath == "\\xf4\\x8e\\xba\\x80")
    }
}
