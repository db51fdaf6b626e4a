import Foundation
import HFRTestSupport
import Testing

extension DeviceTests {
    @Suite struct Catalog {
        /// "FOURCC WxH 60.000" for every mode v4l2-ctl lists.
        static func v4l2CtlModes(_ device: String = Guest.camera) throws -> (formats: [String], modes: Set<String>) {
            let r = try Tool.run("v4l2-ctl", ["-d", device, "--list-formats-ext"])
            #expect(r.status == 0)
            var formats: [String] = []
            var modes = Set<String>()
            var size = ""
            for line in r.stdout.split(separator: "\n").map({ $0.trimmingCharacters(in: .whitespaces) }) {
                if line.hasPrefix("["), let open = line.firstIndex(of: "'") {
                    let rest = line[line.index(after: open)...]
                    // "Y16 -BE": the four characters (space-padded) and the big-endian suffix.
                    formats.append(String(rest[..<rest.firstIndex(of: "'")!]).replacingOccurrences(of: " ", with: ""))
                } else if line.hasPrefix("Size: Discrete ") {
                    size = String(line.dropFirst("Size: Discrete ".count))
                } else if line.hasPrefix("Interval: Discrete "), let open = line.firstIndex(of: "(") {
                    let fps = line[line.index(after: open)...].split(separator: " ")[0]
                    modes.insert("\(formats.last!) \(size) \(fps)")
                }
            }
            return (formats, modes)
        }

        /// The same from `hfr formats --json`, the rate printed as v4l2-ctl prints it.
        static func hfrModes(_ device: String = Guest.camera) throws -> (
            formats: [String], modes: Set<String>, json: [String: Any]
        ) {
            let r = try Tool.hfr(["formats", "--device", device, "--json"])
            #expect(r.status == 0, "\(r.stderr)")
            let json = try Tool.json(r.stdout)
            var formats: [String] = []
            var modes = Set<String>()
            for f in json["formats"] as? [[String: Any]] ?? [] {
                let fourcc = f["fourcc"] as! String
                formats.append(fourcc)
                for s in f["sizes"] as? [[String: Any]] ?? [] {
                    let size = "\(s["width"]!)x\(s["height"]!)"
                    for i in s["intervals"] as? [[String: Any]] ?? [] {
                        let rate = (i["frameRate"] as! String).split(separator: "/").compactMap { Double($0) }
                        let fps = rate.count == 2 ? rate[0] / rate[1] : rate[0]
                        modes.insert("\(fourcc) \(size) \(String(format: "%.3f", fps))")
                    }
                }
            }
            return (formats, modes, json)
        }

        @Test func formatsListExactlyWhatV4L2CtlLists() throws {
            let reference = try Catalog.v4l2CtlModes()
            let listed = try Catalog.hfrModes()
            #expect(reference.formats.count > 50, "vivid's webcam has dozens of formats")
            let sameFormats = listed.formats == reference.formats
            #expect(sameFormats, "hfr \(listed.formats), v4l2-ctl \(reference.formats)")
            let onlyReference = reference.modes.subtracting(listed.modes).sorted()
            let onlyListed = listed.modes.subtracting(reference.modes).sorted()
            #expect(
                onlyReference.isEmpty && onlyListed.isEmpty,
                "only v4l2-ctl: \(onlyReference.prefix(5)) (\(onlyReference.count)), only hfr: \(onlyListed.prefix(5)) (\(onlyListed.count))"
            )
            print(
                "formats: hfr \(listed.formats.count) pixel formats, \(listed.modes.count) modes; v4l2-ctl \(reference.formats.count), \(reference.modes.count); \(onlyReference.count + onlyListed.count) differ"
            )
        }

        @Test func maxFrameRateModeIs320x180At60InA420Format() throws {
            let json = try Catalog.hfrModes().json
            let best = json["maxFrameRateMode"] as? [String: Any]
            #expect(best?["width"] as? Int == 320 && best?["height"] as? Int == 180)
            #expect(best?["frameRate"] as? String == "60/1")
            #expect(["NV12", "YU12"].contains(best?["format"] as? String ?? ""))
            #expect(json["supportsHighFrameRate"] as? Bool == true)
            let text = try Tool.hfr(["formats", "--device", Guest.camera])
            #expect(text.stdout.contains("Supports high frame rate (> 30 fps): yes; max 60 fps at 320x180"))
        }

        @Test func recordFpsMaxTakesThatMode() throws {
            let dir = try TemporaryDirectory()
            let r = try Tool.hfr([
                "record", dir.path("max.mp4"), "--device", Guest.camera, "--fps", "max", "--frames", "30", "--audio",
                "none", "--json",
            ])
            #expect(r.status == 0, "\(r.stderr)")
            let report = try Tool.json(r.stdout)
            #expect(report["width"] as? Int == 320 && report["height"] as? Int == 180)
            #expect(report["frameRate"] as? String == "60/1")
            #expect(["NV12", "YU12"].contains(report["sourcePixelFormat"] as? String ?? ""))
            #expect(try Guest.probe(dir.path("max.mp4")).entry("video", "r_frame_rate") == "60/1")
        }

        @Test func devicesListsTheCameraAndTheLoopbackCard() throws {
            let r = try Tool.hfr(["devices", "--json"])
            #expect(r.status == 0)
            let json = try Tool.json(r.stdout)
            let video = json["video"] as? [[String: Any]] ?? []
            #expect(
                video.contains {
                    $0["path"] as? String == Guest.camera && $0["canCapture"] as? Bool == true
                        && $0["driver"] as? String == "vivid"
                })
            // The multi-planar webcam is a capture device too.
            #expect(
                video.contains {
                    $0["path"] as? String == Guest.multiplanar && $0["canCapture"] as? Bool == true
                        && $0["kind"] as? String == "multi-planar capture"
                })
            let audio = json["audio"] as? [[String: Any]] ?? []
            #expect(audio.contains { ($0["name"] as? String ?? "").hasPrefix("alsa:hw:Loopback,") })
        }
    }
}
