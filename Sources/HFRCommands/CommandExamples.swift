// The examples `--help` and the man pages show; HFRCommandsTests parses every one.

extension Help {
    /// The everyday workflow, in `hfr --help` and hfr(1).
    static let workflow = [
        CommandExample(
            "Record ten seconds from the first camera at its highest frame rate",
            "hfr record clip.mp4 --fps max --duration 10s"),
        CommandExample("See its capture rate and temporal layers", "hfr probe clip.mp4"),
        CommandExample("Slow motion: every frame shown at 30 fps", "hfr export clip.mp4 slow.mp4 --conform 30"),
    ]
}

extension RecordCommand {
    public static var examples: [CommandExample] {
        [
            CommandExample(
                "Ten seconds from the first camera at its highest frame rate",
                "hfr record clip.mp4 --fps max --duration 10s"),
            CommandExample(
                "120 fps at 1280x720 from /dev/video2, with a USB microphone",
                "hfr record clip.mp4 --device /dev/video2 --fps 120 --size 1280x720 --audio alsa:hw:1,0"),
            CommandExample(
                "A short shutter for sharp frames, fixed focus",
                "hfr record clip.mp4 --device 0 --fps 120 --exposure 1/1000 --focus 0"),
            CommandExample(
                "Under 50 Hz mains light without flicker (power_line_frequency, or a 10 ms exposure)",
                "hfr record clip.mp4 --device 0 --fps 100 --exposure antiflicker=50"),
            CommandExample(
                "Watch it live in a browser (http://127.0.0.1:8080/) while it records",
                "hfr record clip.mp4 --fps 120 --duration 1:00 --preview 8080"),
            CommandExample(
                "The same mode through libavdevice's v4l2 input, when hfr's own capture misbehaves",
                "hfr record clip.mp4 --device 0 --fps max --duration 5s --capture-api avdevice"),
            CommandExample(
                "Two seconds of the built-in test source at 240 fps (no camera needed)",
                "hfr record test.mp4 --source test --fps 240 --duration 2s"),
        ]
    }
}

extension ExportCommand {
    public static var examples: [CommandExample] {
        [
            CommandExample(
                "Slow motion: every frame of a 120 fps recording shown at 30 fps (4x slower)",
                "hfr export clip.mp4 slow.mp4 --conform 30"),
            CommandExample(
                "Real time at 30 fps, upper temporal layers dropped, nothing re-encoded",
                "hfr export clip.mp4 normal.mp4 --fps 30"),
            CommandExample(
                "What an export would do (lossless or re-encoded, frames, length), without writing",
                "hfr export clip.mp4 normal.mp4 --fps 30 --dry-run"),
            CommandExample(
                "Real time, then 4x slower from second 2 to 4, then real time again",
                "hfr export clip.mp4 ramp.mp4 --ramp 0-2@1,2-4@0.25,4-@1 --fps 30"),
            CommandExample(
                "8x slower at 30 fps from 120 fps: every other frame made from motion (optical flow)",
                "hfr export clip.mp4 slower.mp4 --speed 0.125 --fps 30 --interpolate flow"),
            CommandExample(
                "Half speed, seconds 1.5 to 6 only, audio stretched in the time domain",
                "hfr export clip.mp4 cut.mkv --speed 0.5 --range 1.5-6 --audio time-domain"),
            CommandExample(
                "A raw stream from rpicam-vid, with the frame times it saved",
                "hfr export video.h264 slow.mp4 --timestamps pts.txt --conform 30"),
        ]
    }
}

extension BatchCommand {
    public static var examples: [CommandExample] {
        [
            CommandExample("Start from the commented example manifest", "hfr batch --example > jobs.json"),
            CommandExample("Every job of a manifest on two workers", "hfr batch jobs.json -j 2"),
            CommandExample(
                "Part 2 of 4 of a CI matrix, with a JUnit report; skip outputs already made",
                "hfr batch jobs.json --shard 2/4 --report junit.xml --resume"),
            CommandExample("What this shard would run, without running it", "hfr batch jobs.json --dry-run"),
            CommandExample(
                "One JUnit file from the four shards' JSON reports",
                "hfr batch merge shard-1.json shard-2.json shard-3.json shard-4.json --report junit.xml"),
            CommandExample(
                "Up to two more tries for a failing export, every attempt's log kept in logs/",
                "hfr batch jobs.json --retries 2 --logs logs --json-report report.json"),
        ]
    }
}

extension BatchStatusCommand {
    public static var examples: [CommandExample] {
        [
            CommandExample("How far the shards of a running batch are", "hfr batch status reports/shard-*.json"),
            CommandExample("One shard's progress, with its ETA", "hfr batch status report.json"),
        ]
    }
}

extension BatchFailedCommand {
    public static var examples: [CommandExample] {
        [
            CommandExample(
                "A manifest of the jobs that failed in any shard", "hfr batch failed reports/shard-*.json > rerun.json"),
            CommandExample("Those of one shard only", "hfr batch failed shard-2.json > rerun-2.json"),
        ]
    }
}

extension BatchMatrixCommand {
    public static var examples: [CommandExample] {
        [
            CommandExample("The shards as a GitHub Actions matrix (at most 256 legs)", "hfr batch matrix jobs.json"),
            CommandExample("At most 20 shards", "hfr batch matrix jobs.json --max 20"),
        ]
    }
}

extension BatchMergeCommand {
    public static var examples: [CommandExample] {
        [
            CommandExample(
                "The reports of a 4-task Slurm array as one JUnit file",
                "hfr batch merge reports/shard-*.json --report junit.xml"),
            CommandExample(
                "One JUnit file and one JSON report from a CI matrix's shards",
                "hfr batch merge shard-1.json shard-2.json --report junit.xml --json-report all.json"),
        ]
    }
}

extension ProbeCommand {
    public static var examples: [CommandExample] {
        [
            CommandExample("Streams, capture rate and temporal layers of a recording", "hfr probe clip.mp4"),
            CommandExample("Every frame with its layer, as JSON", "hfr probe clip.mp4 --frames --json"),
            CommandExample("A raw H.264 stream at a known constant rate", "hfr probe video.h264 --input-fps 120"),
        ]
    }
}

extension DevicesCommand {
    public static var examples: [CommandExample] {
        [
            CommandExample("The cameras and microphones hfr can record from", "hfr devices"),
            CommandExample("The same for scripts", "hfr devices --json"),
        ]
    }
}

extension FormatsCommand {
    public static var examples: [CommandExample] {
        [
            CommandExample("Sizes and frame rates of the first camera", "hfr formats"),
            CommandExample("Those of /dev/video2, with its controls", "hfr formats --device /dev/video2 --controls"),
        ]
    }
}

extension PreviewCommand {
    public static var examples: [CommandExample] {
        [
            CommandExample(
                "Frame the shot: the first camera's fastest mode in a browser at http://127.0.0.1:8080/",
                "hfr preview"),
            CommandExample(
                "120 fps at 1280x720 with the gain set, seen from another machine on port 9000",
                "hfr preview --device /dev/video2 --fps 120 --size 1280x720 --gain 50 --preview 0.0.0.0:9000"),
            CommandExample(
                "The built-in test source, turned as a phone held upright", "hfr preview --source test --rotate 90"),
        ]
    }
}

extension CompletionCommand {
    public static var examples: [CommandExample] {
        [
            CommandExample(
                "Bash, for the current user",
                "hfr completion bash > ~/.local/share/bash-completion/completions/hfr"),
            CommandExample("Zsh (a directory on $fpath)", "hfr completion zsh > ~/.zfunc/_hfr"),
            CommandExample("Fish", "hfr completion fish > ~/.config/fish/completions/hfr.fish"),
        ]
    }
}
