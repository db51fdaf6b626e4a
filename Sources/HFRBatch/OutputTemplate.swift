/// An output path with placeholders taken from each input: `out/{stem}-slowmo.mp4`.
///
/// `{stem}` is the input's file name without its extension, `{name}` the file name, `{dir}` the
/// input's directory relative to the manifest ("." when it has none).
public struct OutputTemplate: Sendable {
    enum Piece: Sendable, Equatable {
        case text(String)
        case stem, name, dir
    }

    let pieces: [Piece]

    /// Parses `template`; the message says what is wrong (an unknown or unclosed placeholder).
    public init(_ template: String) throws(ManifestError) {
        var pieces: [Piece] = []
        var rest = Substring(template)
        while let open = rest.firstIndex(of: "{") {
            pieces.append(.text(String(rest[..<open])))
            guard let close = rest[open...].firstIndex(of: "}") else {
                throw ManifestError("unclosed '{' in \"\(template)\"", at: nil)
            }
            let word = rest[rest.index(after: open)..<close]
            switch word {
            case "stem": pieces.append(.stem)
            case "name": pieces.append(.name)
            case "dir": pieces.append(.dir)
            default:
                throw ManifestError(
                    "unknown placeholder {\(word)} in \"\(template)\" (use {stem}, {name} or {dir})", at: nil)
            }
            rest = rest[rest.index(after: close)...]
        }
        if rest.contains("}") { throw ManifestError("unmatched '}' in \"\(template)\"", at: nil) }
        pieces.append(.text(String(rest)))
        self.pieces = pieces
    }

    /// The output for `input` (a manifest-relative path).
    public func output(for input: String) -> String {
        let slash = input.lastIndex(of: "/")
        let name = slash.map { String(input[input.index(after: $0)...]) } ?? input
        let dir = slash.map { String(input[..<$0]) } ?? "."
        let dot = name.lastIndex(of: ".").flatMap { $0 == name.startIndex ? nil : $0 }
        let stem = dot.map { String(name[..<$0]) } ?? name
        return pieces.map { piece in
            switch piece {
            case .text(let t): t
            case .stem: stem
            case .name: name
            case .dir: dir
            }
        }.joined()
    }
}
