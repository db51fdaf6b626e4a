import Foundation
import HFRTestSupport
import Testing

/// Boots the VM guest (scripts/vm-test: Debian's kernel under qemu with vivid and snd-aloop) and
/// runs the DeviceTests suite inside it. If the guest cannot boot, this fails — loudly — rather
/// than skipping: the device tests must run for real in CI.
@Suite struct RealDriverHarnessTests {
    static let isGuest = ProcessInfo.processInfo.environment["HFR_IN_GUEST"] == "1"

    @Test(.enabled(if: !isGuest, "this is the guest itself"))
    func deviceSuitePassesInsideTheGuest() throws {
        let repository = Fixtures.root
        let bundle = Tool.buildDirectory.appendingPathComponent("hfrPackageTests.xctest").path
        // Real time under emulation needs the optimised build: scripts/test makes it where
        // scripts/install does, so the install tests reuse it.
        let release = repository.appendingPathComponent(".build-static/release/hfr").path
        #expect(
            FileManager.default.isExecutableFile(atPath: release),
            "no release build: swift build -c release --product hfr --static-swift-stdlib --scratch-path .build-static")
        let started = Date()
        // The checkout is shared into the guest at its own path: the guest's /tmp, /run and /root
        // are its own, so a clone there would otherwise be invisible.
        let r = try Tool.run(
            repository.appendingPathComponent("scripts/vm-test").path,
            [
                "--timeout", "720", "--share", repository.path, "--env", "HFR_BINARY=\(release)", "--vivid-args",
                "n_devs=4 node_types=0x1,0x1,0x100,0x1 num_inputs=1,1,1,1 input_types=0x0,0x3,0x0,0x0"
                    + " multiplanar=1,1,1,2", "--", bundle,
                "--testing-library", "swift-testing", "--filter", #"^DeviceTests\."#,
            ])
        let wall = Date().timeIntervalSince(started)
        // The guest's own test log, for the CI reader.
        print("---- device suite inside the VM guest ----")
        print(r.stdout.replacingOccurrences(of: "\u{1B}[", with: "ESC["))
        print(r.stderr)
        print("---- guest suite: exit \(r.status), \(String(format: "%.0f", wall)) s wall ----")
        #expect(r.status != 125, "THE VM GUEST DID NOT BOOT: \(r.stderr.suffix(2000))")
        #expect(r.status == 0, "device suite failed in the guest (exit \(r.status))")
        let summary = r.stdout.split(separator: "\n").last { $0.contains("Test run with") } ?? ""
        #expect(summary.contains("passed"), "\(summary)")
        let count = summary.split(separator: " ").drop { $0 != "with" }.dropFirst().first.flatMap { Int($0) } ?? 0
        // Every device test the target declares ran (a parameterised test counts once, as the runner counts).
        let declared = try FileManager.default.contentsOfDirectory(
            at: repository.appendingPathComponent("Tests/DeviceTests"), includingPropertiesForKeys: nil
        ).filter { $0.pathExtension == "swift" }.map {
            try String(contentsOf: $0, encoding: .utf8).components(separatedBy: "@Test").count - 1
        }.reduce(0, +)
        #expect(count == declared && declared > 0, "the guest ran \(count) device tests of \(declared)")
        #expect(!r.stdout.contains("skipped"), "device tests must run, not skip, in the guest")
    }
}
