/// A JSON value with ordered object keys, so output is stable and diffable.
public indirect enum JSONValue: Sendable, ExpressibleByStringLiteral, ExpressibleByIntegerLiteral,
    ExpressibleByBooleanLiteral
{
    case object([(String, JSONValue)])
    case array([JSONValue])
    case string(String)
    case int(Int64)
    case double(Double)
    case bool(Bool)
    case null

    public init(stringLiteral value: String) { self = .string(value) }
    public init(integerLiteral value: Int64) { self = .int(value) }
    public init(booleanLiteral value: Bool) { self = .bool(value) }

    /// `d` to `digits` decimals (live figures: 116.601, not 116.60144927536231).
    public static func rounded(_ d: Double, digits: Int = 3) -> JSONValue {
        let scale = (0..<digits).reduce(1.0) { p, _ in p * 10 }
        return .double((d * scale).rounded() / scale)
    }

    /// `.null` for nil, else the wrapped value.
    public static func optional(_ value: JSONValue?) -> JSONValue { value ?? .null }

    /// Compact one-line text.
    public var rendered: String {
        var out = ""
        render(into: &out)
        return out
    }

    func render(into out: inout String) {
        switch self {
        case .object(let members):
            out += "{"
            for (i, (key, value)) in members.enumerated() {
                if i > 0 { out += "," }
                JSONValue.escape(key, into: &out)
                out += ":"
                value.render(into: &out)
            }
            out += "}"
        case .array(let items):
            out += "["
            for (i, item) in items.enumerated() {
                if i > 0 { out += "," }
                item.render(into: &out)
            }
            out += "]"
        case .string(let s): JSONValue.escape(s, into: &out)
        case .int(let n): out += String(n)
        case .double(let d): out += d.isFinite ? JSONValue.format(d) : "null"
        case .bool(let b): out += b ? "true" : "false"
        case .null: out += "null"
        }
    }

    static func format(_ d: Double) -> String {
        if d == d.rounded(), abs(d) < 1e15 { return String(Int64(d)) }
        var s = String(d)
        if s.contains("e") { s = String(describing: d) }
        return s
    }

    static func escape(_ s: String, into out: inout String) {
        out += "\""
        for scalar in s.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            // A file name's byte that is not UTF-8 (`PathBytes`): JSON holds text, so `\xff`.
            case let c where PathBytes.isEscape(c.value):
                out += "\\" + PathBytes.display(String(c))
            case let c where c.value < 0x20:
                let hex = String(c.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(scalar)
            }
        }
        out += "\""
    }
}
