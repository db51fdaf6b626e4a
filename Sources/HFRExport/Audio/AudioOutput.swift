import HFRMedia

/// The output's audio stream: packets copied (speed 1 throughout; each one decoded on the side to
/// refuse corrupt ones) or decoded, retimed and re-encoded by an `AudioRetimer` (in the dry run a
/// `PlannedRetime`, which decodes the packets alike and counts the samples without making them).
final class AudioOutput {
    private enum Mode {
        case copy(AudioPacketCheck)
        case retime(AudioRetimer)
        case planned(PlannedRetime)
    }

    let info: StreamInfo
    let index: Int
    private let mode: Mode
    private let plan: ExportPlan
    private let origin: Rational
    private(set) var packetsIn = 0

    /// Sets up the output `planned` says (`TrackPlan.audio`): copied, or retimed into its encoder.
    init(
        demuxer: borrowing Demuxer, sink: any PacketSink, planned: TrackPlan, plan: ExportPlan, origin: Rational,
        algorithm: ExportSettings.AudioAlgorithm
    ) throws(ExportFailure) {
        let info = planned.stream
        self.info = info
        self.plan = plan
        self.origin = origin
        var track: OutputTrack
        do {
            let parameters = try demuxer.codecParameters(ofStream: info.index)
            if let codec = planned.encoder {
                let rate = AudioEncoderSink.sampleRate(codec: codec, source: info.sampleRate)
                track = OutputTrack(
                    .audio, codec: planned.codec, source: info, method: plan.copiesAudio ? .reencode : .stretch,
                    timeBase: Rational(1, Int64(rate)))
                track.algorithm = plan.copiesAudio ? nil : algorithm.rawValue
                track.reason = planned.reason
                if sink.encodes {
                    let retimer = try AudioRetimer(
                        parameters: parameters, info: info, plan: plan, origin: origin, algorithm: algorithm,
                        codec: codec)
                    track.parameters = try retimer.sink.encoder.parameters()
                    track.timeBase = retimer.sink.timeBase
                    mode = .retime(retimer)
                } else {
                    mode = .planned(try PlannedRetime(parameters: parameters, info: info, plan: plan))
                }
            } else {
                track = OutputTrack(.audio, codec: info.codecName, source: info, method: .copy, timeBase: info.timeBase)
                track.parameters = parameters
                mode = .copy(try AudioPacketCheck(parameters: parameters, timeBase: info.timeBase))
                try AudioOutput.requireDescribed(info)
            }
        } catch let failure as AVFailure where failure.stage == .decoding {
            // The side check's decoder does not open on the input's audio configuration.
            throw .of("audio decoder configuration is corrupt", failure)
        } catch {
            throw .settingUpOutput(error)
        }
        track.keepsIdentity = true
        index = try sink.add(track)
    }

    /// Before the first sample is written: the retimer finds the onsets (and spectral opens its
    /// study reader).
    func prepare(input path: String) throws(ExportFailure) {
        if case .retime(let retimer) = mode { try retimer.prepare(path: path, streamIndex: info.index) }
    }

    /// Copies or retimes one source packet.
    func write(_ packet: Packet, to sink: any PacketSink) throws(ExportFailure) {
        packetsIn += 1
        switch mode {
        case .retime(let retimer):
            try retimer.push(packet, to: sink, stream: index)
        case .planned(let planned):
            try planned.push(packet)
        case .copy(let check):
            try check.check(packet)
            try copy(packet, to: sink)
        }
    }

    /// Drains the retimer (a copy has nothing left).
    func finish(to sink: any PacketSink) throws(ExportFailure) {
        switch mode {
        case .retime(let retimer): try retimer.finish(to: sink, stream: index)
        case .planned(let planned): try planned.push(nil)
        case .copy: break
        }
    }

    /// The retimed track's rate and length; nil when copied.
    var retimedSamples: (sampleRate: Int, samples: Int64)? {
        switch mode {
        case .retime(let retimer): (retimer.sampleRate, retimer.outputSamples)
        case .planned(let planned): (planned.sampleRate, planned.outputSamples)
        case .copy: nil
        }
    }

    /// Speed 1 throughout: packets inside the range are copied, shifted to the output's start (the
    /// audio's lead, `AudioLead`, before the first frame).
    private func copy(_ packet: Packet, to sink: any PacketSink) throws(ExportFailure) {
        guard let pts = packet.pts else { return }
        let t = Rational.seconds(pts, in: info.timeBase) - origin
        let end = t + Rational.seconds(packet.duration, in: info.timeBase)
        // Whole packets: the first one reaching into the range through the last one starting in it.
        guard end > plan.audioStart || plan.start == Rational(0), t < plan.end else { return }
        let offset = ((plan.audioStart + origin) / info.timeBase).rounded()
        packet.pts = pts - offset
        packet.dts = packet.dts.map { $0 - offset }
        try sink.write(packet, from: info.timeBase, to: index)
    }
}

extension AudioOutput {
    /// A track the file announces but never describes (an MPEG-TS stream whose PID appears half-way:
    /// 0 Hz, no channels) is the input's fault, said once its decoder opened (a configuration no
    /// decoder opens is said as such) and before anything is set up for it.
    static func requireDescribed(_ info: StreamInfo) throws(ExportFailure) {
        guard info.sampleRate > 0, info.channels > 0 else {
            throw .badInput(
                "audio stream #\(info.index) has no sample rate or channels (its parameters are never given)")
        }
    }

    /// The plan's word on audio tracks that change format: each retimed track is encoded to what
    /// `container` (a muxer name) stores, its own PCM where it can; any other codec is named.
    static func conversionNotes(_ tracks: [TrackPlan], container: Container) -> [String] {
        tracks.compactMap { t in
            t.encoder.flatMap { conversionNote(t.stream, encoder: $0, container: container) }.map {
                "audio track #\(t.input) (\(t.stream.codecName)) is \($0)"
            }
        }
    }

    /// Into what `track` is retimed by `encoder` when that is not its own codec (`retimed into
    /// AAC: MP4 cannot store PCM`); nil when it is its own codec.
    static func conversionNote(_ track: StreamInfo, encoder codec: String, container: Container) -> String? {
        guard codec != track.codecName else { return nil }
        let name = codec == "libvorbis" ? "Vorbis" : codec.uppercased()
        // Lossless audio that becomes lossy says why.
        let lossless =
            Encoder.isLosslessAudio(track.codecName)
            ? (track.codecName.hasPrefix("pcm_") ? "PCM" : track.codecName.uppercased()) : nil
        let why = lossless.map { ": \(container.displayName) cannot store \($0)" } ?? ""
        return "retimed into \(name)\(why)"
    }
}
