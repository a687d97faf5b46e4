import Foundation
import PatchbayEncoding
import PatchbayHost
import PatchbayLoader
import PatchbayWasm
import Testing

/// Functions across a WebAssembly plugin's edge (patchbay/functions.h). Exported: the bundled
/// Theory built as wasm answers every call as its native build does, native features call it
/// through the pointers they resolved, across swaps either way; every C type crosses the edge;
/// a function that traps is named, returns zero, and the next call runs. Imported: a wasm
/// feature calls Theory, native or wasm, across swaps of either.
@Suite struct WasmFunctionTests {
  static let theory = "dev.patchbay.theory-plugin"

  /// A loader of `.wasm` files too, each call within `limits`.
  static func loader(_ limits: WasmLimits = WasmLimits()) -> PluginLoader {
    var loader = BuiltPlugins.loader
    WasmPlugin.install(into: &loader, limits: limits)
    return loader
  }

  /// Every function of Theory, over every MIDI note and more: the same value from both builds.
  @Test func theoryBuiltAsWebAssemblyAnswersEveryCallAsItsNativeBuild() throws {
    let native = try Self.loader().load("Theory")
    let wasm = try Self.loader().load(try WasmFixtures.bundled("Theory", source: "theory.c"))
    #expect(wasm.functions.map(\.name) == native.functions.map(\.name))
    #expect(wasm.functions.map(\.signature) == native.functions.map(\.signature))
    var calls: [(String, [WireValue])] = []
    for note in Array(-2...130) + [Int(Int32.min), Int(Int32.max)] {
      calls.append(("note_name", [.int(Int64(note))]))
      calls.append(("interval_name", [.int(Int64(note))]))
      for a4 in [440.0, 415.3, 0, -1] {
        calls.append(("note_frequency", [.int(Int64(note)), .double(a4)]))
      }
    }
    let chords: [[Int]] = [
      [], [60], [64, 67, 72], [60, 63, 66], [60, 64, 68], [55, 59, 62, 65], [60, 64, 67, 71],
      [62, 65, 69, 72], [60, 61, 62], [127, 0], [200, 60],
    ]
    for notes in chords { calls.append(("chord_name", [.list(notes.map { .int(Int64($0)) })])) }
    for (name, values) in calls {
      let expected = try #require(native.function(name)).call(values)
      #expect(try #require(wasm.function(name)).call(values) == expected, "\(name)\(values)")
    }
    #expect(calls.count == 821)
  }

  /// The Chord Trainer (native Swift) grades through Theory built as wasm, with the state its
  /// native Theory gives it.
  @Test func aNativeFeatureGradesThroughTheoryBuiltAsWebAssembly() throws {
    let native = try ChordTrainerTheoryTests.app(theory: "Theory")
    let wasm = try ChordTrainerTheoryTests.app(
      theory: try WasmFixtures.bundled("Theory", source: "theory.c"))
    let played = [
      "ask(root: 3, minor: true)", "midi(noteOn(channel: 1, note: 64, velocity: 90))",
      "midi(noteOn(channel: 1, note: 67, velocity: 90))",
      "midi(noteOn(channel: 1, note: 71, velocity: 90))", "ask(root: 0, minor: false)",
      "midi(noteOn(channel: 1, note: 52, velocity: 90))",
      "midi(noteOn(channel: 1, note: 55, velocity: 90))",
      "midi(noteOn(channel: 1, note: 60, velocity: 90))",
    ]
    for action in played {
      try native.send("trainer", action)
      try wasm.send("trainer", action)
      #expect(try wasm.stateHash() == native.stateHash(), "after \(action)")
    }
    #expect(try wasm.state("trainer")[field: "misses"] == 1)
    #expect(
      try wasm.state("trainer")[field: "verdict"] == native.state("trainer")[field: "verdict"])
  }

  /// `[limits] wasm-fuel` bounds a wasm provider's functions wherever they run: in the app's
  /// process, and in an isolated caller's own, which loads its own instance of the provider.
  /// Starved of fuel, chord_name returns nothing in both, and the Trainer grades alike.
  @Test func anIsolatedCallerRunsAWebAssemblyProviderUnderTheConfigsLimits() throws {
    let theory = try WasmFixtures.bundled("Theory", source: "theory.c")
    let starved = "[limits]\nwasm-fuel = 1000"
    let apps = [
      try ChordTrainerTheoryTests.app(theory: theory, tables: starved),
      try ChordTrainerTheoryTests.app(theory: theory, isolate: ["ChordTrainer"], tables: starved),
      try ChordTrainerTheoryTests.app(theory: theory),
    ]
    for app in apps {
      for action in [
        "ask(root: 0, minor: false)", "midi(noteOn(channel: 1, note: 60, velocity: 90))",
        "midi(noteOn(channel: 1, note: 64, velocity: 90))",
        "midi(noteOn(channel: 1, note: 67, velocity: 90))",
      ] {
        try app.send("trainer", action)
      }
    }
    let verdicts = try apps.map { try $0.state("trainer")[field: "verdict"] }
    #expect(verdicts[0] == verdicts[1])
    #expect(
      verdicts[2] != verdicts[0], "with fuel, C major is named: \(String(describing: verdicts))")
  }

  /// Theory swapped native → wasm → native under the Trainer, and under a pointer resolved
  /// before the first swap: both go on answering, through each generation's code.
  @Test func theorySwapsBetweenNativeAndWebAssemblyUnderItsCallers() throws {
    let app = try ChordTrainerTheoryTests.app(theory: "Theory")
    let pointer = try app.resolve(Self.theory, "note_name", "int32(int32, out_string)")
    let noteName = unsafeBitCast(
      pointer, to: (@convention(c) (Int32, UnsafeMutablePointer<CChar>?, Int) -> Int32).self)
    func name(_ note: Int32) -> String {
      var buffer = [CChar](repeating: 0, count: 16)
      _ = noteName(note, &buffer, buffer.count)
      return buffer.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
    }
    func grade(_ root: Int, _ notes: [Int]) throws -> WireValue? {
      try app.send("trainer", "ask(root: \(root), minor: false)")
      for note in notes {
        try app.send("trainer", "midi(noteOn(channel: 1, note: \(note), velocity: 90))")
      }
      defer {
        for note in notes {
          try? app.send("trainer", "midi(noteOff(channel: 1, note: \(note), velocity: 0))")
        }
      }
      return try app.state("trainer")[field: "verdict"]
    }
    let wasm = try WasmFixtures.bundled("Theory", source: "theory.c")
    #expect(name(61) == "C#4")
    try app.swap("Theory", to: wasm)
    #expect(app.registry.currentPlugins.contains { $0.path == wasm })
    #expect(name(61) == "C#4")
    #expect(try grade(7, [55, 59, 62]) == .string("✓ G major"))
    try app.swap("Theory", to: try BuiltPlugins.path("Theory"))
    #expect(name(127) == "G9")
    #expect(try grade(2, [54, 57, 62]) == .string("✓ D major/F#"))
  }

  /// Each C type of the signature grammar, in and out: narrow integers sign- or zero-extended,
  /// 64-bit integers whole, floats, strings, buffers, and an out_string longer than the first
  /// buffer (the host calls again with one that fits) or with no room at all.
  @Test func everyCTypeCrossesTheEdge() throws {
    let plugin = try Self.loader().load(try WasmFixtures.fixture("functions"))
    func call(_ name: String, _ values: [WireValue]) throws -> WireValue {
      try #require(plugin.function(name)).call(values)
    }
    #expect(
      try call("mix", [.int(-3), .int(65_535), .bool(true), .int(10_000_000_000), .double(2.9)])
        == .int(10_000_065_535))
    #expect(try call("negate", [.int(-128)]) == .int(-128))
    #expect(try call("negate", [.int(5)]) == .int(-5))
    #expect(try call("largest", []) == .int(4_294_967_295))
    #expect(try call("length", [.string("héllo")]) == .int(6))
    let long = try call("repeat", [.string("ab"), .int(300)])
    #expect(long == .string(String(repeating: "ab", count: 300)))
    // Straight through the native address: NULL in, and no room out.
    let length = unsafeBitCast(
      try #require(plugin.function("length")).pointer,
      to: (@convention(c) (UnsafePointer<CChar>?) -> Int).self)
    #expect(length(nil) == 0)
    let repeatBytes = unsafeBitCast(
      try #require(plugin.function("repeat")).pointer,
      to: (@convention(c) (UnsafePointer<UInt8>?, Int, Int32, UnsafeMutablePointer<CChar>?, Int)
        -> Int32).self)
    #expect(repeatBytes([7], 1, 1000, nil, 0) == 1000)
    var small = [CChar](repeating: 1, count: 4)
    #expect(repeatBytes([65, 66], 2, 5, &small, small.count) == 10)
    #expect(small == [65, 66, 65, 0])
  }

  /// A function that spins, takes memory without end, or is called as what it is not: each
  /// call fails naming the function and why, the caller gets zero, and the next call runs in a
  /// fresh module instance.
  @Test func aFunctionThatTrapsIsNamedAndTheNextCallRuns() throws {
    let file = try WasmFixtures.fixture("functions")
    let plugin = try Self.loader(WasmLimits(fuel: 2_000_000, memoryBytes: 8 << 20)).load(file)
    let traps = [
      ("spin", "ran out of fuel: more than 2000000 instructions in one call"),
      ("hoard", "after its memory reached the limit of 8 MiB ([limits] wasm-memory-mb)"),
      ("mismatched", "trapped: indirect call type mismatch, expected (i32) -> (f64)"),
    ]
    for (name, says) in traps {
      #expect {
        _ = try #require(plugin.function(name)).call([.int(1)])
      } throws: { error in
        "\(error)".hasPrefix("Functions.\(name): \(file): function \(name) ")
          && "\(error)".contains(says) && "\(error)".hasSuffix("; the call returned zero")
      }
      #expect(try #require(plugin.function("negate")).call([.int(9)]) == .int(-9))
    }
    // Through the native address, which nobody watches: zero back, and the next call runs.
    let spin = unsafeBitCast(
      try #require(plugin.function("spin")).pointer, to: (@convention(c) (Int32) -> Int32).self)
    #expect(spin(1) == 0)
    #expect(try #require(plugin.function("negate")).call([.int(-7)]) == .int(7))
  }

  /// The Namer fixture (a wasm feature that resolves Theory's functions) beside Theory from
  /// `theory`.
  static func namer(theory: String) throws -> AppRuntime {
    let namer = try WasmFixtures.fixture("namer")
    return try makeApp(
      toml: """
        [app]
        root = "it"
        [plugins]
        load = ["\(namer)", "\(theory)"]
        [sandbox]
        "\(namer)" = ["functions"]
        [[feature]]
        key = "it"
        id = "dev.patchbay.namer"
        """)
  }

  /// A wasm feature calls Theory's functions through "patchbay.functions/1": the native Theory,
  /// and Theory built as wasm (one module calling another, through the host).
  @Test func aWebAssemblyFeatureCallsAnotherPluginsFunctions() throws {
    for theory in ["Theory", try WasmFixtures.bundled("Theory", source: "theory.c")] {
      let app = try Self.namer(theory: theory)
      try app.send("it", "name(note: 60)")
      #expect(try app.state("it")[field: "last"] == .string("C4"), "\(theory)")
      try app.send("it", "pitch(note: 81)")
      #expect(try app.state("it")[field: "last"] == .string("880.000"), "\(theory)")
      try app.send("it", "name(note: 300)")
      #expect(try app.state("it")[field: "last"] == .string("not a MIDI note (0-127)"))
    }
  }

  /// The pointer a wasm feature resolved follows Theory's swaps, native → wasm → native; and a
  /// swap of the wasm feature itself keeps its state, its new code resolving afresh.
  @Test func aWebAssemblyFeaturesImportFollowsSwapsOfEitherSide() throws {
    let wasmTheory = try WasmFixtures.bundled("Theory", source: "theory.c")
    let app = try Self.namer(theory: "Theory")
    try app.send("it", "name(note: 61)")
    try app.swap("Theory", to: wasmTheory)
    try app.send("it", "name(note: 62)")
    #expect(try app.state("it")[field: "last"] == .string("D4"))
    try app.swap("Theory", to: try BuiltPlugins.path("Theory"))
    try app.send("it", "name(note: 127)")
    #expect(try app.state("it")[field: "last"] == .string("G9"))
    let namer = try WasmFixtures.fixture("namer")
    let copy = namer.replacingOccurrences(of: ".wasm", with: "Copy.wasm")
    try? FileManager.default.removeItem(atPath: copy)
    try FileManager.default.copyItem(atPath: namer, toPath: copy)
    try app.swap("dev.patchbay.namer", to: copy)
    #expect(try app.state("it")[field: "last"] == .string("G9"))
    try app.send("it", "name(note: 0)")
    #expect(try app.state("it")[field: "last"] == .string("C-1"))
  }

  /// What a wasm feature cannot resolve is refused as a native plugin hears it, a bad pointer
  /// handed to the host's resolve traps, named, and a NULL handed to a native function reaches
  /// it as the module's address 0; the app goes on with the state.
  @Test func aBadResolveIsNamedAndTheAppGoesOn() throws {
    let app = try Self.namer(theory: "Theory")
    try app.send("it", "name(note: 64)")
    #expect {
      try app.send("it", "missing")
    } throws: { error in
      "\(error)".contains("no_such_function")
        && "\(error)".contains("exports no function 'no_such_function'")
    }
    #expect {
      try app.send("it", "badResolve")
    } throws: { error in
      "\(error)".contains("it called the host's resolve with 4096 bytes at 4294967040")
    }
    try app.send("it", "pitch(note: 57)")
    #expect(try app.state("it")[field: "last"] == .string("220.000"))
    // NULL with 3 notes: native code gets the module's bytes at address 0, never NULL (the
    // native Theory would read through it, and stop the app).
    try app.send("it", "nullChord")
    guard case .string(let named)? = try app.state("it")[field: "last"] else {
      Issue.record("no text")
      return
    }
    #expect(!named.isEmpty && named != "220.000")
  }

  /// A pointer means nothing across the edge: a module exporting a function that takes or
  /// returns one is refused at load, naming it.
  @Test func aFunctionOfPointersIsRefusedAtLoad() throws {
    let file = try WasmFixtures.fixture("addressed")
    #expect {
      _ = try Self.loader().load(file)
    } throws: { error in
      "\(error)" == "\(file): function 'address_of_cell' is pointer(): a pointer means nothing "
        + "across a WebAssembly module's edge (its memory is its own). Pass a string or a "
        + "buffer, or export it from a native plugin."
    }
  }
}
