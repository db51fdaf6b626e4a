import Foundation

/// The machine's memory as the kernel reports it.
enum SystemMemory {
    /// `MemAvailable` of /proc/meminfo in bytes: what can be allocated without swapping; nil if unknown.
    static var availableBytes: Int64? {
        guard let text = try? String(contentsOfFile: "/proc/meminfo", encoding: .utf8) else { return nil }
        let line = text.split(separator: "\n").first { $0.hasPrefix("MemAvailable:") }
        let kib = line?.split(separator: " ").dropFirst().first.flatMap { Int64($0) }
        return kib.map { $0 * 1024 }
    }
}
