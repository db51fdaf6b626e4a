import HFRInterpolation
import HFRMedia
import Testing

/// `CutDetector` on pictures ffmpeg makes: two different sources are a cut, fast motion and a
/// still picture are not.
@Suite struct CutDetectorTests {
    static func thumbnails(_ source: String, count: Int) throws -> [CutDetector.Thumbnail] {
        try TestPictures.frames(source, width: 320, height: 180, count: count).map(CutDetector.thumbnail(of:))
    }

    @Test func aStillPictureIsNoCut() throws {
        let frames = try Self.thumbnails("smptebars=size=320x180:rate=60", count: 2)
        #expect(frames[0] == frames[1])
        #expect(abs(CutDetector.similarity(frames[0], frames[1]) - 1) < 1e-9)
        #expect(!CutDetector().isCut(frames[0], frames[1]))
    }

    /// Consecutive frames of fast motion at 60 fps: a pan of 1200 px/s (20 px, a sixteenth of the
    /// picture, per frame) across a test pattern, mandelbrot's zoom, testsrc2's moving parts.
    @Test(arguments: [
        "testsrc2=size=1600x180:rate=60,crop=320:180:x='t*1200':y=0",
        "mandelbrot=size=320x180:rate=60",
        "testsrc2=size=320x180:rate=60",
    ])
    func fastMotionIsNoCut(source: String) throws {
        let frames = try Self.thumbnails(source, count: 12)
        let detector = CutDetector()
        for i in 1..<frames.count {
            let similarity = CutDetector.similarity(frames[i - 1], frames[i])
            #expect(!detector.isCut(frames[i - 1], frames[i]), "frames \(i - 1), \(i): SSIM \(similarity)")
        }
    }

    /// A frame of one source followed by one of another.
    @Test(arguments: [
        ("testsrc2", "mandelbrot"), ("testsrc2", "smptebars"), ("mandelbrot", "smptebars"),
        ("testsrc2", "color=c=0x406080"),
    ])
    func twoSourcesAreACut(pair: (String, String)) throws {
        let a = try Self.thumbnails("\(pair.0)=size=320x180:rate=60", count: 1)[0]
        let b = try Self.thumbnails(
            pair.1.contains("=") ? "\(pair.1):size=320x180:rate=60" : "\(pair.1)=size=320x180:rate=60", count: 1)[0]
        let similarity = CutDetector.similarity(a, b)
        #expect(CutDetector().isCut(a, b), "SSIM \(similarity)")
        #expect(CutDetector().isCut(b, a))
    }

    /// The thumbnail is the luma's mean over 32×32 cells: a picture dark on the left quarter and light
    /// elsewhere gives 8 dark columns; a picture narrower than 32 repeats its columns.
    @Test func thumbnailAveragesCells() throws {
        let frame = try Frame.picture(width: 64, height: 36, format: .yuv420p)
        let luma = try #require(frame.plane(0))
        for y in 0..<36 {
            for x in 0..<64 { luma.bytes[y * luma.bytesPerLine + x] = x < 16 ? 20 : UInt8(100 + y % 2 * 10) }
        }
        let thumbnail = try CutDetector.thumbnail(of: frame)
        #expect(thumbnail.samples.count == 32 * 32)
        #expect(thumbnail.samples.allSatisfy { $0 == 20 || $0 == 100 || $0 == 110 || $0 == 105 })
        #expect((0..<32).allSatisfy { i in thumbnail.samples[i] == (i < 8 ? 20 : 100) })  // row 0: y 0 alone
        let small = try Frame.picture(width: 8, height: 8, format: .yuv420p)
        let plane = try #require(small.plane(0))
        for y in 0..<8 {
            for x in 0..<8 { plane.bytes[y * plane.bytesPerLine + x] = UInt8(x * 10) }
        }
        let repeated = try CutDetector.thumbnail(of: small)
        let columns: [Double] = (0..<32).map { i in Double(i / 4 * 10) }
        #expect(Array(repeated.samples[0..<32]) == columns)
    }

    @Test func onlyPlanar420IsRead() throws {
        let rgb = try Frame.picture(width: 64, height: 36, format: .rgb24)
        #expect(throws: InterpolationError.unsupportedFormat("rgb24")) { try CutDetector.thumbnail(of: rgb) }
    }
}
