import CV4L2
import HFRMedia

@testable import HFRCapture

/// A V4L2 driver that answers from a script, for driving `V4L2Capture` without a kernel: it grants
/// what was set (or what the test says), hands out plain allocated memory as buffers, and each
/// DQBUF takes the next step of the script — a frame written into the oldest queued buffer, or an errno.
final class ScriptedV4L2Driver: V4L2Driver {
    /// What one DQBUF answers.
    enum Step {
        /// A filled buffer: the picture of `sequence`, `bytesUsed` bytes of it (nil: all).
        case frame(sequence: UInt32, flags: UInt32 = 0, bytesUsed: Int? = nil)
        /// DQBUF fails with this errno.
        case fail(Errno)
    }

    /// The YU12 picture every buffer holds: 16x8 with rows padded to 20 bytes (chroma to 10).
    static let (width, height, bytesPerLine) = (16, 8, 20)
    static let pictureSize = 20 * 8 + 10 * 4 * 2
    /// Buffers are longer than the picture, as drivers round them to pages.
    static let bufferLength = 320

    var script: [Step]
    /// The size the driver holds after S_FMT; nil: the one set.
    var grantedSize: (width: Int, height: Int)?
    /// The frame interval the driver holds after S_PARM; nil: the one set.
    var grantedInterval: v4l2_fract?
    /// The capture time (µs) of the first frame; the rest follow at 60 fps.
    var firstTimestamp: Int64 = 1_000_000
    /// At most this many buffers are granted.
    var bufferLimit: UInt32 = 4
    /// A multi-planar node: QUERYCAP says `V4L2_CAP_VIDEO_CAPTURE_MPLANE`, formats are `pix_mp`,
    /// and each plane of a buffer is a mapping of its own (`planeLayout`).
    var isMultiplanar = false
    /// Where the picture starts in each plane of a multi-planar buffer (`data_offset`).
    var dataOffset = 0

    /// The node's controls (VIDIOC_QUERY_EXT_CTRL, G_CTRL, S_CTRL), in id order; none by default.
    var controls: [Control] = []
    /// What S_CTRL keeps of a value for a control id (a driver that rounds or ignores it); nil: the value.
    var keeps: [UInt32: (Int32) -> Int32] = [:]

    /// One simple control: its id, name, type (`V4L2_CTRL_TYPE_*`), range and current value.
    struct Control {
        var id: UInt32
        var name: String
        var type: v4l2_ctrl_type
        var minimum: Int64
        var maximum: Int64
        var step: UInt64 = 1
        var value: Int32
    }

    /// Every request made, by name, in order (with `mmap`/`munmap` and `poll` that found nothing).
    private(set) var calls: [String] = []
    private(set) var buffers: [UnsafeMutableRawBufferPointer] = []
    private(set) var unmapped = 0
    private var queued: [UInt32] = []
    private(set) var format = v4l2_format()
    private var timePerFrame = v4l2_fract(numerator: 1, denominator: 60)
    private var firstSequence: UInt32?

    init(script: [Step] = []) { self.script = script }

    deinit { for buffer in buffers where buffer.baseAddress != nil { buffer.deallocate() } }

    /// The luma of pixel (`x`, `y`) in the picture of `sequence`.
    static func luma(sequence: UInt32, x: Int, y: Int) -> UInt8 {
        UInt8(truncatingIfNeeded: Int(sequence) * 7 + x + y * 16)
    }

    /// The chroma of the picture of `sequence` (flat).
    static func chroma(sequence: UInt32) -> (u: UInt8, v: UInt8) {
        (UInt8(truncatingIfNeeded: 100 + Int(sequence)), UInt8(truncatingIfNeeded: 200 + Int(sequence)))
    }

    func ioctl(_ request: V4L2Request, _ argument: UnsafeMutableRawPointer) -> Errno? {
        calls.append(request.name)
        switch request.code {
        case V4L2Request.queryCap.code:
            argument.assumingMemoryBound(to: v4l2_capability.self).pointee.capabilities =
                UInt32(isMultiplanar ? V4L2_CAP_VIDEO_CAPTURE_MPLANE : V4L2_CAP_VIDEO_CAPTURE)
                | UInt32(V4L2_CAP_STREAMING)
        case V4L2Request.sFmt.code: format = argument.assumingMemoryBound(to: v4l2_format.self).pointee
        case V4L2Request.gFmt.code: argument.assumingMemoryBound(to: v4l2_format.self).pointee = grantedFormat
        case V4L2Request.sParm.code:
            timePerFrame = argument.assumingMemoryBound(to: v4l2_streamparm.self).pointee.parm.capture.timeperframe
        case V4L2Request.gParm.code:
            argument.assumingMemoryBound(to: v4l2_streamparm.self).pointee.parm.capture.timeperframe =
                grantedInterval ?? timePerFrame
        case V4L2Request.reqBufs.code:
            let request = argument.assumingMemoryBound(to: v4l2_requestbuffers.self)
            request.pointee.count = min(request.pointee.count, bufferLimit)
        case V4L2Request.queryBuf.code:
            let buffer = argument.assumingMemoryBound(to: v4l2_buffer.self)
            guard isMultiplanar else {
                buffer.pointee.length = UInt32(ScriptedV4L2Driver.bufferLength)
                buffer.pointee.m.offset = buffer.pointee.index * 4096
                return nil
            }
            guard buffer.pointee.length >= UInt32(planeLayout.count), let planes = buffer.pointee.m.planes else {
                return .invalidArgument
            }
            for p in planeLayout.indices {
                planes[p].length = UInt32(ScriptedV4L2Driver.bufferLength)
                planes[p].m.mem_offset = buffer.pointee.index * 4096 + UInt32(p) * 1024
            }
        case V4L2Request.qBuf.code: queued.append(argument.assumingMemoryBound(to: v4l2_buffer.self).pointee.index)
        case V4L2Request.dqBuf.code: return dequeue(into: argument.assumingMemoryBound(to: v4l2_buffer.self))
        case V4L2Request.streamOn.code, V4L2Request.streamOff.code: break
        case V4L2Request.queryExtCtrl.code:
            return queryControl(argument.assumingMemoryBound(to: v4l2_query_ext_ctrl.self))
        case V4L2Request.gCtrl.code, V4L2Request.sCtrl.code:
            let c = argument.assumingMemoryBound(to: v4l2_control.self)
            guard let i = controls.firstIndex(where: { $0.id == c.pointee.id }) else { return .invalidArgument }
            if request.code == V4L2Request.gCtrl.code {
                c.pointee.value = controls[i].value
            } else {
                controls[i].value = keeps[c.pointee.id]?(c.pointee.value) ?? c.pointee.value
            }
        default: return .invalidArgument
        }
        return nil
    }

    func map(length: Int, offset: Int) -> Result<UnsafeMutableRawBufferPointer, Errno> {
        calls.append("mmap")
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: length, alignment: 64)
        buffer.initializeMemory(as: UInt8.self, repeating: 0xEE)
        buffers.append(buffer)
        return .success(buffer)
    }

    func unmap(_ buffer: UnsafeMutableRawBufferPointer) {
        calls.append("munmap")
        unmapped += 1
    }

    func waitReadable(milliseconds: Int32) -> Result<Bool, Errno> {
        if script.isEmpty { calls.append("poll") }
        return .success(!script.isEmpty)
    }

    /// VIDIOC_QUERY_EXT_CTRL with V4L2_CTRL_FLAG_NEXT_CTRL: the first control after the id asked.
    private func queryControl(_ query: UnsafeMutablePointer<v4l2_query_ext_ctrl>) -> Errno? {
        let after = query.pointee.id & ~(HFR_V4L2_CTRL_FLAG_NEXT_CTRL | HFR_V4L2_CTRL_FLAG_NEXT_COMPOUND)
        guard let c = controls.sorted(by: { $0.id < $1.id }).first(where: { $0.id > after }) else {
            return .invalidArgument
        }
        var answer = v4l2_query_ext_ctrl()
        answer.id = c.id
        answer.type = c.type.rawValue
        answer.minimum = c.minimum
        answer.maximum = c.maximum
        answer.step = c.step
        answer.default_value = Int64(c.value)
        withUnsafeMutableBytes(of: &answer.name) { name in
            for (i, byte) in c.name.utf8.prefix(name.count - 1).enumerated() { name[i] = byte }
        }
        query.pointee = answer
        return nil
    }

    /// The planes (stride, bytes) of the format set on a multi-planar node, at 16x8 with luma rows
    /// of 20 bytes: YM12/YM21 in three, NM12 in two, one-buffer layouts in one.
    var planeLayout: [(bytesPerLine: Int, size: Int)] {
        switch V4L2PixelFormat(code: format.fmt.pix_mp.pixelformat).fourCC {
        case "YM12", "YM21": [(20, 160), (10, 40), (10, 40)]
        case "NM12": [(20, 160), (20, 80)]
        default: [(20, ScriptedV4L2Driver.pictureSize)]
        }
    }

    /// What G_FMT answers: the format set, at the granted size, with the padded layout.
    private var grantedFormat: v4l2_format {
        if isMultiplanar { return grantedMultiplanarFormat }
        var granted = format
        granted.fmt.pix.width = UInt32(grantedSize?.width ?? Int(format.fmt.pix.width))
        granted.fmt.pix.height = UInt32(grantedSize?.height ?? Int(format.fmt.pix.height))
        granted.fmt.pix.bytesperline = UInt32(ScriptedV4L2Driver.bytesPerLine)
        granted.fmt.pix.sizeimage = UInt32(ScriptedV4L2Driver.pictureSize)
        return granted
    }

    /// G_FMT on a multi-planar node: `pix_mp` with each plane's stride and size.
    private var grantedMultiplanarFormat: v4l2_format {
        var granted = format
        granted.fmt.pix_mp.width = UInt32(grantedSize?.width ?? Int(format.fmt.pix_mp.width))
        granted.fmt.pix_mp.height = UInt32(grantedSize?.height ?? Int(format.fmt.pix_mp.height))
        let layout = planeLayout
        granted.fmt.pix_mp.num_planes = UInt8(layout.count)
        withUnsafeMutableBytes(of: &granted.fmt.pix_mp.plane_fmt) { raw in
            let planes = raw.bindMemory(to: v4l2_plane_pix_format.self)
            for (p, plane) in layout.enumerated() {
                planes[p].bytesperline = UInt32(plane.bytesPerLine)
                planes[p].sizeimage = UInt32(plane.size)
            }
        }
        return granted
    }

    /// Takes the next step: fills the oldest queued buffer with the picture of the sequence number.
    private func dequeue(into buffer: UnsafeMutablePointer<v4l2_buffer>) -> Errno? {
        guard !script.isEmpty else { return .tryAgain }
        switch script.removeFirst() {
        case .fail(let error):
            return error
        case .frame(let sequence, let flags, let bytesUsed):
            guard !queued.isEmpty else { return .tryAgain }
            let index = queued.removeFirst()
            if isMultiplanar {
                guard let planes = buffer.pointee.m.planes else { return .invalidArgument }
                fillPlanes(planes, of: Int(index), sequence: sequence, lastPlaneBytes: bytesUsed)
            } else {
                draw(sequence: sequence, into: buffers[Int(index)])
            }
            // Timestamps follow the sequence numbers at 60 fps, wrapping with them.
            let first = firstSequence ?? sequence
            firstSequence = first
            let micros = firstTimestamp + Int64(sequence &- first) * 1_000_000 / 60
            buffer.pointee.index = index
            buffer.pointee.sequence = sequence
            buffer.pointee.flags = flags
            buffer.pointee.bytesused = UInt32(bytesUsed ?? ScriptedV4L2Driver.pictureSize)
            buffer.pointee.timestamp = timeval(tv_sec: Int(micros / 1_000_000), tv_usec: Int(micros % 1_000_000))
            return nil
        }
    }

    /// Writes the YU12 picture of `sequence` with its row padding (padding bytes stay 0xEE).
    private func draw(sequence: UInt32, into buffer: UnsafeMutableRawBufferPointer) {
        let (width, height, stride) = (
            ScriptedV4L2Driver.width, ScriptedV4L2Driver.height, ScriptedV4L2Driver.bytesPerLine
        )
        for y in 0..<height {
            for x in 0..<width { buffer[y * stride + x] = ScriptedV4L2Driver.luma(sequence: sequence, x: x, y: y) }
        }
        let (u, v) = ScriptedV4L2Driver.chroma(sequence: sequence)
        let lumaSize = stride * height
        let chromaSize = stride / 2 * height / 2
        for y in 0..<height / 2 {
            for x in 0..<width / 2 {
                buffer[lumaSize + y * stride / 2 + x] = u
                buffer[lumaSize + chromaSize + y * stride / 2 + x] = v
            }
        }
    }

    /// Draws the picture of `sequence` into the planes of buffer `index` from `dataOffset` on and
    /// says how much each holds (the last plane `lastPlaneBytes` of picture, when given).
    private func fillPlanes(
        _ planes: UnsafeMutablePointer<v4l2_plane>, of index: Int, sequence: UInt32, lastPlaneBytes: Int?
    ) {
        let layout = planeLayout
        let mapped = (0..<layout.count).map { buffers[index * layout.count + $0] }
        let fourCC = V4L2PixelFormat(code: format.fmt.pix_mp.pixelformat).fourCC
        if layout.count == 1 {
            draw(sequence: sequence, into: UnsafeMutableRawBufferPointer(rebasing: mapped[0][dataOffset...]))
        } else {
            drawPlanes(sequence: sequence, fourCC: fourCC, into: mapped.map { .init(rebasing: $0[dataOffset...]) })
        }
        for (p, plane) in layout.enumerated() {
            let bytes = p == layout.count - 1 ? lastPlaneBytes ?? plane.size : plane.size
            planes[p].bytesused = UInt32(dataOffset + bytes)
            planes[p].data_offset = UInt32(dataOffset)
        }
    }

    /// The picture of `sequence` in separate planes: luma, then Cb and Cr (YM12), Cr and Cb (YM21),
    /// or CbCr interleaved (NM12).
    private func drawPlanes(sequence: UInt32, fourCC: String, into planes: [UnsafeMutableRawBufferPointer]) {
        for y in 0..<ScriptedV4L2Driver.height {
            for x in 0..<ScriptedV4L2Driver.width {
                planes[0][y * 20 + x] = ScriptedV4L2Driver.luma(sequence: sequence, x: x, y: y)
            }
        }
        let (u, v) = ScriptedV4L2Driver.chroma(sequence: sequence)
        for y in 0..<ScriptedV4L2Driver.height / 2 {
            for x in 0..<ScriptedV4L2Driver.width / 2 {
                switch fourCC {
                case "NM12":
                    planes[1][y * 20 + 2 * x] = u
                    planes[1][y * 20 + 2 * x + 1] = v
                default:
                    let (cb, cr) = fourCC == "YM21" ? (2, 1) : (1, 2)
                    planes[cb][y * 10 + x] = u
                    planes[cr][y * 10 + x] = v
                }
            }
        }
    }
}
