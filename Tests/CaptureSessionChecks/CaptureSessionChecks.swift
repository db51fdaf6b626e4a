import Foundation
import HFRCapture
import HFRMedia

/// The one `CaptureSession` suite, run by HFRCaptureTests against the test source and a filter
/// graph and by DeviceTests inside the VM against vivid's V4L2 devices (own capture, libavdevice,
/// multi-planar): the whole life of a session — open, the grant, start, frames, stop, release —
/// checked the same way on every backend. Returns what went wrong (empty: the session conforms),
/// so each test target reports it with its own `#expect`.
public enum CaptureSessionChecks {
    /// What one run saw, for the test's log.
    public struct Run: Sendable {
        public var grant: CaptureGrant?
        public var frames = 0
        /// Slots of the rate's grid the frames skipped (a camera's drops).
        public var skippedSlots = 0
        public var problems: [String] = []
    }

    /// Opens `request`, starts it, reads `frames` pictures, stops it, and opens and starts it again
    /// (which fails if the first session kept the device).
    public static func run(_ request: CaptureSession.Request, frames: Int = 24) -> Run {
        var run = Run()
        let session: CaptureSession
        do {
            session = try CaptureSession.open(request)
        } catch {
            run.problems.append("open: \(error)")
            return run
        }
        checkGrant(session.granted, of: request, started: false, into: &run.problems)
        do {
            try session.start()
        } catch {
            run.problems.append("start: \(error)")
            return run
        }
        run.grant = session.granted
        checkGrant(session.granted, of: request, started: true, into: &run.problems)
        if session.state != .streaming { run.problems.append("started, the state is \(session.state)") }
        if session.videoWidth != session.granted.width || session.videoHeight != session.granted.height {
            run.problems.append(
                "the source delivers \(session.videoWidth)x\(session.videoHeight), the grant says "
                    + "\(session.granted.width)x\(session.granted.height)")
        }
        let isCamera = if case .camera = request { true } else { false }
        let ownCapture = if case .camera(let c) = request { c.api == .own } else { false }
        if (session.losses != nil) != ownCapture {
            run.problems.append("losses are \(session.losses == nil ? "not " : "")counted by this backend")
        }
        read(session, frames: frames, into: &run)
        session.stop()
        if session.state != .stopped { run.problems.append("stopped, the state is \(session.state)") }
        if session.device != nil { run.problems.append("a stopped session still holds the device") }
        if let item = try? session.next() { run.problems.append("a stopped session delivered \(item)") }
        // Released: the same request opens and starts again (a held camera would answer EBUSY).
        do {
            let again = try CaptureSession.open(request)
            try again.start()
            again.stop()
        } catch {
            run.problems.append("reopening after stop: \(error)")
        }
        if isCamera, run.grant?.card == nil { run.problems.append("a camera's grant names no card") }
        return run
    }

    /// The grant says what a generated source was asked for, and a camera's names its node and mode.
    static func checkGrant(
        _ grant: CaptureGrant, of request: CaptureSession.Request, started: Bool, into problems: inout [String]
    ) {
        if grant.width <= 0 || grant.height <= 0 || grant.rate <= Rational(0) {
            problems.append("the grant has no mode: \(grant.summary)")
        }
        switch request {
        case .generated(let r):
            if grant.source != r.source || grant.width != r.width || grant.height != r.height
                || grant.rate != r.frameRate
            {
                problems.append("a generated source granted \(grant.summary) for \(r.width)x\(r.height)")
            }
            if grant.card != nil || grant.api != nil { problems.append("a generated source's grant names a camera") }
            if started, grant.pixelFormat == nil { problems.append("started, the grant names no pixel format") }
        case .camera(let c):
            guard case .device(let path) = grant.source, path.hasPrefix("/") else {
                problems.append("a camera's grant names no node: \(grant.source)")
                return
            }
            if grant.api != c.api { problems.append("granted the \(String(describing: grant.api)) capture") }
            if grant.pixelFormat == nil { problems.append("a camera's grant names no FourCC") }
            if let rate = c.mode.rate, grant.rate != rate {
                problems.append("asked for \(rate) fps, granted \(grant.summary)")
            }
            if let size = c.mode.size, size != (grant.width, grant.height) {
                problems.append("asked for \(size.width)x\(size.height), granted \(grant.summary)")
            }
        }
    }

    /// Reads until `frames` pictures arrived (or 20 s passed): each of the granted size, at times
    /// on the rate's grid that only go forward.
    static func read(_ session: CaptureSession, frames: Int, into run: inout Run) {
        let grant = session.granted
        let slot = grant.rate.reciprocal
        var last: Rational?
        let deadline = Date().addingTimeInterval(20)
        while run.frames < frames, Date() < deadline {
            let item: CaptureItem?
            do {
                item = try session.next()
            } catch {
                run.problems.append("frame \(run.frames): \(error)")
                return
            }
            guard let item else {
                run.problems.append("the source ended after \(run.frames) frames")
                return
            }
            guard case .video(let frame, _) = item else { continue }
            run.frames += 1
            if frame.width != grant.width || frame.height != grant.height {
                run.problems.append("frame \(run.frames - 1) is \(frame.width)x\(frame.height)")
            }
            guard let pts = frame.pts else {
                run.problems.append("frame \(run.frames - 1) has no time")
                continue
            }
            let time = Rational(pts) * session.videoTimeBase
            if let last {
                let slots = (time - last) / slot
                if slots <= Rational(0) || !slots.isInteger {
                    run.problems.append("frame \(run.frames - 1) is \(slots) slots after the one before")
                } else {
                    run.skippedSlots += Int(slots.numerator) - 1
                }
            }
            last = time
        }
        if run.frames < frames { run.problems.append("\(run.frames) of \(frames) frames in 20 s") }
    }
}
