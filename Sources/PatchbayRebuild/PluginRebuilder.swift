import Foundation
import PatchbayHost
import PatchbayWatch

/// Rebuilds a plugin when its sources change: `patchbay run --watch --rebuild` (`make dev`).
///
/// ```swift
/// let rebuilder = PluginRebuilder(plugins: [".build/debug/libCounter.so"]) { print($0) }
/// rebuilder.start()
/// // save Plugins/Counter/Counter.swift  →  "rebuild: Counter in 1.2 s"
/// // then --watch sees libCounter.so finished and swaps it, state kept
/// ```
///
/// Each plugin file is traced to the package that builds it and the build folder it was built
/// in (``PluginOrigin``: a `patchbay new` package built by its make lies in the checkout's
/// `.build`), and to its product (`libCounter.so` → `Counter`). `swift package describe` says
/// which targets, and so which folders, make the product. inotify watches those folders (every
/// subfolder too); a source file saved there runs `swift build` in the package, into that
/// build folder: the whole package, as its make built it. SwiftPM re-plans the build (seconds)
/// whenever a build names another product, or other options, than the last one. Saves during
/// a build start one more build when it ends.
package final class PluginRebuilder: @unchecked Sendable {
  /// A product the app loaded, and what builds it.
  struct Product: Equatable {
    let name: String
    /// The package that builds it, and the build folder it is built in.
    let origin: PluginOrigin
    /// The folders of the targets the product is made of, with their subfolders.
    let folders: [String]
    var package: String { self.origin.package }
  }

  private(set) var products: [Product] = []
  private let plugins: [String]
  private let report: @Sendable (String) -> Void
  /// Told of a build that failed, with its report: the swap it was for will not come.
  private let failed: @Sendable (String) -> Void
  private let queue = DispatchQueue(label: "patchbay.plugin-rebuilder")
  private var events: FinishedFiles?
  /// Products to build next, and whether a build is running.
  private var pending: [Product] = []
  private var building = false

  /// File endings that count as source: a save of anything else is ignored.
  static let sourceExtensions: Set<String> = ["swift", "c", "h", "cpp", "hpp", "m", "s"]

  package init(
    plugins: [String], report: @escaping @Sendable (String) -> Void,
    failed: @escaping @Sendable (String) -> Void = { _ in }
  ) {
    self.plugins = plugins
    self.report = report
    self.failed = failed
  }

  /// Finds the products and starts watching their sources. Reports what it cannot rebuild.
  package func start() {
    var described: [String: PackageLayout?] = [:]
    for plugin in Set(self.plugins).sorted() {
      let file = URL(fileURLWithPath: plugin).lastPathComponent
      guard let origin = PluginOrigin(plugin: plugin) else {
        self.report(
          "rebuild: \(file) is not in a package's .build folder; rebuild it yourself (swift build)")
        continue
      }
      let name = String(file.dropFirst(3).dropLast(3))  // lib<Name>.so
      if described[origin.package] == nil {
        described[origin.package] = PackageLayout(package: origin.package)
      }
      guard let description = described[origin.package] ?? nil,
        let product = description.product(name, origin: origin)
      else {
        self.report("rebuild: \(origin.package) has no product \(name) (swift package describe)")
        continue
      }
      self.products.append(product)
    }
    let folders = self.products.flatMap(\.folders)
    self.events = FinishedFiles(folders: folders, queue: self.queue) { [weak self] paths in
      self?.saved(paths)
    }
    if !self.products.isEmpty {
      let names = self.products.map(\.name).joined(separator: ", ")
      self.report(
        self.events == nil
          ? "rebuild: no inotify here; rebuild \(names) yourself"
          : "rebuild: watching the sources of \(names)")
    }
  }

  package func stop() {
    self.queue.sync {
      self.events?.cancel()
      self.events = nil
    }
  }

  /// Source files were saved: queue the products they belong to. On the queue.
  private func saved(_ paths: [String]) {
    let sources = paths.filter {
      Self.sourceExtensions.contains(URL(fileURLWithPath: $0).pathExtension)
    }
    for product in self.products where !self.pending.contains(product) {
      let owns = sources.contains { path in
        product.folders.contains {
          URL(fileURLWithPath: path).deletingLastPathComponent().path == $0
        }
      }
      if owns { self.pending.append(product) }
    }
    self.buildNext()
  }

  /// Starts the next pending build, unless one is running: one build of a package (in one
  /// build folder) covers every product of it that waits. On the queue.
  private func buildNext() {
    guard !self.building, let first = self.pending.first else { return }
    let batch = self.pending.filter { $0.origin == first.origin }
    self.pending.removeAll { $0.origin == first.origin }
    self.building = true
    DispatchQueue.global().async {
      let (line, succeeded) = Self.build(batch)
      if !succeeded { self.failed(line) }
      self.report(line)
      self.queue.async {
        self.building = false
        self.buildNext()
      }
    }
  }

  /// Runs `swift build` in the package of `products` (one package, one build folder), as its
  /// plugins were built (``PluginOrigin``); one line saying how it went (the compiler's errors
  /// follow it when it failed), and whether it built.
  static func build(_ products: [Product]) -> (line: String, succeeded: Bool) {
    let names = products.map(\.name).joined(separator: ", ")
    let origin = products[0].origin
    let swift = ProcessInfo.processInfo.environment["SWIFT"] ?? "swift"
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = [swift] + origin.buildArguments
    process.environment = ProcessInfo.processInfo.environment.merging(origin.buildEnvironment) {
      _, new in new
    }
    process.currentDirectoryURL = URL(fileURLWithPath: origin.package)
    let output = Pipe()
    process.standardOutput = output
    process.standardError = output
    let start = ContinuousClock.now
    do {
      try process.run()
    } catch {
      return ("rebuild: \(names): cannot run swift build (\(error))", false)
    }
    let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    let elapsed = ContinuousClock.now - start
    let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    guard process.terminationStatus == 0 else {
      let errors = text.split(separator: "\n").filter { $0.contains("error:") }.prefix(10)
      return (
        "rebuild: \(names) failed; the running code stays\n" + errors.joined(separator: "\n"), false
      )
    }
    return ("rebuild: \(names) in \(String(format: "%.1f", seconds)) s", true)
  }
}
