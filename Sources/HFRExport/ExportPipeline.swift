import CFFmpeg
import Foundation
import HFRMedia
import HFRProbe

#if canImport(Glibc)
    import Glibc
#endif

/// `hfr export`: analyse the input, plan, then one pass over its packets writing the output under
/// a temporary name that is renamed into place only when complete. Nothing is left on failure.
public final class ExportPipeline {
    let settings: ExportSettings
    /// Asked between packets; true stops the export (Ctrl-C).
    let shouldStop: () -> Bool

    public init(settings: ExportSettings, shouldStop: @escaping () -> Bool = { false }) {
        self.settings = settings
        self.shouldStop = shouldStop
    }

    /// Runs the export; `progress` gets the share of the input read (0…1) now and then.
    public func run(fileSize: Int64, progress: ((Double) -> Void)? = nil) throws(ExportFailure) -> ExportReport {
        let started = Date()
        // A conform keeps every frame: with a tagged capture rate the header says all the plan needs.
        var quick: InputAnalysis? = nil
        if case .conform = settings.mode, settings.range == nil, settings.reencode != .always {
            quick = try InputAnalysis.quick(path: settings.input)
        }
        let analysis: InputAnalysis
        if let quick {
            analysis = quick
        } else {
            analysis = try InputAnalysis.analyze(path: settings.input, fileSize: fileSize, range: settings.range)
        }
        let plan = try ExportPlan.make(settings, analysis)
        let temporary = OutputPath.temporary(for: settings.output)
        var report: ExportReport
        do {
            report = try write(to: temporary, analysis: analysis, plan: plan, fileSize: fileSize, progress: progress)
        } catch {
            unlink(temporary)
            throw error
        }
        guard rename(temporary, settings.output) == 0 else {
            let code = errno
            unlink(temporary)
            throw .writing(AVFailure(code: hfr_averror(code), operation: "rename to \(settings.output)"))
        }
        report.elapsedSeconds = Date().timeIntervalSince(started)
        return report
    }

    private func write(
        to path: String, analysis: InputAnalysis, plan: ExportPlan, fileSize: Int64,
        progress: ((Double) -> Void)?
    ) throws(ExportFailure) -> ExportReport {
        let video = analysis.video
        let audio = settings.audio == .mute ? nil : analysis.audio
        let demuxer = try ExportPipeline.openInput(settings.input)
        demuxer.discardStreams(except: Set([video.index] + (audio.map { [$0.index] } ?? [])))
        let format = OutputPath.containerFormat(for: settings.output)
        let muxer = try ExportPipeline.openOutput(path, format: format)
        let videoOut = try VideoOutput(
            demuxer: demuxer, muxer: muxer, info: video, plan: plan, origin: analysis.origin)
        var retimer: AudioRetimer? = nil
        var audioCheck: AudioPacketCheck? = nil
        var audioIndex: Int? = nil
        if let audio {
            do {
                let parameters = try demuxer.codecParameters(ofStream: audio.index)
                if plan.copiesAudio {
                    audioIndex = try muxer.addStream(copying: parameters, timeBase: audio.timeBase)
                    audioCheck = try AudioPacketCheck(parameters: parameters, timeBase: audio.timeBase)
                } else {
                    let made = try AudioRetimer(
                        parameters: parameters, info: audio, plan: plan, origin: analysis.origin,
                        algorithm: settings.audio)
                    retimer = made
                    audioIndex = try muxer.addStream(
                        copying: made.sink.encoder.parameters(), timeBase: made.sink.timeBase)
                }
            } catch let failure as AVFailure {
                throw .writing(failure)
            } catch let failure as ExportFailure {
                throw failure
            } catch {
                throw .processing("\(error)")
            }
        }
        // In key order: a dictionary's order changes from run to run, and so would the file's bytes.
        let tags = ExportMetadata.tags(plan: plan, sourceCaptureRate: analysis.captureRate)
        for (key, value) in tags.sorted(by: { $0.key < $1.key }) {
            muxer.setMetadata(key, value)
        }
        do {
            let isISO = format == "mp4" || format == "mov"
            // Matroska otherwise writes a random segment UID and its version: the same export would
            // give other bytes each run (MP4 needs nothing: it writes neither).
            try muxer.writeHeader(options: isISO ? ["movflags": "+use_metadata_tags"] : ["fflags": "+bitexact"])
        } catch {
            throw .writing(error)
        }
        if let retimer, let audio { try retimer.study(path: settings.input, streamIndex: audio.index) }

        let packet: Packet
        do {
            packet = try Packet()
        } catch {
            throw .processing("\(error)")
        }
        var lastProgress = Date()
        var videoPackets = 0
        var audioPackets = 0
        while true {
            let more: Bool
            do {
                more = try demuxer.read(into: packet)
            } catch {
                throw .badInput("truncated or corrupt (\(error))")
            }
            guard more else { break }
            if shouldStop() { throw .interrupted }
            if packet.isCorrupt || (packet.position.map { $0 + Int64(packet.size) > fileSize } ?? false) {
                throw .badInput("truncated or corrupt: packet at byte \(packet.position ?? -1) is incomplete")
            }
            if packet.streamIndex == video.index {
                videoPackets += 1
                try videoOut.write(packet, to: muxer)
            } else if let audio, packet.streamIndex == audio.index, let audioIndex {
                audioPackets += 1
                if let retimer {
                    try retimer.push(packet, to: muxer, stream: audioIndex)
                } else {
                    try audioCheck?.check(packet)
                    try copyAudio(
                        packet, info: audio, plan: plan, origin: analysis.origin, muxer: muxer, index: audioIndex)
                }
            }
            if let progress, let position = packet.position, Date().timeIntervalSince(lastProgress) > 0.5 {
                lastProgress = Date()
                progress(Double(position) / Double(max(1, fileSize)))
            }
        }
        for (info, read) in [(video, videoPackets)] + (audio.map { [($0, audioPackets)] } ?? [])
        where info.declaredFrameCount > Int64(read) {
            throw .badInput(
                "truncated: stream #\(info.index) has \(read) of the \(info.declaredFrameCount) frames its index lists")
        }
        try videoOut.finish(to: muxer)
        if let retimer, let audioIndex { try retimer.finish(to: muxer, stream: audioIndex) }
        do {
            try muxer.finish()
        } catch {
            throw .writing(error)
        }
        var report = ExportReport(
            input: settings.input, output: settings.output, captureRate: analysis.captureRate,
            captureRateSource: analysis.captureRateSource.rawValue, outputRate: plan.outputRate,
            map: plan.map, start: plan.start, end: plan.end,
            levelSignalling: analysis.layerSignalling?.rawValue ?? "not analysed (every frame kept)",
            isReencoded: plan.layers == nil,
            reencodeReason: plan.reencodeReason,
            audioAlgorithm: audio == nil ? "none" : plan.copiesAudio ? "copy" : settings.audio.rawValue,
            inputDuration: analysis.end, outputDuration: plan.outputDuration, notes: plan.notes)
        report.framesIn = videoOut.framesIn
        report.framesOut = videoOut.framesOut
        report.droppedByLevel = videoOut.droppedByLevel
        if let retimer {
            report.audioSampleRate = retimer.sampleRate
            report.audioSamples = retimer.outputSamples
        }
        return report
    }

    private static func openInput(_ path: String) throws(ExportFailure) -> Demuxer {
        do {
            return try Demuxer(url: path)
        } catch {
            throw .reading(error)
        }
    }

    private static func openOutput(_ path: String, format: String) throws(ExportFailure) -> Muxer {
        do {
            return try Muxer(path: path, format: format)
        } catch {
            throw .writing(error)
        }
    }

    /// Speed 1 throughout: audio packets inside the range are copied, shifted to the output's start.
    private func copyAudio(
        _ packet: Packet, info: StreamInfo, plan: ExportPlan, origin: Rational, muxer: borrowing Muxer, index: Int
    ) throws(ExportFailure) {
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
