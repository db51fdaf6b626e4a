import Foundation

/// A JSON value for `/status` and `/events`, rendered with its members in the order given.
public indirect enum StatusValue: Sendable {
    case int(Int)
    case double(Double)
    case string(String)
    case bool(Bool)
    case null
    case array([StatusValue])
    case object([(String, StatusValue)])

    /// Compact JSON text.
    public var rendered: String {
        switch self {
        case .int(let v): return String(v)
        case .double(let v): return v.isFinite ? String(format: "%.3f", v) : "null"
        case .string(let s): return Self.quoted(s)
        case .bool(let b): return b ? "true" : "false"
        case .null: return "null"
        case .array(let items): return "[" + items.map(\.rendered).joined(separator: ",") + "]"
        case .object(let members):
            return "{" + members.map { Self.quoted($0.0) + ":" + $0.1.rendered }.joined(separator: ",") + "}"
        }
    }

    static func quoted(_ s: String) -> String {
        var out = "\""
        for scalar in s.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case let c where c.value < 0x20: out += String(format: "\\u%04x", c.value)
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }
}
