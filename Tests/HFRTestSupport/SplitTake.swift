import Foundation

/// What the split-job tests (export units and their join, batch runs, the Slurm array) share: a
/// take made by ffmpeg and every packet of a file, to compare a joined output with one export's.
public enum SplitTake {
    /// `seconds` of testsrc2 at 120 fps and `size`, x264 with B-frames and a keyframe each second,
    /// a 440 Hz sine in AAC, tagged 120 fps; ffmpeg's result.
    public static func make(_ path: String, seconds: Int, size: String) throws -> ToolResult {
        try Tool.run(
            "ffmpeg",
            [
                "-nostdin", "-v", "error", "-f", "lavfi", "-i", "testsrc2=s=\(size):r=120:d=\(seconds)", "-f", "lavfi",
                "-i", "sine=f=440:r=48000:d=\(seconds)", "-c:v", "libx264", "-preset", "ultrafast", "-g", "120", "-bf",
                "2", "-c:a", "aac", "-metadata", "com.android.capture.fps=120", path,
            ])
    }

    /// Every packet of `path` as ffprobe lists it: stream, times, flags and an MD5 of its data
    /// (`packet,STREAM,PTS,DTS,DURATION,FLAGS,MD5`); empty when ffprobe fails.
    public static func packets(_ path: String) throws -> [String] {
        let r = try Tool.run(
            "ffprobe",
            [
                "-v", "error", "-show_data_hash", "MD5", "-show_entries",
                "packet=stream_index,pts,dts,duration,flags,data_hash", "-of", "csv", path,
            ])
        return r.status == 0 ? r.stdout.split(separator: "\n").map(String.init) : []
    }
}
