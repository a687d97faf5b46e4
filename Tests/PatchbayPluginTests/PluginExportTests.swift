import Testing

@testable import PatchbayHost
@testable import PatchbayLoader
@testable import PatchbayPlugin

/// A feature whose state changed shape: schema 1 was `{value}`, schema 2 is `{amount, unit}`.
/// Its actions are listed by hand, the old shape (docs/MIGRATING.md): it still compiles, with a
/// deprecation warning this declaration silences, and exports the same descriptor.
struct Versioned: PluginFeature {
  static let id = "dev.patchbay.test.versioned"
  static let name = "Versioned"
  static let schemaVersion: UInt32 = 2
  static let migrates = true
  @available(*, deprecated, message: "the old shape, kept to show it still works")
  static let actions: [ActionSchema] = [.init("add", ["amount": .int])]
  static var initialState: State { State() }

  struct State: Codable, Equatable { var amount = 0; var unit = "steps" }
  enum Action: Codable, Equatable { case add(amount: Int) }

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    if case .add(let amount) = action { state.amount += amount }
    return .none
  }

  static func migrate(from schemaVersion: UInt32, _ state: WireValue) throws -> WireValue {
    guard schemaVersion == 1, case .int(let value)? = state[field: "value"] else {
      throw PluginFeatureError(
        "dev.patchbay.test.versioned: cannot migrate from schema \(schemaVersion)")
    }
    return .record(fields: ("amount", .int(value)), ("unit", "steps"))
  }
}

/// A feature that uses every default: JSON render, schema 1, no migrate.
@Feature
struct Plain: PluginFeature {
  static let id = "dev.patchbay.test.plain"
  static let name = "Plain"
  static var initialState: State { State() }
  struct State: Codable, Equatable { var on = false }
  enum Action: Codable, Equatable { case toggle }
  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    state.on.toggle()
    return .none
  }
}

@Suite struct PluginExportTests {
  /// The descriptor the SDK builds, read back by the host's validator, in process.
  func load() throws -> LoadedPlugin {
    let descriptor = DescriptorBuilder.plugin(
      id: "dev.patchbay.test-plugin", name: "Test", version: "2.1.0",
      drivers: [.feature(Versioned.self), .feature(Plain.self)]
    )
    return try PluginLoader.validate(
      UnsafeRawPointer(descriptor), file: "in-process", generation: 1)
  }

  @Test func descriptorCarriesIDsVersionsAndActionSchemas() throws {
    let plugin = try self.load()
    #expect(plugin.id == "dev.patchbay.test-plugin")
    #expect(plugin.version == "2.1.0")
    #expect(plugin.abiMajor == 2)
    #expect(
      plugin.features.map(\.id) == ["dev.patchbay.test.versioned", "dev.patchbay.test.plain"])
    #expect(plugin.features[0].schemaVersion == 2)
    #expect(plugin.features[0].migrates)
    #expect(!plugin.features[1].migrates)
    #expect(plugin.features[0].actions.map(\.signature) == ["add(amount: int)"])
  }

  @Test func defaultRenderIsPrettyJSON() throws {
    let plain = try FeatureHandle(feature: try self.load().features[1])
    try plain.send(text: "toggle")
    #expect(try plain.render() == "{\n  \"on\": true\n}")
  }

  @Test func migrateTurnsOldSnapshotsIntoTheCurrentSchema() throws {
    let versioned = try self.load().features[0]
    let old = WireValue.record(fields: ("value", 41)).bytes
    let migrated = try versioned.migrate(from: 1, state: old)
    let handle = try FeatureHandle(feature: versioned, restoring: migrated)
    try handle.send(text: "add(amount: 1)")
    #expect(try handle.stateJSON() == #"{"amount":42,"unit":"steps"}"#)
  }

  @Test func migrateRefusalsAreClearErrors() throws {
    let plugin = try self.load()
    #expect(
      errorMessage {
        _ = try plugin.features[0].migrate(
          from: 7, state: WireValue.record(fields: ("value", 1)).bytes)
      }
        == "dev.patchbay.test.versioned: migrate failed: dev.patchbay.test.versioned: cannot migrate from schema 7"
    )
    #expect(
      errorMessage { _ = try plugin.features[0].migrate(from: 1, state: [0x00]) }.contains(
        "migrate failed: dev.patchbay.test.versioned: migrating from schema 1 failed: byte 0: unknown value tag 0x0"
      ))
    #expect(
      errorMessage { _ = try plugin.features[1].migrate(from: 1, state: []) }
        == "dev.patchbay.test.plain: migrate failed: the feature has no migrate function, so it cannot restore state of schema 1 into schema 1"
    )
  }
}

func errorMessage(_ body: () throws -> Void) -> String {
  do {
    try body()
    return "(no error)"
  } catch {
    return "\(error)"
  }
}
