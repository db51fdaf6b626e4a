/// `hfr batch --example`: a manifest that explains itself (`//` comments are allowed).
enum BatchExample {
    static let text = """
        // hfr batch manifest. Run: hfr batch THIS-FILE [-j N] [--shard K/N|auto] [--resume]
        // JSON with // comments. Paths are relative to this file's directory.
        {
          "schema": "hfr.batch/1",

          // Options every job gets unless it sets its own (null removes one). Any hfr export
          // option: conform, fps, speed, ramp, range, audio, reencode. Numbers or strings.
          "defaults": { "audio": "spectral", "reencode": "auto" },

          "jobs": [
            // input: a file or a glob (*, ?, [...]); output: a path template where {stem} is the
            // input's name without extension, {name} the name, {dir} the input's directory.
            // 4x slow motion of every 120 fps clip: every frame kept, shown at 30 fps.
            { "input": "recordings/*.mp4", "output": "out/{stem}-slowmo.mp4", "conform": 30 },

            // Real time at 30 fps: upper temporal layers dropped, no re-encode (or fail).
            { "input": "recordings/*.mp4", "output": "out/{stem}-30fps.mp4", "fps": 30, "reencode": "never" },

            // A speed ramp on one file, audio stretched in the time domain.
            { "input": "recordings/jump.mp4", "output": "out/jump-ramp.mkv",
              "ramp": "0-2@1,2-4@0.25,4-@1", "audio": "time-domain" },

            // One long take slowed 8x with made frames, split at keyframes into 4 parts that
            // workers (shards, -j) export side by side, then joined: "split": "auto" makes parts
            // of --segment-seconds (60). Split jobs write .mp4 or .mov.
            { "input": "recordings/jump.mp4", "output": "out/jump-8x.mp4",
              "speed": 0.125, "fps": 120, "interpolate": "flow", "split": 4 }
          ]
        }

        """
}
