import Foundation
import PatchbayConfig
import PatchbayEncoding
import PatchbayHost
import Testing

/// A state read by the next build of its `State` after an edit, with no `migrate` (docs/SWAP.md,
/// "State across a swap"). Each build is a real plugin generation (Plugins/Fixtures/Numbered/
/// Evolve.swift) swapped into a running app whose state was filled with values of its own.
@Suite struct StateAcrossSwapTests {
  /// What the app's state is after a swap to `lib<build>.so`, or why the swap was refused;
  /// and what the app logged.
  func swap(to build: String) throws -> (Result<WireValue, AppError>, [String]) {
    let folder = FileManager.default.temporaryDirectory
      .appendingPathComponent("patchbay-evolve-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: folder) }
    let first = try Self.copy("Evolve", into: folder.appendingPathComponent("a"))
    let app = try makeApp(
      toml: AppConfig.oneFeature("dev.patchbay.fixture.evolve", of: first, key: "timer"))
    let logs = LogLines()
    app.onLog { _, _, line in logs.append(line) }
    try app.send("timer", "fill")
    let next = try Self.copy(build, into: folder.appendingPathComponent("b"))
    do {
      try app.swap("timer", to: next)
      return (.success(try app.state("timer")), logs.lines)
    } catch {
      #expect(try app.state("timer")[field: "label"] == "scales")  // the old build goes on
      return (.failure(error), logs.lines)
    }
  }

  /// Why the swap to `lib<build>.so` was refused; records an issue when it went through.
  func refusal(_ build: String) throws -> String {
    guard case .failure(let error) = try self.swap(to: build).0 else {
      Issue.record("the swap to \(build) went through")
      return ""
    }
    return error.description
  }

  static func copy(_ build: String, into folder: URL) throws -> String {
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let path = folder.appendingPathComponent("lib\(build).so").path
    try BuiltPlugins.copy("TestFixtureNumbered", to: path)
    return path
  }

  /// The filled state, as every kept build must show it (before its own edit).
  static let filled: [String: WireValue] = [
    "seconds": 90, "label": "scales", "mode": "rest", "timer": .record(fields: ("ticks", 7)),
    "laps": .list([.record(fields: ("number", 1)), .record(fields: ("number", 2))]),
    "note": "slow",
  ]

  /// Each edit that keeps the state: the build, and what differs from ``filled``.
  static let kept: [(String, [String: WireValue?])] = [
    ("EvolveAdded", ["goal": 10]),
    ("EvolveRemoved", ["note": nil]),
    ("EvolveReordered", [:]),
    ("EvolveOptional", [:]),
    ("EvolveWidened", ["seconds": 90.0]),
    ("EvolveCaseAdded", [:]),
    ("EvolveNestedAdded", ["timer": .record(fields: ("ticks", 7), ("lap", 1))]),
    ("EvolveRenamedMarked", ["label": nil, "title": "scales"]),
    (
      "EvolveElementAdded",
      [
        "laps": .list([
          .record(fields: ("number", 1), ("split", 0)),
          .record(fields: ("number", 2), ("split", 0)),
        ])
      ]
    ),
    ("EvolveInt64", [:]),
    ("EvolveOptionalAdded", [:]),  // coach: nil, which the encoding leaves out
    ("EvolveEnumFieldAdded", ["level": "easy"]),
  ]

  @Test(arguments: kept.map(\.0))
  func anEditThatKeepsTheState(_ build: String) throws {
    let (result, logs) = try self.swap(to: build)
    let state = try result.get()
    var expected = Self.filled
    for (name, value) in Self.kept.first(where: { $0.0 == build })!.1 {
      expected[name] = value
    }
    guard case .record(let fields) = state else {
      Issue.record("\(build): the state is not a record: \(state)")
      return
    }
    #expect(
      Dictionary(uniqueKeysWithValues: fields.map { ($0.name, $0.value) })
        == expected.compactMapValues { $0 }, "\(build)")
    // Said once, when the build added or dropped something.
    let notes = logs.filter { $0.contains("the state was read into this build's State") }
    switch build {
    case "EvolveAdded":
      #expect(notes.count == 1 && notes[0].contains("'goal' took the start value"))
    case "EvolveRemoved":
      #expect(notes.count == 1 && notes[0].contains("'note', no longer in State, dropped"))
    case "EvolveNestedAdded":
      #expect(notes.count == 1 && notes[0].contains("'timer.lap' took the start value"))
    case "EvolveEnumFieldAdded":
      #expect(notes.count == 1 && notes[0].contains("'level' took the start value"), "\(notes)")
    case "EvolveRenamedMarked":
      #expect(notes.count == 1 && notes[0].contains("renamed 'label' → 'title'"), "\(notes)")
    default: #expect(notes.isEmpty, "\(build): \(notes)")
    }
  }

  @Test func aFieldWhoseTypeChangedIsRefusedNamingIt() throws {
    let error = try self.refusal("EvolveRetyped")
    #expect(
      error.contains("field 'label': expected an int, found a string"), "\(error)")
    #expect(error.contains("bump schemaVersion and migrate"), "\(error)")
  }

  @Test func aCaseTheStateHoldsCannotBeRemoved() throws {
    let error = try self.refusal("EvolveCaseRemoved")
    #expect(
      error.contains(
        "field 'mode': Cannot initialize Mode from invalid String value rest"), "\(error)")
  }

  @Test func aRenameWithoutAMarkIsRefusedSayingHowToMarkIt() throws {
    let error = try self.refusal("EvolveRenamed")
    #expect(
      error.contains(
        "field 'label' is not in this State, and 'title', a string too, is missing: if 'title' "
          + "is 'label' renamed, mark it (static let renamedStateFields = [\"title\": \"label\"]"),
      "\(error)")
  }
}
