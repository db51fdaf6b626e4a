import Foundation
import HFRBatch
import HFRExport
import HFRMedia

/// The outputs of split jobs, joined from their units once every unit is done (`SplitJoin`): by
/// `hfr batch` when one run held every unit, by `hfr batch merge` for shards.
enum BatchJoins {
    /// What became of one split job's output.
    struct Join {
        enum Status: String {
            /// Written from its units.
            case joined
            /// Every unit was up to date (`--resume`) and so was the output: left as it is.
            case upToDate = "up-to-date"
            /// A unit failed, was cancelled or did not run: nothing written.
            case incomplete
            /// The join itself failed (`error`).
            case failed
        }

        let output: String
        let manifestOutput: String
        var status: Status
        let parts: Int
        var frames: Int? = nil
        var error: String? = nil
    }

    /// Joins every split job whose units are all in `results`: each written when all of them
    /// succeeded or were up to date. Jobs with units elsewhere (another shard) are left to the merge.
    static func join(_ results: [JobResult], force: Bool) -> [Join] {
        var byOutput: [String: [JobResult]] = [:]
        var order: [String] = []
        for r in results {
            guard let unit = r.job.split else { continue }
            if byOutput[unit.output] == nil { order.append(unit.output) }
            byOutput[unit.output, default: []].append(r)
        }
        return order.compactMap { output in
            let units = byOutput[output]!
            let unit = units[0].job.split!
            guard units.count == unit.parts + 1 else { return nil }
            var join = Join(
                output: output, manifestOutput: unit.manifestOutput, status: .incomplete, parts: unit.parts)
            if let bad = units.first(where: { ![.succeeded, .skipped].contains($0.status) }) {
                join.error = "\(bad.job.split!.name) \(bad.status.rawValue)" + (bad.error.map { ": \($0)" } ?? "")
                return join
            }
            return write(join, units: units, force: force)
        }
    }

    /// Writes the join of `units` (all done) to its output, with the output's resume record.
    private static func write(_ join: Join, units: [JobResult], force: Bool) -> Join {
        var join = join
        let record = ResumeRecord.read(for: join.output)
        if units.allSatisfy({ $0.status == .skipped }), let record, record.state == .done,
            record.outputBytes == size(of: join.output)
        {
            join.status = .upToDate
            join.frames = record.frames
            return join
        }
        if FileManager.default.fileExists(atPath: join.output), record == nil, !force {
            join.status = .failed
            join.error = "\(join.output): already exists and was not written by hfr batch (use --force to replace it)"
            return join
        }
        let parts = (1...join.parts).map { SplitUnit.file(.video($0), of: join.output) }
        do throws(ExportFailure) {
            let result = try SplitJoin.join(
                parts: parts, rest: SplitUnit.file(.rest, of: join.output), output: join.output)
            join.status = .joined
            join.frames = result.videoPackets
            let rest = units.first { $0.job.split?.part == .rest }!.job
            ResumeRecord(
                state: .done, input: rest.manifestInput,
                options: SplitUnit.jobOptions(fromRest: rest.options),
                outputBytes: size(of: join.output), frames: result.videoPackets
            ).write(for: join.output)
        } catch {
            join.status = .failed
            join.error = describe(error)
        }
        return join
    }

    private static func size(of path: String) -> Int64? {
        (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? NSNumber)?.int64Value
    }

    /// The cause, in one line.
    static func describe(_ failure: ExportFailure) -> String {
        switch failure {
        case .badInput(let cause), .refused(let cause), .usage(let cause), .unavailable(let cause): cause
        case .reading(let f), .writing(let f): f.description
        case .failed(let f): f.description
        case .interrupted: "interrupted"
        }
    }

    /// A line on stderr for each join.
    static func report(_ joins: [Join]) {
        for j in joins {
            switch j.status {
            case .joined:
                Console.error("batch: joined \(j.manifestOutput) from \(j.parts) parts (\(j.frames ?? 0) frames)\n")
            case .upToDate:
                Console.error("batch: \(j.manifestOutput) is up to date (its \(j.parts) parts were)\n")
            case .incomplete, .failed:
                Console.error("batch: \(j.manifestOutput) not joined: \(j.error ?? j.status.rawValue)\n")
            }
        }
    }

    /// `joins`: one object per split job joined or not.
    static func json(_ joins: [Join]) -> JSONValue {
        .array(
            joins.map { j in
                .object([
                    ("output", .string(j.output)),
                    ("manifestOutput", .string(j.manifestOutput)),
                    ("status", .string(j.status.rawValue)),
                    ("parts", .int(Int64(j.parts))),
                    ("frames", .optional(j.frames.map { .int(Int64($0)) })),
                    ("error", .optional(j.error.map { .string($0) })),
                ])
            })
    }
}
