/// One sample as the container's index lists it (MP4/MOV sample tables, Matroska cues): where it is
/// and when it is decoded, known without reading it.
public struct IndexEntry: Equatable, Sendable {
    /// Decode timestamp in the stream's time base (MP4/MOV index decode times; presentation
    /// times differ only where the track has composition offsets).
    public let timestamp: Int64
    /// Byte position of the sample in the file.
    public let position: Int64
    /// Size of the sample in bytes.
    public let size: Int
    /// A sync sample (MP4 `stss`): decoding can start here.
    public let isKeyframe: Bool
    /// Needed only to decode others: an edit list hides it (FFmpeg's `AVINDEX_DISCARD_FRAME`).
    public let isDiscarded: Bool

    public init(timestamp: Int64, position: Int64, size: Int, isKeyframe: Bool, isDiscarded: Bool) {
        self.timestamp = timestamp
        self.position = position
        self.size = size
        self.isKeyframe = isKeyframe
        self.isDiscarded = isDiscarded
    }
}
