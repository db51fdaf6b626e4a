/// The command synopses of the README and docs/spec.md, made from the option tables (the same
/// fragments as `--help`'s usage line, the man pages' SYNOPSIS and the completions), so the
/// documents cannot drift from the commands. A block in a Markdown file is marked by the line
/// `<!-- synopsis: NAME -->` (a command's name, `batch merge`, or `all`) before its code fence;
/// `hfr synopses FILE…` rewrites the marked blocks, and a test fails when one differs.
enum Synopsis {
    static let width = 100
    static let marker = "<!-- synopsis: "

    /// `hfr NAME` and the option fragments, wrapped at `width` under the first fragment.
    static func text(of command: any Command.Type, width: Int = width) -> String {
        let head = "hfr \(command.name)"
        let indent = String(repeating: " ", count: head.count + 1)
        var lines = [head]
        for fragment in command.options.map(\.usageFragment) {
            if lines[lines.count - 1].count + 1 + fragment.count > width, lines[lines.count - 1] != head {
                lines.append(indent + fragment)
            } else {
                lines[lines.count - 1] += " " + fragment
            }
        }
        return lines.joined(separator: "\n")
    }

    /// Every command users see (subcommands after their parent), each under its abstract as a comment.
    static var all: String {
        let commands = HFR.commands.filter { !$0.isHidden } + HFR.subcommands
        return commands.map { "# \($0.abstract)\n" + text(of: $0) }.joined(separator: "\n")
    }

    /// The block for marker `name`; nil when no command has that name.
    static func block(_ name: String) -> String? {
        if name == "all" { return all }
        return (HFR.commands + HFR.subcommands).first { $0.name == name }.map { text(of: $0) }
    }

    /// `markdown` with every marked block made from the option tables, and the unknown markers' names.
    static func updated(_ markdown: String) -> (text: String, unknown: [String]) {
        var lines = markdown.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        var unknown: [String] = []
        var i = 0
        while i < lines.count {
            defer { i += 1 }
            guard let name = markerName(lines[i]) else { continue }
            guard let block = block(name) else {
                unknown.append(name)
                continue
            }
            // The fence after the marker, and its end (a missing fence: the block is inserted).
            let generated = ["```"] + block.split(separator: "\n").map(String.init) + ["```"]
            if i + 1 < lines.count, lines[i + 1].hasPrefix("```"),
                let end = lines[(i + 2)...].firstIndex(where: { $0.hasPrefix("```") })
            {
                lines.replaceSubrange((i + 1)...end, with: generated)
            } else {
                lines.insert(contentsOf: generated, at: i + 1)
            }
            i += generated.count
        }
        return (lines.joined(separator: "\n"), unknown)
    }

    /// The names of the marked blocks in `markdown`.
    static func markers(in markdown: String) -> [String] {
        markdown.split(separator: "\n").compactMap(markerName)
    }

    /// NAME of a `<!-- synopsis: NAME -->` line; nil for any other line.
    static func markerName(_ line: some StringProtocol) -> String? {
        guard line.hasPrefix(marker), line.hasSuffix(" -->") else { return nil }
        return String(line.dropFirst(marker.count).dropLast(4))
    }
}
