import Benchmark
import BenchmarkSupport
import Foundation
import References
import WasmKit

/// Could a processor run as WebAssembly? Eight voices of a simple synth for one 128-frame
/// period at 48 kHz (2.67 ms), the same C (`References/synth_voice.c`) natively and in WasmKit
/// as the host would run it (fuel metered, the period's samples copied out of the module's
/// memory). The bar (issue 46): a quarter of the period, 667 µs, for the eight voices.
/// docs/WASM.md and docs/PLUGINS.md give the figures.
func wasmVoiceBenchmark() {
  let configuration = Benchmark.Configuration(
    metrics: [.wallClock, .mallocCountTotal], timeUnits: .microseconds, warmupIterations: 20,
    maxDuration: .seconds(5), maxIterations: 5_000)

  Benchmark(
    "processor: 8 synth voices, one 128-frame period, native C", configuration: configuration
  ) {
    benchmark in
    var voices = [ref_voice](repeating: ref_voice(), count: 8)
    var out = [Float](repeating: 0, count: 128)
    ref_voices_start(&voices, 8, 48_000)
    for _ in benchmark.scaledIterations {
      ref_voices_render(&voices, 8, &out, 128)
    }
    blackHole(out)
  }

  Benchmark(
    "processor: 8 synth voices, one 128-frame period, WebAssembly (WasmKit)",
    configuration: configuration
  ) { benchmark in
    let voices = wasmVoices
    var stack = ExecutionStack(engine: voices.store.engine)
    var out = [Float](repeating: 0, count: 128)
    for _ in benchmark.scaledIterations {
      voices.store.fuel = Fuel(remaining: 100_000_000)
      let address = try voices.render.invoke([.i32(128)], on: &stack)[0].i32
      voices.memory.withUnsafeBufferPointer(offset: UInt(address), count: 128 * 4) { samples in
        out.withUnsafeMutableBytes { $0.copyMemory(from: samples) }
      }
    }
    blackHole(out)
  }
}

/// The voices' module, built, instantiated and started once (not what is measured).
nonisolated(unsafe) let wasmVoices: (store: Store, render: Function, memory: Memory) = {
  do {
    let module = try parseWasm(bytes: try voiceModule())
    let store = Store(engine: Engine(configuration: EngineConfiguration(fuelMetering: true)))
    let instance = try module.instantiate(store: store)
    guard let start = instance.exports[function: "start"],
      let render = instance.exports[function: "render"],
      let memory = instance.exports[memory: "memory"]
    else { fatalError("voice.wasm lacks its exports") }
    try start.invoke([.f32(Float(48_000).bitPattern)])
    return (store, render, memory)
  } catch {
    fatalError("\(error)")
  }
}()

/// `References/synth_voice.c` compiled for wasm32 by the Swift toolchain's clang: no libc.
func voiceModule() throws -> [UInt8] {
  let output = FileManager.default.temporaryDirectory
    .appendingPathComponent("patchbay-voice-\(getpid()).wasm").path
  let clang = ProcessInfo.processInfo.environment["WASM_CLANG"] ?? toolchainClang()
  let compile = Process()
  compile.executableURL = URL(fileURLWithPath: clang)
  compile.arguments = [
    "--target=wasm32", "-O2", "-nostdlib", "-Wl,--no-entry",
    "-I", BenchmarkRun.repositoryRoot.appendingPathComponent("Benchmarks/References/include").path,
    "-o", output,
    BenchmarkRun.repositoryRoot.appendingPathComponent("Benchmarks/References/synth_voice.c").path,
  ]
  try compile.run()
  compile.waitUntilExit()
  guard compile.terminationStatus == 0, let bytes = FileManager.default.contents(atPath: output)
  else { fatalError("\(clang) could not build synth_voice.c for wasm32 (set WASM_CLANG)") }
  return [UInt8](bytes)
}

/// The clang beside `swift` on the PATH (the toolchain's, which targets wasm32).
func toolchainClang() -> String {
  let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin"
  for folder in path.split(separator: ":") {
    let swift = URL(fileURLWithPath: String(folder)).appendingPathComponent("swift")
    guard FileManager.default.fileExists(atPath: swift.path) else { continue }
    return swift.resolvingSymlinksInPath().deletingLastPathComponent()
      .appendingPathComponent("clang").path
  }
  return "/opt/swift/usr/bin/clang"
}
