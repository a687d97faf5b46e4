import Benchmark
import BenchmarkSupport
import Foundation
import PatchbayConfig
import PatchbayHost
import PatchbayScript

/// 1 KB to 100 MB.
let stateSizes = [1 << 10, 10 << 10, 100 << 10, 1 << 20, 10 << 20, 100 << 20]

/// An app of one feature whose state is `bytes` large: the C fixture's `huge`, whose `blob`
/// is grown to that size; `touch` changes one field of it (`count`). The limits are raised to
/// let it be that large.
final class HugeState: @unchecked Sendable {
  let app: AppRuntime
  /// Two builds of the feature (copies of one file) to swap between.
  let builds: [String]
  private var swaps = 0
  /// Files made for the app (a recording), removed with it.
  private var files: [URL] = []

  func keep(_ file: URL) { self.files.append(file) }

  init(bytes: Int) throws {
    self.builds = try ["a", "b"].map { build in
      let folder = try BenchmarkRun.pluginCopies(
        of: "libTestFixtureMisbehaving.so", count: 0, named: "huge-\(build)")
      let copy = folder.appendingPathComponent("huge.so")
      try FileManager.default.copyItem(
        at: BenchmarkRun.rootBuild.appendingPathComponent("libTestFixtureMisbehaving.so"),
        to: copy)
      return copy.path
    }
    let config = try AppConfig(
      parsing: AppConfig.oneFeature(
        "dev.patchbay.fixture-huge", of: self.builds[0], key: "huge",
        tables: "[limits]\nstate-bytes = \(1 << 30)\nview-bytes = \(1 << 30)"),
      file: "state.toml")
    let loader = config.loader(extraSearchPaths: [BenchmarkRun.rootBuild.path])
    self.app = try AppRuntime(
      config: config, registry: try config.loadPlugins(with: loader), loader: loader)
    try self.app.send("huge", "grow(bytes: \(bytes))")
  }

  deinit {
    for file in self.files { try? FileManager.default.removeItem(at: file) }
    for build in self.builds {
      try? FileManager.default.removeItem(
        at: URL(fileURLWithPath: build).deletingLastPathComponent())
    }
  }

  /// Swaps the feature to the other build: the state is kept across.
  func swap() throws {
    defer { self.swaps += 1 }
    _ = try self.app.swap("huge", to: self.builds[(self.swaps + 1) % 2])
  }

  /// Throws unless the state is still `bytes` large or more: a swap that lost it would
  /// measure the swap of an empty state.
  func expectKept(_ bytes: Int) throws {
    let kept = try self.app.instance("huge").snapshot().count
    guard kept >= bytes else {
      throw GrowthError("the state is \(kept) bytes after a swap, not \(bytes) or more")
    }
  }
}

let stateBenchmarks: @Sendable () -> Void = {
  // A one-field change to a state of S bytes, nothing watching.
  Growth("state: send a one-field change", per: "bytes", sizes: stateSizes)
    .register(configuration: Growth.perOperation) {
      try HugeState(bytes: $0)
    } measure: { benchmark, huge in
      for _ in benchmark.scaledIterations { try huge.app.send("huge", "touch") }
    }

  // The same with `--print-changes` (and `--record`, which writes what it prints): each
  // action's diff as lines.
  Growth("state: send a one-field change, changes printed", per: "bytes", sizes: stateSizes)
    .register(configuration: Growth.perOperation) {
      let huge = try HugeState(bytes: $0)
      huge.app.tracksStateChanges = true
      huge.app.onChange { change in
        if case .action(_, _, _, let diff) = change { blackHole(diff?.utf8.count) }
      }
      return huge
    } measure: { benchmark, huge in
      for _ in benchmark.scaledIterations { try huge.app.send("huge", "touch") }
    }

  // The same with `--record FILE`, as `patchbay run` records: each action taken down before
  // it is reduced, each change after (to a file in this process's temporary folder).
  Growth("state: send a one-field change, recorded", per: "bytes", sizes: stateSizes)
    .register(configuration: Growth.perOperation) {
      let huge = try HugeState(bytes: $0)
      let file = FileManager.default.temporaryDirectory.appendingPathComponent(
        "patchbay-growth-record-\(getpid())-\($0).jsonl")
      let recorder = try RunRecorder(file: file.path, config: "state.toml")
      recorder.recordActions(before: huge.app)
      huge.app.onChange(recorder.record)
      huge.keep(file)
      return huge
    } measure: { benchmark, huge in
      for _ in benchmark.scaledIterations { try huge.app.send("huge", "touch") }
    }

  // The instance's state as bytes (what a restart, DevTools and a swap start from).
  Growth("state: snapshot", per: "bytes", sizes: stateSizes)
    .register(configuration: Growth.perOperation) {
      try HugeState(bytes: $0)
    } measure: { benchmark, huge in
      let handle = try huge.app.instance("huge")
      for _ in benchmark.scaledIterations { blackHole(try handle.snapshot().count) }
    }

  // A swap to another build of the feature, its state carried across.
  Growth("state: swap, the state kept", per: "bytes", sizes: stateSizes)
    .register(configuration: Growth.perOperation) { bytes in
      let huge = try HugeState(bytes: bytes)
      try huge.swap()
      try huge.expectKept(bytes)
      return huge
    } measure: { benchmark, huge in
      for _ in benchmark.scaledIterations { try huge.swap() }
    }
}
