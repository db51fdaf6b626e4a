/// What a batch needs to know of `hfr export`'s options; the command layer fills it from the
/// export's own option table and parser, so the two can never disagree.
public struct ExportOptionTable: Sendable {
    /// How an option is written in a manifest.
    public enum Kind: Sendable, Equatable {
        /// `true` to give it, `false` (or absent) not to.
        case flag
        /// A string or a number.
        case value
        /// A value or an array of values.
        case repeated
    }

    /// Every option the manifest may set, in the export's table order (the normalized order).
    public let options: [(name: String, kind: Kind)]
    /// Options hfr batch sets itself (`json`, `force`), with the reason a manifest may not.
    public let reserved: [String: String]
    /// Checks a complete export argument list (`INPUT OUTPUT --opt value …`); the usage error or nil.
    public let validate: @Sendable ([String]) -> String?

    public init(
        options: [(name: String, kind: Kind)], reserved: [String: String],
        validate: @escaping @Sendable ([String]) -> String?
    ) {
        self.options = options
        self.reserved = reserved
        self.validate = validate
    }
}
