import Foundation
import HFRMedia

/// `hfr synopses FILE…` (hidden; for whoever changes an option): rewrites the synopsis blocks
/// marked in Markdown files (`<!-- synopsis: NAME -->`) from the option tables.
public struct SynopsesCommand: Command {
    public static let name = "synopses"
    public static let abstract = "Rewrite the command synopses marked in Markdown files from the option tables."
    public static let isHidden = true
    public static let options: [OptionSpec] = [
        .positional("FILE...", help: "Markdown files with <!-- synopsis: NAME --> markers (README.md docs/spec.md).")
    ]

    let files: [String]

    public init(_ arguments: ParsedArguments) throws(HFRError) {
        files = arguments.positionals("FILE...")
        if files.isEmpty { throw .usage("give the Markdown files to update", of: Self.self) }
    }

    public func run() throws(HFRError) {
        for file in files {
            guard let text = try? String(contentsOfFile: file, encoding: .utf8) else {
                throw .io(file, "cannot read it")
            }
            let (updated, unknown) = Synopsis.updated(text)
            if let name = unknown.first {
                throw HFRError("\(file): no command is named '\(name)' (a synopsis marker)", exitCode: .dataError)
            }
            guard updated != text else { continue }
            do {
                try Data(updated.utf8).write(to: URL(fileURLWithPath: file), options: .atomic)
            } catch {
                throw .io(file, "cannot write (\(error.localizedDescription))")
            }
            Console.error("Updated the synopses in \(file)\n")
        }
    }
}
