import Foundation
import HFRTestSupport
import Testing

/// `scripts/install --deb`: a .deb whose Depends are the Debian packages of the libraries hfr and its
/// own libraries (lib/hfr: interpolation, time stretch) link directly and of those it dlopens; with
/// their own dependencies they bring every library ldd lists for them.
@Suite(.serialized) struct PackageTests {
    @Test func debDependsOnThePackagesOwningItsLibraries() throws {
        let install = try Installation.shared.get()
        let dir = try TemporaryDirectory()
        let script = Fixtures.root.appendingPathComponent("scripts/install").path
        // zstd: what the package holds is the same as with the default xz, packed in a second
        // instead of half a minute of CPU.
        let r = try Tool.run("/usr/bin/env", ["HFR_DEB_COMPRESSION=zstd", script, "--deb", dir.url.path])
        #expect(r.status == 0, "\(r.stderr)")
        let deb = r.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(deb.hasPrefix(dir.url.path + "/hfr_") && deb.hasSuffix(".deb"))
        #expect(try Tool.run("ar", ["t", deb]).stdout.contains("data.tar.zst"))
        let depends = Set(
            try Tool.run("dpkg-deb", ["-f", deb, "Depends"]).stdout.split(separator: ",").map {
                $0.trimmingCharacters(in: .whitespacesAndNewlines)
            })
        let binaries =
            [install.hfr]
            + ["libhfr-opticalflow.so", "libhfr-soundtouch.so"].map {
                install.prefix + "/lib/hfr/" + $0
            }
        let libraries = Array(Set(try binaries.flatMap { try Installation.ldd($0) }))
        let owners = try Installation.owners(libraries)
        // Directly linked (objdump's NEEDED entries): each owner is a dependency.
        let needed = try binaries.flatMap { binary in
            try Tool.run("objdump", ["-p", binary]).stdout.split(separator: "\n").compactMap { line in
                line.contains("NEEDED") ? line.split(separator: " ").last.map(String.init) : nil
            }
        }
        for library in ["libavformat.so.", "libopencv_video.so.", "libSoundTouch.so."] {
            #expect(needed.contains { $0.hasPrefix(library) }, "\(library) not among \(needed)")
        }
        for soname in needed {
            let path = libraries.first { $0.hasSuffix("/" + soname) }
            #expect(path.flatMap { owners[$0] }.map(depends.contains) == true, "\(soname): \(depends)")
        }
        // dlopened on first use (not in ldd's lists), and nothing that is not a library's package.
        let dlopened = ["libavfilter", "libavdevice", "librubberband", "libopenh264", "libmicrohttpd"]
        for prefix in dlopened { #expect(depends.contains { $0.hasPrefix(prefix) }, "\(prefix): \(depends)") }
        for package in depends where !dlopened.contains(where: { package.hasPrefix($0) }) {
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
            "./usr/lib/hfr/libhfr-opticalflow.so", "./usr/lib/hfr/libhfr-soundtouch.so",
        ] {
            #expect(contents.contains(file), "\(file) not in the package")
        }
        #expect(try dir.contents() == [URL(fileURLWithPath: deb).lastPathComponent])
    }
}
