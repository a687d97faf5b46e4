import Foundation
import Testing

/// Headless Chromium, driven through its DevTools protocol over a WebSocket: open a page,
/// run JavaScript in it, take screenshots. What a person does in the browser, done by a test.
///
/// ```swift
/// let browser = try await Chromium.open(url)
/// try await browser.waitFor("document.title === 'Patchbay DevTools'")
/// let png = try await browser.screenshot()
/// ```
final class Chromium: @unchecked Sendable {
  /// Where Debian's `chromium` package puts it; nil where it is not installed.
  static let path: String? = ["/usr/bin/chromium", "/usr/bin/chromium-browser"].first {
    FileManager.default.isExecutableFile(atPath: $0)
  }

  let process: Process
  let profile: URL
  let page: RawClient
  private var nextID = 0

  private init(process: Process, profile: URL, page: RawClient) {
    self.process = process
    self.profile = profile
    self.page = page
  }

  deinit {
    // Its helpers (zygotes, renderers, the GPU process) first, then itself: nothing outlives
    // the test, whether it ended with `close` or with a failure.
    for pid in Self.descendants(of: self.process.processIdentifier) { kill(pid, SIGKILL) }
    if self.process.isRunning { kill(self.process.processIdentifier, SIGKILL) }
    try? FileManager.default.removeItem(at: self.profile)
  }

  /// Closes the browser as a person would (its helpers end with it).
  func close() async {
    _ = try? await self.call("Browser.close")
    let process = self.process
    let deadline = ContinuousClock.now + .seconds(60)
    while process.isRunning, ContinuousClock.now < deadline {
      try? await Task.sleep(for: .milliseconds(20))
    }
  }

  /// Every process below `root`, from /proc.
  static func descendants(of root: Int32) -> [Int32] {
    let parents: [(pid: Int32, parent: Int32)] =
      ((try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []).compactMap { name in
        guard let pid = Int32(name),
          let stat = try? String(contentsOfFile: "/proc/\(name)/stat", encoding: .utf8),
          let end = stat.lastIndex(of: ")")
        else { return nil }
        let fields = stat[stat.index(after: end)...].split(separator: " ")
        return fields.count > 1 ? Int32(fields[1]).map { (pid, $0) } : nil
      }
    var found: [Int32] = []
    var frontier = [root]
    while let next = frontier.popLast() {
      let children = parents.filter { $0.parent == next }.map(\.pid)
      found += children
      frontier += children
    }
    return found
  }

  /// Starts Chromium on `url` and attaches to its page.
  static func open(_ url: URL, width: Int = 1280, height: Int = 800) async throws -> Chromium {
    let profile = FileManager.default.temporaryDirectory.appendingPathComponent(
      "chromium-\(UUID().uuidString)")
    let process = Process()
    process.executableURL = URL(fileURLWithPath: try #require(Self.path))
    process.arguments = [
      "--headless=new", "--no-sandbox", "--disable-gpu", "--no-first-run",
      "--remote-debugging-port=0", "--user-data-dir=\(profile.path)",
      "--window-size=\(width),\(height)", url.absoluteString,
    ]
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    try process.run()
    // Chromium writes its port to the profile once it listens.
    let portFile = profile.appendingPathComponent("DevToolsActivePort").path
    var port: UInt16?
    let deadline = ContinuousClock.now + .seconds(120)
    while port == nil, ContinuousClock.now < deadline {
      port = (try? String(contentsOfFile: portFile, encoding: .utf8))?
        .split(separator: "\n").first.flatMap { UInt16($0) }
      if port == nil { try await Task.sleep(for: .milliseconds(50)) }
    }
    let debugging = try #require(port, "chromium did not start its DevTools protocol")
    // The page's socket, from the list of targets.
    var socketPath: String?
    while socketPath == nil, ContinuousClock.now < deadline {
      let list = try await blocking { try RawClient(port: debugging).request("GET /json/list") }
      let targets =
        (try? JSONSerialization.jsonObject(with: Data(list.body.utf8))) as? [[String: Any]] ?? []
      socketPath =
        (targets.first { ($0["type"] as? String) == "page" }?["webSocketDebuggerUrl"] as? String)
        .flatMap { URL(string: $0)?.path }
      if socketPath == nil { try await Task.sleep(for: .milliseconds(50)) }
    }
    let page = try RawClient(port: debugging)
    let path = try #require(socketPath, "chromium has no page")
    let status = try await blocking { try page.openSocket(path) }
    guard status.contains("101") else { throw RawClientError("chromium: \(status)") }
    let browser = Chromium(process: process, profile: profile, page: page)
    return browser
  }

  /// Calls a protocol method and returns its result.
  func call(_ method: String, _ params: [String: Any] = [:]) async throws -> [String: Any] {
    self.nextID += 1
    let id = self.nextID
    let message = try JSONSerialization.data(
      withJSONObject: ["id": id, "method": method, "params": params])
    let page = self.page
    let reply = try await blocking { () throws -> String in
      try page.sendFrame(opcode: 1, payload: Array(message))
      // Replies and events share the socket: the reply is the message with this id.
      return try page.receiveText { text in
        let object = try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any]
        return object?["id"] as? Int == id
      } ?? ""
    }
    let object = (try JSONSerialization.jsonObject(with: Data(reply.utf8))) as? [String: Any]
    if let error = object?["error"] { throw RawClientError("\(method): \(error)") }
    return object?["result"] as? [String: Any] ?? [:]
  }

  /// The value of a JavaScript expression in the page (awaited when it is a promise).
  func evaluate(_ expression: String) async throws -> Any? {
    let result = try await self.call(
      "Runtime.evaluate",
      ["expression": expression, "awaitPromise": true, "returnByValue": true])
    if let exception = result["exceptionDetails"] {
      throw RawClientError("\(expression): \(exception)")
    }
    return (result["result"] as? [String: Any])?["value"]
  }

  /// Clicks the element `selector` finds, as a person would.
  func click(_ selector: String) async throws {
    _ = try await self.evaluate("document.querySelector('\(selector)').click()")
  }

  /// Waits until `condition` (JavaScript) is true; false if it never is. The bound only stops
  /// a hang: a loaded machine takes its time, and no test asserts how long.
  @discardableResult
  func waitFor(_ condition: String) async throws -> Bool {
    let deadline = ContinuousClock.now + .seconds(120)
    while ContinuousClock.now < deadline {
      if (try? await self.evaluate("!!(\(condition))")) as? Bool == true { return true }
      try await Task.sleep(for: .milliseconds(50))
    }
    return false
  }

  /// The page as a PNG.
  func screenshot() async throws -> Data {
    let result = try await self.call("Page.captureScreenshot", ["format": "png"])
    return try #require(Data(base64Encoded: result["data"] as? String ?? ""))
  }
}
