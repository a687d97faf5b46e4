import Foundation
import PatchbayConfig
import PatchbayEncoding
import PatchbayHost
import PatchbayLoader
import Synchronization
import Testing

/// An app whose root, `fixture`, is the fixture's "huge" feature, with `limits` in its config
/// (mode "hugesnapshots": the same without `changed_fields`).
private func hugeApp(limits: String = "", mode: String = "huge") throws -> AppRuntime {
  try fixtureApp(mode, id: "dev.patchbay.fixture-huge", tables: limits)
}

/// A plugin that writes too much state or too big a view fails that call, with a line naming
/// the limit, and keeps running with its state.
@Suite struct OutputLimitsTests {
  static let small = "[limits]\nstate-bytes = 65536\nview-bytes = 4096"

  @Test func aStateOverTheLimitFailsAndTheInstanceGoesOn() throws {
    let app = try hugeApp(limits: Self.small)
    try app.send("fixture", "grow(bytes: 100000)")
    let message = errorMessage { _ = try app.state("fixture") }
    #expect(message.contains("dev.patchbay.fixture-huge: snapshot failed"))
    #expect(
      message.contains(
        "the state is larger than the 64 KiB limit; raise [limits] state-bytes in the app's "
          + "config, or keep less in it"))
    try app.send("fixture", "touch")
    try app.send("fixture", "grow(bytes: 3)")
    #expect(try app.state("fixture") == .record(fields: ("count", 1), ("blob", "xxx")))
  }

  @Test func aViewOverTheLimitFails() throws {
    let app = try hugeApp(limits: Self.small)
    try app.send("fixture", "grow(bytes: 5000)")
    let message = errorMessage { _ = try app.renderCurrent() }
    #expect(message.contains("render failed"))
    #expect(message.contains("the view is larger than the 4 KiB limit; raise [limits] view-bytes"))
    try app.send("fixture", "grow(bytes: 4096)")
    #expect(try app.renderCurrent().count == 4096)
  }

  @Test func theStandardLimitsHold16MiBOfStateAnd1MiBOfView() throws {
    let app = try hugeApp()
    #expect(app.config.limits == OutputLimits(stateBytes: 16 << 20, viewBytes: 1 << 20))
    try app.send("fixture", "grow(bytes: 8000000)")
    #expect(try app.state("fixture")[field: "count"] == 0)
    #expect(errorMessage { _ = try app.renderCurrent() }.contains("1 MiB limit"))
    try app.send("fixture", "grow(bytes: 17000000)")
    #expect(errorMessage { _ = try app.state("fixture") }.contains("16 MiB limit"))
  }

  /// Diffs say what changed, however large the state: the 2 MB blob that stayed is passed
  /// over, and the one counter that moved is the whole diff. The same whether the plugin says
  /// which fields changed ("huge") or the host diffs two snapshots ("hugesnapshots").
  @Test(arguments: ["huge", "hugesnapshots"])
  func aDiffOfALargeStateNamesOnlyWhatChanged(_ mode: String) throws {
    let app = try hugeApp(mode: mode)
    let diffs = Mutex<[String]>([])
    app.onChange { change in
      if case .action(_, _, _, let diff?) = change { diffs.withLock { $0.append(diff) } }
    }
    app.tracksStateChanges = true
    try app.send("fixture", "grow(bytes: 2000000)")
    try app.send("fixture", "touch")
    try app.send("fixture", "touch")
    let seen = diffs.withLock { $0 }
    #expect(seen.count == 3)
    #expect(seen.first?.hasPrefix("/blob: \"\" → \"xxxx") == true)
    #expect(seen.first?.hasSuffix("…") == true)
    #expect(seen.dropFirst() == ["/count: 0 → 1", "/count: 1 → 2"])
  }

  @Test(arguments: [
    ("state-bytes = 12", "fixture.toml:9: limits.state-bytes:"),
    ("view-bytes = \"big\"", "fixture.toml:9: limits.view-bytes:"),
    ("lines = 3", "fixture.toml:9: limits.lines: unknown key"),
  ])
  func badLimitsAreConfigErrorsWithTheirLine(_ line: String, _ expected: String) {
    #expect(throws: ConfigErrors.self) { try hugeApp(limits: "[limits]\n\(line)") }
    do {
      _ = try hugeApp(limits: "[limits]\n\(line)")
    } catch {
      #expect("\(error)".contains(expected), "\(error)")
    }
  }
}
