internal import CRubberBand
import HFRMedia

/// One Rubber Band instance (R3 "finer" engine) in offline ("studio") mode: the whole input is
/// studied first, so the stretch profile is known in advance, and a key-frame map pins positions
/// of the time map exactly.
///
/// In offline mode Rubber Band pads the start internally and returns output aligned with the input
/// (no start delay to drop); the caller still cuts or pads the end to the exact sample count.
///
/// Input goes in blocks of `processBlock` with the output read after each, and the last block
/// carries the final flag. Measured on Rubber Band 3.1.2 at a 10× stretch: 8192-sample blocks lost
/// 19 % of the output (the engine's output buffer overflows), and a final call without samples
/// lost the last 0.47 s; with both as here it gives ratio × input samples exactly, as its own CLI does.
final class RubberBandLane {
    private let state: RubberBandState
    private let channels: Int
    private let buffer: PlanarBuffer
    private static let block = 8192
    private static let processBlock = 1024
    /// Input not yet processed: at least the last block is held back for the final call.
    private var held: AudioChunk

    /// Why Rubber Band (loaded on first use: CFFmpeg's lazy_rubberband.c) cannot be loaded; nil
    /// once it is. Without it a lane has no state: check first.
    static var loadFailure: String? { hfr_rubberband_load_error().map { String(cString: $0) } }

    /// - Parameters:
    ///   - ratio: output length ÷ input length overall.
    ///   - keyFrames: (input sample, output sample) pairs where the map's speed changes.
    init(sampleRate: Int, channels: Int, ratio: Double, expectedInput: Int, keyFrames: [(Int, Int)]) {
        let window = RubberBandWindow(sampleRate: sampleRate, ratio: ratio)
        let options =
            RubberBandOptionProcessOffline.rawValue | RubberBandOptionThreadingNever.rawValue
            | RubberBandOptionEngineFiner.rawValue | (window == .short ? RubberBandOptionWindowShort.rawValue : 0)
        // Rubber Band prints its WARNING lines at level 0 on stderr: silent below -v.
        let debugLevel: Int32 = LibavLog.verbosity > 0 ? 0 : -1
        rubberband_set_default_debug_level(debugLevel)
        state = rubberband_new(UInt32(sampleRate), UInt32(channels), Int32(options), ratio, 1.0)
        rubberband_set_debug_level(state, debugLevel)
        self.channels = channels
        buffer = PlanarBuffer(channels: channels, capacity: RubberBandLane.block)
        rubberband_set_expected_input_duration(state, UInt32(clamping: expectedInput))
        rubberband_set_max_process_size(state, UInt32(RubberBandLane.processBlock))
        pendingKeyFrames = keyFrames
        held = AudioChunk(planes: Array(repeating: [], count: channels))
    }

    private var pendingKeyFrames: [(Int, Int)]

    deinit { rubberband_delete(state) }

    /// First pass: lets Rubber Band see all of the input (`isFinal` on the last call).
    func study(_ input: AudioChunk, isFinal: Bool) {
        var offset = 0
        repeat {
            let n = min(RubberBandLane.block, input.count - offset)
            buffer.load(input, from: offset, count: n)
            let last = isFinal && offset + n >= input.count
            buffer.constPointers.withUnsafeBufferPointer {
                rubberband_study(state, $0.baseAddress, UInt32(n), last ? 1 : 0)
            }
            offset += n
        } while offset < input.count
    }

    func process(_ input: AudioChunk) -> AudioChunk {
        applyKeyFrames()
        held.append(input)
        var output = AudioChunk(planes: Array(repeating: [], count: channels))
        var offset = 0
        while held.count - offset > RubberBandLane.processBlock {
            output.append(feed(from: offset, count: RubberBandLane.processBlock, isFinal: false))
            offset += RubberBandLane.processBlock
        }
        if offset > 0 { held = held.slice(offset, held.count) }
        return output
    }

    func finish() -> AudioChunk {
        applyKeyFrames()
        var output = AudioChunk(planes: Array(repeating: [], count: channels))
        var offset = 0
        repeat {
            let n = min(RubberBandLane.processBlock, held.count - offset)
            output.append(feed(from: offset, count: n, isFinal: offset + n >= held.count))
            offset += n
        } while offset < held.count
        held = AudioChunk(planes: Array(repeating: [], count: channels))
        return output
    }

    /// Processes `count` held samples from `offset` and reads what they gave.
    private func feed(from offset: Int, count n: Int, isFinal: Bool) -> AudioChunk {
        if n > 0 { buffer.load(held, from: offset, count: n) }
        buffer.constPointers.withUnsafeBufferPointer {
            rubberband_process(state, $0.baseAddress, UInt32(n), isFinal ? 1 : 0)
        }
        return retrieve()
    }

    /// The key-frame map must be set after study and before the first process call.
    private func applyKeyFrames() {
        guard !pendingKeyFrames.isEmpty else { return }
        var from = pendingKeyFrames.map { UInt32(clamping: $0.0) }
        var to = pendingKeyFrames.map { UInt32(clamping: $0.1) }
        rubberband_set_key_frame_map(state, UInt32(from.count), &from, &to)
        pendingKeyFrames = []
    }

    private func retrieve() -> AudioChunk {
        var output = AudioChunk(planes: Array(repeating: [], count: channels))
        while true {
            let available = Int(rubberband_available(state))
            guard available > 0 else { break }
            let n = min(available, RubberBandLane.block)
            let got = buffer.mutablePointers.withUnsafeBufferPointer {
                Int(rubberband_retrieve(state, $0.baseAddress, UInt32(n)))
            }
            guard got > 0 else { break }
            output.append(buffer.chunk(got))
        }
        return output
    }
}
