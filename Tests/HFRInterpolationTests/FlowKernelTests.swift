import HFRInterpolation
import HFRMedia
import Testing

/// The flow interpolator's AVX2 loops against its portable ones (what other processors run, and what
/// finishes each row where a vector of 8 pixels no longer fits): the same pictures to rounding.
@Suite struct FlowKernelTests {
    @Test(arguments: [(480, 272), (321, 181)])
    func vectorAndPortableLoopsAgree(width: Int, height: Int) throws {
        let frames = try TestPictures.frames(
            "testsrc2=size=1280x720:rate=240,crop=\(width):\(height):x=200+3*n:y=100+n", width: width, height: height,
            count: 5)
        let made = try [true, false].map { simd in
            var settings = FlowInterpolator.Settings.standard
            settings.simd = simd
            let interpolator = try FlowInterpolator(width: width, height: height, settings: settings)
            return try interpolator.frames(between: frames[0], and: frames[4], at: [0.25, 0.5, 0.75])
        }
        for i in 0..<3 {
            let (vector, portable) = (TestPictures.samples(made[0][i]), TestPictures.samples(made[1][i]))
            let pairs = zip(vector.flatMap { $0 }, portable.flatMap { $0 })
            let differences = pairs.map { abs(Int($0) - Int($1)) }
            #expect(differences.max() ?? 0 <= 2)
            #expect(differences.filter { $0 > 0 }.count * 100 < differences.count, "more than 1% differ")
            let (a, b) = (TestPictures.psnr(made[0][i], frames[i + 1]), TestPictures.psnr(made[1][i], frames[i + 1]))
            #expect(abs(a - b) < 0.05, "PSNR \(a) dB with AVX2, \(b) dB without")
            // Both are motion-compensated: well above the pair's own likeness.
            #expect(b > TestPictures.psnr(frames[0], frames[4]) + 3)
        }
    }
}
