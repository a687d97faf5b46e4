// The package keeps its registered benchmarks in a plain static var (a Swift 5 module); this
// file reads it once, before any benchmark runs.
@preconcurrency import Benchmark
import Foundation

/// How this benchmark process runs: measuring (`make bench`), or a smoke run (`make test`).
///
/// A smoke run executes every benchmark once, with small workloads, against the root's debug
/// build, and exits 1 naming the benchmark when one fails. Its figures mean nothing; it proves
/// that every benchmark still runs, so none breaks unseen between two `make bench`es.
///
/// ```sh
/// make bench-smoke                                  # what make test runs
/// PATCHBAY_BENCH_SMOKE=1 Benchmarks/.build/debug/CoreBenchmarks --filter "swap.*"
/// ```
///
/// Each executable's `benchmarks` closure ends with ``finishRegistration()``, and sizes its
/// workloads with ``workload(_:smoke:)``:
///
/// ```swift
/// let messages = BenchmarkRun.workload(1_000, smoke: 20)
/// ```
public enum BenchmarkRun {
  /// Whether this is a smoke run: `PATCHBAY_BENCH_SMOKE=1`.
  public static let isSmoke = ProcessInfo.processInfo.environment["PATCHBAY_BENCH_SMOKE"] == "1"

  /// The root package's checkout.
  public static let repositoryRoot = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

  /// The root package's build folder the benchmarks load plugins and run `patchbay` from:
  /// `.build/release` (`make bench` builds it), `.build/debug` in a smoke run.
  public static let rootBuild = repositoryRoot.appendingPathComponent(
    isSmoke ? ".build/debug" : ".build/release")

  /// What to do when the root's build is missing, for error messages.
  public static var buildHint: String {
    isSmoke
      ? "run `swift build` in the root first (make test does)"
      : "run `swift build -c release` in the root first (make bench does)"
  }

  /// A copy of the root build's misbehaving fixture named for `mode` (its behaviour is chosen
  /// by its file name), in a folder of this process's.
  public static func fixture(_ mode: String) -> String {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "patchbay-bench-\(getpid())")
    try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let copy = folder.appendingPathComponent("\(mode).so").path
    try? FileManager.default.removeItem(atPath: copy)
    do {
      try FileManager.default.copyItem(
        atPath: rootBuild.appendingPathComponent("libTestFixtureMisbehaving.so").path,
        toPath: copy)
    } catch {
      fatalError("\(error) — \(buildHint)")
    }
    return copy
  }

  /// `full` when measuring, `smoke` in a smoke run.
  public static func workload(_ full: Int, smoke: Int) -> Int {
    isSmoke ? smoke : full
  }

  /// Ends an executable's registration. In a smoke run, every benchmark runs one iteration,
  /// unscaled and without warm-up, and prints one line when it ends; the first that fails (a
  /// thrown error, which the package's runner would only note when run directly) exits 1 with
  /// its reason. A crash or `fatalError` ends the process on its own.
  public static func finishRegistration() {
    guard isSmoke else { return }
    let started = DispatchTime.now().uptimeNanoseconds
    for benchmark in Benchmark.benchmarks {
      benchmark.configuration.warmupIterations = 0
      benchmark.configuration.maxIterations = 1
      benchmark.configuration.scalingFactor = .one
      let teardown = benchmark.configuration.teardown
      benchmark.configuration.teardown = {
        try await teardown?()
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - started) / 1e9
        guard let reason = benchmark.failureReason else {
          report("ok: \(benchmark.name) (\(String(format: "%.1f", seconds)) s since start)")
          return
        }
        report("FAIL: \(benchmark.name): \(reason)")
        exit(1)
      }
    }
  }

  private static func report(_ line: String) {
    FileHandle.standardError.write(Data("bench-smoke: \(line)\n".utf8))
  }
}
