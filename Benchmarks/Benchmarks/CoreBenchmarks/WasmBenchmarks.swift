import Benchmark
import BenchmarkSupport
import Foundation
import PatchbayConfig
import PatchbayEncoding
import PatchbayHost
import PatchbayLoader
import PatchbayWasm

// WebAssembly plugins against native ones, in one run (docs/WASM.md has the figures): the
// same C reducer (the bundled Echo) and the same Swift reducer (the bundled Counter, in
// Embedded Swift for wasm) built both ways, an action into each, Theory's functions called
// both ways, ten features started, and a swap to a rebuilt module.

/// The folder this run's WebAssembly builds go to.
let wasmFolder: URL = {
  let folder = FileManager.default.temporaryDirectory
    .appendingPathComponent("patchbay-wasm-bench-\(getpid())")
  do {
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
  } catch {
    fatalError("\(error)")
  }
  return folder
}()

/// `sources` built by `Sources/PatchbayWasmGuest/<tool>` (wasm-cc for C, wasm-swiftc for
/// Embedded Swift, with the root build's macros) into `<name>.wasm`; its path.
func wasmBuild(_ name: String, with tool: String, from sources: [String]) -> String {
  let output = wasmFolder.appendingPathComponent("\(name).wasm").path
  let compile = Process()
  compile.executableURL = repositoryRoot.appendingPathComponent("Sources/PatchbayWasmGuest/\(tool)")
  compile.arguments =
    ["-o", output] + sources.map { repositoryRoot.appendingPathComponent($0).path }
  compile.environment = ProcessInfo.processInfo.environment.merging(
    ["PATCHBAY_MACROS": BenchmarkRun.rootBuild.appendingPathComponent("PatchbayMacros-tool").path]
  ) { $1 }
  do {
    try compile.run()
    compile.waitUntilExit()
  } catch {
    fatalError("\(tool): \(error)")
  }
  guard compile.terminationStatus == 0 else {
    fatalError(
      "\(tool) could not build \(name).wasm (make deps installs wasi-libc) — \(BenchmarkRun.buildHint)"
    )
  }
  return output
}

/// `file` and a copy of it beside it: two files, so that a swap between them loads a new module
/// each time.
func withRebuiltCopy(_ file: String) -> [String] {
  let copy = file.replacingOccurrences(of: ".wasm", with: "Rebuilt.wasm")
  do {
    try? FileManager.default.removeItem(atPath: copy)
    try FileManager.default.copyItem(atPath: file, toPath: copy)
  } catch {
    fatalError("\(error)")
  }
  return [file, copy]
}

/// `Plugins/Echo/echo.c` built as WebAssembly, and a copy.
let wasmEchoFiles = withRebuiltCopy(
  wasmBuild("Echo", with: "wasm-cc", from: ["Plugins/Echo/echo.c"]))

/// The bundled Counter in Embedded Swift (`Plugins/Counter/wasm`) built as WebAssembly, and a
/// copy.
let wasmCounterFiles = withRebuiltCopy(
  wasmBuild("Counter", with: "wasm-swiftc", from: ["Plugins/Counter/wasm/Counter.swift"]))

/// The loader, with `.wasm` files.
func wasmLoader() -> PluginLoader {
  var loader = PluginLoader(searchPaths: [BenchmarkRun.rootBuild.path])
  WasmPlugin.install(into: &loader)
  return loader
}

/// An instance of the first feature of `file` (a .so or a .wasm), loaded once.
func firstFeatureInstance(_ file: String) -> FeatureHandle {
  do {
    return try FeatureHandle(feature: loadPlugin(file).features[0])
  } catch {
    fatalError("\(error) — \(BenchmarkRun.buildHint)")
  }
}

let nativeEcho = firstFeatureInstance(
  BenchmarkRun.rootBuild.appendingPathComponent("libEcho.so").path)
let wasmEcho = firstFeatureInstance(wasmEchoFiles[0])
let nativeCounter = firstFeatureInstance(
  BenchmarkRun.rootBuild.appendingPathComponent("libCounter.so").path)
let wasmCounter = firstFeatureInstance(wasmCounterFiles[0])

/// The bundled Theory, native and built as WebAssembly.
let nativeTheory = loadPlugin(BenchmarkRun.rootBuild.appendingPathComponent("libTheory.so").path)
let wasmTheoryFile = wasmBuild("Theory", with: "wasm-cc", from: ["Plugins/Theory/theory.c"])
let wasmTheory = loadPlugin(wasmTheoryFile)

/// The Namer test fixture (a wasm feature that calls Theory's functions) built once.
let wasmNamerFile = wasmBuild(
  "Namer", with: "wasm-cc", from: ["Tests/PatchbayHostTests/Wasm/Fixtures/namer.c"])

/// Apps of the Namer beside the native Theory, and beside the wasm one, made once.
let namerWithNativeTheory = namerApp(theory: "Theory")
let namerWithWasmTheory = namerApp(theory: wasmTheoryFile)

/// The Namer as `it`, beside Theory from `theory` (a name, or the wasm build's path), granted
/// "functions".
func namerApp(theory: String) -> AppRuntime {
  do {
    return try makeNamerApp(theory: theory)
  } catch {
    fatalError("\(error) — \(BenchmarkRun.buildHint)")
  }
}

private func makeNamerApp(theory: String) throws -> AppRuntime {
  let namer = wasmNamerFile
  let config = try AppConfig(
    parsing: """
      [app]
      root = "it"
      [plugins]
      load = ["\(namer)", "\(theory)"]
      [sandbox]
      "\(namer)" = ["functions"]
      [[feature]]
      key = "it"
      id = "dev.patchbay.namer"
      """, file: "namer.toml")
  let loader = config.loader(extraSearchPaths: [BenchmarkRun.rootBuild.path])
  let app = try AppRuntime(config: config, registry: try config.loadPlugins(with: loader))
  try app.send("it", "name(note: 69)")  // resolves note_name
  return app
}

/// The plugin in `file` (a .so or a .wasm), loaded once.
func loadPlugin(_ file: String) -> LoadedPlugin {
  do {
    return try wasmLoader().load(file)
  } catch {
    fatalError("\(error) — \(BenchmarkRun.buildHint)")
  }
}

let wasmBenchmarks: @Sendable (Benchmark.Configuration) -> Void = { perAction in
  // The same reducer, the same action bytes: the interpreter's ratio to native code.
  for (name, echo) in [("native", nativeEcho), ("WebAssembly", wasmEcho)] {
    Benchmark("wasm: ABI send into Echo (say), \(name)", configuration: perAction) { benchmark in
      let say = try WireValue(parsingAction: "say(text: \"hello\")").bytes
      for _ in benchmark.scaledIterations {
        echo.send(say)
      }
      blackHole(echo)
    }
  }

  // The Counter: Swift both ways, the native build's Codable against Embedded Swift's
  // encoding from @Feature, on the same action bytes.
  for (name, counter) in [("native", nativeCounter), ("WebAssembly, Embedded Swift", wasmCounter)] {
    Benchmark("wasm: ABI send into Counter (increment), \(name)", configuration: perAction) {
      benchmark in
      let increment = try WireValue(parsingAction: "increment").bytes
      for _ in benchmark.scaledIterations {
        counter.send(increment)
      }
      blackHole(counter)
    }
  }

  // Theory's functions through their native addresses, as a native feature calls them: the C
  // function itself, against the closure that runs it in the module (a lock, the arguments
  // copied in, the call, the result and any text copied out).
  for (name, theory) in [("native", nativeTheory), ("WebAssembly", wasmTheory)] {
    Benchmark(
      "wasm: call Theory's note_frequency (double(int32, double)), \(name)",
      configuration: perAction
    ) { benchmark in
      let frequency = unsafeBitCast(theory.function("note_frequency")!.pointer, to: Frequency.self)
      var sum = 0.0
      for index in benchmark.scaledIterations {
        sum += frequency(Int32(truncatingIfNeeded: index & 127), 440)
      }
      blackHole(sum)
    }
    Benchmark(
      "wasm: call Theory's chord_name (int32(buffer, out_string)), \(name)",
      configuration: perAction
    ) { benchmark in
      let chordName = unsafeBitCast(
        theory.function("chord_name")!.pointer,
        to: (@convention(c) (UnsafePointer<UInt8>?, Int, UnsafeMutablePointer<CChar>?, Int)
          -> Int32).self)
      let notes: [UInt8] = [64, 67, 72]
      var text = [CChar](repeating: 0, count: 64)
      var sum: Int32 = 0
      for _ in benchmark.scaledIterations {
        sum &+= chordName(notes, notes.count, &text, text.count)
      }
      blackHole(sum)
    }
  }

  // The other way: a wasm feature calls a function it imported (the Namer test fixture's
  // name: Theory's note_name into an out_string), through the host's function in its table
  // (WasmFunctionImport: the arguments from the interpreter's stack, the out_string copied
  // back, a libffi call). To native Theory, and to Theory built as wasm (one module through
  // the host into another).
  for (name, namerApp) in [("native", namerWithNativeTheory), ("WebAssembly", namerWithWasmTheory)]
  {
    Benchmark(
      "wasm: an action in a wasm feature that calls Theory's note_name, \(name) Theory",
      configuration: perAction
    ) { benchmark in
      let app = namerApp  // kept: its functions end with it
      let namer = try app.instance("it")
      let action = try WireValue(parsingAction: "name(note: 69)").bytes
      for _ in benchmark.scaledIterations {
        namer.send(action)
      }
      precondition(namer.failures.isEmpty, "\(namer.failures)")
      blackHole(app)
    }
  }

  // Ten features of a module loaded once: ten module instances, each created.
  Benchmark(
    "wasm: start 10 Echo.wasm features (load the module, create 10 instances)",
    configuration: .init(
      metrics: [.wallClock, .mallocCountTotal], timeUnits: .milliseconds, warmupIterations: 1,
      maxDuration: .seconds(10), maxIterations: 50)
  ) { benchmark in
    for _ in benchmark.scaledIterations {
      let plugin = try wasmLoader().load(wasmEchoFiles[0])
      let echoes = try (0..<10).map { _ in try FeatureHandle(feature: plugin.features[0]) }
      blackHole(echoes)
    }
  }

  // A rebuilt module each time: read, parsed, checked, and the state moved into it. Echo in C,
  // and the Counter in Embedded Swift (its module is 2.4 times Echo's: the Swift runtime).
  let swaps = [
    ("Echo", wasmEchoFiles, "dev.patchbay.echo", "say(text: \"kept\")"),
    ("Counter", wasmCounterFiles, "dev.patchbay.counter", "increment"),
  ]
  for (name, files, id, action) in swaps {
    Benchmark(
      "wasm: swap \(name) to a rebuilt .wasm (state kept)",
      configuration: .init(
        metrics: [.wallClock, .custom("actions held (µs)", useScalingFactor: false)],
        timeUnits: .milliseconds, warmupIterations: 2, maxDuration: .seconds(10),
        maxIterations: 100)
    ) { benchmark in
      try swapToRebuiltFiles(
        benchmark, app: try wasmApp(files[0], id: id, action: action), id: id, files: files)
    }
  }
}

/// An app of one feature, `id`, from the WebAssembly build `file`, with `action` sent.
func wasmApp(_ file: String, id: String, action: String) throws -> AppRuntime {
  let config = try AppConfig(
    parsing: """
      [app]
      root = "it"
      [plugins]
      load = ["\(file)"]
      [[feature]]
      key = "it"
      id = "\(id)"
      """, file: "wasm-app.toml")
  let app = try AppRuntime(config: config, registry: try config.loadPlugins(with: config.loader()))
  try app.send("it", action)
  return app
}
