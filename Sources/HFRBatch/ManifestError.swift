/// A manifest that cannot run: where (line and field) and why.
public struct ManifestError: Error, Sendable, Equatable {
    public let position: TextPosition?
    /// The field in the manifest, e.g. `jobs[3].conform`; nil for syntax errors.
    public let field: String?
    public let message: String

    public init(_ message: String, at position: TextPosition?, field: String? = nil) {
        self.position = position
        self.field = field
        self.message = message
    }

    /// `batch.json:12:5: jobs[3].conform: must be …`
    public func describe(manifest: String) -> String {
        var text = manifest
        if let position { text += ":\(position.line):\(position.column)" }
        text += ": "
        if let field { text += "\(field): " }
        return text + message
    }
}
