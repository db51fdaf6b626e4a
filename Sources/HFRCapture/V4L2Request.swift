internal import CV4L2

/// A V4L2 ioctl request code with the name every failure of it is reported under, the pair
/// v4l-utils' `doioctl` carries (`VIDIOC_S_FMT on /dev/video2: Invalid argument`).
struct V4L2Request: Sendable, Equatable, CustomStringConvertible {
    /// The request code (built by the kernel's `_IOWR` macros, re-exported by the shim).
    let code: UInt
    /// The request's name in messages (`VIDIOC_S_FMT`).
    let name: String

    var description: String { name }

    /// The same request named with what it acts on: `VIDIOC_S_CTRL (gain)`.
    func naming(_ subject: String) -> V4L2Request { V4L2Request(code: code, name: "\(name) (\(subject))") }

    static let queryCap = V4L2Request(code: HFR_VIDIOC_QUERYCAP, name: "VIDIOC_QUERYCAP")
    static let enumFmt = V4L2Request(code: HFR_VIDIOC_ENUM_FMT, name: "VIDIOC_ENUM_FMT")
    static let enumFrameSizes = V4L2Request(code: HFR_VIDIOC_ENUM_FRAMESIZES, name: "VIDIOC_ENUM_FRAMESIZES")
    static let enumFrameIntervals = V4L2Request(
        code: HFR_VIDIOC_ENUM_FRAMEINTERVALS, name: "VIDIOC_ENUM_FRAMEINTERVALS")
    static let gFmt = V4L2Request(code: HFR_VIDIOC_G_FMT, name: "VIDIOC_G_FMT")
    static let sFmt = V4L2Request(code: HFR_VIDIOC_S_FMT, name: "VIDIOC_S_FMT")
    static let gParm = V4L2Request(code: HFR_VIDIOC_G_PARM, name: "VIDIOC_G_PARM")
    static let sParm = V4L2Request(code: HFR_VIDIOC_S_PARM, name: "VIDIOC_S_PARM")
    static let queryExtCtrl = V4L2Request(code: HFR_VIDIOC_QUERY_EXT_CTRL, name: "VIDIOC_QUERY_EXT_CTRL")
    static let gCtrl = V4L2Request(code: HFR_VIDIOC_G_CTRL, name: "VIDIOC_G_CTRL")
    static let sCtrl = V4L2Request(code: HFR_VIDIOC_S_CTRL, name: "VIDIOC_S_CTRL")
    static let reqBufs = V4L2Request(code: HFR_VIDIOC_REQBUFS, name: "VIDIOC_REQBUFS")
    static let queryBuf = V4L2Request(code: HFR_VIDIOC_QUERYBUF, name: "VIDIOC_QUERYBUF")
    static let qBuf = V4L2Request(code: HFR_VIDIOC_QBUF, name: "VIDIOC_QBUF")
    static let dqBuf = V4L2Request(code: HFR_VIDIOC_DQBUF, name: "VIDIOC_DQBUF")
    static let streamOn = V4L2Request(code: HFR_VIDIOC_STREAMON, name: "VIDIOC_STREAMON")
    static let streamOff = V4L2Request(code: HFR_VIDIOC_STREAMOFF, name: "VIDIOC_STREAMOFF")
}
