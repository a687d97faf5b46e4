import Foundation
import PatchbayAudioGraph
import PatchbayEncoding
import PatchbayHost
import PatchbayMIDI
import Testing

/// The services a WebAssembly plugin may be granted (docs/WASM.md, "Services"): the Wired
/// fixture (`Fixtures/wired.c`) hears MIDI, navigates, reads the native Metronome's transport
/// and holds "tally" with a native `@Shared` holder, and reads the clock, each as a native
/// plugin does. A module imports only the services its source names, and an app's config must
/// grant each one in `[sandbox]`.
@Suite struct WasmServicesTests {
  static let wired = "dev.patchbay.wired"

  /// The Metronome (native) at the root, the Wired fixture under it, and the native Echo on
  /// the Wired's stack; `grants`, Wired's line in `[sandbox]` (none without).
  static func app(grants: String? = "[\"midi\", \"navigation\", \"shared\"]") throws -> AppRuntime {
    let wired = try WasmFixtures.fixture("wired")
    return try makeApp(
      toml: """
        [app]
        root = "metronome"
        [plugins]
        load = ["Metronome", "Echo", "\(wired)"]
        \(grants.map { "[sandbox]\n\"\(wired)\" = \($0)" } ?? "")
        [limits]
        wasm-fuel = 5000000
        [[feature]]
        key = "metronome"
        id = "dev.patchbay.metronome"
        [[feature]]
        key = "wired"
        id = "\(Self.wired)"
        parent = "metronome"
        [[feature]]
        key = "echo"
        id = "dev.patchbay.echo"
        parent = "wired"
        kind = "stack"
        """)
  }

  /// MIDI on the channel it listens to reaches it as an action, and other channels do not.
  @Test func aGrantedModuleHearsMIDIOnItsChannel() throws {
    let app = try Self.app()
    app.receive(MIDIEvent(.noteOn, channel: 0, 60, 100))
    app.receive(MIDIEvent(.noteOn, channel: 3, 62, 100))  // channel 4: not listened to
    app.receive(MIDIEvent(.noteOff, channel: 0, 60, 0))
    app.perform {}
    #expect(try app.state("wired")[field: "midi"] == .int(2))
  }

  /// It reads the native Metronome's transport when created and after each change, as the
  /// native Drums do.
  @Test func aGrantedModuleReadsSharedStateANativePluginPublishes() throws {
    let app = try Self.app()
    #expect(try app.state("wired")[field: "transports"] == .int(1))
    #expect(try app.state("wired")[field: "tempo"] == .double(120))
    try app.send("metronome", "setTempo(bpm: 90.0)")
    #expect(try app.state("wired")[field: "transports"] == .int(2))
    #expect(try app.state("wired")[field: "tempo"] == .double(90))
  }

  /// It asks the app to push and pop, and the app does, after the action.
  @Test func aGrantedModuleNavigates() throws {
    let app = try Self.app()
    try app.send("wired", "push(node: \"echo\")")
    try app.send("echo", "say(text: \"pushed by wasm\")")
    #expect(try app.state("echo")[field: "message"] == .string("pushed by wasm"))
    try app.send("wired", "pop")
    #expect(throws: (any Error).self) { try app.state("echo") }
  }

  /// A feature in Embedded Swift navigates with `Effect.navigate`, granted "navigation"; the
  /// Swift Counter, which does not navigate, loads with no grant at all (it has no such import).
  @Test func aSwiftModuleNavigatesWithEffectNavigate() throws {
    let pager = try WasmFixtures.swiftFixture("Pager")
    let app = try makeApp(
      toml: """
        [app]
        root = "pager"
        [plugins]
        load = ["\(pager)", "Echo"]
        [sandbox]
        "\(pager)" = ["navigation"]
        [[feature]]
        key = "pager"
        id = "dev.patchbay.pager"
        [[feature]]
        key = "page"
        id = "dev.patchbay.echo"
        parent = "pager"
        kind = "stack"
        """)
    try app.send("pager", "open")
    try app.send("page", "say(text: \"pushed from Swift\")")
    #expect(try app.state("page")[field: "message"] == .string("pushed from Swift"))
    try app.send("pager", "close")
    #expect(throws: (any Error).self) { try app.state("page") }
    #expect(try app.state("pager")[field: "opened"] == .int(1))
    let counter = try WasmPluginTests.app(
      try WasmFixtures.swift("Counter"), id: "dev.patchbay.counter")
    try counter.send("it", "increment")
  }

  /// The Listener fixture (Embedded Swift) under the Metronome, beside the native Theory;
  /// `grants`, its line in `[sandbox]`.
  static func listener(grants: String = "[\"functions\", \"midi\", \"shared\"]") throws
    -> AppRuntime
  {
    let listener = try WasmFixtures.swiftFixture("Listener")
    return try makeApp(
      toml: """
        [app]
        root = "metronome"
        [plugins]
        load = ["Metronome", "Theory", "\(listener)"]
        [sandbox]
        "\(listener)" = \(grants)
        [[feature]]
        key = "metronome"
        id = "dev.patchbay.metronome"
        [[feature]]
        key = "listener"
        id = "dev.patchbay.listener"
        parent = "metronome"
        """)
  }

  /// A feature in Embedded Swift declares what a native Swift one does: `midiChannels`, whose
  /// messages come as `midi(MIDIMessage)`; `subscriptions`, whose values come as actions;
  /// `shared(_:)`, published after each action that changed it; and `imports`, called in its
  /// reducer through `ImportedFunctions.current`.
  @Test func aSwiftModuleHearsMIDIReadsAndPublishesSharedStateAndCallsFunctions() throws {
    let app = try Self.listener()
    app.receive(MIDIEvent(.noteOn, channel: 0, 64, 100))
    app.receive(MIDIEvent(.noteOn, channel: 3, 62, 100))  // channel 4: not listened to
    app.receive(MIDIEvent(.noteOff, channel: 0, 64, 0))
    app.receive(MIDIEvent(.controlChange, channel: 0, 7, 100))
    app.receive(MIDIEvent(.pitchBend, channel: 0, 0x7F, 0x7F))
    app.receive(MIDIEvent(.start))
    app.perform {}
    #expect(try app.state("listener")[field: "messages"] == .int(5))
    #expect(try app.state("listener")[field: "bend"] == .int(8191))
    #expect(try app.state("listener")[field: "notes"] == .int(1))
    #expect(try app.state("listener")[field: "lastNote"] == .int(64))
    #expect(app.sharedState()["heard"]?.value == "1")
    #expect(app.sharedState()["heard"]?.owner.contains("listener") == true)
    #expect(try app.state("listener")[field: "tempo"] == .double(120))
    try app.send("metronome", "setTempo(bpm: 90.0)")
    #expect(try app.state("listener")[field: "tempo"] == .double(90))
    try app.send("listener", "tune(note: 81)")
    #expect(try app.state("listener")[field: "frequency"] == .double(880))
    try app.swap("Theory", to: try WasmFixtures.bundled("Theory", source: "theory.c"))
    try app.send("listener", "tune(note: 57)")
    #expect(try app.state("listener")[field: "frequency"] == .double(220))
  }

  /// `@Shared(.inMemory("tally"))` in its state holds the name with a native holder of it: each
  /// hears the other's writes, the reducer never sees the host's `_shared`, the snapshot keeps
  /// the key as the native SDK writes it, and a swap keeps the value.
  @Test func aSwiftModulesSharedFieldIsHeldWithANativeHolder() throws {
    let folder = FileManager.default.temporaryDirectory
      .appendingPathComponent("patchbay-wasm-held-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: folder) }
    let listener = try WasmFixtures.swiftFixture("Listener")
    let app = try Self.besideANativeHolder(
      listener, key: "listener", id: "dev.patchbay.listener", also: "Theory",
      grants: #"["functions", "midi", "shared"]"#, in: folder)
    func tally(_ key: String) throws -> WireValue? {
      try app.state(key)[field: "tally"]?[field: "value"]
    }
    try app.send("left", "set(41)")
    #expect(try tally("listener") == .int(41))
    try app.send("listener", "count")
    #expect(try tally("left") == .int(42))
    #expect(try app.state("listener")[field: "tally"]?[field: "inMemory"] == .string("tally"))
    let copy = listener.replacingOccurrences(of: ".wasm", with: "Held.wasm")
    try? FileManager.default.removeItem(atPath: copy)
    try FileManager.default.copyItem(atPath: listener, toPath: copy)
    try app.swap("dev.patchbay.listener", to: copy)
    try app.send("listener", "count")
    #expect(try tally("left") == .int(43))
    #expect(try tally("listener") == .int(43))
    // A `_shared` of another type, or of a name it does not hold: named, the field kept.
    let handle = try app.instance("listener")
    func shared(_ name: String, _ value: WireValue) -> [UInt8] {
      WireValue.case("_shared", [.init("name", .string(name)), .init("value", value)]).bytes
    }
    handle.send(shared("tally", .string("many")))
    handle.send(shared("score", .int(1)))
    app.perform {}
    #expect(try tally("listener") == .int(43))
    let failures = handle.failures.joined(separator: "\n")
    #expect(failures.contains("the shared value 'tally' does not read as this build's field"))
    #expect(failures.contains("_shared names 'score', none of the state's @Shared values (tally)"))
  }

  /// Its module imports exactly the services its source declares: without "functions" the load
  /// is refused, naming it; navigation, which it never asks for, needs no grant.
  @Test func aSwiftModuleImportsExactlyTheServicesItDeclares() throws {
    #expect {
      _ = try Self.listener(grants: "[\"midi\", \"shared\"]")
    } throws: { error in
      "\(error)".contains("imports patchbay.resolve, the \"functions\" service")
    }
    #expect {
      _ = try Self.listener(grants: "[\"functions\", \"shared\"]")
    } throws: { error in
      "\(error)".contains("the \"midi\" service")
    }
    _ = try Self.listener()
  }

  /// The clock (which no grant names: every plugin has it) goes forward between create and a
  /// later action.
  @Test func theClockGoesForward() throws {
    let app = try Self.app()
    try app.send("wired", "tick")
    #expect(try app.state("wired")[field: "clock"] == .bool(true))
  }

  /// The native fixture SharedLeft (`@Shared(.inMemory("tally"))`, copied into `folder`) at the
  /// root, `module` under it as `key` with `[sandbox]` `grants`, and `also` loaded beside them.
  static func besideANativeHolder(
    _ module: String, key: String, id: String, also: String, grants: String, in folder: URL
  ) throws -> AppRuntime {
    let left = try SharedBetweenPluginsTests.TwoHolders.copy("SharedLeft", in: folder, folder: "a")
    return try makeApp(
      toml: """
        [app]
        root = "left"
        [plugins]
        load = ["\(left)", "\(also)", "\(module)"]
        [sandbox]
        "\(module)" = \(grants)
        [[feature]]
        key = "left"
        id = "dev.patchbay.fixture.sharedleft"
        [[feature]]
        key = "\(key)"
        id = "\(id)"
        parent = "left"
        """)
  }

  /// Held with a native `@Shared(.inMemory("tally"))` holder: each hears the other's writes.
  @Test func aGrantedModuleHoldsSharedStateWithANativeHolder() throws {
    let folder = FileManager.default.temporaryDirectory
      .appendingPathComponent("patchbay-wasm-shared-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: folder) }
    let app = try Self.besideANativeHolder(
      try WasmFixtures.fixture("wired"), key: "wired", id: Self.wired, also: "Metronome",
      grants: #"["midi", "navigation", "shared"]"#, in: folder)
    // The name has the native holder's value (0) already: the wasm holder is told it.
    try app.send("wired", "hold(initial: 5)")
    #expect(try app.state("wired")[field: "tally"] == .int(0))
    try app.send("left", "increment")
    #expect(try app.state("wired")[field: "tally"] == .int(1))
    #expect(try app.state("wired")[field: "told"] == .int(2))
    try app.send("wired", "write(value: 40)")
    #expect(try app.state("left")[field: "tally"]?[field: "value"] == .int(40))
  }

  /// Without a grant the load is refused, naming the service and the line that grants it; a
  /// module that names no service (Echo) needs none.
  @Test func anUngrantedServiceIsRefusedAtLoadNamingTheLine() throws {
    let wired = try WasmFixtures.fixture("wired")
    #expect {
      _ = try Self.app(grants: "[\"midi\", \"shared\"]")
    } throws: { error in
      "\(error)".contains("imports patchbay.navigate, the \"navigation\" service")
        && "\(error)".contains(
          "add [sandbox] \"Wired.wasm\" = [\"midi\", \"navigation\", \"shared\"]")
        && "\(error)".contains(wired)
    }
    #expect(throws: (any Error).self) { _ = try Self.app(grants: nil) }
    let echo = try WasmFixtures.bundled("Echo", source: "echo.c")
    let app = try WasmPluginTests.app(echo, id: "dev.patchbay.echo")
    try app.send("it", "say(text: \"no grant needed\")")
  }

  /// A swap to a build elsewhere keeps the grants of the code it replaces, and the new code
  /// listens and subscribes again in its create.
  @Test func aSwappedBuildKeepsTheGrantsOfTheCodeItReplaces() throws {
    let app = try Self.app()
    let wired = try WasmFixtures.fixture("wired")
    let copy = wired.replacingOccurrences(of: ".wasm", with: "Swapped.wasm")
    try? FileManager.default.removeItem(atPath: copy)
    try FileManager.default.copyItem(atPath: wired, toPath: copy)
    try app.swap(Self.wired, to: copy)
    app.receive(MIDIEvent(.noteOn, channel: 0, 60, 100))
    app.perform {}
    #expect(try app.state("wired")[field: "midi"] == .int(1))
    try app.send("metronome", "setTempo(bpm: 100.0)")
    #expect(try app.state("wired")[field: "tempo"] == .double(100))
  }

  /// After a trap the instance is rebuilt from its checkpoint, and keeps its subscription
  /// (one transport, not two) and its MIDI channel. A bad pointer handed to a service traps,
  /// named, and navigates nowhere.
  @Test func aTrapKeepsTheSubscriptionsAndABadPointerIsNamed() throws {
    let app = try Self.app()
    #expect(throws: (any Error).self) { try app.send("wired", "spin") }
    #expect {
      try app.send("wired", "badNavigate")
    } throws: { error in
      "\(error)".contains("it called the host's navigate with 4096 bytes at 4294967040")
    }
    #expect(try app.state("wired")[field: "transports"] == .int(1))
    app.receive(MIDIEvent(.noteOn, channel: 0, 60, 100))
    app.perform {}
    #expect(try app.state("wired")[field: "midi"] == .int(1))
    #expect(throws: (any Error).self) { try app.state("echo") }  // navigate asked nothing
  }
}
