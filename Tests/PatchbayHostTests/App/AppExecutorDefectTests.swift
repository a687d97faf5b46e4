import Foundation
import PatchbayAppQueue
import PatchbayHost
import PatchbayScript
import Synchronization
import Testing

/// The defects the app queue fixed, each as it was found.
@Suite struct AppExecutorDefectTests {
  /// `printf 'send home open\nstate\n' | patchbay run host-config/app.toml` showed the pushed
  /// screen in 3 of 8 runs: the request was applied on a queue of its own.
  @Test func aNavigationRequestIsAppliedBeforeTheNextCommand() throws {
    let demo = try makeFullDemoApp()
    for _ in 0..<200 {
      let app = try AppRuntime(config: demo.config, registry: demo.registry, loader: demo.loader)
      try app.send("home", "open")
      #expect(app.navigation.stack.map(\.node) == ["counter"])
      #expect(app.paths.contains("counter#1"))
    }
  }

  @Test func aRefusedActionFailsTheCommandWithThePluginsReason() throws {
    let app = try fixtureApp("refuses", id: "dev.patchbay.fixture-refuses")
    let before = try app.state()
    let message = errorMessage { try app.send("fixture", "anything") }
    #expect(message.contains("fixture: dev.patchbay.fixture-refuses: reduce failed"))
    #expect(message.contains("the fixture refuses every action"))
    #expect(try app.state() == before)
    // The next failure carries its own reason, not the last one's.
    let again = errorMessage { try app.send("fixture", "anything") }
    #expect(again.components(separatedBy: "refuses every action").count == 2)
  }

  @Test func aRefusedNavigationRequestFailsTheCommandThatMadeIt() throws {
    let app = try fixtureApp("navigatesnowhere", id: "dev.patchbay.fixture-navigates")
    let message = errorMessage { try app.send("fixture", "go") }
    #expect(message.contains(#"navigation push(node: "nowhere") refused"#))
    #expect(message.contains("'nowhere' is not a feature of this app"))
    #expect(app.navigation.stack.isEmpty)
    #expect(app.paths == ["fixture"])
  }

  @Test func aScriptStopsAtTheLineWhoseActionFailed() async throws {
    let app = try fixtureApp("refuses", id: "dev.patchbay.fixture-refuses")
    let output = Mutex<[String]>([])
    let runner = ScriptRunner(app: app, name: "refuse.script") { line in
      output.withLock { $0.append(line) }
    }
    let outcome = await runner.run("render\nsend fixture anything\nrender")
    guard case .failed(let message) = outcome else {
      Issue.record("expected the script to fail, got \(outcome)")
      return
    }
    #expect(message.hasPrefix("refuse.script:2:"))
    #expect(message.contains("the fixture refuses every action"))
    #expect(output.withLock { $0 } == ["fixture"])  // the line after the failure did not run
  }
}

@Suite struct PluginLogTests {
  /// `host->error` from an effect thread used to pile up and be attached to the next,
  /// unrelated failure; `host->log` went nowhere.
  @Test func anErrorOutsideAnyCallIsLoggedNotKeptForTheNextFailure() async throws {
    let app = try fixtureApp("errorlater", id: "dev.patchbay.fixture-errors-later")
    let logs = Mutex<[String]>([])
    app.onLog { feature, level, message in
      logs.withLock { $0.append("\(feature) \(level.rawValue): \(message)") }
    }
    try app.send("fixture", "first")
    let deadline = ContinuousClock.now.advanced(by: .seconds(300))  // stops a hang only
    while logs.withLock({ $0.count }) < 2, ContinuousClock.now < deadline {
      try await Task.sleep(for: .milliseconds(5))
    }
    #expect(
      logs.withLock { $0 } == [
        "dev.patchbay.fixture-errors-later warning: the first action starts a late error",
        "dev.patchbay.fixture-errors-later error: a late error from an effect thread",
      ])
    let message = errorMessage { try app.send("fixture", "second") }
    #expect(message.contains("this action is refused"))
    #expect(!message.contains("late error"))
  }
}

@Suite struct BadStateTests {
  /// A swap used to hand whatever bytes the old code wrote to the new `create`.
  @Test func aSwapRefusesStateBytesThatAreNotAValue() throws {
    let app = try fixtureApp("counterbadstate", id: "dev.patchbay.counter")
    let fixture = try app.instance("fixture").feature.plugin.path
    let message = errorMessage { try app.swap("fixture", to: try BuiltPlugins.path("Counter")) }
    #expect(message.contains("refused"))
    #expect(message.contains("the state bytes are not a value"))
    #expect(message.contains("the new implementation was not given them"))
    #expect(try app.instance("fixture").feature.plugin.path == fixture)
    #expect(try app.render() == "fixture")
  }
}

extension AppRuntime {
  fileprivate func render() throws -> String { try self.renderCurrent() }
}
