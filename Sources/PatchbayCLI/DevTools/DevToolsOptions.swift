import ArgumentParser
import Foundation
import PatchbayDevTools
import PatchbayHost
import Synchronization

/// `--devtools [ADDR]` and its companions, for `run`: serve DevTools for the live app.
struct DevToolsOptions: ParsableArguments {
  @Flag(
    help: """
      Serve DevTools for this run (--devtools [ADDR]: loopback on a free port unless ADDR, as \
      127.0.0.1:8765 or :8765, says otherwise). Prints the page's URL, token included.
      """)
  var devtools = false

  @Option(name: .customLong("devtools-address"), help: .hidden)
  var devtoolsAddress: String?

  @Flag(help: "With --devtools: the page shows the app but cannot send actions or swap.")
  var devtoolsReadOnly = false

  @Flag(
    help: """
      With --devtools ADDR: listen on an address other machines can reach (anyone who has the \
      URL can then drive the app).
      """)
  var devtoolsAllowRemote = false

  var enabled: Bool { self.devtools || self.devtoolsAddress != nil }

  /// The address and port to listen on: loopback and a free port unless told.
  func listeningAddress() throws -> (address: String, port: UInt16) {
    do {
      return try DevToolsAddress.parse(self.devtoolsAddress, allowRemote: self.devtoolsAllowRemote)
    } catch {
      throw ValidationError(error.description)
    }
  }

  /// Serves DevTools for `app` and prints its URL (on stderr, like every note of `run`).
  func start(
    app: AppRuntime, feed: DevToolsFeed, session: DevTools.Session,
    replica: @escaping @Sendable () throws(AppError) -> AppRuntime
  ) async throws -> DevTools {
    let (address, port) = try self.listeningAddress()
    let devtools = DevTools(
      app: app, feed: feed, session: session, readOnly: self.devtoolsReadOnly, replica: replica)
    let url: URL
    do {
      url = try await devtools.start(address: address, port: port)
    } catch {
      throw CommandFailure(
        "devtools: cannot listen on \(address):\(port): \(error). Pick another port, or leave "
          + "it out for a free one.")
    }
    if !address.hasPrefix("127.") {
      Terminal.error(
        "devtools: warning: listening on \(address), which other machines can reach; anyone "
          + "with the URL can drive the app.")
    }
    Terminal.error("devtools: \(url.absoluteString)")
    return devtools
  }

  /// Waits for Ctrl-C or SIGTERM: a run with DevTools goes on after its script, until told.
  static func waitForInterrupt() async {
    await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
      let once = OnceFlag()
      var sources: [any DispatchSourceSignal] = []
      for number in [SIGINT, SIGTERM] {
        signal(number, SIG_IGN)
        let source = DispatchSource.makeSignalSource(signal: number)
        source.setEventHandler {
          if once.claim() { done.resume() }
        }
        source.resume()
        sources.append(source)
      }
      SignalSources.keep(sources)
    }
  }
}

/// True for the first caller only. [thread-safe]
final class OnceFlag: Sendable {
  private let claimed = Mutex(false)
  func claim() -> Bool {
    self.claimed.withLock { claimed in
      defer { claimed = true }
      return !claimed
    }
  }
}

/// Keeps signal sources alive for the rest of the process.
enum SignalSources {
  nonisolated(unsafe) private static var kept: [any DispatchSourceSignal] = []
  static func keep(_ sources: [any DispatchSourceSignal]) { self.kept += sources }
}
