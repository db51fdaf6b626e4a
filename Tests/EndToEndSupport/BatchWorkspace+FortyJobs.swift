import HFRTestSupport

/// The batch tests' forty-job workspace, which the Slurm tests submit too.
extension BatchWorkspace {
    /// 40 jobs: conform, layer dropping, ramps, speed, ranges, re-encoding, MKV.
    package static let fortyJobs = """
        { "schema": "hfr.batch/1",
          "jobs": [
            { "input": "in/l*.mp4", "output": "out/{stem}-conform.mp4", "conform": 30 },
            { "input": "in/l*.mp4", "output": "out/{stem}-60.mp4", "fps": 60, "reencode": "never" },
            { "input": "in/l*.mp4", "output": "out/{stem}-30.mkv", "fps": "30" },
            { "input": "in/l*.mp4", "output": "out/{stem}-ramp.mp4", "ramp": "0-1@1,1-@0.25", "audio": "time-domain" },
            { "input": "in/l*.mp4", "output": "out/{stem}-half.mp4", "speed": 0.5, "audio": "varispeed" },
            { "input": "in/k*.mkv", "output": "out/{stem}-30.mkv", "fps": 30 },
            { "input": "in/k*.mkv", "output": "out/{stem}-conform.mp4", "conform": 15 },
            { "input": "in/x*.mp4", "output": "out/{stem}-conform.mp4", "conform": 15, "audio": "mute" },
            { "input": "in/x*.mp4", "output": "out/{stem}-15.mp4", "fps": 15 },
            { "input": "in/l0.mp4", "output": "out/l0-range.mp4", "conform": 30, "range": "0.5-1.5" },
            { "input": "in/l1.mp4", "output": "out/l1-range.mkv", "fps": 60, "range": "1-" }
          ] }
        """

    package static func fortyJobWorkspace() throws -> BatchWorkspace {
        let w = try BatchWorkspace()
        try w.add("layered-120fps.mp4", as: (0..<6).map { "l\($0).mp4" })
        try w.add("layered-60fps-2layers.mkv", as: ["k0.mkv", "k1.mkv"])
        try w.add("x264-bframes.mp4", as: ["x0.mp4", "x1.mp4"])
        try w.manifest(fortyJobs)
        return w
    }
}
