import PatchbayDevTools
import Testing

/// Who may use a DevTools server: the token, and the server's own name as Host and Origin.
@Suite struct DevToolsAccessTests {
  let access = DevToolsAccess(token: "secret", port: 8765)

  @Test func theTokenAndTheServersOwnNameAreLetIn() {
    for host in ["127.0.0.1:8765", "localhost:8765", "LOCALHOST:8765", "[::1]:8765"] {
      #expect(self.access.refusal(token: "secret", host: host, origin: nil) == nil, "\(host)")
      #expect(
        self.access.refusal(token: "secret", host: host, origin: "http://\(host.lowercased())")
          == nil)
    }
  }

  @Test func noTokenOrAnotherIsRefusedSayingWhatToOpen() {
    #expect(
      self.access.refusal(token: nil, host: "127.0.0.1:8765", origin: nil)?
        .contains("no token") == true)
    for wrong in ["", "secreT", "secret2", "secre"] {
      #expect(
        self.access.refusal(token: wrong, host: "127.0.0.1:8765", origin: nil)?
          .contains("wrong token") == true, "\(wrong)")
    }
  }

  @Test func anotherNameOrPortOrPageIsRefused() {
    for host in [nil, "evil.example:8765", "127.0.0.1:8766", "127.0.0.1", "localhost.evil:8765"] {
      #expect(
        self.access.refusal(token: "secret", host: host, origin: nil) != nil, "\(host ?? "nil")")
    }
    for origin in [
      "http://evil.example", "https://127.0.0.1:8765", "http://127.0.0.1:8766", "null",
    ] {
      #expect(
        self.access.refusal(token: "secret", host: "127.0.0.1:8765", origin: origin) != nil,
        "\(origin)")
    }
  }

  @Test func aServerOnAnotherAddressAlsoAnswersToIt() {
    let access = DevToolsAccess(token: "t", port: 80, address: "192.168.1.5")
    #expect(access.refusal(token: "t", host: "192.168.1.5:80", origin: nil) == nil)
    #expect(access.refusal(token: "t", host: "192.168.1.6:80", origin: nil) != nil)
  }

  @Test func tokensAreLongAndNeverTheSame() {
    let tokens = (0..<100).map { _ in DevToolsAccess.newToken() }
    #expect(Set(tokens).count == 100)
    #expect(tokens.allSatisfy { $0.count == 64 && $0.allSatisfy(\.isHexDigit) })
  }
}
