import Foundation
import PatchbayEncoding
import PatchbayHost
import Testing

/// The demo app (host-config/app.toml): navigation requested by features, a parent hearing its
/// child's delegate actions, and a screen pushed with initial state.
func makeFullDemoApp(replaying: Bool = false) throws -> AppRuntime {
  let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
  let config = try AppConfig(contentsOf: root.appendingPathComponent("host-config/app.toml").path)
  let registry = try config.loadPlugins(with: config.loader(extraSearchPaths: [BuiltPlugins.directory]))
  return try AppRuntime(config: config, registry: registry, replaying: replaying)
}

@Suite struct CompositionTests {
  @Test func aFeatureAsksTheHostToNavigate() async throws {
    let app = try makeFullDemoApp()
    try app.send("home", "down")
    try app.send("home", "open")
    #expect(await app.settle())
    #expect(app.navigation.stack.map(\.node) == ["echo"])
    #expect(app.currentPath == "echo#1")
  }

  @Test func theParentHearsItsChildsDelegateAndPushesResults() async throws {
    let app = try makeFullDemoApp()
    try app.follow(route: "/practice")
    #expect(app.paths == ["home", "practice#1", "practice#1/quiz"])
    try app.send("practice/quiz", "answer(5)")
    try app.send("practice/quiz", "answer(42)")
    try app.send("practice/quiz", "answer(5)")
    #expect(await app.settle())
    #expect(try app.state("practice")[field: "attempts"] == 1)
    #expect(try app.state("practice")[field: "best"] == 3)
    #expect(try app.state("practice/quiz")[field: "question"] == 0)  // started over
    #expect(app.navigation.stack.map(\.node) == ["practice", "results"])
    #expect(try app.state("results") == .record(fields: ("score", 3), ("outOf", 3)))
    #expect(try app.renderCurrent() == "You scored 3 of 3. Perfect!")
    try app.send("results", "home")
    #expect(await app.settle())
    #expect(app.paths == ["home"])
  }

  @Test func renderShowsAScreenWithItsChildren() throws {
    let app = try makeFullDemoApp()
    try app.follow(route: "/practice")
    #expect(try app.renderCurrent() == "Practice — 0 attempt(s), best 0 of 3\n\n── quiz ──\nQuestion 1 of 3: 2 + 3 = ?")
  }

  @Test func aScreenBelowTheTopCanStillAskToPush() async throws {
    let app = try makeFullDemoApp()
    let failures = LockedBox<[String]>([])
    app.onChange { change in
      if case .failure(_, let message) = change { failures.mutate { $0.append(message) } }
    }
    try app.follow(route: "/echo")
    try app.send("home", "open")  // home is under the echo screen; it pushes counter on top
    #expect(await app.settle())
    #expect(app.navigation.stack.map(\.node) == ["echo", "counter"])
    #expect(failures.value.isEmpty)
  }
}

final class LockedBox<Value>: @unchecked Sendable {
  private let lock = NSLock()
  private var stored: Value
  init(_ value: Value) { self.stored = value }
  var value: Value { self.lock.withLock { self.stored } }
  func mutate(_ body: (inout Value) -> Void) { self.lock.withLock { body(&self.stored) } }
}
