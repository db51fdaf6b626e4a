import HFRMedia

/// Every file a batch reads (the manifest, the jobs' inputs, the reports `batch merge` reads) and
/// writes (the outputs, their resume records, the reports), checked together before any job runs.
///
/// Nothing the batch writes may be a file it reads, or a file it writes for another reason, under
/// any name: the same path, an alias (`./`, `..`), a symlink, a hard link, a path through a
/// symlinked directory. Two paths are one file when their text is the same once normalized, when
/// the kernel gives them one device and inode, or — for a file not written yet — when they land in
/// the same place once the directories that exist are resolved.
public struct BatchPaths: Sendable {
    /// What a file is to the batch.
    public enum Role: Sendable, Equatable {
        /// Read: the manifest.
        case manifest
        /// Read: an input of `jobs[entry]`.
        case input(entry: Int)
        /// Read: a report `batch merge` merges.
        case mergedReport
        /// Written: the output `jobs[entry]` (at `line`, with the output template `template`) makes
        /// from `input`.
        case output(entry: Int, line: Int, input: String, template: String)
        /// Written: the resume record of the output of `jobs[entry]`.
        case record(entry: Int, line: Int)
        /// Written: the report `option` (`--report`, `--json-report`) names.
        case report(option: String)
        /// Written: an attempt's log in `--logs DIR`.
        case log
    }

    /// A file the batch reads or writes, as given and as the kernel knows it.
    public struct File: Sendable {
        /// The path as the user wrote it (relative to the manifest, or as given on the command line).
        public let shown: String
        /// What the file is to the batch.
        public let role: Role
        /// The path for this process, normalized.
        let path: String
        let identity: FileIdentity?
        let place: String?

        init(_ path: String, shown: String, role: Role) {
            self.shown = shown
            self.role = role
            self.path = ManifestPaths.normalize(path)
            identity = FileIdentity(path: path)
            place = Self.place(of: path)
        }

        /// Where `path` lands: its longest existing ancestor resolved by realpath(3), then the rest
        /// (so a file not written yet is found through a symlinked directory too).
        static func place(of path: String) -> String? {
            var head = path.hasPrefix("/") ? path : "./" + path
            var rest: [Substring] = []
            while true {
                if let resolved = FileSystem.realpath(head) {
                    return ManifestPaths.normalize(([Substring(resolved)] + rest.reversed()).joined(separator: "/"))
                }
                guard head != "/", let slash = head.lastIndex(of: "/") else { return nil }
                rest.append(head[head.index(after: slash)...])
                head = slash == head.startIndex ? "/" : String(head[..<slash])
            }
        }
    }

    /// A written file that is a file the batch reads or writes already.
    public struct Conflict: Error, Sendable {
        /// The file refused…
        public let file: File
        /// …and the file it is, noted before.
        public let other: File
        /// The same path once normalized (rather than the same file under another name).
        public let isSamePath: Bool

        /// One line naming both and why it is refused.
        public var message: String {
            let sameness = isSamePath ? "" : "the same file as \(other.shown), "
            switch (file.role, other.role) {
            case (.output(let entry, _, let input, let template), .output(let otherEntry, _, let otherInput, _))
            where isSamePath && entry == otherEntry:
                return
                    "\"\(template)\" gives \(file.shown) for both \(otherInput) and \(input); put {stem} or {name} in it"
            case (_, .input(let entry)):
                return "\(file.subject) is \(sameness)an input of jobs[\(entry)]; inputs are never modified"
            case (_, .manifest):
                return "\(file.subject) is \(sameness)the manifest; the manifest is never modified"
            case (_, .mergedReport):
                return "\(file.subject) is \(sameness)a report being merged; the reports read are never modified"
            case (.output, .output(let entry, let line, _, _)):
                let also = isSamePath ? "also written" : "the same file as \(other.shown), written"
                return
                    "\(file.subject) is \(also) by jobs[\(entry)] (line \(line)); two jobs may not write the same output"
            default:
                let also = isSamePath ? "also" : "the same file as \(other.shown),"
                return "\(file.subject) is \(also) \(other.writer); every file a batch writes is its own"
            }
        }
    }

    private var files: [File] = []
    private var byPath: [String: Int] = [:]
    private var byIdentity: [FileIdentity: Int] = [:]
    private var byPlace: [String: Int] = [:]

    public init() {}

    /// Notes a file the batch reads. The first role given stays (an input of two jobs is named by
    /// the first).
    public mutating func read(_ path: String, shown: String, as role: Role) {
        add(File(path, shown: shown, role: role))
    }

    /// Notes a file the batch writes, refusing it when it is a file noted already.
    public mutating func write(_ path: String, shown: String, as role: Role) throws(Conflict) {
        let file = File(path, shown: shown, role: role)
        if let index = byPath[file.path] {
            throw Conflict(file: file, other: files[index], isSamePath: true)
        }
        if let index = file.identity.flatMap({ byIdentity[$0] }) ?? file.place.flatMap({ byPlace[$0] }) {
            throw Conflict(file: file, other: files[index], isSamePath: false)
        }
        add(file)
    }

    private mutating func add(_ file: File) {
        let index = files.count
        files.append(file)
        if byPath[file.path] == nil { byPath[file.path] = index }
        if let identity = file.identity, byIdentity[identity] == nil { byIdentity[identity] = index }
        if let place = file.place, byPlace[place] == nil { byPlace[place] = index }
    }

    /// The first control character (U+0000–U+001F, U+007F) in `path`, as `U+000A`: a NUL would cut
    /// the name short at the system call, and none belongs in a file name a manifest or a command
    /// line gives.
    public static func controlCharacter(in path: String) -> String? {
        guard let scalar = path.unicodeScalars.first(where: { $0.value < 0x20 || $0.value == 0x7F }) else {
            return nil
        }
        let hex = String(scalar.value, radix: 16, uppercase: true)
        return "U+" + String(repeating: "0", count: 4 - hex.count) + hex
    }
}

extension BatchPaths.File {
    /// The file as a message's subject: a record is named as one.
    var subject: String {
        if case .record = role { return "the resume record \(shown)" }
        return shown
    }

    /// Who writes the file, for messages.
    var writer: String {
        switch role {
        case .output(let entry, let line, _, _): "written by jobs[\(entry)] (line \(line))"
        case .record(let entry, let line): "the resume record of jobs[\(entry)] (line \(line))"
        case .report(let option): "the \(option) report"
        case .log: "a --logs file"
        case .manifest, .input, .mergedReport: "read by the batch"
        }
    }
}
