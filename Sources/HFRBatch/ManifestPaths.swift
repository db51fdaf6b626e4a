import HFRMedia

#if canImport(Glibc)
    import Glibc
#endif

/// Paths in a manifest are relative to the manifest's directory, like a build file's.
public struct ManifestPaths: Sendable {
    /// The manifest's directory as given ("." for a manifest in the current directory).
    public let base: String

    public init(manifest: String) {
        let slash = manifest.lastIndex(of: "/")
        base = slash.map { String(manifest[..<$0]) }.map { $0.isEmpty ? "/" : $0 } ?? "."
    }

    /// `path` (relative to the manifest) as a path for this process: joined to the base.
    public func resolve(_ path: String) -> String {
        if path.hasPrefix("/") || base == "." { return ManifestPaths.normalize(path) }
        return ManifestPaths.normalize(base + "/" + path)
    }

    /// `a/./b//c/../d` → `a/b/d`: lexical, so that two spellings of one output collide.
    public static func normalize(_ path: String) -> String {
        var parts: [Substring] = []
        for part in path.split(separator: "/", omittingEmptySubsequences: true) {
            if part == "." { continue }
            if part == "..", let last = parts.last, last != ".." {
                parts.removeLast()
                continue
            }
            parts.append(part)
        }
        let joined = parts.joined(separator: "/")
        if path.hasPrefix("/") { return "/" + joined }
        return joined.isEmpty ? "." : joined
    }

    /// Whether `pattern` uses glob characters.
    public static func isPattern(_ pattern: String) -> Bool { pattern.contains { "*?[".contains($0) } }

    /// The regular files `pattern` (relative to the manifest) matches, sorted, as manifest-relative
    /// paths; hidden files need a pattern that starts with a dot, as in the shell.
    public func expand(_ pattern: String) -> [String] {
        let escapedBase = pattern.hasPrefix("/") || base == "." ? "" : ManifestPaths.escape(base) + "/"
        var matches = glob_t()
        defer { globfree(&matches) }
        guard (escapedBase + pattern).withPathBytes({ glob($0, GLOB_MARK, nil, &matches) }) == 0 else { return [] }
        var paths: [String] = []
        for i in 0..<Int(matches.gl_pathc) {
            guard let c = matches.gl_pathv[i] else { continue }
            var path = PathBytes.string(cString: c)
            if path.hasSuffix("/") { continue }  // a directory (GLOB_MARK)
            if !escapedBase.isEmpty { path.removeFirst(base.count + 1) }
            paths.append(path)
        }
        return paths.sorted()
    }

    static func escape(_ text: String) -> String {
        var out = ""
        for c in text {
            if "*?[\\".contains(c) { out.append("\\") }
            out.append(c)
        }
        return out
    }
}
