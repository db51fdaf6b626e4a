/// Where a value starts in a text: 1-based line and column (columns count bytes).
public struct TextPosition: Sendable, Equatable, CustomStringConvertible {
    public let line: Int
    public let column: Int

    public init(line: Int, column: Int) {
        self.line = line
        self.column = column
    }

    public var description: String { "\(line):\(column)" }
}

/// A JSON value and where it starts, so a manifest error can name its line.
public struct JSONNode: Sendable {
    public enum Value: Sendable {
        case object([Member])
        case array([JSONNode])
        case string(String)
        /// The number as written, kept exact ("30000", "0.25").
        case number(String)
        case bool(Bool)
        case null
    }

    /// One `"key": value` of an object, with the key's position.
    public struct Member: Sendable {
        public let key: String
        public let keyPosition: TextPosition
        public let value: JSONNode
    }

    public let value: Value
    public let position: TextPosition

    /// What the value is, for messages ("a string", "an object").
    public var kindName: String {
        switch value {
        case .object: "an object"
        case .array: "an array"
        case .string: "a string"
        case .number: "a number"
        case .bool: "a boolean"
        case .null: "null"
        }
    }
}

/// A syntax error and where it is.
public struct JSONSyntaxError: Error, Sendable, Equatable {
    public let position: TextPosition
    public let message: String

    public init(position: TextPosition, message: String) {
        self.position = position
        self.message = message
    }
}

/// A small JSON reader that keeps positions (JSONSerialization gives none) and allows `//` line
/// comments, so `hfr batch --example` can explain itself and still be read back as is.
public struct JSONReader {
    private let bytes: [UInt8]
    private var index = 0
    private var line = 1
    private var lineStart = 0

    /// Parses `text` as one JSON value.
    public static func parse(_ text: String) throws(JSONSyntaxError) -> JSONNode {
        // A byte-order mark some editors put first is not part of the document.
        var reader = JSONReader(bytes: Array((text.hasPrefix("\u{FEFF}") ? String(text.dropFirst()) : text).utf8))
        reader.skipSpace()
        let node = try reader.readValue(depth: 0)
        reader.skipSpace()
        if reader.index < reader.bytes.count { throw reader.error("unexpected text after the end of the document") }
        return node
    }

    private init(bytes: [UInt8]) { self.bytes = bytes }

    private var position: TextPosition { TextPosition(line: line, column: index - lineStart + 1) }

    private func error(_ message: String) -> JSONSyntaxError { JSONSyntaxError(position: position, message: message) }

    private var current: UInt8? { index < bytes.count ? bytes[index] : nil }

    private mutating func skipSpace() {
        while let c = current {
            switch c {
            case UInt8(ascii: "\n"):
                index += 1
                line += 1
                lineStart = index
            case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\r"):
                index += 1
            case UInt8(ascii: "/") where index + 1 < bytes.count && bytes[index + 1] == UInt8(ascii: "/"):
                while let c = current, c != UInt8(ascii: "\n") { index += 1 }
            default:
                return
            }
        }
    }

    private mutating func readValue(depth: Int) throws(JSONSyntaxError) -> JSONNode {
        guard depth < 100 else { throw error("nested too deeply") }
        let start = position
        guard let c = current else { throw error("unexpected end of the document, expected a value") }
        switch c {
        case UInt8(ascii: "{"): return JSONNode(value: .object(try readObject(depth: depth)), position: start)
        case UInt8(ascii: "["): return JSONNode(value: .array(try readArray(depth: depth)), position: start)
        case UInt8(ascii: "\""): return JSONNode(value: .string(try readString()), position: start)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            return JSONNode(value: .number(try readNumber()), position: start)
        default:
            for (word, value) in [("true", JSONNode.Value.bool(true)), ("false", .bool(false)), ("null", .null)]
            where bytes[index...].starts(with: word.utf8) {
                index += word.utf8.count
                return JSONNode(value: value, position: start)
            }
            throw error("unexpected character '\(Character(Unicode.Scalar(c)))', expected a value")
        }
    }

    private mutating func readObject(depth: Int) throws(JSONSyntaxError) -> [JSONNode.Member] {
        var members: [JSONNode.Member] = []
        try readElements(closedBy: UInt8(ascii: "}"), in: "an object") { reader throws(JSONSyntaxError) in
            let keyPosition = reader.position
            guard reader.current == UInt8(ascii: "\"") else { throw reader.error("expected a key in double quotes") }
            let key = try reader.readString()
            if members.contains(where: { $0.key == key }) {
                throw JSONSyntaxError(position: keyPosition, message: "duplicate key \"\(key)\"")
            }
            reader.skipSpace()
            guard reader.current == UInt8(ascii: ":") else { throw reader.error("expected ':' after key \"\(key)\"") }
            reader.index += 1
            reader.skipSpace()
            let value = try reader.readValue(depth: depth + 1)
            members.append(JSONNode.Member(key: key, keyPosition: keyPosition, value: value))
        }
        return members
    }

    private mutating func readArray(depth: Int) throws(JSONSyntaxError) -> [JSONNode] {
        var items: [JSONNode] = []
        try readElements(closedBy: UInt8(ascii: "]"), in: "an array") { reader throws(JSONSyntaxError) in
            items.append(try reader.readValue(depth: depth + 1))
        }
        return items
    }

    /// What objects and arrays share: past the opening bracket, `element` for each element (space
    /// before and after is skipped here), separated by commas, up to the `close` bracket.
    private mutating func readElements(
        closedBy close: UInt8, in container: String,
        _ element: (inout JSONReader) throws(JSONSyntaxError) -> Void
    ) throws(JSONSyntaxError) {
        index += 1
        skipSpace()
        if current == close {
            index += 1
            return
        }
        while true {
            skipSpace()
            try element(&self)
            skipSpace()
            switch current {
            case UInt8(ascii: ","): index += 1
            case close:
                index += 1
                return
            default: throw error("expected ',' or '\(Character(Unicode.Scalar(close)))' in \(container)")
            }
        }
    }

    private mutating func readString() throws(JSONSyntaxError) -> String {
        index += 1
        var scalars = String.UnicodeScalarView()
        var run: [UInt8] = []
        func flush() {
            scalars.append(contentsOf: String(decoding: run, as: UTF8.self).unicodeScalars)
            run.removeAll(keepingCapacity: true)
        }
        while true {
            guard let c = current else { throw error("unterminated string") }
            switch c {
            case UInt8(ascii: "\""):
                index += 1
                flush()
                return String(scalars)
            case UInt8(ascii: "\\"):
                flush()
                index += 1
                guard let e = current else { throw error("unterminated string") }
                index += 1
                switch e {
                case UInt8(ascii: "\""): scalars.append("\"")
                case UInt8(ascii: "\\"): scalars.append("\\")
                case UInt8(ascii: "/"): scalars.append("/")
                case UInt8(ascii: "b"): scalars.append("\u{08}")
                case UInt8(ascii: "f"): scalars.append("\u{0C}")
                case UInt8(ascii: "n"): scalars.append("\n")
                case UInt8(ascii: "r"): scalars.append("\r")
                case UInt8(ascii: "t"): scalars.append("\t")
                case UInt8(ascii: "u"):
                    var code = try readHex4()
                    if (0xD800..<0xDC00).contains(code), bytes[index...].starts(with: "\\u".utf8) {
                        index += 2
                        let low = try readHex4()
                        code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
                    }
                    guard let scalar = Unicode.Scalar(code) else { throw error("invalid \\u escape") }
                    scalars.append(scalar)
                default: throw error("invalid escape '\\\(Character(Unicode.Scalar(e)))'")
                }
            case 0..<0x20:
                throw error("control character in a string (newlines must be written \\n)")
            default:
                run.append(c)
                index += 1
            }
        }
    }

    private mutating func readHex4() throws(JSONSyntaxError) -> UInt32 {
        guard index + 4 <= bytes.count,
            let code = UInt32(String(decoding: bytes[index..<index + 4], as: UTF8.self), radix: 16)
        else { throw error("invalid \\u escape") }
        index += 4
        return code
    }

    private mutating func readNumber() throws(JSONSyntaxError) -> String {
        let start = index
        let at = position
        func invalid(_ why: String) -> JSONSyntaxError {
            JSONSyntaxError(position: at, message: "invalid number" + why)
        }
        func digits() -> Int {
            let from = index
            while let c = current, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(c) { index += 1 }
            return index - from
        }
        if current == UInt8(ascii: "-") { index += 1 }
        let whole = index
        guard digits() > 0 else { throw invalid("") }
        if bytes[whole] == UInt8(ascii: "0"), index - whole > 1 { throw invalid(" (leading zero)") }
        if current == UInt8(ascii: ".") {
            index += 1
            guard digits() > 0 else { throw invalid(" (digits expected after '.')") }
        }
        if current == UInt8(ascii: "e") || current == UInt8(ascii: "E") {
            index += 1
            if current == UInt8(ascii: "+") || current == UInt8(ascii: "-") { index += 1 }
            guard digits() > 0 else { throw invalid(" (exponent digits expected)") }
        }
        return String(decoding: bytes[start..<index], as: UTF8.self)
    }
}
