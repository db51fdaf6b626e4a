/// One part of a batch cut `total` ways: `--shard 2/4`. Index is 1-based, as people count.
public struct Shard: Sendable, Equatable, CustomStringConvertible {
    public let index: Int
    public let total: Int

    public init?(index: Int, total: Int) {
        guard total >= 1, (1...total).contains(index) else { return nil }
        self.index = index
        self.total = total
    }

    /// The whole batch.
    public static let all = Shard(index: 1, total: 1)!

    /// `"2/4"`.
    public init?(parsing text: String) {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let k = Int(parts[0]), let n = Int(parts[1]) else { return nil }
        self.init(index: k, total: n)
    }

    public var description: String { "\(index)/\(total)" }

    /// The jobs of this shard, in their manifest order.
    ///
    /// Jobs are ranked by a hash of their identity (input, output, options — never their place in
    /// the manifest) and dealt round-robin: every job lands in exactly one shard whatever the
    /// manifest's order, and shard sizes differ by at most one.
    public func select(_ jobs: [BatchJob]) -> [BatchJob] {
        guard total > 1 else { return jobs }
        let keys = jobs.map { (hash: FNV1a.hash($0.identity), identity: $0.identity) }
        let ranked = jobs.indices.sorted { keys[$0] < keys[$1] }
        var chosen = Set<Int>()
        for (rank, job) in ranked.enumerated() where rank % total == index - 1 { chosen.insert(job) }
        return jobs.indices.filter { chosen.contains($0) }.map { jobs[$0] }
    }
}
