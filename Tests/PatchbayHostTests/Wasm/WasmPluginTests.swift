import Foundation
import PatchbayEncoding
import PatchbayHost
import Testing

/// WebAssembly plugins in an app: the bundled Echo built as wasm keeps the state the native
/// build keeps, swaps to and from it, and a hostile module is named and contained while the
/// app goes on with its state.
@Suite struct WasmPluginTests {
  static let echo = "dev.patchbay.echo"
  static let hostile = "dev.patchbay.hostile"

  /// An app of one feature, `id`, from the plugin `load`.
  static func app(_ load: String, id: String, limits: String = "") throws -> AppRuntime {
    try makeApp(
      toml: """
        [app]
        root = "it"
        [plugins]
        load = ["\(load)"]
        \(limits)
        [[feature]]
        key = "it"
        id = "\(id)"
        """)
  }

  static let said = [
    "say(text: \"hello\")", "say(text: \"\")", "say(text: \"tab\\there, é, 𝄞\")",
    "say(text: \"last\")",
  ]

  @Test func echoBuiltAsWebAssemblyKeepsTheStateItsNativeBuildKeeps() throws {
    let native = try Self.app("Echo", id: Self.echo)
    let wasm = try Self.app(try WasmFixtures.bundled("Echo", source: "echo.c"), id: Self.echo)
    for action in Self.said {
      try native.send("it", action)
      try wasm.send("it", action)
      #expect(try wasm.stateHash() == native.stateHash(), "after \(action)")
    }
    #expect(try wasm.state("it")[field: "count"] == .int(4))
    #expect(try wasm.state("it")[field: "message"] == .string("last"))
    #expect {
      try wasm.send("it", "shout(text: \"no\")")
    } throws: { "\($0)".contains("unknown action 'shout'") }
    #expect(try wasm.stateHash() == native.stateHash())
  }

  /// Native to wasm and back, the state kept each way.
  @Test func aSwapBetweenNativeAndWebAssemblyKeepsTheState() throws {
    let wasm = try WasmFixtures.bundled("Echo", source: "echo.c")
    let app = try Self.app("Echo", id: Self.echo)
    try app.send("it", "say(text: \"before\")")
    try app.swap(Self.echo, to: wasm)
    #expect(try app.state("it")[field: "message"] == .string("before"))
    try app.send("it", "say(text: \"in wasm\")")
    #expect(try app.state("it")[field: "count"] == .int(2))
    try app.swap(Self.echo, to: try BuiltPlugins.path("Echo"))
    #expect(try app.state("it")[field: "message"] == .string("in wasm"))
    #expect(try app.state("it")[field: "count"] == .int(2))
  }

  /// Each hostile action fails with one line naming what it did, and the count the app had
  /// before it is the count after: the instance is rebuilt from before the call, and the
  /// timers the call asked for are stopped.
  @Test(arguments: [
    ("spin", "ran out of fuel"),
    ("bumpThenSpin", "ran out of fuel"),
    ("grow", "after its memory reached the limit of 4 MiB"),
    ("readFar", "out of bounds memory access"),
    ("badPointer", "called the host's send with 2147483647 bytes at 16"),
    ("floodTimers", "asked the host for more than 1024 timers at once (send_after)"),
  ])
  func aHostileCallIsNamedAndTheAppGoesOn(action: String, named: String) throws {
    let app = try Self.app(
      try WasmFixtures.fixture("hostile"), id: Self.hostile,
      limits: "[limits]\nwasm-fuel = 2000000\nwasm-memory-mb = 4")
    for _ in 0..<3 { try app.send("it", "bump") }
    #expect {
      try app.send("it", action)
    } throws: { error in
      "\(error)".contains(named) && "\(error)".contains("dev.patchbay.hostile")
        && !"\(error)".contains("\n")
    }
    #expect(try app.state("it")[field: "count"] == .int(3))
    #expect(try app.instance("it").isQuiet)  // nothing the failed call started runs on
    #expect(try app.instance("it").crashes == 1)  // what validate fails a test on
    try app.send("it", "bump")
    #expect(try app.state("it")[field: "count"] == .int(4))
    #expect(try app.instance("it").crashes == 1)
  }

  /// Past a checkpoint (one every 64 actions), a trap goes on from the checkpoint with the
  /// actions since reduced again: 100 bumps, a spin, and the count is 100, then 101.
  @Test func aTrapPastACheckpointKeepsEveryActionBeforeIt() throws {
    let app = try Self.app(
      try WasmFixtures.fixture("hostile"), id: Self.hostile, limits: "[limits]\nwasm-fuel = 2000000"
    )
    for _ in 0..<100 { try app.send("it", "bump") }
    #expect(throws: (any Error).self) { try app.send("it", "spin") }
    #expect(try app.state("it")[field: "count"] == .int(100))
    try app.send("it", "bump")
    #expect(try app.state("it")[field: "count"] == .int(101))
  }

  /// What a wasm plugin prints to stdout and logs through its host reaches the app's log.
  @Test func whatAPluginPrintsAndLogsReachesTheLog() throws {
    let app = try Self.app(try WasmFixtures.fixture("hostile"), id: Self.hostile)
    let logs = LogLines()
    app.onLog { _, _, line in logs.append(line) }
    try app.send("it", "bump")
    try app.send("it", "talk")
    #expect(logs.lines.contains("printed by a wasm plugin, count 1"), "\(logs.lines)")
    #expect(logs.lines.contains("logged by a wasm plugin"), "\(logs.lines)")
  }

  /// A trap soon after a swap rolls the swap back, as an isolated plugin's crash does: the
  /// earlier build runs on, with the state from before the failed action.
  @Test func aTrapSoonAfterASwapRollsBack() throws {
    let first = try WasmFixtures.fixture("hostile")
    let next = WasmFixtures.folder.appendingPathComponent("HostileRebuilt.wasm").path
    try? FileManager.default.removeItem(atPath: next)
    try FileManager.default.copyItem(atPath: first, toPath: next)
    let app = try Self.app(first, id: Self.hostile, limits: "[limits]\nwasm-fuel = 2000000")
    try app.send("it", "bump")
    try app.swap(Self.hostile, to: next)
    #expect(app.registry[Self.hostile]!.plugin.path == next)
    #expect {
      try app.send("it", "spin")
    } throws: { error in
      "\(error)".contains("ran out of fuel") && "\(error)".contains("Rolled back to \(first)")
    }
    #expect(app.registry[Self.hostile]!.plugin.path == first)
    try app.send("it", "bump")
    #expect(try app.state("it")[field: "count"] == .int(2))
  }

  /// What a wasm plugin cannot have yet is refused at load, in one line naming it: a processor
  /// (the interpreter allocates on every call). A file that is not a module is named too.
  @Test func whatAWebAssemblyPluginCannotBeIsRefusedInOneLine() throws {
    let refusals: [(file: String, id: String, says: String)] = [
      (
        try WasmFixtures.fixture("sounding"), Self.hostile,
        "feature 'dev.patchbay.hostile' has a processor, which a WebAssembly plugin cannot have "
          + "yet: the interpreter allocates on every call"
      )
    ]
    for refusal in refusals {
      #expect {
        _ = try Self.app(refusal.file, id: refusal.id)
      } throws: { error in
        // Its line, of the config's errors (the feature its plugin would declare is the next).
        "\(error)".split(separator: "\n").first?.contains("\(refusal.file): \(refusal.says)")
          == true
      }
    }
    let notAModule = WasmFixtures.folder.appendingPathComponent("Truncated.wasm").path
    let echo = try Data(
      contentsOf: URL(fileURLWithPath: try WasmFixtures.bundled("Echo", source: "echo.c")))
    try echo.prefix(100).write(to: URL(fileURLWithPath: notAModule))
    #expect {
      _ = try Self.app(notAModule, id: Self.echo)
    } throws: { "\($0)".contains("\(notAModule): is not a WebAssembly module WasmKit can read") }
  }

  /// A module that imports what the host does not give is refused at load, naming the import.
  @Test func anUngrantedImportIsRefusedAtLoadNamingIt() throws {
    let ungranted = try WasmFixtures.fixture("ungranted")
    #expect {
      _ = try Self.app(ungranted, id: "dev.patchbay.ungranted")
    } throws: { error in
      "\(error)".contains("imports env.open_socket, which this host does not give a plugin")
    }
  }
}
