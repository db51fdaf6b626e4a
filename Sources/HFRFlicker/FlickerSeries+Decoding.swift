import HFRMedia

extension FlickerSeries {
    /// Decodes `stream` of `input` from its start (without deblocking, which smooths edges, not
    /// brightness) and measures every picture that decodes whole at the real time `time` gives its
    /// pts (nil: not measured). `proceed` sees each of the stream's packets before it is decoded
    /// and ends the reading by returning false (or throwing); it ends too once `limit` pictures
    /// are measured.
    public mutating func measure(
        _ input: MediaInput, stream: StreamInfo, threads: Int, limit: Int = .max, time: (Int64) -> Double?,
        proceed: (Packet) throws -> Bool = { _ in true }
    ) throws {
        let demuxer = try Demuxer(input: input)
        demuxer.discardStreams(except: [stream.index])
        let decoder = try Decoder(
            parameters: demuxer.codecParameters(ofStream: stream.index), timeBase: stream.timeBase, threads: threads,
            skipsLoopFilter: true)
        var pictures = try PictureLevels(width: stream.width, height: stream.height)
        let packet = try Packet()
        let frame = try Frame()
        var more = true
        while more, count < limit {
            more = try demuxer.read(into: packet)
            if more, packet.streamIndex != stream.index { continue }
            if more { more = try proceed(packet) }
            _ = try decoder.send(more ? packet : nil)
            while count < limit, case .value = try decoder.receive(into: frame) {
                defer { frame.unref() }
                guard !frame.isCorrupt, let pts = frame.bestEffortTimestamp, let t = time(pts),
                    let (picture, levels) = try pictures.readable(frame)
                else { continue }
                add(picture, levels: levels, time: t)
            }
        }
    }
}
