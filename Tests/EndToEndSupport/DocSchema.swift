import Foundation
import HFRTestSupport
import Testing

/// The members a doc's tables describe (see "Reading the member tables" in docs/export-json.md).
package struct DocSchema {
    /// docs/ of the repository.
    package static let docs = Fixtures.root.appendingPathComponent("docs")

    package struct Member {
        package var isOptional: Bool
        package var values: [String]?
    }

    package var members: [String: Member] = [:]

    /// The tables of `file` (only those after the heading `section` up to the next `## `, if given).
    package init(file: String, section: String? = nil) throws {
        var text = try String(contentsOf: DocSchema.docs.appendingPathComponent(file), encoding: .utf8)
        if let section {
            let start = try #require(text.range(of: section), "\(file) has no \(section)")
            text = String(text[start.upperBound...])
            if let end = text.range(of: "\n## ") { text = String(text[..<end.lowerBound]) }
        }
        self.init(text: text)
    }

    package init(text: String) {
        var inTable = false
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("| member |") || line.hasPrefix("| field |") {
                inTable = true
                continue
            }
            guard inTable, line.hasPrefix("|") else {
                inTable = false
                continue
            }
            let cells = line.split(separator: "|", omittingEmptySubsequences: false).map {
                $0.trimmingCharacters(in: .whitespaces)
            }
            guard cells.count >= 4, !cells[1].hasPrefix("---") else { continue }
            add(names: cells[1], type: cells[2], meaning: cells[3...].joined(separator: "|"))
        }
    }

    private mutating func add(names: String, type: String, meaning: String) {
        let listed = names.matches(of: /`([^`]+)`/).map { String($0.1) }
        guard let first = listed.first else { return }
        let parent = first.range(of: ".", options: .backwards).map { String(first[..<$0.lowerBound]) }
        var values: [String]? = nil
        if let range = meaning.range(of: "one of:") {
            let rest = meaning[range.upperBound...].split(separator: ";", maxSplits: 1).first ?? ""
            values = rest.matches(of: /`"([^"`]*)"`/).map { String($0.1) }
        }
        for name in listed {
            let path = name == first || name.contains(".") || parent == nil ? name : parent! + "." + name
            members[path] = Member(isOptional: type.contains("optional"), values: values)
        }
    }

    /// The members under `path`, as a document of their own (`plan.segments` → `segments`).
    package func member(_ path: String) -> DocSchema {
        var inner = DocSchema(text: "")
        for (name, member) in members where name.hasPrefix(path + ".") {
            inner.members[String(name.dropFirst(path.count + 1))] = member
        }
        return inner
    }

    /// Whether the doc describes members inside `path` (else it is free-form, like `tags`).
    package func hasChildren(_ path: String) -> Bool {
        members.keys.contains { $0.hasPrefix(path + ".") || $0.hasPrefix(path + "[].") }
    }

    package func problems(_ json: Any) -> [String] {
        var found: [String] = []
        walk(json, at: "", into: &found)
        return found
    }

    package func check(_ json: Any, _ what: String) {
        for problem in problems(json) { Issue.record("\(what): \(problem)") }
    }

    private func walk(_ value: Any, at path: String, into found: inout [String]) {
        if let array = value as? [Any] {
            for element in array { walk(element, at: path + "[]", into: &found) }
            return
        }
        guard let object = value as? [String: Any] else { return }
        for (key, child) in object {
            let childPath = path.isEmpty ? key : path + "." + key
            guard let member = members[childPath] else {
                found.append("\(childPath) is written but not documented")
                continue
            }
            if let values = member.values, let text = child as? String, !values.contains(text) {
                found.append("\(childPath) is \"\(text)\", not one of the documented \(values)")
            }
            if hasChildren(childPath) { walk(child, at: childPath, into: &found) }
        }
        let prefix = path.isEmpty ? "" : path + "."
        for (name, member) in members where !member.isOptional && name.hasPrefix(prefix) {
            let rest = name.dropFirst(prefix.count)
            if !rest.contains("."), !rest.contains("[]"), object[String(rest)] == nil {
                found.append("\(name) is documented but not written")
            }
        }
    }
}
