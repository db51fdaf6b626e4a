/// The names of a triggered recording's clips, from `OUTPUT` as a template, as ffmpeg's segment
/// and image2 muxers take one: `shot-%03d.mp4` → `shot-001.mp4`, `shot-002.mp4` …; a name without
/// a number gets `-%03d` before its extension (`take.mp4` → `take-001.mp4`). Clips count from 1.
public struct ClipNames: Sendable, Equatable {
    /// The text before and after the number, and its zero-padded width.
    let prefix: String
    let suffix: String
    let width: Int

    /// Why `template` cannot name clips, if it cannot: a second number, or a `%` that is neither
    /// `%d`, `%0Nd` (N ≤ 9) nor `%%`.
    public static func problem(in template: String) -> String? {
        switch parse(template) {
        case .success: nil
        case .failure(let problem): problem.text
        }
    }

    public init(template: String) {
        switch Self.parse(template) {
        case .success(let names): self = names
        case .failure: self.init(prefix: template, suffix: "", width: 3)
        }
    }

    init(prefix: String, suffix: String, width: Int) {
        self.prefix = prefix
        self.suffix = suffix
        self.width = width
    }

    /// Clip `number`'s name (1 is the first).
    public func name(_ number: Int) -> String {
        let digits = String(number)
        return prefix + String(repeating: "0", count: max(0, width - digits.count)) + digits + suffix
    }

    struct Problem: Error {
        var text: String
    }

    private static func parse(_ template: String) -> Result<ClipNames, Problem> {
        var prefix = ""
        var suffix = ""
        var width: Int?
        var characters = Array(template)[...]
        while let c = characters.popFirst() {
            guard c == "%" else {
                if width == nil { prefix.append(c) } else { suffix.append(c) }
                continue
            }
            if characters.first == "%" {
                characters.removeFirst()
                if width == nil { prefix.append("%") } else { suffix.append("%") }
                continue
            }
            var digits = ""
            while let d = characters.first, d.isASCII, d.isNumber {
                digits.append(d)
                characters.removeFirst()
            }
            guard characters.popFirst() == "d", digits.isEmpty || (digits.first == "0" && digits.count == 2) else {
                return .failure(Problem(text: "'\(template)' has a % that is not %d, %0Nd or %%"))
            }
            guard width == nil else { return .failure(Problem(text: "'\(template)' has more than one %d")) }
            width = digits.isEmpty ? 1 : Int(digits.dropFirst())!
        }
        if let width { return .success(ClipNames(prefix: prefix, suffix: suffix, width: width)) }
        // No number: `-%03d` before the extension (after the last slash).
        let slash = prefix.lastIndex(of: "/").map { prefix.index(after: $0) } ?? prefix.startIndex
        if let dot = prefix[slash...].lastIndex(of: "."), dot > slash {
            return .success(ClipNames(prefix: prefix[..<dot] + "-", suffix: String(prefix[dot...]), width: 3))
        }
        return .success(ClipNames(prefix: prefix + "-", suffix: "", width: 3))
    }
}
