import Foundation

/// A client that says exactly what a test tells it to, over a plain TCP socket: HTTP requests
/// with any headers (a browser's or an attacker's), and WebSocket frames, well-formed or not.
///
/// ```swift
/// let client = try RawClient(port: port)
/// let reply = try client.request("GET /api/app?token=\(token)")   // (status: 200, body: "{…}")
/// ```
///
/// Its calls block, so a test makes them through ``blocking(_:)``: a thread of their own,
/// never one of Swift's cooperative pool, which the server under test needs.
final class RawClient: @unchecked Sendable {
  let fd: Int32
  let port: UInt16

  init(port: UInt16) throws {
    self.port = port
    self.fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = port.bigEndian
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    let connected = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        connect(self.fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
      }
    }
    guard connected == 0 else { throw RawClientError("connect: errno \(errno)") }
    // A reply that never comes fails the test instead of hanging it.
    var timeout = timeval(tv_sec: 60, tv_usec: 0)
    setsockopt(self.fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
  }

  deinit { close(self.fd) }

  func send(_ bytes: [UInt8]) throws {
    var sent = 0
    while sent < bytes.count {
      let n = bytes[sent...].withUnsafeBytes { Glibc.send(self.fd, $0.baseAddress, $0.count, 0) }
      guard n > 0 else { throw RawClientError("send: errno \(errno)") }
      sent += n
    }
  }

  /// Up to `count` bytes; empty at the end of the stream.
  func receive(_ count: Int = 65_536) throws -> [UInt8] {
    var buffer = [UInt8](repeating: 0, count: count)
    let n = buffer.withUnsafeMutableBytes { recv(self.fd, $0.baseAddress, count, 0) }
    guard n >= 0 else { throw RawClientError("recv: errno \(errno)") }
    return Array(buffer.prefix(n))
  }

  /// Exactly `count` bytes.
  func receive(exactly count: Int) throws -> [UInt8] {
    var bytes: [UInt8] = []
    while bytes.count < count {
      let more = try self.receive(count - bytes.count)
      guard !more.isEmpty else { throw RawClientError("the server closed the connection") }
      bytes += more
    }
    return bytes
  }

  /// Sends `line` (`GET /path`) with a Host naming the server unless `headers` give one, and
  /// reads the reply to the end (the server closes after it).
  func request(_ line: String, headers: [String: String] = [:], body: String? = nil) throws
    -> (status: Int, body: String)
  {
    var all = ["Host": "127.0.0.1:\(self.port)", "Connection": "close"]
    all.merge(headers) { $1 }
    if let body { all["Content-Length"] = String(body.utf8.count) }
    let head = ([line + " HTTP/1.1"] + all.sorted { $0.key < $1.key }.map { "\($0): \($1)" })
      .joined(separator: "\r\n")
    try self.send(Array((head + "\r\n\r\n" + (body ?? "")).utf8))
    var reply: [UInt8] = []
    while true {
      let more = try self.receive()
      if more.isEmpty { break }
      reply += more
      if let parsed = Self.parse(reply) { return parsed }
    }
    return Self.parse(reply) ?? (0, String(decoding: reply, as: UTF8.self))
  }

  /// A whole reply's status and body, once its Content-Length of body has arrived.
  static func parse(_ reply: [UInt8]) -> (status: Int, body: String)? {
    let text = String(decoding: reply, as: UTF8.self)
    guard let split = text.range(of: "\r\n\r\n") else { return nil }
    let head = text[..<split.lowerBound]
    let status = Int(head.split(separator: " ").dropFirst().first ?? "") ?? 0
    let length =
      head.split(separator: "\r\n").first { $0.lowercased().hasPrefix("content-length:") }
      .flatMap { Int($0.split(separator: ":")[1].trimmingCharacters(in: .whitespaces)) } ?? 0
    let body = String(text[split.upperBound...])
    return body.utf8.count >= length ? (status, body) : nil
  }

  // MARK: WebSocket

  /// Upgrades this connection to a WebSocket at `path`; returns the reply's status line.
  func openSocket(_ path: String, headers: [String: String] = [:]) throws -> String {
    var all = [
      "Host": "127.0.0.1:\(self.port)", "Upgrade": "websocket", "Connection": "Upgrade",
      "Sec-WebSocket-Key": "dGhlIHNhbXBsZSBub25jZQ==", "Sec-WebSocket-Version": "13",
    ]
    all.merge(headers) { $1 }
    let head = (["GET \(path) HTTP/1.1"] + all.sorted { $0.key < $1.key }.map { "\($0): \($1)" })
      .joined(separator: "\r\n")
    try self.send(Array((head + "\r\n\r\n").utf8))
    var reply: [UInt8] = []
    while !String(decoding: reply, as: UTF8.self).contains("\r\n\r\n") {
      let more = try self.receive(1)  // byte by byte: frames may follow at once
      guard !more.isEmpty else { break }
      reply += more
    }
    return String(decoding: reply, as: UTF8.self).components(separatedBy: "\r\n")[0]
  }

  /// Sends one frame as a page would (masked), or as told.
  func sendFrame(
    opcode: UInt8, payload: [UInt8], fin: Bool = true, reserved: UInt8 = 0,
    declaredLength: UInt64? = nil
  ) throws {
    var frame: [UInt8] = [(fin ? 0x80 : 0) | reserved << 4 | opcode]
    let length = declaredLength ?? UInt64(payload.count)
    if length < 126 {
      frame.append(0x80 | UInt8(length))
    } else if length <= 0xFFFF {
      frame += [0x80 | 126, UInt8(length >> 8), UInt8(length & 0xFF)]
    } else {
      frame.append(0x80 | 127)
      frame += (0..<8).reversed().map { UInt8((length >> (8 * UInt64($0))) & 0xFF) }
    }
    let mask: [UInt8] = [0x12, 0x34, 0x56, 0x78]
    frame += mask
    frame += payload.enumerated().map { $0.element ^ mask[$0.offset % 4] }
    try self.send(frame)
  }

  /// The next frame from the server (unmasked): its opcode and payload.
  func receiveFrame() throws -> (opcode: UInt8, payload: [UInt8]) {
    let head = try self.receive(exactly: 2)
    var length = UInt64(head[1] & 0x7F)
    if length == 126 {
      let extended = try self.receive(exactly: 2)
      length = UInt64(extended[0]) << 8 | UInt64(extended[1])
    } else if length == 127 {
      length = try self.receive(exactly: 8).reduce(0) { $0 << 8 | UInt64($1) }
    }
    return (head[0] & 0x0F, try self.receive(exactly: Int(length)))
  }

  /// Text frames until one satisfies `condition` (close frames end it with nil).
  func receiveText(until condition: (String) -> Bool) throws -> String? {
    while true {
      let frame = try self.receiveFrame()
      if frame.opcode == 0x8 { return nil }
      let text = String(decoding: frame.payload, as: UTF8.self)
      if frame.opcode == 0x1, condition(text) { return text }
    }
  }
}

struct RawClientError: Error, CustomStringConvertible {
  let description: String
  init(_ description: String) { self.description = description }
}

/// Runs `body` on a thread of its own and waits for it without holding one of the
/// cooperative pool's threads (two on this machine, and the server needs them).
func blocking<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
  try await withCheckedThrowingContinuation { continuation in
    let thread = Thread {
      continuation.resume(with: Result { try body() })
    }
    thread.start()
  }
}
