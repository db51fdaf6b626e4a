import EndToEndSupport
import Foundation
import HFRTestSupport
import Testing

/// `hfr probe --json --frames` on the fixtures, checked against ffprobe and ffmpeg's trace_headers.
@Suite struct ProbeFixtureTests {
    struct Probe {
        let document: [String: Any]
        var frames: [[String: Any]] { document["frames"] as? [[String: Any]] ?? [] }
        var video: [String: Any] { document["video"] as? [String: Any] ?? [:] }
        var streams: [[String: Any]] { document["streams"] as? [[String: Any]] ?? [] }
    }

    func probe(_ fixture: String) throws -> Probe {
        let r = try Tool.hfr(["probe", "--json", "--frames", Fixtures.path(fixture)])
        #expect(r.status == 0, "hfr probe failed: \(r.stderr)")
        #expect(r.stderr.isEmpty)
        return Probe(document: try Tool.json(r.stdout))
    }

    @Test(arguments: ["layered-120fps.mp4", "x264-bframes.mp4", "layered-60fps-2layers.mkv"])
    func everyFrameAgreesWithTraceHeaders(fixture: String) throws {
        let p = try probe(fixture)
        let traced = try TraceHeaders.frames(of: Fixtures.path(fixture))
        #expect(p.frames.count == traced.count)
        for (mine, theirs) in zip(p.frames, traced) {
            #expect(mine["nalRefIdc"] as? Int == theirs.nalRefIdc, "frame \(mine["index"] ?? "?")")
            #expect(mine["droppable"] as? Bool == theirs.isDroppable, "frame \(mine["index"] ?? "?")")
            let letter = ["P", "B", "I", "SP", "SI"][theirs.sliceType ?? 0]
            #expect(mine["sliceType"] as? String == letter, "frame \(mine["index"] ?? "?")")
            if let tid = theirs.temporalID { #expect(mine["temporalId"] as? Int == tid) }
        }
    }

    @Test(arguments: ["layered-120fps.mp4", "x264-bframes.mp4", "layered-60fps-2layers.mkv", "audio-only.m4a"])
    func frameCountsMatchFFprobe(fixture: String) throws {
        let p = try probe(fixture)
        let path = Fixtures.path(fixture)
        for stream in p.streams {
            let index = "\(stream["index"] as! Int)"
            let frames = try #require(stream["frames"] as? Int)
            if stream["type"] as? String == "video" {
                #expect(frames == (try FFprobe.count(path, stream: index, decoding: true)))
                #expect(p.video["frames"] as? Int == frames)
            } else {
                // Audio frames are codec frames (packets); decoding may trim a fully primed first one.
                #expect(frames == (try FFprobe.count(path, stream: index, decoding: false)))
                #expect(frames - (try FFprobe.count(path, stream: index, decoding: true)) <= 1)
            }
        }
    }

    @Test func layeredClipHasThreeLayersInTheSharesItsBitstreamHolds() throws {
        let p = try probe("layered-120fps.mp4")
        // Independent reading: temporal ids straight from the prefix NAL units' bytes, via ffmpeg.
        let tids = try PrefixNALReader.temporalIDs(of: Fixtures.path("layered-120fps.mp4"))
        #expect(tids.count == p.frames.count)
        #expect(p.frames.map { $0["temporalId"] as? Int } == tids.map { Optional($0) })
        let layers = p.video["layers"] as? [[String: Any]] ?? []
        #expect(p.video["layerCount"] as? Int == Set(tids).count)
        for layer in layers {
            let id = layer["id"] as! Int
            #expect(layer["frames"] as? Int == tids.filter { $0 == id }.count)
        }
        // Top layer = the droppable frames, and only those.
        let top = (tids.max() ?? 0)
        let droppable = p.frames.filter { $0["droppable"] as? Bool == true }.map { $0["temporalId"] as? Int }
        #expect(droppable.allSatisfy { $0 == top })
        #expect(droppable.count == tids.filter { $0 == top }.count)
        #expect(p.video["captureFrameRate"] as? String == "120/1")
        #expect(p.video["captureFrameRateSource"] as? String == "com.android.capture.fps")
        let rates = (p.video["reachableRates"] as? [[String: Any]] ?? []).map { $0["rate"] as? String }
        #expect(rates == ["120/1", "60/1", "30/1"])
    }

    @Test func x264NonReferenceBFramesAreDroppable() throws {
        let p = try probe("x264-bframes.mp4")
        let bFrames = p.frames.filter { $0["sliceType"] as? String == "B" }
        #expect(!bFrames.isEmpty)
        #expect(bFrames.allSatisfy { $0["droppable"] as? Bool == true && $0["nalRefIdc"] as? Int == 0 })
        #expect(p.video["droppableFrames"] as? Int == bFrames.count)
        #expect(p.video["layerSignalling"] as? String == "nal-ref-idc")
    }

    @Test func textOutputSummarisesLayers() throws {
        let r = try Tool.hfr(["probe", Fixtures.path("layered-120fps.mp4")])
        #expect(r.status == 0)
        #expect(r.stdout.contains("Temporal layers: 3"))
        #expect(r.stdout.contains("Capture rate: 120 fps"))
        #expect(
            r.stdout.contains(
                "Real-time rates without re-encoding: 120 fps (layers 0-2), 60 fps (layers 0-1), 30 fps (layer 0)"))
    }
}
