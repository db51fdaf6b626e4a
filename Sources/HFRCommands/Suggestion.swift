/// "Did you mean …?" for a mistyped command or option, as git does: the known words closest to
/// the typed one by edit distance.
enum Suggestion {
    /// `Did you mean 'record'?`, or nil when no known word is close enough.
    static func hint(for typed: String, among candidates: [String]) -> String? {
        let close = closest(to: typed, among: candidates)
        switch close.count {
        case 0: return nil
        case 1: return "Did you mean '\(close[0])'?"
        default: return "Did you mean one of " + close.map { "'\($0)'" }.joined(separator: ", ") + "?"
        }
    }

    /// The candidates at the smallest edit distance from `typed`, if it is within a third of the
    /// typed length (at least 1, at most 3); a word `typed` begins (`--au` → `--audio`) also counts.
    static func closest(to typed: String, among candidates: [String]) -> [String] {
        let word = Array(typed.lowercased())
        let body = word.drop { $0 == "-" }
        guard body.count >= 2 else { return [] }
        let limit = min(3, max(1, body.count / 3))
        var best: [String] = []
        var bestDistance = Int.max
        for candidate in Set(candidates).sorted() {
            let target = Array(candidate.lowercased())
            var d = distance(word, target)
            if d > limit, target.starts(with: word) { d = limit }
            guard d <= limit, candidate != typed else { continue }
            if d < bestDistance {
                bestDistance = d
                best = [candidate]
            } else if d == bestDistance {
                best.append(candidate)
            }
        }
        return best
    }

    /// Damerau–Levenshtein distance (optimal string alignment): insertions, deletions,
    /// substitutions and swaps of two neighbours each cost 1.
    static func distance(_ a: [Character], _ b: [Character]) -> Int {
        if a.isEmpty || b.isEmpty { return max(a.count, b.count) }
        var previous2 = [Int](repeating: 0, count: b.count + 1)
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    current[j] = min(current[j], previous2[j - 2] + 1)
                }
            }
            (previous2, previous, current) = (previous, current, previous2)
        }
        return previous[b.count]
    }
}
