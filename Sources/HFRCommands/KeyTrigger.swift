import HFRPipeline
import HFRSystem
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// `--trigger key`: Enter or space fires a clip. On a terminal, keys are read as they are pressed
/// (no line editing, no echo; Ctrl-C still stops), and the terminal is put back when recording
/// ends — also after a second Ctrl-C (`SignalPlan.restoresTerminal`). Not on a terminal,
/// each line (or space) read from standard input is one trigger, so a script can pipe them in.
/// A recording in the background of a terminal reads no keys (the other triggers still work).
final class KeyTrigger {
    private final class Flag: Sendable {
        let isSet = Atomic<Bool>(false)
    }
    private let stopped = Flag()
    private var thread: StageThread<Void>?
    private var saved: termios?

    /// Nil when standard input is a terminal this process does not own (started in the
    /// background with `&`): setting or reading it would stop the process (SIGTTOU, SIGTTIN).
    init?(board: TriggerBoard) {
        if isatty(0) != 0, tcgetpgrp(0) != getpgrp() { return nil }
        if isatty(0) != 0 {
            var settings = termios()
            if tcgetattr(0, &settings) == 0 {
                saved = settings
                settings.c_lflag &= ~tcflag_t(ICANON | ECHO)
                settings.c_cc.6 = 1  // VMIN
                settings.c_cc.5 = 0  // VTIME
                tcsetattr(0, TCSANOW, &settings)
            }
        }
        let stopped = stopped
        thread = StageThread(name: "key-trigger") { KeyTrigger.read(board, until: stopped) }
    }

    /// Stops reading and puts the terminal back.
    func stop() {
        stopped.isSet.store(true, ordering: .relaxed)
        thread?.join()
        thread = nil
        if var saved { tcsetattr(0, TCSANOW, &saved) }
        saved = nil
    }

    deinit { stop() }

    /// Reads standard input until `stopped` (checked every 0.1 s) or its end.
    private static func read(_ board: TriggerBoard, until stopped: Flag) {
        var bytes = [UInt8](repeating: 0, count: 64)
        while !stopped.isSet.load(ordering: .relaxed) {
            var descriptor = pollfd(fd: 0, events: Int16(POLLIN), revents: 0)
            guard poll(&descriptor, 1, 100) > 0 else { continue }
            let count = bytes.withUnsafeMutableBytes { Glibc.read(0, $0.baseAddress, $0.count) }
            if count <= 0 {
                if count < 0, errno == EINTR || errno == EAGAIN { continue }
                return  // the end of the input: no more keys will come
            }
            for byte in bytes[..<count] where byte == 10 || byte == 13 || byte == 32 { board.request(.key) }
        }
    }
}
