/// The unit a Matroska output counts its timestamps in: the file's `TimestampScale`, a power of
/// ten nanoseconds. FFmpeg 5.1's muxer always counts milliseconds, which puts 120 fps frames at 0,
/// 8, 17, 25 ms; `Muxer` writes in a finer tick and `MatroskaTimestampScalePatch` makes the file
/// say so.
public struct MatroskaTick: Hashable, Sendable {
    /// Nanoseconds per tick: a power of ten from 10,000 to 1,000,000.
    public let nanoseconds: Int64

    /// FFmpeg's own tick.
    public static let millisecond = MatroskaTick(nanoseconds: 1_000_000)
    /// The finest tick: a block stores its time as a signed 16-bit offset from its cluster's,
    /// ±0.33 s in 10 µs ticks. Blocks lag the block that starts their cluster by the frames a
    /// decoder reorders and by an audio packet (FFmpeg holds one back): at 1 µs (±33 ms) a
    /// 120 fps copy with B-frames and AAC had FFmpeg start a cluster every few blocks.
    public static let finest = MatroskaTick(nanoseconds: 10_000)

    init(nanoseconds: Int64) {
        self.nanoseconds = nanoseconds
    }

    /// The tick for video frames `frameDuration` seconds apart: the coarsest (at most 1 ms) that
    /// times every frame exactly where there is one (25, 50, 100 and 1000 fps keep 1 ms; 2000 fps
    /// get 100 µs), else the coarsest that counts a frame in 1000 ticks or more (30 fps: 10 µs),
    /// never finer than `finest` (120 and 240 fps: 10 µs, frames within 5 µs of their time).
    public init(frameDuration: Rational) {
        let frame = frameDuration * Rational(1_000_000_000)
        var fine = MatroskaTick.millisecond.nanoseconds
        while fine > MatroskaTick.finest.nanoseconds, frame / Rational(fine) < Rational(1000) { fine /= 10 }
        var exact = MatroskaTick.millisecond.nanoseconds
        while exact > fine, !(frame / Rational(exact)).isInteger { exact /= 10 }
        nanoseconds = frame > Rational(0) ? exact : MatroskaTick.millisecond.nanoseconds
    }

    /// The tick as a time base (seconds per tick).
    public var timeBase: Rational { Rational(nanoseconds, 1_000_000_000) }
}
