import Foundation

/// The machine's memory as /proc/meminfo gives it, in bytes.
struct SystemMemory {
    /// MemTotal.
    var total: Int
    /// MemAvailable: what can be allocated without swapping (free memory and reclaimable caches).
    var available: Int

    static func read() -> SystemMemory? {
        guard let text = try? String(contentsOfFile: "/proc/meminfo", encoding: .utf8) else { return nil }
        var values: [String: Int] = [:]
        for line in text.split(separator: "\n") {
            let fields = line.split(whereSeparator: { $0 == ":" || $0 == " " })
            if fields.count >= 2, let kibibytes = Int(fields[1]) { values[String(fields[0])] = kibibytes << 10 }
        }
        guard let total = values["MemTotal"], let available = values["MemAvailable"] else { return nil }
        return SystemMemory(total: total, available: available)
    }
}
