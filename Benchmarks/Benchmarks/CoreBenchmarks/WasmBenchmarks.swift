import Benchmark
import BenchmarkSupport
import Foundation
import PatchbayConfig
import PatchbayEncoding
import PatchbayHost
import PatchbayLoader
import PatchbayWasm

// WebAssembly plugins against native ones, in one run (docs/WASM.md has the figures): the
// same C reducer (the bundled Echo) built both ways, an action into each, ten features started,
// and a swap to a rebuilt module.

/// `Plugins/Echo/echo.c` built as WebAssembly by `Sources/PatchbayWasmGuest/wasm-cc`, twice
/// (two files, so that a swap between them loads a new module each time).
let wasmEchoFiles: [String] = {
  let folder = FileManager.default.temporaryDirectory
    .appendingPathComponent("patchbay-wasm-bench-\(getpid())")
  do {
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let first = folder.appendingPathComponent("Echo.wasm").path
    let compile = Process()
    compile.executableURL = repositoryRoot.appendingPathComponent(
      "Sources/PatchbayWasmGuest/wasm-cc")
    compile.arguments = [
      "-o", first, repositoryRoot.appendingPathComponent("Plugins/Echo/echo.c").path,
    ]
    try compile.run()
    compile.waitUntilExit()
    guard compile.terminationStatus == 0 else {
      fatalError("wasm-cc could not build Echo.wasm (make deps installs wasi-libc)")
    }
    let second = folder.appendingPathComponent("EchoRebuilt.wasm").path
    try? FileManager.default.removeItem(atPath: second)
    try FileManager.default.copyItem(atPath: first, toPath: second)
    return [first, second]
  } catch {
    fatalError("\(error)")
  }
}()

/// The loader, with `.wasm` files.
func wasmLoader() -> PluginLoader {
  var loader = PluginLoader(searchPaths: [BenchmarkRun.rootBuild.path])
  WasmPlugin.install(into: &loader)
  return loader
}

/// An Echo instance from `file` (libEcho.so or a .wasm), loaded once.
func echoInstance(_ file: String) -> FeatureHandle {
  do {
    return try FeatureHandle(feature: try wasmLoader().load(file).features[0])
  } catch {
    fatalError("\(error) — \(BenchmarkRun.buildHint)")
  }
}

let nativeEcho = echoInstance(BenchmarkRun.rootBuild.appendingPathComponent("libEcho.so").path)
let wasmEcho = echoInstance(wasmEchoFiles[0])

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

  // A rebuilt module each time: read, parsed, checked, and the state moved into it.
  Benchmark(
    "wasm: swap Echo to a rebuilt .wasm (state kept)",
    configuration: .init(
      metrics: [.wallClock, .custom("actions held (µs)", useScalingFactor: false)],
      timeUnits: .milliseconds, warmupIterations: 2, maxDuration: .seconds(10),
      maxIterations: 100)
  ) { benchmark in
    let app = try wasmEchoApp()
    var index = 1
    var stamp = Date().timeIntervalSince1970 + Double(benchmark.currentIteration) * 1000
    for _ in benchmark.scaledIterations {
      let file = wasmEchoFiles[index % 2]
      stamp += 1
      try FileManager.default.setAttributes(
        [.modificationDate: Date(timeIntervalSince1970: stamp)], ofItemAtPath: file)
      benchmark.startMeasurement()
      let report = try app.swap("echo", to: file)
      benchmark.stopMeasurement()
      benchmark.measurement(
        .custom("actions held (µs)", useScalingFactor: false), microseconds(report.held))
      index += 1
    }
  }
}

/// An app of one Echo, from the first WebAssembly build, with a message said.
func wasmEchoApp() throws -> AppRuntime {
  let config = try AppConfig(
    parsing: """
      [app]
      root = "echo"
      [plugins]
      load = ["\(wasmEchoFiles[0])"]
      [[feature]]
      key = "echo"
      id = "dev.patchbay.echo"
      """, file: "wasm-echo.toml")
  let app = try AppRuntime(config: config, registry: try config.loadPlugins(with: config.loader()))
  try app.send("echo", "say(text: \"kept\")")
  return app
}
