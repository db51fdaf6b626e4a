import HFRMedia

/// One clip of a triggered recording being written: its packets, moved to start at the key frame
/// it decodes from, go to a crash-safe fragmented MP4 (`name.partial.mp4`) like a recording's;
/// `finalize` then makes the clip file of it.
final class ClipWriter {
    let path: String
    private let partial: String
    private let format: ClipStage.Format
    private let decodeStart: Rational
    /// Where the picture is to be shown from: the window's start in MP4/MOV (an edit list hides
    /// the frames before it), the key frame in Matroska (which has no edit lists).
    private let windowStart: Rational
    /// The frame on screen at `windowStart` (the last one at or before it; else the first after
    /// it): the clip shows it first, so its edit list starts on a frame (one that started between
    /// two frames would be read differently by different players).
    private var shownStart: Rational?
    /// The last frame at or before `windowStart` so far.
    private var onScreenAtStart: Rational?
    private var fragments: FragmentWriter?
    private var failure: String?
    private var shownFrames = 0
    /// Empty frame slots between the frames shown (what the camera dropped, or the encoder had
    /// to): `shownFrames + missingFrames` slots from the first to the last.
    private var missingFrames = 0
    private var lastShown: Rational?
    private var videoEnd: Rational?
    private let frameDuration: Rational

    init(path: String, window: ClipWindow, settings: RecordSettings, format: ClipStage.Format) {
        self.path = path
        partial = RecordSettings.partialPath(for: path)
        self.format = format
        decodeStart = window.decodeStart
        windowStart = Container(output: path).hasEditLists ? window.start : window.decodeStart
        frameDuration = settings.capture.frameRate.reciprocal
        do {
            fragments = try FragmentWriter(
                path: partial, width: format.width, height: format.height, parameterSets: format.parameterSets,
                videoTimeBase: format.videoTimeBase,
                audio: format.audio.map { (parameters: $0.parameters, timeBase: $0.timeBase) },
                captureRate: settings.capture.frameRate, rotation: settings.rotation)
        } catch {
            failure = error.description
            FileSystem.unlink(partial)
        }
    }

    /// Writes a packet of the clip (a new reference to it: the ring may give it to the next clip too).
    func write(_ item: MuxItem) {
        guard let fragments else { return }
        do {
            switch item {
            case .video(let original, let timeBase):
                let packet = try original.reference()
                let time = Rational.seconds(packet.pts ?? 0, in: timeBase)
                let shift = (decodeStart / timeBase).rounded()
                packet.pts = packet.pts.map { $0 - shift }
                packet.dts = packet.dts.map { $0 - shift }
                if time <= windowStart {
                    onScreenAtStart = time
                } else {
                    if shownStart == nil, let first = onScreenAtStart { show(first) }
                    show(time)
                }
                try fragments.write(.video(packet, timeBase: timeBase))
            case .audio(let original, let timeBase):
                let packet = try original.reference()
                // Samples from the key frame: the encoder's priming is not part of a clip.
                let shift = (format.audio?.priming ?? 0) + (decodeStart / timeBase).rounded()
                packet.pts = packet.pts.map { $0 - shift }
                packet.dts = packet.dts.map { $0 - shift }
                try fragments.write(.audio(packet, timeBase: timeBase))
            }
        } catch {
            failure = "\(error)"
            fragments.abandon(path: partial)
            self.fragments = nil
        }
    }

    /// Counts frame `time` as shown (the first one shown starts the clip).
    private func show(_ time: Rational) {
        if shownStart == nil { shownStart = time }
        shownFrames += 1
        // Empty slots between this frame and the one shown before it.
        if let last = lastShown { missingFrames += max(0, Int(((time - last) / frameDuration).rounded()) - 1) }
        lastShown = time
        videoEnd = time + frameDuration
    }

    /// What `finalize` needs of a clip whose packets are all written.
    struct Finished: Sendable {
        var report: ClipReport
        var partial: String
        var preroll: Rational
        /// The audio's sample rate, if the clip has audio.
        var audioRate: Rational?
        var isWritten: Bool
    }

    /// Ends the fragmented file; `wallOrigin`: the first frame's wall-clock time (µs), if known.
    func finish(window: ClipWindow, wallOrigin: Int64?) -> Finished {
        if shownStart == nil, let first = onScreenAtStart { show(first) }
        if let fragments {
            do {
                try fragments.finish()
            } catch {
                failure = error.description
            }
        }
        let shownStart = shownStart ?? windowStart
        let report = ClipReport(
            path: path, start: shownStart, end: videoEnd ?? shownStart, frames: shownFrames,
            missingFrames: missingFrames,
            triggers: window.triggers.map { TriggerEvent(time: $0.time - shownStart, kind: $0.kind) },
            firstFrameWallMicroseconds: wallOrigin.map { $0 + (shownStart * Rational(1_000_000)).rounded() },
            failure: failure)
        let rate = format.audio.map { $0.timeBase.reciprocal }
        return Finished(
            report: report, partial: partial, preroll: shownStart - decodeStart, audioRate: rate,
            isWritten: failure == nil && shownFrames > 0)
    }

    /// Makes the clip file from its fragmented one (on a thread of its own); the report says
    /// what failed, if something did (the fragmented file is then kept: it plays).
    static func finalize(_ clip: Finished, settings: RecordSettings) -> ClipReport {
        var report = clip.report
        guard clip.isWritten else {
            if clip.report.frames == 0, report.failure == nil {
                FileSystem.unlink(clip.partial)
                report.failure = "no frame was captured inside its window"
            }
            return report
        }
        let rate = settings.capture.frameRate
        do {
            // The audio's samples before the shown start are hidden as the video's frames are, and
            // it ends with the video.
            let audio = clip.audioRate.map {
                RecordingFinalizer.AudioTiming(
                    priming: (clip.preroll * $0).rounded(), samples: (report.duration * $0).rounded())
            }
            let wall = report.firstFrameWallMicroseconds ?? Clock.wallMicroseconds
            try RecordingFinalizer.finalize(
                partial: clip.partial, output: report.path, captureRate: rate, audio: audio,
                clip: .init(
                    preroll: clip.preroll, tags: ClipTags.tags(report),
                    creationTime: HFRVersion.creationTimeText(secondsSince1970: wall / 1_000_000)))
        } catch {
            report.failure = error.description
        }
        return report
    }
}
