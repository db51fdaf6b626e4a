import Foundation
import HFRMedia
import HFRPipeline
import HFRPreview

#if canImport(Glibc)
    import Glibc
#endif

/// Starting the live preview for `record --preview` and `hfr preview`: the address, the server,
/// the one-line messages.
enum PreviewStart {
    /// `--preview [HOST:]PORT`, if given (`fallback` when the option is absent: `hfr preview`'s default).
    static func settings(
        _ arguments: ParsedArguments, of command: any Command.Type, fallback: String? = nil
    ) throws(HFRError) -> PreviewSettings? {
        guard let text = arguments.value("preview") ?? fallback else { return nil }
        guard var settings = PreviewSettings(address: text) else {
            throw .usage("invalid value '\(text)' for '--preview': expected [HOST:]PORT, e.g. 8080", of: command)
        }
        // Another address than loopback: only those given the printed address may watch.
        if !settings.isLoopback { settings.token = PreviewToken() }
        return settings
    }

    /// Serves `settings`' address; says where (on the network: with the token every request needs).
    static func start(
        _ settings: PreviewSettings, status: @escaping @Sendable () -> [(String, JSONValue)]
    ) throws(HFRError) -> PreviewSession {
        let session: PreviewSession
        do {
            session = try PreviewSession(settings: settings, status: status)
        } catch {
            throw HFRError("preview: \(error.message)", exitCode: error.isUnavailable ? .unavailable : .usage)
        }
        if !settings.isLoopback {
            Console.error(
                "Note: the preview is served on the network; every request needs the token in this address "
                    + "(keep it to those who may watch)\n")
        }
        Console.error("Preview: \(session.url)\n")
        return session
    }

    /// Bytes free for an unprivileged user on the file system holding `path`'s directory.
    static func freeBytes(near path: String) -> Int? {
        let directory = path.contains("/") ? String(path[..<path.lastIndex(of: "/")!]) : "."
        var info = statvfs()
        guard (directory.isEmpty ? "/" : directory).withPathBytes({ statvfs($0, &info) }) == 0 else { return nil }
        return Int(info.f_bavail) * Int(info.f_frsize)
    }
}
