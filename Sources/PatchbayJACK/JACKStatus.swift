import CJACK

/// What `jack_client_open` said, as one line naming the client, the server and what to do.
///
/// ```swift
/// JACKStatus(status).openFailure(client: "patchbay", server: "studio")
/// // JACK: no server "studio" is running (start one: jackd -n studio -d alsa, or run
/// // the app under PipeWire with pw-jack); status 0x11
/// ```
struct JACKStatus {
  let bits: UInt32

  init(_ status: jack_status_t) { self.bits = status.rawValue }

  func has(_ flag: JackStatus) -> Bool { self.bits & flag.rawValue != 0 }

  func openFailure(client: String, server: String?) -> String {
    let named = server.map { "\"\($0)\"" } ?? "(the default one)"
    let code = "status 0x" + String(self.bits, radix: 16)
    if self.has(JackServerFailed) || self.has(JackServerError) {
      let start = server.map { "jackd -n \($0) -d alsa" } ?? "jackd -d alsa"
      return
        "JACK: no server \(named) is running (start one: \(start), or run the app under "
        + "PipeWire with pw-jack); \(code)"
    }
    if self.has(JackNameNotUnique) {
      return "JACK: a client named \"\(client)\" is already on server \(named); choose another "
        + "[audio] client-name; \(code)"
    }
    if self.has(JackVersionError) {
      return "JACK: the server \(named) speaks another protocol version than this libjack; "
        + "install the jackd2 that matches libjack-jackd2-0; \(code)"
    }
    return "JACK: server \(named) refused client \"\(client)\"; \(code)"
  }
}
