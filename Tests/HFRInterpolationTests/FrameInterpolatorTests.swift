import HFRInterpolation
import HFRMedia
import Testing

/// The interpolators on pictures made by ffmpeg: lavfi's test pattern at 240 fps under a panning crop, of which
/// frames 0 and 4 are the captured pair and frames 1, 2 and 3 the truth at 1/4, 1/2 and 3/4.
@Suite struct FrameInterpolatorTests {
    static let width = 480
    static let height = 272
    static let fractions = [0.25, 0.5, 0.75]

    static func pattern() throws -> [Frame] {
        // The pattern animates, and the camera pans over it by 3 and 1 pixels per frame.
        try TestPictures.frames(
            "testsrc2=size=1280x720:rate=240,crop=\(width):\(height):x=200+3*n:y=100+n", width: width, height: height,
            count: 5)
    }

    /// PSNR of each synthesized picture against the dropped original.
    static func scores(_ method: InterpolationMethod, _ frames: [Frame]) throws -> [Double] {
        let interpolator = try #require(try Interpolators.make(method, width: width, height: height))
        let made = try interpolator.frames(between: frames[0], and: frames[4], at: fractions)
        return made.enumerated().map { TestPictures.psnr($0.element, frames[$0.offset + 1]) }
    }

    @Test func flowBeatsBlendOnMovingContent() throws {
        let frames = try Self.pattern()
        let flow = try Self.scores(.flow, frames)
        let blend = try Self.scores(.blend, frames)
        // The pair differs: a still pattern would make the comparison meaningless.
        #expect(TestPictures.psnr(frames[0], frames[4]) < 30)
        for i in flow.indices {
            #expect(flow[i] > blend[i] + 1, "t=\(Self.fractions[i]): flow \(flow[i]) dB, blend \(blend[i]) dB")
        }
    }

    @Test(arguments: [InterpolationMethod.flow, .blend])
    func identicalPicturesGiveThemBack(_ method: InterpolationMethod) throws {
        let frame = try Self.pattern()[2]
        let interpolator = try #require(try Interpolators.make(method, width: Self.width, height: Self.height))
        let made = try interpolator.frames(between: frame, and: frame, at: Self.fractions)
        for picture in made {
            #expect(TestPictures.samples(picture) == TestPictures.samples(frame))
            #expect(picture.pts == nil)
            #expect(picture.pixelFormat == .yuv420p)
        }
    }

    @Test(arguments: [InterpolationMethod.flow, .blend])
    func oneFramePerFraction(_ method: InterpolationMethod) throws {
        let frames = try Self.pattern()
        let interpolator = try #require(try Interpolators.make(method, width: Self.width, height: Self.height))
        for fractions in [[], [0.5], [0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7]] {
            let made = try interpolator.frames(between: frames[0], and: frames[4], at: fractions)
            #expect(made.count == fractions.count)
            #expect(made.allSatisfy { $0.width == Self.width && $0.height == Self.height })
        }
    }

    @Test(arguments: [InterpolationMethod.flow, .blend])
    func mismatchedPicturesAreRefused(_ method: InterpolationMethod) throws {
        let frames = try Self.pattern()
        let interpolator = try #require(try Interpolators.make(method, width: Self.width, height: Self.height))
        let small = try TestPictures.frames("testsrc2=size=320x240", width: 320, height: 240, count: 1)[0]
        #expect(throws: InterpolationError.sizeMismatch(expected: "480x272", found: "320x240")) {
            try interpolator.frames(between: frames[0], and: small, at: [0.5])
        }
        let rgb = try Frame.picture(width: Self.width, height: Self.height, format: .rgb24)
        #expect(throws: InterpolationError.unsupportedFormat("rgb24")) {
            try interpolator.frames(between: rgb, and: frames[1], at: [0.5])
        }
        for bad in [0.0, 1.0, -0.5, .nan] {
            #expect(throws: InterpolationError.self) {
                try interpolator.frames(between: frames[0], and: frames[1], at: [0.5, bad])
            }
        }
    }

    @Test func repeatNeedsNoInterpolator() throws {
        #expect(try Interpolators.make(.repeat, width: 640, height: 480) == nil)
        #expect(InterpolationMethod(rawValue: "flow") == .flow)
        #expect(InterpolationMethod.allCases.map(\.rawValue) == ["flow", "blend", "repeat"])
    }
}

/// Odd sizes (chroma planes rounded up) and sizes too small for the flow.
@Suite struct InterpolatorSizeTests {
    @Test func oddSizedPicturesAreInterpolated() throws {
        let (width, height) = (321, 181)
        let frames = try TestPictures.frames(
            "testsrc2=size=1280x720:rate=240,crop=\(width):\(height):x=200+3*n:y=100+n", width: width, height: height,
            count: 5)
        let flow = try #require(try Interpolators.make(.flow, width: width, height: height))
        let blend = try #require(try Interpolators.make(.blend, width: width, height: height))
        let byFlow = try flow.frames(between: frames[0], and: frames[4], at: [0.5])[0]
        let byBlend = try blend.frames(between: frames[0], and: frames[4], at: [0.5])[0]
        #expect(TestPictures.psnr(byFlow, frames[2]) > TestPictures.psnr(byBlend, frames[2]) + 1)
    }

    @Test func tooSmallForTheFlow() throws {
        #expect(throws: InterpolationError.unsupportedSize("40x40")) {
            try Interpolators.make(.flow, width: 40, height: 40)
        }
        #expect(try Interpolators.make(.blend, width: 40, height: 40) != nil)
    }
}
