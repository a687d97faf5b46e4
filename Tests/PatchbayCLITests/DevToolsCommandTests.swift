import Foundation
import Testing

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// `patchbay run --devtools` and `patchbay devtools RECORDING`, as a user starts them: the
/// URL line, the page's data over HTTP, and Ctrl-C ending the run.
@Suite struct DevToolsCommandTests {
  /// A `patchbay` left running, whose stderr is read line by line.
  final class Running: @unchecked Sendable {
    let process = Process()
    let stdout = Pipe()
    let stderr = Pipe()

    init(_ arguments: [String]) throws {
      self.process.executableURL = URL(fileURLWithPath: "\(CLI.directory)/patchbay")
      self.process.arguments = arguments
      self.process.standardOutput = self.stdout
      self.process.standardError = self.stderr
      try self.process.run()
    }

    deinit {
      if self.process.isRunning { kill(self.process.processIdentifier, SIGKILL) }
    }

    /// The URL the run printed (waiting, without a bound of time: the test's own limit
    /// stops a hang); nil when stderr ended first, with what it said.
    func url() async throws -> (URL?, String) {
      let handle = self.stderr.fileHandleForReading
      return try await withCheckedThrowingContinuation { continuation in
        DispatchQueue.global().async {
          var text = ""
          while true {
            let data = handle.availableData
            if data.isEmpty { break }
            text += String(decoding: data, as: UTF8.self)
            if let line = text.split(separator: "\n").first(where: {
              $0.hasPrefix("devtools: http://")
            }) {
              continuation.resume(returning: (URL(string: String(line.dropFirst(10))), text))
              return
            }
          }
          continuation.resume(returning: (nil, text))
        }
      }
    }

    /// Sends `signal` and waits for the exit; the exit status.
    func stop(_ signal: Int32 = SIGINT) async -> Int32 {
      kill(self.process.processIdentifier, signal)
      let process = self.process
      return await withCheckedContinuation { continuation in
        DispatchQueue.global().async {
          process.waitUntilExit()
          continuation.resume(returning: process.terminationStatus)
        }
      }
    }
  }

  /// GETs `path` of the server `url` names, with its token.
  func get(_ url: URL, _ path: String) async throws -> (Int, String) {
    var components = URLComponents(url: url, resolvingAgainstBaseURL: false)!
    let token = components.queryItems?.first { $0.name == "token" }?.value ?? ""
    let parts = path.split(separator: "?", maxSplits: 1)
    components.path = String(parts[0])
    components.query = (parts.count > 1 ? "\(parts[1])&" : "") + "token=\(token)"
    let (data, response) = try await URLSession.shared.data(from: components.url!)
    return ((response as? HTTPURLResponse)?.statusCode ?? 0, String(decoding: data, as: UTF8.self))
  }

  @Test func runServesTheLiveAppUntilCtrlC() async throws {
    let running = try Running([
      "run", RunTests.config, "--script", ReplayTests.demo, "--devtools",
    ])
    let (found, said) = try await running.url()
    let url = try #require(found, "\(said)")
    #expect(url.host == "127.0.0.1")
    let (status, app) = try await self.get(url, "/api/app")
    #expect(status == 200)
    #expect(app.contains(#""mode":"live""#) && app.contains("dev.patchbay.counter"), "\(app)")
    let (_, page) = try await self.get(url, "/")
    #expect(page.contains("<title>Patchbay DevTools</title>"))
    let (_, timeline) = try await self.get(url, "/api/timeline")
    #expect(timeline.contains(#""text":"setStep(by: 5)""#), "\(timeline)")
    #expect(await running.stop(SIGINT) == 0)
  }

  @Test func aRecordingIsServedForTimeTravel() async throws {
    let recording = FileManager.default.temporaryDirectory
      .appendingPathComponent("\(UUID().uuidString)-run.jsonl").path
    let run = try await CLI.run(
      "run", RunTests.config, "--script", ReplayTests.demo, "--record", recording)
    #expect(run.exitCode == 0, "\(run.stderr)")
    let running = try Running(["devtools", recording])
    let (found, said) = try await running.url()
    let url = try #require(found, "\(said)")
    let (_, app) = try await self.get(url, "/api/app")
    #expect(app.contains(#""mode":"recording: "#), "\(app)")
    let steps = try #require(
      app.split(separator: ",").first { $0.hasPrefix(#""steps":"#) }
        .flatMap { Int($0.dropFirst(8)) })
    #expect(steps > 3)
    let (_, first) = try await self.get(url, "/api/state?at=0")
    let (_, last) = try await self.get(url, "/api/state?at=\(steps)")
    #expect(first.contains(#""features""#) && first != last)
    // A recording cannot be acted on.
    var request = URLRequest(
      url: url.deletingLastPathComponent().appendingPathComponent("api/send"))
    request.url = URL(string: request.url!.absoluteString + "?" + (url.query ?? ""))
    request.httpMethod = "POST"
    request.httpBody = Data(#"{"path": "counter", "action": "increment"}"#.utf8)
    let (_, response) = try await URLSession.shared.data(for: request)
    #expect((response as? HTTPURLResponse)?.statusCode == 403)
    #expect(await running.stop(SIGTERM) == 0)
  }

  @Test func anAddressOtherMachinesCanReachNeedsSayingSo() async throws {
    let refused = try await CLI.run(
      "run", RunTests.config, "--script", ReplayTests.demo, "--devtools", "0.0.0.0:0")
    #expect(refused.exitCode == 2)
    #expect(refused.stderr.contains("--devtools-allow-remote"), "\(refused.stderr)")
    let bad = try await CLI.run(
      "run", RunTests.config, "--script", ReplayTests.demo, "--devtools", "127.0.0.1:99999")
    #expect(bad.exitCode == 2)
    #expect(bad.stderr.contains("the port is a number up to 65535"), "\(bad.stderr)")
  }
}
