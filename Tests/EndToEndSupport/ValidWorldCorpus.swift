import Foundation

/// Where the valid-world corpus is (scripts/make-corpus): `HFR_CORPUS_DIR`, else its cache.
package enum ValidWorldCorpus {
    /// The corpus directory.
    package static var directory: String {
        ProcessInfo.processInfo.environment["HFR_CORPUS_DIR"] ?? "/var/cache/hfr-corpus"
    }
}
