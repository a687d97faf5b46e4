import FlyingFox
import Foundation
import PatchbayEncoding
import PatchbayHost
import PatchbayIsolation
import PatchbayLoader
import PatchbayScript
import Synchronization

/// Answers DevTools' requests: checks each one's token, `Host` and `Origin`, then routes it
/// (``DevTools`` lists the routes). Every answer is JSON but the page's.
final class DevToolsRouter: HTTPHandler {
  unowned let devtools: DevTools
  /// The address it listens on, and its port once it knows it (0 until then: every request
  /// is refused).
  let address: String
  let port = Atomic<Int>(0)
  /// The largest request body: an action's text, not a state.
  static let largestBody = 64 << 10

  init(devtools: DevTools, address: String) {
    self.devtools = devtools
    self.address = address
  }

  func handleRequest(_ request: HTTPRequest) async throws -> HTTPResponse {
    let port = self.port.load(ordering: .acquiring)
    let refusal =
      port == 0
      ? "the server is starting; try again."
      : DevToolsAccess(token: self.devtools.token, port: UInt16(port), address: self.address)
        .refusal(
          token: request.query["token"] ?? request.headers[HTTPHeader("X-Patchbay-Token")],
          host: request.headers[.host], origin: request.headers[HTTPHeader("Origin")])
    if let refusal { return Self.text(.forbidden, refusal) }
    if let length = request.headers[.contentLength].flatMap(Int.init), length > Self.largestBody {
      return Self.text(.payloadTooLarge, "a request body is at most \(Self.largestBody) bytes.")
    }
    // What the app did before the request is in the timeline, the steps and the states.
    if request.method == .GET, request.path.hasPrefix("/api/"), request.path != "/api/socket" {
      await self.devtools.feed.flush()
    }
    switch (request.method, request.path) {
    case (.GET, "/"), (.GET, "/index.html"):
      return HTTPResponse(
        statusCode: .ok,
        headers: [
          .contentType: "text/html; charset=utf-8",
          HTTPHeader("Content-Security-Policy"):
            "default-src 'self'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; "
            + "connect-src 'self' ws://\(request.headers[.host] ?? "")",
          .cacheControl: "no-store",
        ],
        body: Data(DevToolsPage.html.utf8))
    case (.GET, "/api/app"):
      return Self.json(await Self.offThePool { self.appJSON() })
    case (.GET, "/api/state"):
      return await self.state(request)
    case (.GET, "/api/timeline"):
      return Self.json(JSONText.array(self.devtools.feed.timeline()))
    case (.GET, "/api/script"):
      let steps = self.devtools.recording.steps
      let count = min(request.query["to"].flatMap(Int.init) ?? steps.count, steps.count)
      let lines = steps.prefix(max(count, 0)).map(\.step.scriptLine)
      return Self.text(.ok, (lines + ["state"]).joined(separator: "\n") + "\n")
    case (.GET, "/api/socket"):
      return try await WebSocketHTTPHandler(handler: DevToolsSocket(feed: self.devtools.feed))
        .handleRequest(request)
    case (.POST, "/api/send"), (.POST, "/api/swap"):
      return await self.act(request)
    default:
      return Self.text(.notFound, "no such route: \(request.method.rawValue) \(request.path)")
    }
  }

  /// An instance's state now, or the whole app's (now, or after step `at`).
  private func state(_ request: HTTPRequest) async -> HTTPResponse {
    do {
      if let at = request.query["at"] {
        guard let count = Int(at) else {
          return Self.text(.badRequest, "at=\(at): a step number (0 for the start).")
        }
        return Self.json(
          try await self.devtools.rewind.state(after: count, of: self.devtools.recording))
      }
      let (app, path) = (self.devtools.app, request.query["path"])
      return Self.json(
        try await Self.offThePool { () throws(AppError) in try app.state(path).json() })
    } catch {
      return Self.text(.badRequest, error.description)
    }
  }

  /// Sends an action, or swaps a feature, as the page asked.
  private func act(_ request: HTTPRequest) async -> HTTPResponse {
    guard !self.devtools.readOnly else {
      return Self.text(.forbidden, "DevTools is read-only (--devtools-read-only).")
    }
    guard case .live = self.devtools.session else {
      return Self.text(.forbidden, "a recording cannot be changed; run the app to act on it.")
    }
    let body: Data
    do {
      body = try await request.bodyData
    } catch {
      return Self.text(.badRequest, "the body could not be read: \(error)")
    }
    guard let fields = (try? JSONSerialization.jsonObject(with: body)) as? [String: String] else {
      return Self.text(.badRequest, "the body is a JSON object of strings.")
    }
    do {
      if request.path == "/api/send" {
        guard let path = fields["path"], let action = fields["action"] else {
          return Self.text(.badRequest, #"send needs {"path": …, "action": …}."#)
        }
        let app = self.devtools.app
        try await Self.offThePool { () throws(AppError) in try app.send(path, action) }
      } else {
        guard let feature = fields["feature"], let plugin = fields["plugin"] else {
          return Self.text(.badRequest, #"swap needs {"feature": …, "plugin": …}."#)
        }
        let app = self.devtools.app
        _ = try await Self.offThePool { () throws(AppError) in try app.swap(feature, to: plugin) }
      }
      return Self.json(#"{"ok":true}"#)
    } catch {
      return Self.text(.unprocessableContent, error.description)
    }
  }

  /// Runs `work`, a call into the app (which waits its turn on the app queue: a long reduce, a
  /// swap loading a plugin), on a thread of its own, not one of the few the server's tasks
  /// share.
  static func offThePool<T: Sendable>(
    _ work: @escaping @Sendable () throws(AppError) -> T
  ) async throws(AppError) -> T {
    let result = await withCheckedContinuation {
      (continuation: CheckedContinuation<Result<T, AppError>, Never>) in
      DispatchQueue.global().async {
        continuation.resume(returning: Result { () throws(AppError) in try work() })
      }
    }
    return try result.get()
  }

  static func offThePool<T: Sendable>(_ work: @escaping @Sendable () -> T) async -> T {
    await withCheckedContinuation { continuation in
      DispatchQueue.global().async { continuation.resume(returning: work()) }
    }
  }

  /// The app's instances, navigation, plugins and steps.
  func appJSON() -> String {
    let app = self.devtools.app
    var instances: [String] = []
    var plugins: [String: [(String, String)]] = [:]
    var features: [String: Set<String>] = [:]
    for path in app.paths {
      guard let handle = try? app.instance(path) else { continue }
      let feature = handle.feature
      let plugin = feature.plugin
      features[plugin.path, default: []].insert(feature.id)
      plugins[plugin.path] = [
        ("id", JSONText.string(plugin.id)), ("version", JSONText.string(plugin.version)),
        ("generation", String(plugin.generation)),
        ("process", feature.isolatedProcess.map(Self.processJSON) ?? "null"),
      ]
      instances.append(
        JSONText.object([
          ("path", JSONText.string(path)), ("feature", JSONText.string(feature.id)),
          ("name", JSONText.string(feature.name)), ("plugin", JSONText.string(plugin.path)),
          ("generation", String(plugin.generation)),
          ("isolated", app.loader.isolates(plugin.id, file: plugin.path) ? "true" : "false"),
          ("actions", JSONText.array(feature.actions.map(Self.actionJSON))),
        ]))
    }
    var history = self.devtools.feed.pluginHistory()
    // What the plugins' own lines told of their code (a restart), filed by feature: with the
    // file that runs the feature now.
    for (file, ids) in features {
      let told = ids.flatMap { history.removeValue(forKey: DevToolsFeed.featureKey($0)) ?? [] }
      if !told.isEmpty { history[file, default: []] += told }
    }
    // A file no instance runs any more (a swap or rollback replaced it) keeps its history.
    for file in history.keys where plugins[file] == nil && !file.hasPrefix("feature:") {
      plugins[file] = [("retired", "true")]
    }
    let pluginList = plugins.sorted { $0.key < $1.key }.map { file, fields in
      JSONText.object(
        [("file", JSONText.string(file))] + fields
          + [("history", JSONText.array(DevToolsFeed.byTime(history[file] ?? [])))])
    }
    let navigation = app.navigation
    let mode: String
    switch self.devtools.session {
    case .live: mode = "live"
    case .recording(let recording): mode = "recording: " + recording.file
    }
    return JSONText.object([
      ("name", JSONText.string(app.config.name)), ("mode", JSONText.string(mode)),
      ("readOnly", self.devtools.readOnly ? "true" : "false"),
      ("sound", self.devtools.playing.load(ordering: .relaxed) ? "true" : "false"),
      ("steps", String(self.devtools.recording.steps.count)),
      ("current", JSONText.string(app.currentPath)),
      ("stack", JSONText.array(navigation.stack.map { JSONText.string($0.description) })),
      ("presented", navigation.presented.map { JSONText.string($0.description) } ?? "null"),
      ("instances", JSONText.array(instances)), ("plugins", JSONText.array(pluginList)),
    ])
  }

  /// An isolated plugin's process: pid, resident memory, CPU time.
  static func processJSON(_ process: IsolatedProcess) -> String {
    JSONText.object([
      ("pid", String(process.pid)), ("rss", String(process.residentBytes)),
      ("cpu", String(format: "%.3f", process.cpuSeconds)),
    ])
  }

  static func actionJSON(_ action: ActionInfo) -> String {
    JSONText.object([
      ("name", JSONText.string(action.name)), ("summary", JSONText.string(action.summary)),
      (
        "fields",
        JSONText.array(
          action.fields.map {
            JSONText.object([
              ("name", JSONText.string($0.name)), ("type", JSONText.string($0.type)),
            ])
          })
      ),
      ("sentBy", action.sentBy.map(JSONText.string) ?? "null"),
    ])
  }

  static func json(_ text: String) -> HTTPResponse {
    HTTPResponse(
      statusCode: .ok, headers: [.contentType: "application/json", .cacheControl: "no-store"],
      body: Data(text.utf8))
  }

  static func text(_ status: HTTPStatusCode, _ text: String) -> HTTPResponse {
    HTTPResponse(
      statusCode: status, headers: [.contentType: "text/plain; charset=utf-8"],
      body: Data(text.utf8))
  }
}
