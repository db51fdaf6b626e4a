import Foundation
import HFRTestSupport
import Testing

/// `scripts/install --deb`: a .deb whose Depends are the Debian packages owning every library hfr
/// loads (ldd's and the two it dlopens).
@Suite(.serialized) struct PackageTests {
    @Test func debDependsOnThePackagesOwningItsLibraries() throws {
        let install = try Installation.shared.get()
        let dir = try TemporaryDirectory()
        let script = Fixtures.root.appendingPathComponent("scripts/install").path
        let r = try Tool.run(script, ["--deb", dir.url.path])
        #expect(r.status == 0, "\(r.stderr)")
        let deb = r.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(deb.hasPrefix(dir.url.path + "/hfr_") && deb.hasSuffix(".deb"))
        let depends = Set(
            try Tool.run("dpkg-deb", ["-f", deb, "Depends"]).stdout.split(separator: ",").map {
                $0.trimmingCharacters(in: .whitespacesAndNewlines)
            })
        var owners: Set<String> = []
        let ldd = try Tool.run("ldd", [install.hfr]).stdout
        for path in ldd.split(separator: " ").filter({ $0.hasPrefix("/") }) {
            if let owner = try Installation.owner(String(path)) { owners.insert(owner) }
        }
        #expect(owners.isSuperset(of: ["libc6", "libavformat59", "libavcodec59"]), "\(owners)")
        // The dlopened two are dependencies too, though ldd does not list them.
        #expect(depends == owners.union(["libavfilter8", "libavdevice59"]), "\(depends) vs \(owners)")
        let contents = try Tool.run("dpkg-deb", ["-c", deb]).stdout
        for file in [
            "./usr/bin/hfr", "./usr/share/man/man1/hfr-export.1.gz", "./usr/share/bash-completion/completions/hfr",
            "./usr/share/zsh/site-functions/_hfr", "./usr/share/fish/vendor_completions.d/hfr.fish",
        ] {
            #expect(contents.contains(file), "\(file) not in the package")
        }
        #expect(try dir.contents() == [URL(fileURLWithPath: deb).lastPathComponent])
    }
}
