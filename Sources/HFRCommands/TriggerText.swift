import HFRMedia
import HFRPipeline

/// How record's summary and probe show a clip's triggers.
enum TriggerText {
    /// `motion at 1.000 s, signal at 1.750 s`.
    static func list(_ triggers: [TriggerEvent]) -> String {
        triggers.map { "\($0.kind.rawValue) at \(DecimalText.fixed($0.time.doubleValue, digits: 3)) s" }
            .joined(separator: ", ")
    }

    /// `[{"kind": "motion", "time": 1}]`.
    static func json(_ triggers: [TriggerEvent]) -> JSONValue {
        .array(triggers.map { .object([("kind", .string($0.kind.rawValue)), ("time", .double($0.time.doubleValue))]) })
    }
}
