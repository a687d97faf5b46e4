import Foundation
import PatchbayAppQueue
import PatchbayLoader

/// Keeps the state of an app's `persist = true` instances across runs (`[[feature]] persist`):
/// each one's snapshot after every action, written off the app queue, and read back when the
/// instance is created. One file per instance path in the app's state folder
/// (``AppConfig/stateFolder``), written atomically (``StateFile``).
///
/// ```swift
/// keeper.save(path: "practice", featureID: id, schema: 1, state: bytes)  // returns at once
/// keeper.flush()                                   // every save so far is on disk
/// keeper.load(path: "practice", feature: feature, limit: 1 << 24)   // nil: none kept
/// ```
///
/// Saves of one path coalesce: the writer writes the newest state it has, so a burst of
/// actions costs a few writes, and the app queue never waits for the disk. A file that is not a
/// whole state file, or that its feature cannot migrate, is set aside (renamed
/// `<name>.damaged-<time>`) with one line, and the instance starts from its initial state.
///
/// The writer is an executor of its own: what is waiting to be written is owned by it, so a
/// save is a job that files the state and, unless one is due, queues a write after itself.
///
/// `@unchecked Sendable`: what changes is owned by `writer`.
package final class StateKeeper: @unchecked Sendable {
  package let folder: URL
  private let writer: AppExecutor
  private let storage: ExecutorOwned<Waiting>
  private let report: @Sendable (String) -> Void

  /// What the writer owns.
  private struct Waiting {
    var states: [String: StateFile] = [:]
    var writeIsQueued = false
    /// The last write that failed, said once.
    var failure: String?
  }

  private var waiting: Waiting {
    unsafeAddress { self.storage.address }
    unsafeMutableAddress { self.storage.mutableAddress }
  }

  /// `report` gets each line about a file set aside or a write that failed.
  package init(folder: URL, report: @escaping @Sendable (String) -> Void) {
    self.folder = folder
    self.report = report
    self.writer = AppExecutor(name: "patchbay.state")
    self.storage = ExecutorOwned(Waiting(), by: self.writer, what: "StateKeeper's waiting states")
  }

  /// The file an instance path is kept in: the path with anything but letters, digits, `-`
  /// and `_` written `%XX`.
  package func file(for path: String) -> URL {
    var name = ""
    for byte in path.utf8 {
      let character = Character(Unicode.Scalar(byte))
      if character.isASCII && (character.isLetter || character.isNumber || byte == 45 || byte == 95)
      {
        name.append(character)
      } else {
        name += String(format: "%%%02X", byte)
      }
    }
    return self.folder.appendingPathComponent("\(name).state")
  }

  /// Queues the state of the instance at `path` to be written. [any thread]
  package func save(path: String, featureID: String, schema: UInt32, state: [UInt8]) {
    let file = StateFile(featureID: featureID, schema: schema, state: state)
    self.writer.enqueue {
      self.waiting.states[path] = file
      guard !self.waiting.writeIsQueued else { return }
      self.waiting.writeIsQueued = true
      // After every save queued so far: those coalesce into this write.
      self.writer.enqueue { self.writeWaiting() }
    }
  }

  /// Waits until every state queued so far is written.
  package func flush() {
    // A job after every save so far, and after the write each of those queued.
    self.writer.sync {}
    self.writer.sync {}
  }

  /// [writer] Writes every waiting state.
  private func writeWaiting() {
    let states = self.waiting.states
    self.waiting = Waiting(failure: self.waiting.failure)
    for (path, file) in states.sorted(by: { $0.key < $1.key }) {
      var failed: String?
      do {
        try FileManager.default.createDirectory(
          at: self.folder, withIntermediateDirectories: true)
        try file.write(to: self.file(for: path))
      } catch {
        failed = "cannot keep the state of \(path) in \(self.folder.path): \(error)"
      }
      if let failed, failed != self.waiting.failure { self.report(failed) }
      self.waiting.failure = failed
    }
  }

  /// The kept state of the instance at `path`, as bytes of `feature`'s schema (migrated when
  /// another schema wrote it); nil when none is kept, or when the file was set aside (said).
  package func load(path: String, feature: LoadedFeature, limit: Int) -> [UInt8]? {
    let url = self.file(for: path)
    guard FileManager.default.fileExists(atPath: url.path) else { return nil }
    let kept: StateFile
    do {
      kept = try StateFile(reading: url)
    } catch {
      self.setAside(url, path: path, because: "\(error)")
      return nil
    }
    guard kept.featureID == feature.id else {
      self.setAside(
        url, path: path,
        because: "it holds the state of \(kept.featureID), and \(path) is now \(feature.id)")
      return nil
    }
    guard kept.schema != feature.schemaVersion else { return kept.state }
    do {
      return try feature.migrate(from: kept.schema, state: kept.state, limit: limit)
    } catch {
      self.setAside(
        url, path: path,
        because: "its state is schema \(kept.schema) and \(feature.id) cannot migrate it to "
          + "\(feature.schemaVersion): \(error.reason)")
      return nil
    }
  }

  /// Sets the kept state of `path` aside because the plugin refused it at `create` (a state
  /// of the same schema it cannot read: a field added without a migration), in one line.
  package func refused(path: String, because reason: String) {
    self.setAside(self.file(for: path), path: path, because: "the plugin refused it: \(reason)")
  }

  /// Renames a file that cannot be loaded out of the way, and says so in one line.
  private func setAside(_ url: URL, path: String, because reason: String) {
    let stamp = Int(Date().timeIntervalSince1970)
    let aside = url.deletingPathExtension().appendingPathExtension("damaged-\(stamp)")
    let moved = rename(url.path, aside.path) == 0
    self.report(
      "the kept state of \(path) (\(url.path)) was not loaded: \(reason). "
        + (moved
          ? "It was moved to \(aside.lastPathComponent); \(path) starts from its initial state."
          : "It could not be moved (\(String(cString: strerror(errno)))); \(path) starts from "
            + "its initial state."))
  }
}
