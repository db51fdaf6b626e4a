import HFRMedia

/// The export's sink: the muxer writing the output file (under its temporary name), counting what
/// it writes as the dry run's `CountingSink` counts it.
final class MuxerSink: PacketSink {
    private(set) var muxer: Muxer
    let container: Container
    var encodes: Bool { true }
    private(set) var tallies: [TrackTally] = []
    /// Container tags, in the order they are set, and the muxer's header options.
    private let tags: [(key: String, value: String)]
    private let options: [String: String]

    /// Creates `path`; with `file`, video packets view that mapped input (`MappedCopy`).
    init(
        path: String, format: Container, copyingFrom file: MappedFile?, tags: [(key: String, value: String)],
        options: [String: String]
    ) throws(ExportFailure) {
        do {
            if let file {
                muxer = try Muxer(path: path, format: format, copyingFrom: file)
            } else {
                muxer = try Muxer(path: path, format: format)
            }
        } catch {
            throw .writing(error)
        }
        container = format
        self.tags = tags
        self.options = options
    }

    func add(_ track: OutputTrack) throws(ExportFailure) -> Int {
        guard let parameters = track.parameters else {
            throw .processing("no codec parameters for the output's \(track.kind.rawValue) stream")
        }
        let index: Int
        do {
            index = try muxer.addStream(copying: parameters, timeBase: track.timeBase)
            if let presentation = track.presentation { try muxer.apply(presentation, toStream: index) }
        } catch {
            throw .settingUpOutput(error)
        }
        if track.keepsCodecTag { muxer.keepCodecTag(of: parameters, ofStream: index) }
        if let rate = track.frameRate { muxer.setFrameRate(rate, ofStream: index) }
        if track.keepsIdentity { muxer.keepIdentity(of: track.source, onStream: index) }
        for (key, value) in track.tags.sorted(by: { $0.key < $1.key }) {
            muxer.setMetadata(key, value, ofStream: index)
        }
        tallies.append(TrackTally(track))
        return index
    }

    func add(chapters: [Chapter]) throws(ExportFailure) {
        do {
            try muxer.addChapters(chapters)
        } catch {
            throw .writing(error)
        }
    }

    func begin() throws(ExportFailure) {
        for (key, value) in tags { muxer.setMetadata(key, value) }
        do {
            try muxer.writeHeader(options: options)
        } catch {
            throw .writing(error)
        }
    }

    func write(_ packet: Packet, from timeBase: Rational, to stream: Int) throws(ExportFailure) {
        tallies[stream].count(packet, timeBase: timeBase)
        do {
            try muxer.write(packet, from: timeBase, to: stream)
        } catch {
            throw .writing(error)
        }
    }

    func finish() throws(ExportFailure) {
        do {
            try muxer.writeTrailer()
        } catch {
            throw .writing(error)
        }
    }
}
