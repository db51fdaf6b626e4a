import Foundation
import HFRMedia
import HFRTestSupport
import Testing

/// Facts read from a file (a raw stream's presentation order, repaired fragment times) are cached
/// by `FileVersion`: a file rewritten in place, or deleted and made again at the same inode (as
/// temporary files are), must not be taken for the one read before.
@Suite struct FileVersionTests {
    @Test func aFileRewrittenInPlaceIsAnotherVersion() throws {
        let dir = try TemporaryDirectory()
        let path = dir.path("stream.h264")
        try Data(repeating: 1, count: 100).write(to: URL(fileURLWithPath: path))
        let first = try #require(FileVersion(path: path))
        #expect(FileVersion(path: path) == first)
        // Same inode (truncated and rewritten), other content. (The size differs: the kernel's clock
        // for file times is coarse, two writes a few milliseconds apart can have one time.)
        let handle = try #require(FileHandle(forWritingAtPath: path))
        try handle.truncate(atOffset: 0)
        try handle.write(contentsOf: Data(repeating: 2, count: 101))
        try handle.close()
        let second = try #require(FileVersion(path: path))
        #expect(second.identity == first.identity)
        #expect(second != first)
    }

    @Test func aMissingFileHasNoVersion() {
        #expect(FileVersion(path: "/nonexistent/hfr/file.mp4") == nil)
    }
}
