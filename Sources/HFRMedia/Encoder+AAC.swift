import CFFmpeg

extension Encoder {
    /// FFmpeg's AAC-LC encoder for planar float audio at 64 kb/s per channel, its setup in the
    /// container header (MP4, MOV and MKV carry it there): what hfr writes for recordings and exports.
    /// `layout` is FFmpeg's name of the channel layout (nil: the default of `channels`).
    public static func aac(sampleRate: Int, channels: Int, layout: String? = nil) throws(AVFailure) -> Encoder {
        let chosen = channelLayout(named: layout, channels: channels)
        // The "fast" coder (FFmpeg's own default from 2016 to 2018) instead of 5.1's "twoloop", which
        // takes twice as long on low-pitched sound: a 4x varispeed stretch spent 93 % of its time there.
        return try Encoder(name: "aac", options: ["aac_coder": "fast"]) { ctx in
            ctx.pointee.sample_rate = Int32(sampleRate)
            ctx.pointee.sample_fmt = AV_SAMPLE_FMT_FLTP
            ctx.pointee.ch_layout = chosen
            ctx.pointee.bit_rate = Int64(64_000 * channels)
            ctx.pointee.time_base = AVRational(num: 1, den: Int32(sampleRate))
            ctx.pointee.flags |= AV_CODEC_FLAG_GLOBAL_HEADER
        }
    }
}
