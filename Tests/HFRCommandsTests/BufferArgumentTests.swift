import Testing

@testable import HFRCommands

/// `--buffer ram[:SIZE]`'s sizes and its default budget.
@Suite struct BufferArgumentTests {
    @Test func sizesAreBinaryMultiplesOfBytes() {
        #expect(BufferArgument.bytes("512M") == 512 << 20)
        #expect(BufferArgument.bytes("4G") == 4 << 30)
        #expect(BufferArgument.bytes("4g") == 4 << 30)
        #expect(BufferArgument.bytes("1.5G") == 3 << 29)
        #expect(BufferArgument.bytes("64k") == 64 << 10)
        #expect(BufferArgument.bytes("1T") == 1 << 40)
        #expect(BufferArgument.bytes("100000") == 100_000)
        for bad in ["", "G", "-1G", "1e3", "4 G", "4GB", "1/2G", "x", "99999999T"] {
            #expect(BufferArgument.bytes(bad) == nil, "\(bad)")
        }
    }

    @Test func theDefaultIsHalfTheMemoryAvailableAtMost16G() {
        #expect(BufferArgument.defaultBudget(available: 8 << 30) == 4 << 30)
        #expect(BufferArgument.defaultBudget(available: 64 << 30) == 16 << 30)
        #expect(BufferArgument.defaultBudget(available: nil) == 1 << 30)
        #expect(BufferArgument.gibibytes(3 << 29) == "1.5 GiB")
        #expect(BufferArgument.gibibytes(512 << 20) == "512 MiB")
    }
}
