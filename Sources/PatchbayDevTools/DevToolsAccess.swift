import Foundation

/// Who may use a DevTools server: a request must carry the server's token, and name the
/// server as its `Host` (and, from a page, as its `Origin`).
///
/// The token keeps out other users of the machine and other pages of the browser; the `Host`
/// check defeats DNS rebinding (a foreign site whose name now points at 127.0.0.1 sends its
/// own name as `Host`); the `Origin` check defeats cross-site WebSocket hijacking (a browser
/// opens a socket to any address, but always says which page asked).
///
/// ```swift
/// let access = DevToolsAccess(token: "3f…", port: 8765)
/// access.refusal(token: "3f…", host: "127.0.0.1:8765", origin: nil)        // nil: allowed
/// access.refusal(token: "3f…", host: "evil.example:8765", origin: nil)
/// // "the Host header 'evil.example:8765' is not this server; open the URL patchbay printed."
/// ```
public struct DevToolsAccess: Sendable {
  /// The secret every request carries: in the query (`?token=`) or `X-Patchbay-Token`.
  public let token: String
  /// The `Host` values that name this server.
  let hosts: Set<String>

  /// Access to a server listening on `port` of `address` (loopback names are always allowed).
  public init(token: String = Self.newToken(), port: UInt16, address: String = "127.0.0.1") {
    self.token = token
    var names = ["127.0.0.1", "localhost", "[::1]"]
    if !names.contains(address) { names.append(address.contains(":") ? "[\(address)]" : address) }
    self.hosts = Set(names.map { "\($0):\(port)" })
  }

  /// 32 random bytes as hex, from the system's generator.
  public static func newToken() -> String {
    var generator = SystemRandomNumberGenerator()
    return (0..<4).map { _ in
      let word = generator.next() as UInt64
      let hex = String(word, radix: 16)
      return String(repeating: "0", count: 16 - hex.count) + hex
    }.joined()
  }

  /// Why a request is refused (its response is 403 with this text), or nil when it may go on.
  public func refusal(token given: String?, host: String?, origin: String?) -> String? {
    guard let given, Self.same(given, self.token) else {
      return given == nil
        ? "no token: open the URL patchbay printed (it ends with ?token=…)."
        : "wrong token: open the URL this run of patchbay printed; tokens change every run."
    }
    guard let host, self.hosts.contains(host.lowercased()) else {
      return "the Host header '\(host ?? "")' is not this server; open the URL patchbay printed."
    }
    if let origin, !self.hosts.contains(where: { origin.lowercased() == "http://\($0)" }) {
      return "the page at '\(origin)' may not use this server; open the URL patchbay printed."
    }
    return nil
  }

  /// Compares in time that does not depend on where the strings first differ.
  static func same(_ a: String, _ b: String) -> Bool {
    let x = Array(a.utf8)
    let y = Array(b.utf8)
    guard x.count == y.count else { return false }
    var difference: UInt8 = 0
    for index in x.indices { difference |= x[index] ^ y[index] }
    return difference == 0
  }
}
