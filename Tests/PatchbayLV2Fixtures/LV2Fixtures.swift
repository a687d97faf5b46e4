import Foundation
import PatchbayLV2
import Synchronization

/// The LV2 plugins built here for tests (Plugins/Fixtures), made into bundles lilv can load.
///
/// ```swift
/// try LV2Fixtures.loadWorker()     // urn:patchbay:test:worker and urn:patchbay:test:tone
/// ```
public enum LV2Fixtures {
  /// The fixtures of Plugins/Fixtures/LV2Worker (SwiftPM's `libTestFixtureLV2Worker.so`, built
  /// beside the running executable) in a temporary bundle with their manifest, loaded once a
  /// process (lilv keeps the first plugin of a URI), removed when the process exits. Returns
  /// the bundle's folder.
  @discardableResult
  public static func loadWorker() throws -> String { try self.worker.get() }

  private static let worker = Result { () throws -> String in
    let folder = try Self.makeWorkerBundle()
    Self.folder.withLock { $0 = folder }
    atexit {
      if let folder = LV2Fixtures.folder.withLock({ $0 }) {
        try? FileManager.default.removeItem(atPath: folder)
      }
    }
    return folder
  }

  private static let folder = Mutex<String?>(nil)

  private static func makeWorkerBundle() throws -> String {
    let executable =
      (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? ""
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .deletingLastPathComponent().deletingLastPathComponent()
    return try LV2World.shared.loadBundle(
      manifest: root.appendingPathComponent("Plugins/Fixtures/LV2Worker/manifest.ttl").path,
      library: URL(fileURLWithPath: executable).deletingLastPathComponent()
        .appendingPathComponent("libTestFixtureLV2Worker.so").path,
      as: "worker.so")
  }
}
