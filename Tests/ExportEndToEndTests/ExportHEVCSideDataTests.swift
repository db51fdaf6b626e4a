import EndToEndSupport
import Foundation
import HFRTestSupport
import Testing

/// HDR10 HEVC as cameras write it: PQ BT.2020 with mastering-display and content-light-level data
/// both in the bitstream (x265's SEI) and in the container (Matroska's Colour, from mkvmerge). A
/// conform keeps both: the packets bit-identical, the container values equal.
@Suite(.serialized) struct ExportHEVCSideDataTests {
    @Test
    func hdr10MasteringDisplaySurvivesAConform() throws {
        let dir = try TemporaryDirectory()
        let coded = dir.path("pq.mp4")
        try ExportInputs.ffmpeg([
            "-f", "lavfi", "-i", "testsrc2=s=320x180:r=120:d=1", "-c:v", "libx265", "-pix_fmt", "yuv420p10le",
            "-color_primaries", "bt2020", "-color_trc", "smpte2084", "-colorspace", "bt2020nc", "-tag:v", "hvc1",
            "-x265-params",
            "log-level=error:hdr10=1:colorprim=bt2020:transfer=smpte2084:colormatrix=bt2020nc"
                + ":master-display=G(8500,39850)B(6550,2300)R(35400,14600)WP(15635,16450)L(10000000,50)"
                + ":max-cll=1000,400",
            coded,
        ])
        let input = dir.path("hdr10.mkv")
        let made = try Tool.run(
            "mkvmerge",
            [
                "-q", "-o", input, "--max-content-light", "0:1000", "--max-frame-light", "0:400", "--max-luminance",
                "0:1000", "--min-luminance", "0:0.005", "--chromaticity-coordinates",
                "0:0.708,0.292,0.170,0.797,0.131,0.046", "--white-colour-coordinates", "0:0.3127,0.3290", coded,
            ])
        #expect(made.status == 0, "\(made.stderr)")
        let source = try ExportSideDataTests.presentation(input)
        #expect(source["color_transfer"] == "smpte2084" && source["max_content"] == "1000.0000", "\(source)")
        for name in ["c.mp4", "c.mkv"] {
            let out = dir.path(name)
            let r = try Tool.hfr(["export", input, out, "--conform", "30"])
            #expect(r.status == 0, "\(name): \(r.stderr)")
            #expect(try ExportSideDataTests.presentation(out) == source, "\(name)")
            #expect(try MediaChecks.codedPictures(out).map(\.hash) == MediaChecks.codedPictures(input).map(\.hash))
        }
    }
}
