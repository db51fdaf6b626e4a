import CFFmpeg

/// A chapter of a container (Matroska's editions, MP4's `chpl`, QuickTime's chapter track): a span
/// of the presentation timeline with a title and other tags.
public struct Chapter: Sendable, Equatable {
    public var id: Int64
    /// Seconds on the container's timeline.
    public var start: Rational
    public var end: Rational
    public var tags: [String: String]

    public init(id: Int64, start: Rational, end: Rational, tags: [String: String]) {
        self.id = id
        self.start = start
        self.end = end
        self.tags = tags
    }
}

extension Demuxer {
    /// The input's chapters, in its order.
    public var chapters: [Chapter] {
        (0..<Int(context.pointee.nb_chapters)).compactMap { i in
            guard let c = context.pointee.chapters[i], let tb = Rational(c.pointee.time_base) else { return nil }
            return Chapter(
                id: c.pointee.id, start: Rational.seconds(c.pointee.start, in: tb),
                end: Rational.seconds(c.pointee.end, in: tb), tags: [String: String](c.pointee.metadata))
        }
    }
}

extension Muxer {
    /// Chapters the header declares (before `writeHeader`), timed in microseconds.
    public func addChapters(_ chapters: [Chapter]) throws(AVFailure) {
        let timeBase = Rational(1, 1_000_000)
        for chapter in chapters {
            guard let raw = av_mallocz(MemoryLayout<AVChapter>.size) else {
                throw AVFailure(code: hfr_averror(ENOMEM), operation: "av_mallocz(AVChapter)", stage: .writingOutput)
            }
            let c = raw.bindMemory(to: AVChapter.self, capacity: 1)
            c.pointee.id = chapter.id
            c.pointee.time_base = timeBase.avRational!
            c.pointee.start = (chapter.start / timeBase).rounded()
            c.pointee.end = (chapter.end / timeBase).rounded()
            for (key, value) in chapter.tags.sorted(by: { $0.key < $1.key }) {
                av_dict_set(&c.pointee.metadata, key, value, 0)
            }
            // The context owns it from here (avformat_free_context frees chapters and their tags).
            withUnsafeMutablePointer(to: &context.pointee.nb_chapters) { count in
                count.withMemoryRebound(to: Int32.self, capacity: 1) { n in
                    withUnsafeMutablePointer(to: &context.pointee.chapters) { array in
                        array.withMemoryRebound(to: UnsafeMutableRawPointer?.self, capacity: 1) { a in
                            av_dynarray_add(a, n, raw)
                        }
                    }
                }
            }
        }
    }
}
