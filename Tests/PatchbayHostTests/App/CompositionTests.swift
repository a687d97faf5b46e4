import Foundation
import PatchbayConfig
import PatchbayEncoding
import PatchbayHost
import Testing

/// The demo app (host-config/app.toml): navigation requested by features, a parent hearing its
/// child's delegate actions, and a screen pushed with initial state.
func makeFullDemoApp(replaying: Bool = false) throws -> AppRuntime {
  let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
  let config = try AppConfig(contentsOf: root.appendingPathComponent("host-config/app.toml").path)
  let loader = config.loader(firstSearchPaths: [BuiltPlugins.directory])
  return try AppRuntime(
    config: config, registry: try config.loadPlugins(with: loader), loader: loader,
    replaying: replaying)
}

@Suite struct CompositionTests {
  @Test func aFeatureAsksTheHostToNavigate() async throws {
    let app = try makeFullDemoApp()
    try app.send("home", "down")
    try app.send("home", "open")
    #expect(await app.settle(timeout: .seconds(300)))
    #expect(app.navigation.stack.map(\.node) == ["echo"])
    #expect(app.currentPath == "echo#1")
  }

  @Test func theParentHearsItsChildsDelegateAndPushesResults() async throws {
    let app = try makeFullDemoApp()
    try app.follow(route: "/practice")
    #expect(
      app.paths == ["home", "home/tallies#a", "home/tallies#b", "practice#1", "practice#1/quiz"])
    try app.send("practice/quiz", "answer(5)")
    try app.send("practice/quiz", "answer(42)")
    try app.send("practice/quiz", "answer(5)")
    #expect(await app.settle(timeout: .seconds(300)))
    #expect(try app.state("practice")[field: "attempts"] == 1)
    #expect(try app.state("practice")[field: "best"] == 3)
    #expect(try app.state("practice/quiz")[field: "question"] == 0)  // started over
    #expect(app.navigation.stack.map(\.node) == ["practice", "results"])
    #expect(try app.state("results") == .record(fields: ("score", 3), ("outOf", 3)))
    #expect(try app.renderCurrent() == "You scored 3 of 3. Perfect!")
    try app.send("results", "home")
    #expect(await app.settle(timeout: .seconds(300)))
    #expect(app.navigation.stack.isEmpty)
    #expect(app.paths == ["home", "home/tallies#a", "home/tallies#b"])
  }

  @Test func renderShowsAScreenWithItsChildren() throws {
    let app = try makeFullDemoApp()
    try app.follow(route: "/practice")
    #expect(
      try app.renderCurrent()
        == "Practice — 0 attempt(s), best 0 of 3\n\n── quiz ──\nQuestion 1 of 3: 2 + 3 = ?")
  }

  @Test func aScreenBelowTheTopCanStillAskToPush() async throws {
    let app = try makeFullDemoApp()
    let failures = LockedBox<[AppError]>([])
    app.onChange { change in
      if case .failure(let error) = change { failures.mutate { $0.append(error) } }
    }
    try app.follow(route: "/echo")
    try app.send("home", "open")  // home is under the echo screen; it pushes counter on top
    #expect(await app.settle(timeout: .seconds(300)))
    #expect(app.navigation.stack.map(\.node) == ["echo", "counter"])
    #expect(failures.value.isEmpty)
  }
}

/// Collections: many instances of one feature by id, living under their parent (TCA's
/// `forEach`).
@Suite struct CollectionTests {
  @Test func startsWithTheConfiguredIDs() throws {
    let app = try makeFullDemoApp()
    #expect(app.paths == ["home", "home/tallies#a", "home/tallies#b"])
    #expect(app.ids(in: "home/tallies") == ["a", "b"])
    #expect(try app.renderCurrent().contains("── tallies#b ──\nCount: 0"))
  }

  @Test func addSendRemove() throws {
    let app = try makeFullDemoApp()
    let changes = LockedBox<[String]>([])
    app.onChange { change in
      if case .collection(let path, let id, let added, _) = change {
        changes.mutate { $0.append("\(path) \(added ? "+" : "-") \(id)") }
      }
    }
    try app.add(
      to: "home/tallies", id: "c",
      state: WireValue(stateText: "{count: 7, step: 2, pending: 0}")!.bytes)
    try app.send("home/tallies#c", "increment")
    try app.send("tallies#a", "increment")
    #expect(try app.state("home/tallies#c")[field: "count"] == 9)
    #expect(try app.state("home/tallies#a")[field: "count"] == 1)
    #expect(try app.state("home/tallies#b")[field: "count"] == 0)  // instances are independent
    try app.remove(from: "tallies", id: "a")
    #expect(app.ids(in: "home/tallies") == ["b", "c"])
    #expect(changes.value == ["home/tallies + c", "home/tallies - a"])
  }

  @Test func theParentObservesItsElementsByID() async throws {
    let app = try makeFullDemoApp()
    try app.send("home/tallies#b", "decrement")
    #expect(await app.settle(timeout: .seconds(300)))
    #expect(try app.state("home")[field: "lastTally"] == "b: decrement")
  }

  @Test func removingCancelsTheInstancesEffects() async throws {
    let app = try makeFullDemoApp()
    let handle = try app.instance("home/tallies#a")
    try app.send("home/tallies#a", "incrementLater(ms: 86400000)")  // a day: until cancelled
    #expect(try handle.stateValue()[field: "pending"] == 1)  // its effect is running
    #expect(handle.isQuiet == false)
    try app.remove(from: "home/tallies", id: "a")
    // Cancelled with the instance: the effect ends long before its ten minutes.
    let deadline = ContinuousClock.now + .seconds(300)  // stops a hang only
    while !handle.isQuiet && ContinuousClock.now < deadline {
      try await Task.sleep(for: .milliseconds(5))
    }
    #expect(handle.isQuiet)
    #expect(try handle.stateValue()[field: "count"] == 0)
  }

  @Test func badRequestsAreRefusedAndStateIsKept() throws {
    let app = try makeFullDemoApp()
    try app.send("home/tallies#a", "increment")
    let before = try app.stateValue()
    #expect(
      refusal { try app.add(to: "home/tallies", id: "a") }
        == .duplicateID(collection: "home/tallies", id: "a"))
    #expect(
      errorMessage { try app.add(to: "home/tallies", id: "a") }
        == "'home/tallies' already has 'a'; remove it first, or pick another id.")
    #expect(
      refusal { try app.add(to: "home/tally", id: "c") }
        == .notACollection(path: "home/tally", collections: ["tallies"]))
    #expect(
      errorMessage { try app.add(to: "home/tallies", id: "c d") }
        == "'c d' cannot be an instance id: it contains ' '. Use letters, digits, '-', '_' or '.'.")
    #expect(
      refusal { try app.remove(from: "home/tallies", id: "z") }
        == .noSuchID(collection: "home/tallies", id: "z", ids: ["a", "b"]))
    #expect(
      errorMessage { try app.remove(from: "home/tallies", id: "z") }
        == "'home/tallies' has no 'z'. Did you mean 'a'? It has: a, b.")
    #expect(
      errorMessage { try app.add(to: "home/tallies", id: "c", state: [0xFF]) }.contains(
        "cannot restore state"))
    #expect(try app.stateValue() == before)
    #expect(app.paths == ["home", "home/tallies#a", "home/tallies#b"])
  }

  @Test func aCollectionUnderAScreenNeedsItsScreenLive() throws {
    let app = try makeFullDemoApp()
    try app.follow(route: "/echo")
    #expect(
      refusal { try app.add(to: "nowhere/tallies", id: "c") }
        == .collectionParentNotLive(path: "nowhere/tallies", parent: "home"))
    #expect(
      errorMessage { try app.add(to: "nowhere/tallies", id: "c") }
        == "'nowhere/tallies': its parent 'home' is not live; navigate to it first.")
  }
}

final class LockedBox<Value>: @unchecked Sendable {
  private let lock = NSLock()
  private var stored: Value
  init(_ value: Value) { self.stored = value }
  var value: Value { self.lock.withLock { self.stored } }
  func mutate(_ body: (inout Value) -> Void) { self.lock.withLock { body(&self.stored) } }
}
