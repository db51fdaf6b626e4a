#if canImport(Glibc)
    import Glibc
#endif

/// File names as the file system holds them: bytes, not necessarily UTF-8.
///
/// hfr carries paths as `String`s. A name that is not UTF-8 (`clip\xff.mp4`) would lose its bytes
/// in one: Swift repairs invalid UTF-8 with U+FFFD, so the input was "no such file" and the output
/// was created under another name. Here each byte that is not part of valid UTF-8 becomes one
/// private-use scalar, U+10EE80 + (byte − 0x80), and back again at the system call: any name
/// round-trips (like Python's `surrogateescape`, which Swift's strings cannot hold). A name that
/// really contains one of those scalars has each of its bytes escaped, so decoding stays exact.
public enum PathBytes {
    /// The scalar standing for byte 0x80; bytes 0x80...0xFF map onto the 128 scalars from it.
    static let escapeBase: UInt32 = 0x10_EE80

    /// The program's arguments (without its name), each decoded losslessly from its bytes.
    public static func arguments() -> [String] {
        (1..<Int(CommandLine.argc)).map { i in
            CommandLine.unsafeArgv[i].map { string(cString: $0) } ?? ""
        }
    }

    /// The name in the NUL-terminated `cString` (from argv, realpath(3), readdir(3)).
    public static func string(cString: UnsafePointer<CChar>) -> String {
        let length = strlen(cString)
        return cString.withMemoryRebound(to: UInt8.self, capacity: length) {
            string(bytes: UnsafeBufferPointer(start: $0, count: length))
        }
    }

    /// The name in `bytes`: valid UTF-8 as it reads, every other byte as its escape scalar.
    public static func string(bytes: some Collection<UInt8>) -> String {
        let bytes = Array(bytes)
        var scalars = String.UnicodeScalarView()
        var at = 0
        while at < bytes.count {
            if let (scalar, length) = decode(bytes, at: at), !isEscape(scalar.value) {
                scalars.append(scalar)
                at += length
            } else {
                scalars.append(Unicode.Scalar(escapeBase + UInt32(bytes[at]) - 0x80)!)
                at += 1
            }
        }
        return String(scalars)
    }

    /// The bytes `path` names: escape scalars back to their bytes, the rest as UTF-8.
    public static func bytes(_ path: String) -> [UInt8] {
        guard hasEscapes(path) else { return Array(path.utf8) }
        var out: [UInt8] = []
        out.reserveCapacity(path.utf8.count)
        for scalar in path.unicodeScalars {
            if isEscape(scalar.value) {
                out.append(UInt8(scalar.value - escapeBase + 0x80))
            } else {
                out.append(contentsOf: String(scalar).utf8)
            }
        }
        return out
    }

    /// `path` for people: each byte that is not UTF-8 as `\xff`.
    public static func display(_ path: String) -> String {
        guard hasEscapes(path) else { return path }
        var out = ""
        for scalar in path.unicodeScalars {
            if isEscape(scalar.value) {
                let hex = String(scalar.value - escapeBase + 0x80, radix: 16)
                out += "\\x" + hex
            } else {
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    /// Whether `text` holds an escaped byte (the UTF-8 of every escape scalar starts F4 8E BA/BB).
    static func hasEscapes(_ text: String) -> Bool {
        text.utf8.contains(0xF4) && text.unicodeScalars.contains { isEscape($0.value) }
    }

    package static func isEscape(_ value: UInt32) -> Bool { value >= escapeBase && value < escapeBase + 0x80 }

    /// One UTF-8 sequence at `at` when it is valid (shortest form, no surrogates, ≤ U+10FFFF).
    private static func decode(_ b: [UInt8], at: Int) -> (Unicode.Scalar, Int)? {
        let lead = b[at]
        let (length, initial, minimum): (Int, UInt32, UInt32) =
            switch lead {
            case 0x00...0x7F: (1, UInt32(lead), 0)
            case 0xC2...0xDF: (2, UInt32(lead & 0x1F), 0x80)
            case 0xE0...0xEF: (3, UInt32(lead & 0x0F), 0x800)
            case 0xF0...0xF4: (4, UInt32(lead & 0x07), 0x1_0000)
            default: (0, 0, 0)
            }
        guard length > 0, at + length <= b.count else { return nil }
        var value = initial
        for i in 1..<length {
            guard b[at + i] & 0xC0 == 0x80 else { return nil }
            value = value << 6 | UInt32(b[at + i] & 0x3F)
        }
        guard value >= minimum, let scalar = Unicode.Scalar(value) else { return nil }
        return (scalar, length)
    }
}

extension String {
    /// Calls `body` with the NUL-terminated bytes this path names (see `PathBytes`): what every
    /// system call and library taking a file name must get.
    public func withPathBytes<R, E: Error>(_ body: (UnsafePointer<CChar>) throws(E) -> R) throws(E) -> R {
        guard PathBytes.hasEscapes(self) else {
            return try withCString { pointer in Result { () throws(E) in try body(pointer) } }.get()
        }
        let bytes = PathBytes.bytes(self).map { CChar(bitPattern: $0) } + [0]
        return try bytes.withUnsafeBufferPointer { buffer in
            Result { () throws(E) in try body(buffer.baseAddress!) }
        }.get()
    }

    /// This path for messages: bytes that are not UTF-8 shown as `\xff`.
    public var displayPath: String { PathBytes.display(self) }
}
