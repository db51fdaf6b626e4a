import Testing

@testable import HFRPreview

@Suite struct PreviewTokenUnitTests {
    @Test func randomTokensAre32HexDigitsAndDiffer() {
        let tokens = (0..<100).map { _ in PreviewToken().description }
        #expect(tokens.allSatisfy { $0.count == 32 && $0.allSatisfy(\.isHexDigit) && $0 == $0.lowercased() })
        #expect(Set(tokens).count == 100)
    }

    @Test func matchesOnlyTheSameText() throws {
        let token = try #require(PreviewToken("0123456789abcdef0123456789abcdef"))
        #expect(token.matches("0123456789abcdef0123456789abcdef"))
        for other in [
            "", "0123456789abcdef0123456789abcde", "0123456789abcdef0123456789abcdef0",
            "1123456789abcdef0123456789abcdef", "0123456789abcdef0123456789abcdeF",
            "0123456789abcdef0123456789abcde\u{0}",
        ] {
            #expect(!token.matches(other), "\(other)")
        }
    }

    @Test(arguments: ["short", "has space in it 123", "quote\"0123456789abcdef", String(repeating: "a", count: 129)])
    func unsafeGivenTokensAreRefused(text: String) {
        #expect(PreviewToken(text) == nil)
    }

    @Test func networkAddressesGetACookiePerPort() throws {
        let a = try #require(PreviewSettings(address: "0.0.0.0:8080"))
        let b = try #require(PreviewSettings(address: "0.0.0.0:8081"))
        #expect(!a.isLoopback && a.cookieName != b.cookieName)
        #expect(a.token == nil && a.maxStreams == 16)
    }
}
