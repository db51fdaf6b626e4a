import HFRMedia

/// The output's audio stream: packets copied (speed 1 throughout; each one decoded on the side to
/// refuse corrupt ones) or decoded, retimed and re-encoded by an `AudioRetimer`.
final class AudioOutput {
    private enum Mode {
        case copy(AudioPacketCheck)
        case retime(AudioRetimer)
    }

    let info: StreamInfo
    let index: Int
    private let mode: Mode
    private let plan: ExportPlan
    private let origin: Rational
    private(set) var packetsIn = 0

    init(
        demuxer: borrowing Demuxer, muxer: borrowing Muxer, info: StreamInfo, plan: ExportPlan, origin: Rational,
        algorithm: ExportSettings.AudioAlgorithm
    ) throws(ExportFailure) {
        self.info = info
        self.plan = plan
        self.origin = origin
        do {
            let parameters = try demuxer.codecParameters(ofStream: info.index)
            if AudioOutput.copies(info, plan: plan, container: muxer.formatName) {
                index = try muxer.addStream(copying: parameters, timeBase: info.timeBase)
                mode = .copy(try AudioPacketCheck(parameters: parameters, timeBase: info.timeBase))
            } else {
                let retimer = try AudioRetimer(
                    parameters: parameters, info: info, plan: plan, origin: origin, algorithm: algorithm,
                    format: muxer.formatName)
                index = try muxer.addStream(copying: retimer.sink.encoder.parameters(), timeBase: retimer.sink.timeBase)
                mode = .retime(retimer)
            }
            muxer.keepIdentity(of: info, onStream: index)
        } catch let failure as AVFailure where failure.stage == .decoding {
            // The side check's decoder does not open on the input's audio configuration.
            throw .badInput("audio decoder configuration is corrupt (\(failure))")
        } catch {
            throw .settingUpOutput(error)
        }
    }

    /// Before the first sample is written: the retimer finds the onsets (and spectral opens its
    /// study reader).
    func prepare(input path: String) throws(ExportFailure) {
        if case .retime(let retimer) = mode { try retimer.prepare(path: path, streamIndex: info.index) }
    }

    /// Copies or retimes one source packet.
    func write(_ packet: Packet, to muxer: borrowing Muxer) throws(ExportFailure) {
        packetsIn += 1
        switch mode {
        case .retime(let retimer):
            try retimer.push(packet, to: muxer, stream: index)
        case .copy(let check):
            try check.check(packet)
            try copy(packet, to: muxer)
        }
    }

    /// Drains the retimer (a copy has nothing left).
    func finish(to muxer: borrowing Muxer) throws(ExportFailure) {
        if case .retime(let retimer) = mode { try retimer.finish(to: muxer, stream: index) }
    }

    /// The retimed track's rate and length; nil when copied.
    var retimedSamples: (sampleRate: Int, samples: Int64)? {
        if case .retime(let retimer) = mode { return (retimer.sampleRate, retimer.outputSamples) }
        return nil
    }

    /// Speed 1 throughout: packets inside the range are copied, shifted to the output's start.
    private func copy(_ packet: Packet, to muxer: borrowing Muxer) throws(ExportFailure) {
        guard let pts = packet.pts else { return }
        let t = Rational.seconds(pts, in: info.timeBase) - origin
        let end = t + Rational.seconds(packet.duration, in: info.timeBase)
        // Whole packets: the first one reaching into the range through the last one starting in it.
        guard end > plan.start || plan.start == Rational(0), t < plan.end else { return }
        let offset = ((plan.start + origin) / info.timeBase).rounded()
        packet.pts = pts - offset
        packet.dts = packet.dts.map { $0 - offset }
        do {
            try muxer.write(packet, from: info.timeBase, to: index)
        } catch {
            throw .writing(error)
        }
    }
}

extension AudioOutput {
    /// Whether `track` is copied: speed 1 throughout and a container that stores its codec (else
    /// it goes through the retimer at speed 1, into what the container stores).
    static func copies(_ track: StreamInfo, plan: ExportPlan, container: String) -> Bool {
        plan.copiesAudio && Muxer.accepts(codecID: track.codecID, format: container)
    }

    /// The plan's word on audio tracks that change format: each retimed track is encoded to what
    /// `container` (a muxer name) stores, its own PCM where it can; any other codec is named.
    static func conversionNotes(_ tracks: [StreamInfo], container: String, plan: ExportPlan) -> [String] {
        return tracks.compactMap { track in
            guard !copies(track, plan: plan, container: container) else { return nil }
            let codec = Encoder.retimedAudioCodec(source: track, format: container)
            guard codec != track.codecName else { return nil }
            let name = codec == "libvorbis" ? "Vorbis" : codec.uppercased()
            let why = track.codecName.hasPrefix("pcm_") ? ": \(container.uppercased()) cannot store PCM" : ""
            return "audio track #\(track.index) (\(track.codecName)) is retimed into \(name)\(why)"
        }
    }
}
