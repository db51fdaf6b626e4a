import Foundation

/// `hfr manpages DIRECTORY` (hidden; scripts/install runs it): writes hfr.1 and hfr-NAME.1 per command.
public struct ManPagesCommand: Command {
    public static let name = "manpages"
    public static let abstract = "Write the man pages (hfr.1, hfr-COMMAND.1) into a directory."
    public static let isHidden = true
    public static let options: [OptionSpec] = [
        .positional("DIRECTORY", help: "Where to write them (created if missing).")
    ]

    let directory: String

    public init(_ arguments: ParsedArguments) throws(HFRError) {
        directory = arguments.positional("DIRECTORY")!
    }

    public func run() throws(HFRError) {
        let commands = HFR.commands.filter { !$0.isHidden }
        var pages = [("hfr.1", ManPage.main(commands))]
        for command in commands + HFR.subcommands {
            pages.append((ManPage.pageName(command) + ".1", ManPage.command(command, all: commands)))
        }
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        } catch {
            throw .io(directory, "cannot create the directory (\(error.localizedDescription))")
        }
        for (file, text) in pages {
            let path = (directory as NSString).appendingPathComponent(file)
            do {
                try Data(text.utf8).write(to: URL(fileURLWithPath: path))
            } catch {
                throw .io(path, "cannot write (\(error.localizedDescription))")
            }
        }
    }
}
