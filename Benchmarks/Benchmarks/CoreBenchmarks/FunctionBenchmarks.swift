import Benchmark
import BenchmarkSupport
import Foundation
import PatchbayEncoding
import PatchbayFunctions
import PatchbayHost
import PatchbayLoader
import PatchbayPlugin

// Calling plugins' exported functions: a direct call through a function pointer
// (the reference), the stable trampolines (jump stub and libffi closure), libffi with a
// prepared cif, and retargeting 1,000 trampolines as a swap does. One signature throughout:
// Theory's note_frequency, double(int32, double).

typealias Frequency = @convention(c) (Int32, Double) -> Double

/// Theory's note_frequency, from the root's build.
let noteFrequency: LoadedFunction = {
  do {
    guard
      let function = try PluginLoader(searchPaths: [BenchmarkRun.rootBuild.path]).load("Theory")
        .function(
          "note_frequency")
    else { fatalError("Theory has no note_frequency") }
    return function
  } catch {
    fatalError("\(error) — \(BenchmarkRun.buildHint)")
  }
}()

func functionBenchmarks() {
  let perCall = Benchmark.Configuration(
    metrics: [.wallClock], timeUnits: .nanoseconds, warmupIterations: 3, scalingFactor: .mega,
    maxDuration: .seconds(3), maxIterations: 20)

  Benchmark("functions: direct call through a pointer (reference)", configuration: perCall) {
    benchmark in
    let direct = unsafeBitCast(noteFrequency.pointer, to: Frequency.self)
    var sum = 0.0
    benchmark.startMeasurement()
    for index in benchmark.scaledIterations {
      sum += direct(Int32(truncatingIfNeeded: index & 127), 440)
    }
    benchmark.stopMeasurement()
    blackHole(sum)
  }

  for kind in StableTrampoline.Kind.allCases {
    Benchmark("functions: through a stable trampoline (\(kind))", configuration: perCall) {
      benchmark in
      guard let trampoline = StableTrampoline(to: noteFrequency, kind: kind) else {
        fatalError("no trampoline")
      }
      let frequency = unsafeBitCast(trampoline.pointer, to: Frequency.self)
      var sum = 0.0
      benchmark.startMeasurement()
      for index in benchmark.scaledIterations {
        sum += frequency(Int32(truncatingIfNeeded: index & 127), 440)
      }
      benchmark.stopMeasurement()
      blackHole(sum)
    }
  }

  // What `@Import` writes, through the same trampoline: the function read at each
  // call from the reducing instance's imports (a thread-local slot, as inside `reduce`),
  // declared as a Swift function (a closure around the pointer) and as a `@convention(c)` one
  // (the pointer itself).
  for declaredC in [false, true] {
    Benchmark(
      "functions: typed @Import, declared "
        + (declaredC ? "@convention(c)" : "as a Swift function") + ", through a trampoline",
      configuration: perCall
    ) { benchmark in
      guard let trampoline = StableTrampoline(to: noteFrequency, kind: .jumpStub) else {
        fatalError("no trampoline")
      }
      var sum = 0.0
      ImportedFunctions.withCurrent(ImportedFunctions(["note_frequency": trampoline.pointer])) {
        benchmark.startMeasurement()
        for index in benchmark.scaledIterations {
          let note = Int32(truncatingIfNeeded: index & 127)
          sum +=
            (declaredC
              ? TypedImports.noteFrequencyC?(note, 440) : TypedImports.noteFrequency?(note, 440))
            ?? 0
        }
        benchmark.stopMeasurement()
      }
      blackHole(sum)
    }
  }

  Benchmark("functions: ffi_call through a prepared cif, values decoded", configuration: perCall) {
    benchmark in
    let prepared = noteFrequency.prepared
    let note = UnsafeMutablePointer<Int32>.allocate(capacity: 1)
    let a4 = UnsafeMutablePointer<Double>.allocate(capacity: 1)
    let arguments = UnsafeMutablePointer<UnsafeMutableRawPointer?>.allocate(capacity: 2)
    let result = UnsafeMutableRawPointer.allocate(byteCount: 16, alignment: 16)
    defer {
      note.deallocate()
      a4.deallocate()
      arguments.deallocate()
      result.deallocate()
    }
    a4.pointee = 440
    arguments[0] = UnsafeMutableRawPointer(note)
    arguments[1] = UnsafeMutableRawPointer(a4)
    var sum = 0.0
    benchmark.startMeasurement()
    for index in benchmark.scaledIterations {
      note.pointee = Int32(truncatingIfNeeded: index & 127)
      prepared.callRaw(noteFrequency.pointer, arguments: arguments, result: result)
      sum += result.load(as: Double.self)
    }
    benchmark.stopMeasurement()
    blackHole(sum)
  }

  Benchmark(
    "functions: call with values (patchbay call's path: check, marshal, ffi_call, decode)",
    configuration: .init(
      metrics: [.wallClock, .mallocCountTotal], timeUnits: .nanoseconds, warmupIterations: 3,
      scalingFactor: .kilo, maxDuration: .seconds(3), maxIterations: 20)
  ) { benchmark in
    let values: [WireValue] = [.int(69), .double(440)]
    benchmark.startMeasurement()
    for _ in benchmark.scaledIterations { blackHole(try? noteFrequency.call(values)) }
    benchmark.stopMeasurement()
  }

  Benchmark(
    "functions: retarget 1,000 trampolines (a swap's share of the held time)",
    configuration: .init(metrics: [.wallClock], timeUnits: .microseconds, maxIterations: 50)
  ) { benchmark in
    let trampolines = (0..<1_000).compactMap { _ in StableTrampoline(to: noteFrequency) }
    benchmark.startMeasurement()
    for trampoline in trampolines { trampoline.retarget(to: noteFrequency.pointer) }
    benchmark.stopMeasurement()
  }
}

/// Two `@Import`s of Theory's note_frequency, as a feature declares them.
@Feature
struct TypedImports {
  static let id = "dev.patchbay.bench.typed-imports"
  struct State: Codable, Equatable {}
  enum Action: Codable { case none }
  func reduce(into state: inout State, action: Action) -> Effect<Action> { .none }
  @Import("dev.patchbay.theory-plugin", "note_frequency")
  static var noteFrequency: ((Int32, Double) -> Double)?
  @Import("dev.patchbay.theory-plugin", "note_frequency")
  static var noteFrequencyC: (@convention(c) (Int32, Double) -> Double)?
}
