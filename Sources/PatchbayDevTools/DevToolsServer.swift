import FlyingFox
import Foundation
import PatchbayAudioGraph
import PatchbayHost
import PatchbayScript
import Synchronization

/// DevTools over HTTP: the page, the app's tree and states, the timeline, time travel, and a
/// WebSocket of changes as they happen. It listens on loopback unless told otherwise, and
/// every request needs its token (``DevToolsAccess``).
///
/// ```swift
/// let devtools = DevTools(app: app, feed: feed, session: .live(config: path))
/// let url = try await devtools.start()     // http://127.0.0.1:41234/?token=3f…
/// // … the run …
/// await devtools.stop()
/// ```
///
/// The routes (each takes `?token=`, or the `X-Patchbay-Token` header):
/// - `GET /`: the page.
/// - `GET /api/app`: the app's instances with their features and plugins, the navigation,
///   each plugin's history, the number of steps.
/// - `GET /api/state?path=PATH`: an instance's state now (the whole app's without `path`).
/// - `GET /api/state?at=N`: the whole app's state after step N, rebuilt by replaying.
/// - `GET /api/timeline`: every entry so far.
/// - `GET /api/script?to=N`: a script that takes the first N steps.
/// - `POST /api/send` `{"path": "counter", "action": "increment"}`, `POST /api/swap`
///   `{"feature": "counter", "plugin": "CounterAlt"}`: refused with `--devtools-read-only`.
/// - `GET /api/socket`: the WebSocket; each message is one timeline entry.
public actor DevTools {
  /// What is being shown: the run itself, or a recording of one.
  public enum Session: Sendable {
    /// A live run from `config`; its steps are the feed's.
    case live(config: String)
    /// A recording (`patchbay devtools FILE`), already replayed into the app.
    case recording(Recording)
  }

  let app: AppRuntime
  let feed: DevToolsFeed
  let session: Session
  let rewind: Rewind
  let readOnly: Bool
  /// The secret every request carries, new for each server.
  public nonisolated let token = DevToolsAccess.newToken()
  private var server: (HTTPServer, Task<Void, any Error>)?
  private var sound: SoundWatch?
  /// The page's URL, token included, once the server listens.
  public private(set) var url: URL?
  /// Whether the app plays (the page then shows its Sound view).
  nonisolated let playing = Atomic<Bool>(false)

  /// DevTools for `app`, whose changes `feed` is attached to. `replica` makes a fresh app
  /// replaying from the same plugins as the run started with (time travel builds states in it).
  public init(
    app: AppRuntime, feed: DevToolsFeed, session: Session, readOnly: Bool = false,
    replica: @escaping @Sendable () throws(AppError) -> AppRuntime
  ) {
    self.app = app
    self.feed = feed
    self.session = session
    self.readOnly = readOnly
    self.rewind = Rewind(makeApp: replica)
  }

  /// Starts listening on `address` (an IPv4 address; port 0 picks a free one) and returns the
  /// page's URL, token included.
  public func start(address: String = "127.0.0.1", port: UInt16 = 0) async throws -> URL {
    let socketAddress = try sockaddr_in.inet(ip4: address, port: port)
    let router = DevToolsRouter(devtools: self, address: address)
    let server = HTTPServer(
      address: socketAddress, timeout: 30, logger: .disabled, handler: router)
    let task = Task { try await server.run() }
    try await server.waitUntilListening(timeout: 120)
    guard case .ip4(_, let bound)? = await server.listeningAddress else {
      throw DevToolsError("the server did not say which port it listens on")
    }
    router.port.store(Int(bound), ordering: .releasing)
    self.server = (server, task)
    let host = address == "0.0.0.0" ? "127.0.0.1" : address
    let url = URL(string: "http://\(host):\(bound)/?token=\(self.token)")!
    self.url = url
    return url
  }

  /// Shows the sound `live` plays, and the MIDI it receives, to every page.
  public func attach(_ live: LiveSession) {
    let watch = SoundWatch(graph: live.graph, app: self.app, feed: self.feed)
    watch.start()
    self.sound = watch
    self.playing.store(true, ordering: .relaxed)
    let feed = self.feed
    live.watchMIDI { event in
      feed.broadcast(
        JSONText.object([
          ("kind", #""midi""#), ("t", String(feed.milliseconds)),
          // "ch1 note-on 60 100": its own timestamp (the reader's clock) is left out.
          (
            "text",
            JSONText.string(
              event.description.split(separator: " ").dropFirst().joined(separator: " "))
          ),
        ]))
    }
  }

  /// Stops listening and closes every page's connection.
  public func stop() async {
    self.sound?.stop()
    self.feed.detach()
    guard let (server, task) = self.server else { return }
    self.server = nil
    await server.stop(timeout: 1)
    task.cancel()
  }

  /// The recording that rebuilds the app's states: the feed's steps, or the file's.
  nonisolated var recording: Recording {
    switch self.session {
    case .live(let config): self.feed.recording(config: config)
    case .recording(let recording): recording
    }
  }
}

/// A DevTools failure, in one line.
public struct DevToolsError: Error, CustomStringConvertible {
  public let description: String
  init(_ description: String) { self.description = description }
}
