/// Where DevTools listens, as `--devtools [ADDR]` gives it: `127.0.0.1:8765`, `:8765`, `8765`,
/// `localhost`, or nothing (loopback, a free port). An address other machines can reach must
/// be allowed in so many words.
///
/// ```swift
/// try DevToolsAddress.parse(":8765", allowRemote: false)      // ("127.0.0.1", 8765)
/// try DevToolsAddress.parse("0.0.0.0:80", allowRemote: false)
/// // throws: "0.0.0.0 is not loopback, so other machines could drive the app; add …"
/// ```
public enum DevToolsAddress {
  /// The address and port to listen on.
  public static func parse(_ given: String?, allowRemote: Bool) throws(DevToolsError)
    -> (address: String, port: UInt16)
  {
    guard let given else { return ("127.0.0.1", 0) }
    let parts = given.split(separator: ":", omittingEmptySubsequences: false)
    var host = parts.count > 1 ? String(parts[0]) : given
    var port: UInt16 = 0
    if parts.count > 1 {
      guard parts.count == 2, let number = UInt16(parts[1]) else {
        throw DevToolsError("--devtools \(given): the port is a number up to 65535.")
      }
      port = number
    } else if let number = UInt16(given) {
      host = ""
      port = number
    }
    if host.isEmpty || host == "localhost" { host = "127.0.0.1" }
    let bytes = host.split(separator: ".")
    guard bytes.count == 4, bytes.allSatisfy({ UInt8($0) != nil }) else {
      throw DevToolsError("--devtools \(given): the address is IPv4, such as 127.0.0.1:8765.")
    }
    if !host.hasPrefix("127."), !allowRemote {
      throw DevToolsError(
        "--devtools \(given): \(host) is not loopback, so other machines could drive the app; "
          + "add --devtools-allow-remote if that is what you want.")
    }
    return (host, port)
  }

  /// Arguments with `--devtools ADDR` as ArgumentParser can read it: the flag, then
  /// `--devtools-address ADDR` (an option's value cannot be optional there).
  public static func normalize(_ arguments: [String]) -> [String] {
    var result: [String] = []
    var index = arguments.startIndex
    while index < arguments.endIndex {
      result.append(arguments[index])
      if arguments[index] == "--devtools", index + 1 < arguments.endIndex,
        Self.looksLikeAddress(arguments[index + 1])
      {
        result += ["--devtools-address", arguments[index + 1]]
        index += 1
      }
      index += 1
    }
    return result
  }

  /// `127.0.0.1:8765`, `:8765`, `8765`, `0.0.0.0`, `localhost:80`; not a config or a flag.
  static func looksLikeAddress(_ text: String) -> Bool {
    !text.hasPrefix("-") && !text.contains("/") && !text.hasSuffix(".toml")
      && text.allSatisfy { $0.isNumber || $0 == "." || $0 == ":" || $0.isLetter }
      && (text.contains(":") || text.first?.isNumber == true || text == "localhost")
  }
}
