import Foundation
import PatchbayLV2

/// The LV2 plugins built here for tests (Plugins/Fixtures), made into bundles lilv can load.
///
/// ```swift
/// let bundle = try LV2Fixtures.loadWorker()     // urn:patchbay:test:worker
/// defer { try? FileManager.default.removeItem(atPath: bundle) }
/// ```
public enum LV2Fixtures {
  /// The worker fixture (Plugins/Fixtures/LV2Worker): SwiftPM's `libTestFixtureLV2Worker.so`,
  /// built beside the running executable, in a temporary bundle with its manifest, loaded.
  /// Returns the bundle's folder, which can go once the plugin is loaded.
  public static func loadWorker() throws -> String {
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
