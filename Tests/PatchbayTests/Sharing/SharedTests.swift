import Foundation
import Patchbay
import PatchbayTesting
import Testing

/// A counter whose count is shared in memory by every counter of the app.
@Reducer
private struct SharedCounter {
  @ObservableState
  struct State: Equatable {
    @Shared(.inMemory("count")) var count = 0
  }
  enum Action { case increment }
  var body: some Reducer<State, Action> {
    Reduce { state, action in
      state.$count.withLock { $0 += 1 }
      return .none
    }
  }
}

/// A counter whose effect changes the shared count a second later, then says so.
@Reducer
private struct LateCounter {
  @ObservableState
  struct State: Equatable {
    @Shared(.inMemory("count")) var count = 0
  }
  enum Action { case incrementLater, incremented }
  @Dependency(\.continuousClock) var clock
  var body: some Reducer<State, Action> {
    Reduce { state, action in
      switch action {
      case .incrementLater:
        return .run { [count = state.$count, clock] send in
          try? await clock.sleep(for: .seconds(1))
          count.withLock { $0 += 1 }
          await send(.incremented)
        }
      case .incremented:
        return .none
      }
    }
  }
}

/// Two counters of one app, and a settings value whose part a child shares by projection.
@Reducer
private struct Pair {
  @ObservableState
  struct State: Equatable {
    var first = SharedCounter.State()
    var second = SharedCounter.State()
    @Shared(value: Settings()) var settings: Settings
    @SharedReader(.inMemory("count")) var seen = 0
  }
  struct Settings: Equatable {
    var volume = 5
    var muted = false
  }
  enum Action {
    case first(SharedCounter.Action)
    case second(SharedCounter.Action)
    case louder
  }
  var body: some Reducer<State, Action> {
    Scope(state: \.first, action: \.first) { SharedCounter() }
    Scope(state: \.second, action: \.second) { SharedCounter() }
    Reduce { state, action in
      if case .louder = action {
        let volume = Shared(state.$settings.volume)
        volume.withLock { $0 += 1 }
      }
      return .none
    }
  }
}

@MainActor
@Suite struct SharedTests {
  @Test func aChangeIsSeenByEveryHolderAndAssertedOnce() async {
    let store = TestStore(initialState: Pair.State()) { Pair() }
    await store.send(\.first.increment) {
      $0.first.$count.withLock { $0 = 1 }  // the second counter and the reader hold it too
    }
    #expect(store.state.second.count == 1)
    #expect(store.state.seen == 1)
    await store.send(\.second.increment) {
      $0.second.$count.withLock { $0 = 2 }
    }
  }

  @Test func anUnassertedChangeFailsWithTheValueBeforeAndAfter() async {
    let store = TestStore(initialState: Pair.State()) { Pair() }
    await withKnownIssue {
      await store.send(\.first.increment)
    } matching: { issue in
      "\(issue)".contains("A state change does not match expectation")
        && "\(issue)".contains("− ") && "\(issue)".contains("+ ")
    }
  }

  @Test func aWrongAssertionFails() async {
    let store = TestStore(initialState: Pair.State()) { Pair() }
    await withKnownIssue {
      await store.send(\.first.increment) {
        $0.first.$count.withLock { $0 = 5 }
      }
    }
  }

  @Test func aPartOfASharedValueIsSharedToo() async {
    let store = TestStore(initialState: Pair.State()) { Pair() }
    await store.send(.louder) {
      $0.$settings.withLock { $0.volume = 6 }
    }
    #expect(store.state.settings == Pair.Settings(volume: 6, muted: false))
  }

  /// Each test has its own in-memory values: this one and the first both start at 0.
  @Test func eachTestStartsFromTheDefault() async {
    let store = TestStore(initialState: SharedCounter.State()) { SharedCounter() }
    #expect(store.state.count == 0)
    await store.send(.increment) { $0.$count.withLock { $0 = 1 } }
  }

  /// An effect's change is asserted at the first check after it: here, the action the
  /// effect sent next. (A change an effect makes before it first suspends is asserted with
  /// the action that started it.)
  @Test func anEffectsChangeIsAssertedWhenItsActionIsReceived() async {
    let clock = TestClock()
    let store = TestStore(initialState: LateCounter.State()) {
      LateCounter()
    } withDependencies: {
      $0.continuousClock = clock
    }
    await store.send(.incrementLater)
    await clock.advance(by: .seconds(1))
    await store.receive(\.incremented) { $0.$count.withLock { $0 = 1 } }
  }

  @Test func anEffectsUnassertedChangeFails() async {
    let clock = TestClock()
    let store = TestStore(initialState: LateCounter.State()) {
      LateCounter()
    } withDependencies: {
      $0.continuousClock = clock
    }
    await store.send(.incrementLater)
    await clock.advance(by: .seconds(1))
    await withKnownIssue {
      await store.receive(\.incremented)
    }
  }

  /// A key with a default needs none at the declaration; every holder shares one value.
  @Test func aKeyWithADefaultGivesIt() {
    @Shared(.tempo) var tempo
    @SharedReader(.tempo) var reader
    #expect(tempo == 120)
    $tempo.withLock { $0 = 90 }
    #expect(reader == 90)
  }

  @Test func outsideATestStoreAChangeIsPlain() {
    let shared = Shared(value: [1, 2])
    let copy = Shared(shared)
    copy.withLock { $0.append(3) }
    #expect(shared.wrappedValue == [1, 2, 3])
    #expect(shared == copy)
  }
}

/// Settings kept in a file: the app's next run starts from what the last one left.
@Reducer
private struct Preferences {
  @ObservableState
  struct State: Equatable {
    @Shared var settings: Settings
    init(file: URL) {
      self._settings = Shared(wrappedValue: Settings(), .fileStorage(file))
    }
  }
  struct Settings: Codable, Equatable, Sendable {
    var theme = "dark"
    var fontSize = 12
  }
  enum Action { case bigger }
  var body: some Reducer<State, Action> {
    Reduce { state, _ in
      state.$settings.withLock { $0.fontSize += 1 }
      return .none
    }
  }
}

@MainActor
@Suite struct FileStorageTests {
  let folder = FileManager.default.temporaryDirectory
    .appendingPathComponent("patchbay-shared-\(UUID().uuidString)")
  var file: URL { self.folder.appendingPathComponent("settings.json") }

  @Test func aValueIsKeptAcrossARestartOfTheApp() async throws {
    defer { try? FileManager.default.removeItem(at: self.folder) }
    let store = TestStore(initialState: Preferences.State(file: self.file)) { Preferences() }
    await store.send(.bigger) { $0.$settings.withLock { $0.fontSize = 13 } }

    // A restart: a new storage, which reads the file.
    let restarted = withDependencies {
      $0.defaultFileStorage = FileStorage()
    } operation: {
      Preferences.State(file: self.file)
    }
    #expect(restarted.settings == Preferences.Settings(theme: "dark", fontSize: 13))
    let json = try String(contentsOf: self.file, encoding: .utf8)
    #expect(json.contains("\"fontSize\" : 13"), "\(json)")
  }

  @Test func aFileThatDoesNotDecodeIsNamedAndTheDefaultUsed() throws {
    defer { try? FileManager.default.removeItem(at: self.folder) }
    try FileManager.default.createDirectory(at: self.folder, withIntermediateDirectories: true)
    let file = self.file
    try Data("{ not json".utf8).write(to: file)
    withKnownIssue {
      let state = Preferences.State(file: file)
      #expect(state.settings == Preferences.Settings())
    } matching: { issue in
      "\(issue)".contains(file.path) && "\(issue)".contains("Fix or delete the file")
    }
  }
}

extension SharedKey where Self == InMemoryKey<Int>.Default {
  fileprivate static var tempo: Self { Self[.inMemory("tempo"), default: 120] }
}
