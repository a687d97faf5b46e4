@preconcurrency import Benchmark
import Foundation
import References

/// A growth curve: one benchmark per size, named so that `GrowthReport` can put the curve back
/// together from the exported results (`growth: <title> @ <size> <sizes>`), plot it and fit
/// its slope (docs/BENCHMARKS.md, "Growth").
///
/// ```swift
/// Growth("rows: send to one row, in process", per: "rows", sizes: Growth.decades(to: 100_000))
///   .register { size in Rows.store(count: size) } measure: { benchmark, store in
///     for _ in benchmark.scaledIterations { store.send(.rows(.element(id: 0, action: .increment))) }
///   }
/// ```
///
/// A smoke run (`make test`) measures the two smallest sizes once each, so every curve still
/// runs end to end; `make bench` measures all of them.
public struct Growth: Sendable {
  public let title: String
  /// What a size counts, plural: `rows`, `plugins`, `bytes`.
  public let unit: String
  public let sizes: [Int]

  public init(_ title: String, per unit: String, sizes: [Int]) {
    precondition(!title.contains("_") && !title.contains("/"), "a title without _ or /: \(title)")
    (self.title, self.unit) = (title, unit)
    self.sizes = BenchmarkRun.isSmoke ? Array(sizes.prefix(2)) : sizes
  }

  /// 1, 10, 100, … up to `largest`.
  public static func decades(from smallest: Int = 1, to largest: Int) -> [Int] {
    Array(sequence(first: smallest) { $0 < largest ? min($0 * 10, largest) : nil })
  }

  /// Per action: 1,000 of them a sample (so the clock's own cost does not swamp them), wall
  /// clock and mallocs, for up to two seconds a size.
  public static let perAction = Benchmark.Configuration(
    metrics: [.wallClock, .mallocCountTotal, .throughput], timeUnits: .nanoseconds,
    warmupIterations: 10, scalingFactor: .kilo, maxDuration: .seconds(2), maxIterations: 10_000)

  /// Per operation: one a sample, for up to two seconds a size (or 200 samples).
  public static let perOperation = Benchmark.Configuration(
    metrics: [.wallClock, .mallocCountTotal, .throughput], timeUnits: .nanoseconds,
    warmupIterations: 3, maxDuration: .seconds(2), maxIterations: 200)

  /// The benchmark's name at `size`.
  public func name(_ size: Int) -> String { "growth: \(self.title) @ \(size) \(self.unit)" }

  /// One benchmark a size: `setup` makes what the size needs (not measured), `measure` runs
  /// `benchmark.scaledIterations` of the operation on it.
  public func register<Subject>(
    configuration: Benchmark.Configuration = Growth.perAction,
    setup: @escaping @Sendable (Int) throws -> Subject,
    measure: @escaping @Sendable (Benchmark, Subject) throws -> Void
  ) {
    for size in self.sizes {
      let box = SubjectBox<Subject>()
      Benchmark(self.name(size), configuration: configuration) { benchmark in
        guard let subject = box.subject else { throw GrowthError("setup made nothing") }
        try measure(benchmark, subject)
      } setup: {
        // The benchmark package would skip a size whose setup throws, and say nothing.
        do {
          box.subject = try setup(size)
        } catch {
          fatalError("\(self.name(size)): its setup failed: \(error) — \(BenchmarkRun.buildHint)")
        }
      } teardown: {
        box.subject = nil
      }
    }
  }

  /// One benchmark a size that reports a custom figure: `figure` gives its value for the size
  /// (measured however it must be: a resident-memory delta, a count), once a sample.
  public func registerFigure(
    _ metric: String, samples: Int = 1, figure: @escaping @Sendable (Int) throws -> Int
  ) {
    let custom = BenchmarkMetric.custom(metric, polarity: .prefersSmaller, useScalingFactor: false)
    for size in self.sizes {
      Benchmark(
        self.name(size),
        configuration: .init(
          metrics: [custom], warmupIterations: 0, maxDuration: .seconds(60),
          maxIterations: samples)
      ) { benchmark in
        benchmark.measurement(custom, try figure(size))
      }
    }
  }
}

/// What a size's setup made, kept between setup, the samples and teardown.
final class SubjectBox<Subject>: @unchecked Sendable {
  var subject: Subject?
}

/// What a growth benchmark's setup or figure found wrong: it fails the run.
public struct GrowthError: Error, CustomStringConvertible {
  public let description: String
  public init(_ description: String) { self.description = description }
}

/// The bytes this process's heap has handed out and not had back (`reference_heap_in_use`):
/// what a thing costs in memory is the change in it, whatever blocks earlier work freed.
public func heapBytesInUse() -> Int {
  Int(reference_heap_in_use())
}

/// This process's resident memory, from /proc/<pid>/statm.
public func residentBytes() -> Int {
  BenchmarkRun.residentBytes(of: getpid())
}
