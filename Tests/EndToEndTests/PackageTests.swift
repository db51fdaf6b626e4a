import Foundation
import HFRTestSupport
import Testing

/// `scripts/install --deb`: a .deb whose Depends are the Debian packages of the libraries hfr links
/// directly and of the two it dlopens; with their own dependencies they bring every library ldd lists.
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
        let libraries = try Installation.ldd(install.hfr)
        let owners = try Installation.owners(libraries)
        // Directly linked (objdump's NEEDED entries): each owner is a dependency.
        let needed = try Tool.run("objdump", ["-p", install.hfr]).stdout.split(separator: "\n").compactMap { line in
            line.contains("NEEDED") ? line.split(separator: " ").last.map(String.init) : nil
        }
        #expect(needed.contains { $0.hasPrefix("libavformat.so.") })
        for soname in needed {
            let path = libraries.first { $0.hasSuffix("/" + soname) }
            #expect(path.flatMap { owners[$0] }.map(depends.contains) == true, "\(soname): \(depends)")
        }
        // dlopened (not in ldd's list), and nothing that is not a library's package.
        #expect(depends.contains { $0.hasPrefix("libavfilter") } && depends.contains { $0.hasPrefix("libavdevice") })
        for package in depends where !package.hasPrefix("libavfilter") && !package.hasPrefix("libavdevice") {
            #expect(Set(owners.values).contains(package), "\(package) owns no library hfr loads")
        }
        // What apt installs for these Depends covers every library ldd lists.
        let closure = try Tool.run(
            "apt-cache",
            ["depends", "--recurse", "--no-recommends", "--no-suggests", "--no-conflicts", "--no-breaks"]
                + ["--no-replaces", "--no-enhances"] + depends.sorted())
        let installed = Set(closure.stdout.split(separator: "\n").filter { !$0.hasPrefix(" ") }.map(String.init))
        #expect(Set(owners.values).subtracting(installed).isEmpty, "\(Set(owners.values).subtracting(installed))")

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
