import Foundation
import Synchronization

/// The app's flight recorder, always on (docs/DEBUGGING.md, "From a crash to a test"): each
/// action is written to a ``FlightWriter`` before it is reduced, and every half
/// `[limits] flight-actions` actions (or 16 an instance, when that is more) a checkpoint of
/// the whole app (its swaps, screens, collections and every instance's state), so the file
/// always holds the last `flight-actions` or more from a checkpoint on. A crash, a hang or a
/// kill leaves it behind; an app that goes removes it. [app queue]
///
/// ```swift
/// let flight = FlightRecorder(app: "Counter", config: "/…/app.toml", actions: 10_000,
///                             plugins: ["dev.patchbay.counter": "/…/libCounter.so"]) { print($0) }
/// flight?.file   // "/tmp/patchbay-flight/Counter-4242-1.flight"
/// // patchbay repro /tmp/patchbay-flight/Counter-4242-1.flight
/// ```
package final class FlightRecorder {
  package let writer: FlightWriter
  /// The plugin file each feature came from when the app started: a checkpoint names the
  /// swaps since.
  package let startedWith: [String: String]
  /// Tells crash and hang reports which file to name (nil: none).
  private let nameInReports: @Sendable (String?) -> Void
  private let number: Int

  /// Where flight files go: `PATCHBAY_FLIGHT_DIR`, or `patchbay-flight` in the temporary folder.
  package static var folder: String {
    ProcessInfo.processInfo.environment["PATCHBAY_FLIGHT_DIR"]
      ?? FileManager.default.temporaryDirectory.appendingPathComponent("patchbay-flight").path
  }
  private static let made = Atomic<Int>(0)

  /// A recorder for the app `app`, whose config is the file `config`, of its last `actions`
  /// actions; nil when `actions` is 0 or the file cannot be made (`warn` says why: the app runs
  /// without one). `nameInReports` gives crash reports the file of the app that started last
  /// (a process has one report).
  package init?(
    app: String, config: String, actions: Int, plugins: [String: String],
    nameInReports: @escaping @Sendable (String?) -> Void, warn: (String) -> Void
  ) {
    guard actions > 0 else { return nil }
    let folder = Self.folder
    let number = Self.made.add(1, ordering: .relaxed).newValue
    let name = app.filter { $0.isLetter || $0.isNumber || $0 == "-" }
    let file = "\(folder)/\(name.isEmpty ? "app" : name)-\(getpid())-\(number).flight"
    do {
      try? FileManager.default.createDirectory(
        atPath: folder, withIntermediateDirectories: true)
      self.writer = try FlightWriter(
        file: file, config: URL(fileURLWithPath: config).standardizedFileURL.path,
        actions: actions)
    } catch {
      warn("\(error.description); the app runs without a flight recorder (PATCHBAY_FLIGHT_DIR)")
      return nil
    }
    self.startedWith = plugins
    self.nameInReports = nameInReports
    self.number = number
    Self.named.store(number, ordering: .relaxed)
    nameInReports(file)
  }

  deinit {
    if Self.named.compareExchange(expected: self.number, desired: 0, ordering: .relaxed).exchanged {
      self.nameInReports(nil)
    }
    self.writer.remove()
  }

  /// The number of the recorder whose file crash reports name (0: none).
  private static let named = Atomic<Int>(0)

  package var file: String { self.writer.file }

  /// Writes `action`, about to be reduced by the generation whose identity is `site`
  /// (`describe` says which, the first time: that generation, its path, feature id and plugin
  /// file), sent by `source` (its flight number); first a checkpoint when one is due
  /// (`checkpoint` makes it).
  @inline(__always)
  package func willReduce(
    _ action: [UInt8], site: ObjectIdentifier, source: UInt8,
    describe: () -> (owner: AnyObject, path: String, feature: String, plugin: String),
    checkpoint: () -> [FlightRecord]
  ) {
    if self.writer.needsCheckpoint(forAction: action.count) {
      self.writer.begin(checkpoint: checkpoint())
    }
    let number = self.writer.site(for: site, describe)
    action.withUnsafeBytes {
      self.writer.action(site: number, source: source, bytes: $0)
    }
  }

  /// Writes a change other than an action: a navigation step, a collection's, a swap.
  package func write(_ record: FlightRecord) {
    self.writer.write(record)
  }

  /// The features a copy was kept for (``keep(for:)``).
  private var keptFor: Set<String> = []

  /// Copies the file as it is now, beside it, the first time `feature` fails (eight features
  /// at most): the copy's last actions lead to the failure, and stay when the app goes on and
  /// the file turns over. Its path; nil when none was made.
  package func keep(for feature: String) -> String? {
    guard self.keptFor.count < 8, self.keptFor.insert(feature).inserted else { return nil }
    let copy = String(self.file.dropLast(".flight".count)) + "-\(feature).flight"
    try? FileManager.default.removeItem(atPath: copy)
    do {
      try FileManager.default.copyItem(atPath: self.file, toPath: copy)
    } catch {
      return nil
    }
    return copy
  }

  /// The action just written failed; `report` says how.
  package func failed(_ report: String) {
    self.writer.write(.failed)
    self.writer.write(.report(report))
  }
}
