import HFRMedia

/// Collects stdout text in 64 KiB chunks: one write(2) per chunk, not per frame line.
final class BufferedOutput {
    private var buffer = ""
    private let limit = 1 << 16

    func write(_ text: String) {
        buffer += text
        if buffer.utf8.count >= limit { flush() }
    }

    func flush() {
        Console.output(buffer)
        buffer = ""
    }
}
