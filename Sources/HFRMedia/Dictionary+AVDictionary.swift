import CFFmpeg

extension [String: String] {
    /// Copies an `AVDictionary` (stream or container metadata) into Swift.
    init(_ dictionary: OpaquePointer?) {
        self.init()
        var entry: UnsafeMutablePointer<AVDictionaryEntry>? = nil
        while let e = av_dict_get(dictionary, "", entry, AV_DICT_IGNORE_SUFFIX) {
            self[String(cString: e.pointee.key)] = String(cString: e.pointee.value)
            entry = e
        }
    }
}

/// Builds an `AVDictionary` of options for the duration of `body`, then frees what FFmpeg left.
func withOptions<R>(
    _ options: [String: String], _ body: (inout OpaquePointer?) throws -> R
) rethrows -> R {
    var dictionary: OpaquePointer? = nil
    for (key, value) in options { av_dict_set(&dictionary, key, value, 0) }
    defer { av_dict_free(&dictionary) }
    return try body(&dictionary)
}
