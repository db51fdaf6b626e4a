// hfr-bench interpolate: the frame interpolators on raw video, for scripts/bench-interpolate.
//   hfr-bench interpolate --size WxH --method flow|blend [--factor 4]
//                         [--preset P --downscale D --consistency C --threads T --simd 0|1]
// Reads I420 frames on stdin and writes to stdout each one followed by factor − 1 synthesized
// frames (at 1/factor, 2/factor, ...), the last alone: the frames `hfr export --speed 1/factor` at
// the capture rate would show. Prints the time spent interpolating on stderr.

import Foundation
import HFRInterpolation
import HFRMedia

/// Runs `hfr-bench interpolate` with the words after the subcommand; returns the exit status.
func runInterpolate(_ words: [String]) -> Int32 {
    var options: [String: String] = [:]
    for i in stride(from: 0, to: words.count - 1, by: 2) { options[String(words[i].dropFirst(2))] = words[i + 1] }
    let dims = (options["size"] ?? "").split(separator: "x").compactMap { Int($0) }
    guard dims.count == 2, let method = InterpolationMethod(rawValue: options["method"] ?? "flow"), method != .repeat,
        let factor = Int(options["factor"] ?? "4"), factor >= 2
    else { fail("usage: hfr-bench interpolate --size WxH --method flow|blend [--factor N]") }
    do {
        let interpolator = try makeInterpolator(method, width: dims[0], height: dims[1], options: options)
        let fractions = (1..<factor).map { Double($0) / Double(factor) }
        var previous: Frame?
        var made = 0
        var spent = Duration.zero
        var cpu = 0.0
        while let frame = try readPicture(width: dims[0], height: dims[1]) {
            if let previous {
                try writePicture(previous)
                let start = ContinuousClock.now
                let cpuStart = processCPUSeconds()
                let between = try interpolator.frames(between: previous, and: frame, at: fractions)
                spent += ContinuousClock.now - start
                cpu += processCPUSeconds() - cpuStart
                for picture in between { try writePicture(picture) }
                made += between.count
            }
            previous = frame
        }
        if let previous { try writePicture(previous) }
        let seconds = Double(spent.components.seconds) + Double(spent.components.attoseconds) * 1e-18
        let rate = seconds > 0 ? Double(made) / seconds : 0
        let line =
            "interpolated \(made) frames in \(String(format: "%.3f", seconds)) s: "
            + "\(String(format: "%.1f", rate)) frames/s; \(String(format: "%.1f", Double(made) / max(cpu, 1e-9))) "
            + "frames per CPU second\n"
        FileHandle.standardError.write(Data(line.utf8))
        return 0
    } catch {
        fail("\(error)")
    }
}

/// CPU time of this process so far (all threads), in seconds.
private func processCPUSeconds() -> Double {
    var usage = rusage()
    getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
    let user = Double(usage.ru_utime.tv_sec) + Double(usage.ru_utime.tv_usec) * 1e-6
    return user + Double(usage.ru_stime.tv_sec) + Double(usage.ru_stime.tv_usec) * 1e-6
}

private func makeInterpolator(
    _ method: InterpolationMethod, width: Int, height: Int, options: [String: String]
) throws -> any FrameInterpolator {
    guard method == .flow else {
        guard let made = try Interpolators.make(method, width: width, height: height) else { fail("no interpolator") }
        return made
    }
    var settings = FlowInterpolator.Settings.standard
    if let v = options["preset"].flatMap(Int.init) { settings.preset = v }
    if let v = options["downscale"].flatMap(Int.init) { settings.downscale = v }
    if let v = options["consistency"].flatMap(Double.init) { settings.consistency = v }
    if let v = options["threads"].flatMap(Int.init) { settings.threads = v }
    if let v = options["simd"] { settings.simd = v != "0" }
    return try FlowInterpolator(width: width, height: height, settings: settings)
}

/// One I420 picture from stdin in buffers of its own; nil at the end of the input.
private func readPicture(width: Int, height: Int) throws -> Frame? {
    let frame = try Frame.picture(width: width, height: height, format: .yuv420p)
    for (index, (w, h)) in planeSizes(width: width, height: height).enumerated() {
        guard let plane = frame.plane(index) else { return nil }
        // One read per plane when its rows are contiguous, else one per row.
        if plane.bytesPerLine == w {
            guard readFully(plane.bytes, count: w * h) else { return nil }
        } else {
            for y in 0..<h where !readFully(plane.bytes + y * plane.bytesPerLine, count: w) { return nil }
        }
    }
    return frame
}

private func writePicture(_ frame: Frame) throws {
    for (index, (w, h)) in planeSizes(width: frame.width, height: frame.height).enumerated() {
        guard let plane = frame.plane(index) else { fail("picture without plane \(index)") }
        if plane.bytesPerLine == w {
            writeFully(plane.bytes, count: w * h)
        } else {
            for y in 0..<h { writeFully(plane.bytes + y * plane.bytesPerLine, count: w) }
        }
    }
}

private func writeFully(_ bytes: UnsafeMutablePointer<UInt8>, count: Int) {
    var done = 0
    while done < count {
        let n = write(1, bytes + done, count - done)
        guard n > 0 else { fail("cannot write stdout") }
        done += n
    }
}

private func planeSizes(width: Int, height: Int) -> [(Int, Int)] {
    [(width, height), ((width + 1) / 2, (height + 1) / 2), ((width + 1) / 2, (height + 1) / 2)]
}

private func readFully(_ bytes: UnsafeMutablePointer<UInt8>, count: Int) -> Bool {
    var done = 0
    while done < count {
        let n = read(0, bytes + done, count - done)
        guard n > 0 else { return false }
        done += n
    }
    return true
}
