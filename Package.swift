// swift-tools-version: 6.0
// hfr — a Linux high-frame-rate recorder and retimer on FFmpeg's C libraries.
import PackageDescription

let package = Package(
    name: "hfr",
    products: [
        .executable(name: "hfr", targets: ["hfr"]),
        // hfr's C++ parts, which it loads only when it uses them (Sources/COpticalFlow/loader.c,
        // Sources/CSoundTouch/loader.c): the interpolators on OpenCV, the time stretch on SoundTouch.
        // scripts/build-hfr builds them beside hfr; scripts/install puts them in lib/hfr.
        .library(name: "hfr-opticalflow", type: .dynamic, targets: ["COpticalFlowLibrary"]),
        .library(name: "hfr-soundtouch", type: .dynamic, targets: ["CSoundTouchLibrary"]),
    ],
    targets: [
        // Thin C modules: each re-exports only what Swift cannot import from its headers.
        .target(
            name: "CFFmpeg",
            // Not libavfilter or libavdevice: lazy.c loads them on first use (they cost ~60 ms at start),
            // as lazy_openh264.c, lazy_rubberband.c and lazy_microhttpd.c load OpenH264, Rubber Band and
            // libmicrohttpd (7 ms).
            // dlopen is in glibc 2.34+'s libc, so no -ldl.
            linkerSettings: [
                .linkedLibrary("avformat"), .linkedLibrary("avcodec"), .linkedLibrary("swscale"),
                .linkedLibrary("swresample"), .linkedLibrary("avutil"),
            ]
        ),
        // Header-only: hfr loads libopenh264 and librubberband on first use (CFFmpeg's lazy_*.c).
        .systemLibrary(name: "COpenH264"),
        .systemLibrary(name: "CRubberBand"),
        .systemLibrary(name: "CV4L2"),
        // GNU libmicrohttpd: the live preview's HTTP server (loaded on first use: CFFmpeg's lazy_microhttpd.c).
        .systemLibrary(name: "CMicroHTTPD"),

        // The primitives below the media layer, on no C library but glibc: stage threads, bounded
        // queues, the lock, the console, signals, errno, file names' bytes and crash-safe files.
        .target(name: "HFRSystem"),
        // Owners of FFmpeg contexts, exact time, errors at the C boundary, logging; the only Swift
        // module that imports CFFmpeg. It re-exports HFRSystem.
        .target(name: "HFRMedia", dependencies: ["HFRSystem", "CFFmpeg", "COpenH264"]),
        // Reading a file's streams and its H.264 temporal structure.
        .target(name: "HFRProbe", dependencies: ["HFRMedia", "HFRFlicker"]),
        // Mains flicker: found in a picture's brightness over time, and taken out of it.
        // Its loops run over every sample and its fits over every window: optimised in debug builds
        // too, as the tests run them on every probe and every --deflicker export (15× faster).
        .target(name: "HFRFlicker", dependencies: ["HFRMedia"], swiftSettings: [.unsafeFlags(["-O"])]),
        // Capture sources: the test pattern and V4L2 devices through libavdevice.
        .target(name: "HFRCapture", dependencies: ["HFRMedia", "CV4L2"]),
        // The record pipeline: its stages, its crash-safe file, triggered clips.
        .target(name: "HFRPipeline", dependencies: ["HFRMedia", "HFRCapture", "HFRProbe"]),
        // The live preview: HTTP server (libmicrohttpd), MJPEG stream, status page and events.
        .target(
            name: "HFRPreview", dependencies: ["HFRMedia", "HFRCapture", "HFRPipeline", "HFRFlicker", "CMicroHTTPD"]),
        // The command-line frame and the commands.
        // Retiming: time maps, lossless layer dropping, re-encoding, audio stretching.
        .target(
            name: "HFRExport",
            dependencies: ["HFRMedia", "HFRProbe", "HFRFlicker", "HFRInterpolation", "CRubberBand", "CSoundTouch"]),
        // SoundTouch's WSOLA time stretch (Debian libsoundtouch-dev, a C++ library) behind a C interface:
        // the time-domain audio mode. The header and the loader of the library below.
        .target(name: "CSoundTouch", dependencies: ["CFFmpeg"]),
        // Its implementation, the hfr-soundtouch library (as COpticalFlowLibrary).
        .target(
            name: "CSoundTouchLibrary",
            cxxSettings: [.unsafeFlags(["-fvisibility=hidden"])],
            linkerSettings: [.linkedLibrary("SoundTouch"), .unsafeFlags(["-nostartfiles", "-static-stdlib"])]
        ),
        // Frame interpolation behind a C interface: the header, and the loader of the library below.
        .target(name: "COpticalFlow", dependencies: ["CFFmpeg"]),
        // Its implementation on OpenCV (Debian libopencv-video-dev: DIS optical flow, remap), the
        // hfr-opticalflow library. Debian ships no opencv4.pc for the video module alone: the flags
        // are spelled out. It includes COpticalFlow's header by path; every symbol but one is hidden
        // (table.cpp).
        .target(
            name: "COpticalFlowLibrary",
            cxxSettings: [
                .unsafeFlags(["-isystem", "/usr/include/opencv4", "-fvisibility=hidden"])
            ],
            linkerSettings: [
                .linkedLibrary("opencv_video"), .linkedLibrary("opencv_imgproc"), .linkedLibrary("opencv_core"),
                // No Swift in it: without the Swift startup object nothing needs the Swift runtime, and
                // -static-stdlib offers libswiftCore.a (nothing taken) for the NEEDED libswiftCore.so.
                .unsafeFlags(["-nostartfiles", "-static-stdlib"]),
            ]
        ),
        // Synthesizing in-between frames: optical flow, blending.
        .target(name: "HFRInterpolation", dependencies: ["HFRMedia", "COpticalFlow"]),
        // Batches: manifests, shards, resume records, child exports, reports.
        .target(name: "HFRBatch", dependencies: ["HFRMedia", "HFRProbe"]),
        .target(
            name: "HFRCommands",
            dependencies: [
                "HFRMedia", "HFRProbe", "HFRCapture", "HFRPipeline", "HFRExport", "HFRInterpolation", "HFRBatch",
                "HFRPreview",
            ]),
        .executableTarget(name: "hfr", dependencies: ["HFRCommands", "HFRMedia"]),
        // Drives hfr's encode path on raw frames for scripts/bench; not a user tool.
        .executableTarget(name: "hfr-bench", dependencies: ["HFRMedia", "HFRPipeline", "HFRInterpolation"]),

        // Fixtures, temporary directories and running tools (ffprobe, ffmpeg, the built hfr).
        .target(name: "HFRTestSupport", path: "Tests/HFRTestSupport"),
        // The one CaptureSession suite: run on the host (test source, filter graph) and in the guest (vivid).
        .target(
            name: "CaptureSessionChecks", dependencies: ["HFRCapture", "HFRMedia"], path: "Tests/CaptureSessionChecks"),
        .testTarget(name: "HFRMediaTests", dependencies: ["HFRMedia", "HFRTestSupport"]),
        .testTarget(name: "HFRFlickerTests", dependencies: ["HFRFlicker", "HFRMedia"]),
        .testTarget(name: "HFRProbeTests", dependencies: ["HFRProbe", "HFRTestSupport"]),
        // HFRPipeline: the record pipeline driven by the scripted V4L2 driver.
        .testTarget(
            name: "HFRCaptureTests", dependencies: ["HFRCapture", "HFRPipeline", "CV4L2", "CaptureSessionChecks"]),
        // Run inside the VM guest against the vivid and snd-aloop kernel drivers (scripts/vm-test).
        .testTarget(
            name: "DeviceTests", dependencies: ["hfr", "HFRTestSupport", "HFRCapture", "CaptureSessionChecks"]),
        .testTarget(
            name: "HFRCommandsTests", dependencies: ["HFRCommands", "HFRExport", "HFRMedia", "HFRTestSupport"]),
        .testTarget(name: "HFRPreviewTests", dependencies: ["HFRPreview", "HFRMedia"]),
        // HFRPipeline's triggered recording, stage by stage in this process: the trigger board, the
        // raw pre-trigger ring, the clip stage and the clip writer.
        .testTarget(name: "HFRPipelineTests", dependencies: ["HFRPipeline", "HFRCapture", "HFRMedia"]),
        .testTarget(name: "HFRBatchTests", dependencies: ["HFRBatch", "HFRTestSupport"]),
        .testTarget(name: "HFRInterpolationTests", dependencies: ["HFRInterpolation", "HFRMedia", "HFRTestSupport"]),
        .testTarget(name: "HFRExportTests", dependencies: ["HFRExport", "HFRMedia", "HFRTestSupport"]),
        .testTarget(name: "CModuleTests", dependencies: ["COpenH264", "CRubberBand", "CSoundTouch", "CV4L2"]),
        // The end-to-end tests: the built binary run against the fixtures and checked with
        // ffprobe/ffmpeg, by kind. scripts/test's phases pick them by target and suite.
        // What several kinds share: the export inputs, DocSchema (docs/*-json.md), the batch
        // workspace, child processes under GNU time; the JUnit schema reports are validated against.
        .target(
            name: "EndToEndSupport", dependencies: ["HFRTestSupport"], path: "Tests/EndToEndSupport",
            exclude: ["junit.xsd"]),
        // The command line: usage, help, completion, bad input and refusals, the JSON docs, install
        // and package.
        .testTarget(name: "CLITests", dependencies: ["hfr", "HFRTestSupport", "EndToEndSupport"]),
        // Exports and probes of files: every export option, foreign and damaged inputs, side data;
        // RotateTests (record and export --rotate).
        .testTarget(name: "ExportEndToEndTests", dependencies: ["hfr", "HFRTestSupport", "EndToEndSupport"]),
        // Suites paced in real time: recordings, the live preview, progress lines, the audio device
        // (record-with-pulse.sh around a private PulseAudio server), ThreadSanitizer, batches.
        .testTarget(
            name: "RealTimeTests", dependencies: ["hfr", "HFRTestSupport", "EndToEndSupport"],
            exclude: ["record-with-pulse.sh"]),
        // Many files through hfr and checkers: the valid-world corpus, the fuzz corpus, option samples.
        .testTarget(name: "CorpusTests", dependencies: ["hfr", "HFRTestSupport", "EndToEndSupport"]),
        // Batches on a real single-node Slurm cluster (slurm-cluster.sh).
        .testTarget(
            name: "ClusterTests", dependencies: ["hfr", "HFRTestSupport", "EndToEndSupport"],
            exclude: ["slurm-cluster.sh"]),
        // Boots the VM guest, which runs DeviceTests against the vivid and snd-aloop drivers.
        .testTarget(name: "VMHarnessTests", dependencies: ["hfr", "HFRTestSupport"]),
    ]
)

// HFRMedia is the C boundary: there, imports are internal unless marked `public import`, so an
// FFmpeg or OpenH264 type in a public signature is a compile error. Other modules that need a C
// module name it `internal import`.
for target in package.targets where target.name == "HFRMedia" {
    target.swiftSettings = [.enableUpcomingFeature("InternalImportsByDefault")]
}
