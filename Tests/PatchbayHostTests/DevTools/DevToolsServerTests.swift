import Foundation
import PatchbayConfig
import PatchbayDevTools
import PatchbayHost
import Testing

/// DevTools over real sockets: who may use it, what a page sees and can do, and what a bad or
/// vanishing client leaves behind (nothing).
@Suite struct DevToolsServerTests {
  /// A counter app with DevTools listening on loopback.
  final class Fixture: @unchecked Sendable {
    let app: AppRuntime
    let feed = DevToolsFeed()
    let devtools: DevTools
    let url: URL
    var port: UInt16 { UInt16(self.url.port!) }
    var token: String { String(self.url.query!.dropFirst("token=".count)) }

    convenience init(readOnly: Bool = false) async throws {
      let text = AppConfig.oneFeature(
        "dev.patchbay.counter", of: try BuiltPlugins.path("Counter"), key: "counter")
      let config = try AppConfig(parsing: text, file: "devtools.toml")
      let loader = config.loader()
      let registry = try config.loadPlugins(with: loader)
      try await self.init(
        app: try AppRuntime(config: config, registry: registry, loader: loader), readOnly: readOnly
      ) { () throws(AppError) in
        try AppRuntime(config: config, registry: registry, loader: loader, replaying: true)
      }
    }

    /// DevTools on `app`; `replica` makes the app time travel replays into.
    init(
      app: AppRuntime, readOnly: Bool = false,
      replica: @escaping @Sendable () throws(AppError) -> AppRuntime
    ) async throws {
      self.app = app
      self.feed.attach(to: app)
      self.devtools = DevTools(
        app: app, feed: self.feed, session: .live(config: "devtools.toml"), readOnly: readOnly,
        replica: replica)
      self.url = try await self.devtools.start()
    }

    func get(_ path: String, headers: [String: String] = [:]) async throws
      -> (status: Int, body: String)
    {
      let port = self.port
      return try await blocking {
        try RawClient(port: port).request("GET \(path)", headers: headers)
      }
    }

    func post(_ route: String, _ body: String) async throws -> (status: Int, body: String) {
      let (port, path) = (self.port, self.withToken(route))
      return try await blocking { try RawClient(port: port).request("POST \(path)", body: body) }
    }

    func withToken(_ path: String) -> String {
      path + (path.contains("?") ? "&" : "?") + "token=\(self.token)"
    }

    /// A page's socket, open.
    func socket() async throws -> RawClient {
      let client = try RawClient(port: self.port)
      let path = self.withToken("/api/socket")
      let status = try await blocking { try client.openSocket(path) }
      #expect(status.contains("101"), "\(status)")
      return client
    }

    /// A socket opened with these headers: the reply's status line.
    func socketStatus(_ path: String, headers: [String: String] = [:]) async throws -> String {
      let client = try RawClient(port: self.port)
      return try await blocking { try client.openSocket(path, headers: headers) }
    }
  }

  @Test func theURLIsLoopbackWithALongRandomToken() async throws {
    let fixture = try await Fixture()
    defer { Task { await fixture.devtools.stop() } }
    #expect(fixture.url.host == "127.0.0.1")
    #expect(fixture.token.count == 64 && fixture.token.allSatisfy(\.isHexDigit))
    let other = try await Fixture()
    #expect(other.token != fixture.token)
    await other.devtools.stop()
  }

  @Test func aMissingOrWrongTokenGets403() async throws {
    let fixture = try await Fixture()
    defer { Task { await fixture.devtools.stop() } }
    for path in ["/", "/api/app", "/api/state", "/api/timeline", "/api/socket"] {
      let missing = try await fixture.get(path)
      #expect(missing.status == 403, "\(path): \(missing)")
      #expect(missing.body.contains("no token"))
      let wrong = try await fixture.get(path + "?token=" + String(repeating: "0", count: 64))
      #expect(wrong.status == 403, "\(path): \(wrong)")
      #expect(wrong.body.contains("wrong token"))
    }
    #expect(try await fixture.socketStatus("/api/socket?token=nope").contains("403"))
    #expect(try await fixture.get(fixture.withToken("/api/app")).status == 200)
  }

  @Test func aForeignHostOrOriginIsRefused() async throws {
    let fixture = try await Fixture()
    defer { Task { await fixture.devtools.stop() } }
    let path = fixture.withToken("/api/app")
    // DNS rebinding: the browser sends the attacker's name as Host.
    let rebound = try await fixture.get(path, headers: ["Host": "evil.example:\(fixture.port)"])
    #expect(rebound.status == 403 && rebound.body.contains("Host"), "\(rebound)")
    // Cross-site WebSocket hijacking: the browser says which page opened the socket.
    let hijack = try await fixture.socketStatus(
      fixture.withToken("/api/socket"), headers: ["Origin": "http://evil.example"])
    #expect(hijack.contains("403"), "\(hijack)")
    let foreign = try await fixture.get(path, headers: ["Origin": "http://evil.example"])
    #expect(foreign.status == 403 && foreign.body.contains("evil.example"))
    // The page itself, by either loopback name, is let in.
    for host in ["127.0.0.1", "localhost"] {
      let own = try await fixture.get(
        path,
        headers: ["Host": "\(host):\(fixture.port)", "Origin": "http://\(host):\(fixture.port)"])
      #expect(own.status == 200, "\(host): \(own)")
    }
  }

  @Test func anActionFromThePageChangesTheStateAndEveryPageSeesWhatChanged() async throws {
    let fixture = try await Fixture()
    defer { Task { await fixture.devtools.stop() } }
    let page = try await fixture.socket()
    try await waitForPages(1, fixture.feed)
    let sent = try await fixture.post(
      "/api/send", #"{"path": "counter", "action": "setStep(by: 5)"}"#)
    #expect(sent.status == 200, "\(sent)")
    let entry = try await blocking { try page.receiveText { $0.contains("setStep") } }
    #expect(entry?.contains(#""changes":[{"p":"/step","v":5}]"#) == true, "\(entry ?? "closed")")
    #expect(entry?.contains(#""source":"command""#) == true)
    _ = await fixture.app.settle()
    #expect(
      try await fixture.get(fixture.withToken("/api/state?path=counter")).body.contains(
        #""step":5"#))
    // An action the feature cannot parse is refused, with the feature's reason.
    let bad = try await fixture.post("/api/send", #"{"path": "counter", "action": "fly"}"#)
    #expect(bad.status == 422 && bad.body.contains("fly"), "\(bad)")
  }

  @Test func theStateAtAnyStepIsRebuiltExactly() async throws {
    let fixture = try await Fixture()
    defer { Task { await fixture.devtools.stop() } }
    for action in ["increment", "setStep(by: 10)", "increment", "decrement"] {
      try fixture.app.send("counter", action)
    }
    _ = await fixture.app.settle()
    let expected = [0, 1, 1, 11, 1]
    for (step, count) in expected.enumerated() {
      let state = try await fixture.get(fixture.withToken("/api/state?at=\(step)")).body
      #expect(state.contains(#""count":\#(count),"#), "step \(step): \(state)")
    }
    // Backwards too (a new replica, from the first step).
    #expect(
      try await fixture.get(fixture.withToken("/api/state?at=1")).body.contains(#""count":1,"#))
    let script = try await fixture.get(fixture.withToken("/api/script?to=2")).body
    #expect(script == "send counter increment\nsend counter setStep(by: 10)\nstate\n")
  }

  @Test func readOnlyRefusesActionsAndSwaps() async throws {
    let fixture = try await Fixture(readOnly: true)
    defer { Task { await fixture.devtools.stop() } }
    for (route, body) in [
      ("/api/send", #"{"path": "counter", "action": "increment"}"#),
      ("/api/swap", #"{"feature": "counter", "plugin": "CounterAlt"}"#),
    ] {
      let reply = try await fixture.post(route, body)
      #expect(reply.status == 403 && reply.body.contains("read-only"), "\(reply)")
    }
    _ = await fixture.app.settle()
    #expect(try fixture.app.state("counter").json().contains(#""count":0"#))
  }

  @Test(arguments: [
    "a reserved bit", "an unknown opcode", "text that is not UTF-8", "an oversized frame",
  ])
  func aBadFrameClosesItsConnectionAndTheAppRunsOn(_ what: String) async throws {
    let fixture = try await Fixture()
    defer { Task { await fixture.devtools.stop() } }
    let bad = try await fixture.socket()
    let good = try await fixture.socket()
    try await waitForPages(2, fixture.feed)
    let close = try? await blocking { () throws -> (opcode: UInt8, payload: [UInt8]) in
      switch what {
      case "a reserved bit": try bad.sendFrame(opcode: 1, payload: [65], reserved: 4)
      case "an unknown opcode": try bad.sendFrame(opcode: 3, payload: [])
      case "text that is not UTF-8": try bad.sendFrame(opcode: 1, payload: [0xFF, 0xFE])
      default: try bad.sendFrame(opcode: 2, payload: [UInt8](repeating: 7, count: 5_000))
      }
      // The bad page gets a close frame (or the connection ends), then nothing more.
      return try bad.receiveFrame()
    }
    #expect(close == nil || close?.opcode == 0x8, "\(what): \(String(describing: close))")
    try await waitForPages(1, fixture.feed)
    // The app and the other page go on.
    try fixture.app.send("counter", "increment")
    let entry = try await blocking { try good.receiveText { $0.contains("increment") } }
    #expect(entry != nil, "\(what)")
    #expect(try await fixture.get(fixture.withToken("/api/app")).status == 200)
  }

  @Test func aHundredClientsComeAndGoAndLeaveNothingBehind() async throws {
    let fixture = try await Fixture()
    defer { Task { await fixture.devtools.stop() } }
    // Warm up: the server's first connection allocates what it keeps.
    _ = try await fixture.socket()
    try await waitForPages(0, fixture.feed)
    _ = try await fixture.get(fixture.withToken("/api/app"))
    let connections = openConnections(port: fixture.port)
    var clients: [RawClient] = []
    for index in 0..<100 {
      if index % 2 == 0 {
        clients.append(try await fixture.socket())
      } else {
        clients.append(try RawClient(port: fixture.port))  // connects, says nothing
      }
      try fixture.app.send("counter", "increment")
    }
    try await waitForPages(50, fixture.feed)
    // Each client's own socket at least: what the count below sees go.
    #expect(openConnections(port: fixture.port) >= connections + 100)
    clients.removeAll()  // every client drops at once
    try await waitForPages(0, fixture.feed)
    // The server's side of each connection is closed too (the idle ones time out on their
    // own; the sockets the test opened are closed by now).
    let deadline = ContinuousClock.now + .seconds(120)
    while openConnections(port: fixture.port) > connections, ContinuousClock.now < deadline {
      try await Task.sleep(for: .milliseconds(50))
    }
    #expect(openConnections(port: fixture.port) <= connections)
    _ = await fixture.app.settle()
    #expect(try fixture.app.state("counter").json().contains(#""count":100"#))
  }
}

/// Waits (a bound that only stops a hang) until `count` pages listen to `feed`.
func waitForPages(_ count: Int, _ feed: DevToolsFeed) async throws {
  let deadline = ContinuousClock.now + .seconds(120)
  while feed.pageCount != count, ContinuousClock.now < deadline {
    try await Task.sleep(for: .milliseconds(10))
  }
  #expect(feed.pageCount == count)
}

/// How many TCP connections to or from `port` this process holds open: its descriptors that
/// are sockets (`/proc/self/fd`), found in the kernel's tables (`/proc/net/tcp`, `tcp6`) with
/// either end at `port`, listening sockets left out. Only the server under test has these;
/// a count of all descriptors would count those of the tests running beside it.
func openConnections(port: UInt16) -> Int {
  let fds = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
  let sockets = Set(
    fds.compactMap { fd -> Substring? in
      let target = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/\(fd)")
      guard let target, target.hasPrefix("socket:[") else { return nil }
      return Substring(target.dropFirst("socket:[".count).dropLast())
    })
  let hexPort = String(format: "%04X", port)
  return ["/proc/net/tcp", "/proc/net/tcp6"].reduce(0) { count, table in
    // Read to the end: a procfs file says its size is 0, and a one-shot read gets a page.
    let data = FileHandle(forReadingAtPath: table).map { $0.readDataToEndOfFile() } ?? Data()
    let lines = String(decoding: data, as: UTF8.self).split(separator: "\n")
    // sl local_address rem_address st tx:rx tr:when retrnsmt uid timeout inode
    return count
      + lines.dropFirst().filter { line in
        let fields = line.split(separator: " ")
        guard fields.count > 9, fields[3] != "0A", sockets.contains(fields[9]) else { return false }
        return fields[1].hasSuffix(":\(hexPort)") || fields[2].hasSuffix(":\(hexPort)")
      }.count
  }
}
