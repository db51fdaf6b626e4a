import HFRBatch
import Testing

/// The manifest's JSON reader: values, positions, comments, and where syntax errors are.
struct JSONReaderTests {
    @Test func readsValuesWithTheirPositions() throws {
        let text = """
            // a comment
            { "a": [1, -2.5e3, "x\\n\\u00e9\\ud83d\\ude00"],
              "b": { "c": true, "d": null } }
            """
        let root = try JSONReader.parse(text)
        #expect(root.position == TextPosition(line: 2, column: 1))
        guard case .object(let members) = root.value else { throw Failure("not an object") }
        #expect(members.map(\.key) == ["a", "b"])
        #expect(members[1].keyPosition == TextPosition(line: 3, column: 3))
        guard case .array(let items) = members[0].value.value else { throw Failure("not an array") }
        guard case .number(let n) = items[1].value, case .string(let s) = items[2].value else {
            throw Failure("wrong item types")
        }
        #expect(n == "-2.5e3")
        #expect(s == "x\né😀")
        #expect(items[2].position == TextPosition(line: 2, column: 20))
    }

    @Test(arguments: [
        ("{\"a\": 1,}", 1, 9, "expected a key in double quotes"),
        ("{\n  \"a\": 1\n  \"b\": 2\n}", 3, 3, "expected ',' or '}' in an object"),
        ("[1, 2", 1, 6, "expected ',' or ']' in an array"),
        ("{\"a\": tru}", 1, 7, "unexpected character 't', expected a value"),
        ("{\"a\": 1, \"a\": 2}", 1, 10, "duplicate key \"a\""),
        ("{\"a\": 01}", 1, 7, "invalid number (leading zero)"),
        ("{} x", 1, 4, "unexpected text after the end of the document"),
        ("{\"a\": \"b\nc\"}", 1, 9, "control character in a string (newlines must be written \\n)"),
    ])
    func syntaxErrorsSayWhere(text: String, line: Int, column: Int, message: String) {
        #expect(throws: JSONSyntaxError(position: TextPosition(line: line, column: column), message: message)) {
            try JSONReader.parse(text)
        }
    }
}

struct Failure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
