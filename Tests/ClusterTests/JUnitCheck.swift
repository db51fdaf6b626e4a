import Foundation
import HFRTestSupport
import Testing

/// A JUnit file read by a real consumer (junitparser, from PyPI in the venv scripts/setup makes)
/// after validating it against Tests/EndToEndSupport/junit.xsd (xmlschema).
enum JUnitCheck {
    static let python = "/var/cache/hfr-py/bin/python"
    static let script = """
        import json, sys, junitparser, xmlschema
        xmlschema.XMLSchema(sys.argv[2]).validate(sys.argv[1])
        xml = junitparser.JUnitXml.fromfile(sys.argv[1])
        cases, failures, skipped = 0, 0, 0
        for suite in xml:
            for case in suite:
                cases += 1
                failures += any(isinstance(r, junitparser.Failure) for r in case.result)
                skipped += any(isinstance(r, junitparser.Skipped) for r in case.result)
        print(json.dumps({"suites": len(list(xml)), "cases": cases, "caseFailures": failures,
                          "caseSkipped": skipped, "suiteFailures": xml.failures, "tests": xml.tests}))
        """

    /// suites, cases, caseFailures, caseSkipped, suiteFailures (the root's count) and tests, as junitparser read them.
    static func read(_ junit: String) throws -> [String: Any] {
        #expect(
            FileManager.default.isExecutableFile(atPath: python),
            "the Python venv with junitparser is missing: run scripts/setup")
        let xsd = Fixtures.root.appendingPathComponent("Tests/EndToEndSupport/junit.xsd").path
        let read = try Tool.run(python, ["-c", script, junit, xsd])
        #expect(read.status == 0, "junitparser/xmlschema: \(read.stderr)")
        return try Tool.json(read.stdout)
    }
}
